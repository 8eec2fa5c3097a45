/**
 * Declared domains and subdomains provisioned from zero: planAll and applyAll against the
 * emulator over HTTP at its strictest for targets (creates answer without ids, a third of the
 * domain and subdomain creates lose their answer after the write, latency, a delete takes the
 * alerts of its target). Every account ends with each target once, and the second plan is empty.
 */
import { NetworkCalcClient } from '../../src/client';
import { applyAll } from '../../src/engine/apply';
import { planAll, prepare } from '../../src/engine/plan-all';
import { revivePlan } from '../../src/engine/revive-plan';
import { readSavedPlan, savedPlanText } from '../../src/read/saved-plan';
import type { Credentials } from '../../src/plan/types';
import type { Json } from '../../src/support/json';
import { useEmulator } from '../helpers/emulator';
import { alert, stack } from '../cli/support';

const ACCOUNTS = 50;
const names = Array.from({ length: ACCOUNTS }, (_, i) => `acct${i + 1}`);
const tokenEnv = (name: string) => `${name.toUpperCase()}_TOKEN`;

const emulator = useEmulator({ targetCreateOmitsId: true, targetDeleteTakesAlerts: true, randomSeed: 42 });

/** One stack per account: a domain, two subdomains, an alert on each of two targets, a report trigger. */
function stacks(): Array<{ name: string; json: Json }> {
  return names.map((name) => {
    const json = stack({
      provider: { token_env: tokenEnv(name) },
      alerts: {
        Apex: alert({ name: 'apex a record', target_id: '${networkcalc_domain.acme.id}' }),
        Www: alert({ name: 'www a record', target_type: 'subdomain', target_id: '${networkcalc_subdomain.www.id}' }),
      },
      triggers: { Report: { domain_id: '${networkcalc_domain.acme.id}' } },
    });
    (json.resource as Record<string, Json>).networkcalc_domain = { acme: { name: 'Acme.test' } };
    (json.resource as Record<string, Json>).networkcalc_subdomain = {
      www: { domain_id: '${networkcalc_domain.acme.id}', prefix: 'www' },
      api: { domain_id: '${networkcalc_domain.acme.id}', prefix: 'api' },
    };
    return { name, json };
  });
}

const env = () => ({
  NETWORKCALC_BASE_URL: emulator().url,
  ...Object.fromEntries(names.map((n) => [tokenEnv(n), `${n}-token`])),
});

const factory = (c: Credentials) => new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token });

describe('targets as code: from zero in one apply', () => {
  it(`provisions ${ACCOUNTS} empty accounts with 0 duplicates, within the request bound; the second plan is empty`, async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    await control.addFault({ kind: 'latency', latencyMs: 3 });
    await control.addFault({
      kind: 'drop',
      phase: 'after',
      rate: 0.3,
      match: { method: 'POST', path: '/api/domains' },
    });

    const plans = await planAll(prepare(stacks(), env()), factory, { triggers: true });
    expect(plans.map((p) => p.status)).toEqual(names.map(() => 'ok'));
    for (const p of plans) {
      expect(p.targetChanges?.map((c) => [c.targetType, c.name])).toEqual([
        ['domain', 'acme.test'],
        ['subdomain', 'www.acme.test'],
        ['subdomain', 'api.acme.test'],
      ]);
      // Alerts over targets not yet created plan as creates, on the placeholder ids.
      expect(p.changes.map((c) => [c.action, c.after!.target_id < 0])).toEqual([
        ['create', true],
        ['create', true],
      ]);
    }
    await control.clearRequests();

    const report = await applyAll(plans, factory, { parallelism: 8, triggers: true });
    for (const p of plans) {
      const o = report.get(p)!;
      expect(o.targetResults?.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
      expect(o.results.map((r) => r.status)).toEqual(['ok', 'ok']);
      expect(o.triggerResults.map((r) => r.status)).toEqual(['ok']);
      expect(o.interference).toBeUndefined();
    }

    // Each target once, each alert on the right one.
    const state = await control.state();
    for (const account of state.accounts) {
      expect(account.domains.map((d) => d.domain)).toEqual(['acme.test']);
      expect(account.subdomains.map((s) => s.prefix).sort()).toEqual(['api', 'www']);
      const www = account.subdomains.find((s) => s.prefix === 'www')!;
      expect(account.alerts.map((a) => [a.name, a.target_type, a.target_id]).sort()).toEqual([
        ['apex a record', 'domain', account.domains[0]!.id],
        ['www a record', 'subdomain', www.id],
      ]);
    }

    // The bound, per account: one POST per target (never re-sent: a dropped create committed,
    // and the list proves it), one domains list per target create (no create answers an id),
    // two alert POSTs, one alerts list after the writes, one report.
    // The faults did hit: some creates lost their answer after the write.
    const dropped = (await control.requests()).filter((r) => r.method === 'POST' && r.status === 0);
    expect(dropped.length).toBeGreaterThan(10);
    const count = (filter: Parameters<typeof control.countRequests>[0]) => control.countRequests(filter);
    expect(await count({ method: 'POST', pathPrefix: '/api/domains' })).toBe(3 * ACCOUNTS);
    expect(await count({ method: 'GET', path: '/api/domains' })).toBeLessThanOrEqual(3 * ACCOUNTS);
    expect(await count({ method: 'POST', pathPrefix: '/api/alerts' })).toBe(2 * ACCOUNTS);
    expect(await count({ method: 'GET', pathPrefix: '/api/alerts' })).toBeLessThanOrEqual(1 * ACCOUNTS);
    expect(await count({ method: 'POST', pathPrefix: '/api/reports' })).toBe(ACCOUNTS);
    expect(await count({})).toBeLessThanOrEqual(10 * ACCOUNTS);

    const again = await planAll(prepare(stacks(), env()), factory, { triggers: false });
    for (const p of again) {
      expect(p.targetChanges).toBeUndefined();
      expect(p.changes).toEqual([]);
    }
  });

  it('creates that answer without an id share the domains lists that prove them: 12 domains at parallelism 6 in at most 6 lists', async () => {
    const control = emulator().control;
    await control.seed({ accounts: [{ name: 'acct1', user_id: 1, tokens: [{ access_token: 'acct1-token' }] }] });
    await control.addFault({ kind: 'latency', latencyMs: 5 });
    const json = stack({ provider: { token_env: tokenEnv('acct1') }, alerts: {} });
    (json.resource as Record<string, Json>).networkcalc_domain = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`d${i}`, { name: `d${i}.test` }]),
    );
    const [p] = await planAll(prepare([{ name: 'acct1', json }], env()), factory, { triggers: false });
    expect(p!.targetChanges).toHaveLength(12);
    await control.clearRequests();
    const outcome = (await applyAll([p!], factory, { parallelism: 6 })).get(p!)!;
    expect(outcome.targetResults!.map((r) => [r.status, r.note])).toEqual(
      Array.from({ length: 12 }, () => ['ok', 'the answer gave no id; the domains list did']),
    );
    const ids = outcome.targetResults!.map((r) => r.id);
    expect(new Set(ids).size).toBe(12);
    const domains = (await control.state()).accounts[0]!.domains;
    expect(domains.map((d) => d.domain).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `d${i}.test`).sort());
    // Each create got the id of its own name.
    p!.targetChanges!.forEach((c, i) => expect(domains.find((d) => d.id === ids[i])!.domain).toBe(c.name));
    expect(await control.countRequests({ method: 'POST', pathPrefix: '/api/domains' })).toBe(12);
    // One list per create before they were shared.
    expect(await control.countRequests({ method: 'GET', path: '/api/domains' })).toBeLessThanOrEqual(6);
  });

  it('a saved plan carries the target changes: revived and applied, it provisions the same', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    const plans = await planAll(prepare(stacks().slice(0, 3), env()), factory, { triggers: false });
    const text = savedPlanText(plans, { triggers: false, shard: null });
    const saved = readSavedPlan(text, 'plan.json');
    expect(saved.accounts[0]!.target_changes?.map((c) => c.name)).toEqual([
      'acme.test',
      'www.acme.test',
      'api.acme.test',
    ]);
    // An edited placeholder is refused, as any edit of the file.
    expect(() => readSavedPlan(text.replace('"placeholderId": -1', '"placeholderId": 1'), 'plan.json')).toThrow();
    const revived = await revivePlan(saved, env(), factory);
    const report = await applyAll(revived, factory, { parallelism: 4 });
    for (const p of revived) expect(report.get(p)!.targetResults?.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    const state = await control.state();
    for (const account of state.accounts.slice(0, 3)) {
      expect(account.domains.map((d) => d.domain)).toEqual(['acme.test']);
      expect(account.alerts.every((a) => a.target_id > 0)).toBe(true);
      expect(account.alerts).toHaveLength(2);
    }
    expect(state.accounts.slice(3).every((a) => a.domains.length === 0)).toBe(true);
  });

  it('destroy deletes the alerts only and says the targets are left in place', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    const two = () => prepare(stacks().slice(0, 2), env());
    const plans = await planAll(two(), factory, { triggers: false });
    await applyAll(plans, factory, { parallelism: 4 });
    const destroy = await planAll(two(), factory, { triggers: false, mode: 'destroy' });
    for (const p of destroy) {
      expect(p.targetChanges).toBeUndefined();
      expect(p.changes.map((c) => c.action)).toEqual(['delete', 'delete']);
      expect(p.warnings.map((w) => w.message)).toContain(
        'the declared domains and subdomains (3) are left in place: destroy deletes alerts only, unless given --include-targets',
      );
    }
    await applyAll(destroy, factory, { parallelism: 4 });
    const state = await control.state();
    for (const account of state.accounts.slice(0, 2)) {
      expect(account.alerts).toEqual([]);
      expect(account.domains).toHaveLength(1);
      expect(account.subdomains).toHaveLength(2);
    }
  });

  it.each(['prefix', 'additive'] as const)(
    'a subdomain taken out of the app (%s ownership) is left in place, and the plan says so',
    async (ownership) => {
      const control = emulator().control;
      await control.seed({
        accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
      });
      const one = (drop: boolean) => {
        const [s] = stacks();
        const provider = (s!.json.provider as { networkcalc: Json[] }).networkcalc[0]!;
        provider.ownership = ownership;
        if (ownership === 'prefix') {
          provider.ownership_prefix = 'team-';
          for (const body of Object.values(
            (s!.json.resource as Record<string, Record<string, Json>>).networkcalc_alert!,
          ))
            body.name = `team-${String(body.name)}`;
        }
        if (drop) delete (s!.json.resource as Record<string, Record<string, Json>>).networkcalc_subdomain!.api;
        return prepare([s!], env());
      };
      await applyAll(await planAll(one(false), factory, { triggers: false }), factory, { parallelism: 4 });
      const [p] = await planAll(one(true), factory, { triggers: false });
      expect(p!.status).toBe('ok');
      expect(p!.targetChanges).toBeUndefined();
      expect(p!.changes).toEqual([]);
      expect(p!.warnings.map((w) => w.message)).toContain(
        '1 domain or subdomain of the account the app does not declare (api.acme.test) is left in place: ncalc deletes targets under exclusive ownership only',
      );
      const state = await control.state();
      expect(state.accounts[0]!.subdomains.map((s) => s.prefix).sort()).toEqual(['api', 'www']);
    },
  );

  it('an alert policy over a declared domain not yet created plans its alerts, and apply makes them on it', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    const one = () => {
      const [s] = stacks();
      s!.json['//'] = {
        networkcalc_alert_policies: {
          Baseline_1: {
            path: 'acct1/Baseline',
            mode: 'generate',
            targets: { include: ['acme.test'] },
            checks: [{ label: 'SPF validity', type: 'SPF Record', filter: 'validity' }],
          },
        },
      };
      return prepare([s!], env());
    };
    const [p] = await planAll(one(), factory, { triggers: false });
    expect(p!.status).toBe('ok');
    const generated = p!.changes.filter((c) => c.after?.type === 'SPF Record');
    expect(generated).toHaveLength(1);
    const made = p!.targetChanges![0]!;
    expect(made.action === 'create' && made.placeholderId).toBe(generated[0]!.after!.target_id);
    const report = await applyAll([p!], factory, { parallelism: 4 });
    expect(report.get(p!)!.results.every((r) => r.status === 'ok')).toBe(true);
    const account = (await control.state()).accounts[0]!;
    const spf = account.alerts.find((a) => a.type === 'SPF Record')!;
    expect([spf.target_type, spf.target_id]).toEqual(['domain', account.domains[0]!.id]);
    const [again] = await planAll(one(), factory, { triggers: false });
    expect(again!.changes).toEqual([]);
  });

  it('a create refused as already there is adopted from the list; a refusal of a name the account lacks is one sentence', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    const [plan] = await planAll(prepare(stacks().slice(0, 1), env()), factory, { triggers: false });
    // Between plan and apply, someone adds the domain: apply's POST is refused as a duplicate.
    const client = new NetworkCalcClient({ baseUrl: emulator().url, token: 'acct1-token' });
    const made = await client.addDomain('acme.test').catch(() => undefined);
    expect(made).toBeUndefined(); // no id in the answer (targetCreateOmitsId): the client refuses it as not the interface
    const [listed] = await client.listDomains();
    const report = await applyAll([plan!], factory, { parallelism: 4 });
    const [domain] = report.get(plan!)!.targetResults!;
    expect(domain).toMatchObject({ status: 'ok', id: listed!.id });
    expect(domain!.note).toContain('refused it as already there');
    expect((await control.state()).accounts[0]!.domains).toHaveLength(1);

    // A refusal (NOT_SAVED) while the account lacks the name: the change fails, naming it; nothing on it runs.
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    await control.addFault({ kind: 'reject', code: 'NOT_SAVED', match: { method: 'POST', path: '/api/domains' } });
    const [again] = await planAll(prepare(stacks().slice(0, 1), env()), factory, { triggers: false });
    const refused = await applyAll([again!], factory, { parallelism: 4 });
    const outcome = refused.get(again!)!;
    expect(outcome.targetResults![0]).toMatchObject({
      status: 'failed',
      error: {
        code: 'NOT_SAVED',
        message: expect.stringContaining('the service refused to create domain "acme.test" (NOT_SAVED)'),
      },
    });
    expect(outcome.targetResults!.slice(1).map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(outcome.results.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect((await control.state()).accounts[0]!.alerts).toEqual([]);
  });
});
