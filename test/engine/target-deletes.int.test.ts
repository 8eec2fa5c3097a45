/**
 * Deletes of domains and subdomains the app no longer declares, against the emulator over
 * HTTP at its strictest: one DELETE form, latency, a target delete refused (NOT_DELETED) while
 * an alert is on it, and a delete whose answer is lost after the write. Only exclusive
 * ownership deletes targets; every delete comes after the alerts on it.
 */
import { NetworkCalcClient } from '../../src/client';
import { applyAll } from '../../src/engine/apply';
import { accountRows, applyFailed, applyTotals } from '../../src/render/totals';
import { applySummary } from '../../src/render/text';
import { PLAIN } from '../../src/render/style';
import { planAll, prepare } from '../../src/engine/plan-all';
import { revivePlan } from '../../src/engine/revive-plan';
import { readSavedPlan, savedPlanText } from '../../src/read/saved-plan';
import { heldInState } from '../../src/read/terraform-state';
import type { Credentials } from '../../src/plan/types';
import type { Json } from '../../src/support/json';
import { useEmulator } from '../helpers/emulator';
import { alert, stack } from '../cli/support';

const emulator = useEmulator({ deleteForm: 'body', randomSeed: 7 });
const env = () => ({ NETWORKCALC_BASE_URL: emulator().url, ACCT_TOKEN: 'acct-token' });
const factory = (c: Credentials) => new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token });

type Ownership = 'exclusive' | 'prefix' | 'additive';

/**
 * The app: domains acme.test (subdomains www, api) and beta.test (subdomain mail), an alert on
 * each target. `dropBeta`: beta.test, its subdomain and its alerts are taken out of the app.
 */
function app(ownership: Ownership, dropBeta: boolean, extraDomains = 0): Array<{ name: string; json: Json }> {
  const n = (s: string) => (ownership === 'prefix' ? `team-${s}` : s);
  const alerts: Record<string, Json> = {
    Apex: alert({ name: n('apex'), target_id: '${networkcalc_domain.acme.id}' }),
    Www: alert({ name: n('www'), target_type: 'subdomain', target_id: '${networkcalc_subdomain.www.id}' }),
  };
  const domains: Record<string, Json> = { acme: { name: 'acme.test' } };
  const subdomains: Record<string, Json> = {
    www: { domain_id: '${networkcalc_domain.acme.id}', prefix: 'www' },
    api: { domain_id: '${networkcalc_domain.acme.id}', prefix: 'api' },
  };
  if (!dropBeta) {
    alerts.Beta = alert({ name: n('beta apex'), target_id: '${networkcalc_domain.beta.id}' });
    alerts.Mail = alert({
      name: n('beta mail'),
      target_type: 'subdomain',
      target_id: '${networkcalc_subdomain.mail.id}',
    });
    domains.beta = { name: 'beta.test' };
    subdomains.mail = { domain_id: '${networkcalc_domain.beta.id}', prefix: 'mail' };
    for (let i = 0; i < extraDomains; i++) domains[`x${i}`] = { name: `x${i}.test` };
  }
  const json = stack({ provider: { token_env: 'ACCT_TOKEN' }, alerts });
  const provider = (json.provider as { networkcalc: Json[] }).networkcalc[0]!;
  provider.ownership = ownership;
  if (ownership === 'prefix') provider.ownership_prefix = 'team-';
  (json.resource as Record<string, Json>).networkcalc_domain = domains;
  (json.resource as Record<string, Json>).networkcalc_subdomain = subdomains;
  return [{ name: 'app', json }];
}

async function provision(ownership: Ownership, extraDomains = 0): Promise<void> {
  await emulator().control.seed({ accounts: [{ name: 'acct', user_id: 1, tokens: [{ access_token: 'acct-token' }] }] });
  const plans = await planAll(prepare(app(ownership, false, extraDomains), env()), factory, { triggers: false });
  const report = await applyAll(plans, factory, { parallelism: 4 });
  expect([...report.values()][0]!.results.every((r) => r.status === 'ok')).toBe(true);
  await emulator().control.addFault({ kind: 'latency', latencyMs: 3 });
}

const account = async () => (await emulator().control.state()).accounts[0]!;

describe('target deletes', () => {
  it('exclusive: a domain taken out of the app is deleted after its alerts, its subdomain before it; a lost answer counts', async () => {
    await provision('exclusive');
    const [p] = await planAll(prepare(app('exclusive', true), env()), factory, { triggers: false });
    expect(p!.status).toBe('ok');
    expect(p!.changes.map((c) => [c.action, c.name]).sort()).toEqual([
      ['delete', 'beta apex'],
      ['delete', 'beta mail'],
    ]);
    expect(p!.targetChanges!.map((c) => [c.action, c.targetType, c.name])).toEqual([
      ['delete', 'subdomain', 'mail.beta.test'],
      ['delete', 'domain', 'beta.test'],
    ]);
    const domain = p!.targetChanges![1]!;
    expect(domain.action === 'delete' && domain.takes).toEqual({ alerts: 2, subdomains: 1 });
    // The first target DELETE (the subdomain's) is made, then its answer is lost: the retry's NOT_FOUND means done.
    await emulator().control.addFault({
      kind: 'drop',
      phase: 'after',
      count: 1,
      match: { method: 'DELETE', path: '/api/domains/' },
    });
    await emulator().control.clearRequests();
    const outcome = (await applyAll([p!], factory, { parallelism: 4 })).get(p!)!;
    expect(outcome.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(outcome.targetResults!.map((r) => [r.status, r.note])).toEqual([
      ['ok', 'already gone'],
      ['ok', undefined],
    ]);
    const log = (await emulator().control.requests()).filter((r) => r.method === 'DELETE');
    const order = log.map((r) =>
      r.path.startsWith('/api/alerts') ? 'alert' : r.path.includes('/subdomains/') ? 'subdomain' : 'domain',
    );
    // Alerts first (refused otherwise: this emulator keeps alerts and answers NOT_DELETED), then
    // the subdomain (sent twice: its first answer was lost), then the domain.
    expect(order.filter((x, i) => x !== order[i - 1])).toEqual(['alert', 'subdomain', 'domain']);
    expect(order.filter((x) => x === 'subdomain')).toHaveLength(2);
    const a = await account();
    expect(a.domains.map((d) => d.domain)).toEqual(['acme.test']);
    expect(a.subdomains.map((s) => s.prefix).sort()).toEqual(['api', 'www']);
    expect(a.alerts.map((x) => x.name).sort()).toEqual(['apex', 'www']);
    const [again] = await planAll(prepare(app('exclusive', true), env()), factory, { triggers: false });
    expect(again!.targetChanges).toBeUndefined();
    expect(again!.changes).toEqual([]);
  });

  it('a subdomain delete the service refuses fails the run: counted, named in the account row and the totals; its domain not run, both kept', async () => {
    await provision('exclusive');
    const [p] = await planAll(prepare(app('exclusive', true), env()), factory, { triggers: false });
    const beta = (await account()).domains.find((d) => d.domain === 'beta.test')!;
    // Refused (nothing is changed) however often it is sent.
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_DELETED',
      match: { method: 'DELETE', path: `/api/domains/${beta.id}/subdomains/` },
    });
    const report = await applyAll([p!], factory, { parallelism: 4 });
    const outcome = report.get(p!)!;
    expect(outcome.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(outcome.targetResults!.map((r) => r.status)).toEqual(['failed', 'skipped']);
    expect(applyFailed(report)).toBe(true);
    expect(applyTotals([p!], report).targets).toEqual({ created: 0, deleted: 0, failed: 1, notRun: 1 });
    const [row] = accountRows('apply', [p!], report);
    expect(row).toMatchObject({ delete: 2, failed: 1, status: 'failed' });
    expect(row!.reason).toMatch(/^delete subdomain "mail\.beta\.test": /);
    const text = applySummary([p!], report, PLAIN);
    expect(text).toContain('Apply finished with errors: 0 created, 0 updated, 2 deleted, 0 failed.');
    expect(text).toContain('Domains and subdomains: 0 created, 0 deleted, 1 failed, 1 not run.');
    const a = await account();
    expect(a.domains.map((d) => d.domain).sort()).toEqual(['acme.test', 'beta.test']);
    expect(a.subdomains.map((x) => x.prefix).sort()).toEqual(['api', 'mail', 'www']);
  });

  it.each(['prefix', 'additive'] as const)(
    '%s: a domain taken out of the app is left in place, with the warning',
    async (ownership) => {
      await provision(ownership);
      const [p] = await planAll(prepare(app(ownership, true), env()), factory, { triggers: false });
      expect(p!.status).toBe('ok');
      expect(p!.targetChanges).toBeUndefined();
      expect(p!.warnings.map((w) => w.message)).toContain(
        '2 domains or subdomains of the account the app does not declare (beta.test, mail.beta.test) are left in place: ncalc deletes targets under exclusive ownership only',
      );
      await applyAll([p!], factory, { parallelism: 4 });
      expect((await account()).domains.map((d) => d.domain).sort()).toEqual(['acme.test', 'beta.test']);
    },
  );

  it('refuses the delete when an alert the plan keeps targets the domain, naming it; nothing of the account is written', async () => {
    await provision('exclusive');
    const [s] = app('exclusive', true);
    const a = await account();
    const beta = a.domains.find((d) => d.domain === 'beta.test')!;
    // The app keeps an alert on beta.test by its id, but no longer declares the domain.
    (s!.json.resource as Record<string, Record<string, Json>>).networkcalc_alert!.Kept = alert({
      name: 'kept',
      target_id: beta.id,
    });
    await emulator().control.clearRequests();
    const [p] = await planAll(prepare([s!], env()), factory, { triggers: false });
    expect(p!.status).toBe('error');
    expect(p!.error!.code).toBe('TARGET_IN_USE');
    expect(p!.error!.message).toContain(
      `domain beta.test (id ${beta.id}) is not declared, but 1 alert the plan keeps targets it: "kept"`,
    );
    await applyAll([p!], factory, { parallelism: 4 });
    expect((await emulator().control.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('refuses the delete when a Terraform state of the app holds the domain', async () => {
    await provision('exclusive');
    const beta = (await account()).domains.find((d) => d.domain === 'beta.test')!;
    const state = {
      version: 4,
      resources: [
        {
          mode: 'managed',
          type: 'networkcalc_domain',
          name: 'beta',
          provider: 'provider["registry.terraform.io/networkcalc/networkcalc"]',
          instances: [{ attributes: { id: beta.id, name: 'beta.test' } }],
        },
      ],
    };
    // Read the way ncalc reads a state file: the domain resource is held, as an alert would be.
    const held = heldInState(JSON.stringify(state), 'cdktf.out/stacks/app/terraform.tfstate', 'app');
    expect(held.map((h) => [h.kind, h.address, h.id])).toEqual([['domain', 'networkcalc_domain.beta', beta.id]]);
    const [p] = await planAll({ ...prepare(app('exclusive', true), env()), held }, factory, { triggers: false });
    expect(p!.status).toBe('error');
    expect(p!.error!.code).toBe('TARGET_IN_USE');
    expect(p!.error!.message).toContain(
      `domain beta.test (id ${beta.id}) is not declared, but the Terraform state cdktf.out/stacks/app/terraform.tfstate (stack app) holds it (networkcalc_domain.beta)`,
    );
  });

  it('the mass-delete guard counts target deletes', async () => {
    await provision('exclusive', 12);
    const [p] = await planAll(prepare(app('exclusive', true), env()), factory, { triggers: false });
    expect(p!.status).toBe('ok');
    const guard = p!.warnings.find((w) => w.guard)!;
    // 2 alerts and 14 targets (beta.test, mail, x0..x11) of 4 alerts and 17 targets.
    expect(guard.guard).toEqual({
      kind: 'mass_delete',
      flag: '--allow-mass-delete',
      deletes: 16,
      owned: 21,
      targets: 14,
    });
    expect(guard.message).toContain('apply would delete 16 of the 21 live alerts or targets its scope owns');
  });

  it('a saved plan with target deletes round-trips and applies', async () => {
    await provision('exclusive');
    const prepared = prepare(app('exclusive', true), env());
    const plans = await planAll(prepared, factory, { triggers: false });
    const text = savedPlanText(plans, { triggers: false, shard: null });
    // An edited delete id is refused, as any edit of the file.
    expect(() =>
      readSavedPlan(text.replace(/"id": \d+,\n(\s*)"domainId": null/, '"id": -3,\n$1"domainId": null'), 'plan.json'),
    ).toThrow();
    const revived = await revivePlan(readSavedPlan(text, 'plan.json'), env(), factory);
    expect(revived[0]!.targetChanges).toEqual(plans[0]!.targetChanges);
    const outcome = (await applyAll(revived, factory, { parallelism: 4 })).get(revived[0]!)!;
    expect(outcome.targetResults!.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect((await account()).domains.map((d) => d.domain)).toEqual(['acme.test']);
  });

  it('destroy --include-targets is refused while an alert outside the plan is on a declared target', async () => {
    await provision('additive');
    const acme = (await account()).domains.find((d) => d.domain === 'acme.test')!;
    // An alert added by hand on acme.test: additive destroy does not delete it, so neither the domain.
    const client = new NetworkCalcClient({ baseUrl: emulator().url, token: 'acct-token' });
    const [live] = await client.listAlerts();
    await client.createAlert({ ...live!, name: 'by hand', target_type: 'domain', target_id: acme.id } as never);
    const [p] = await planAll(prepare(app('additive', false), env()), factory, {
      triggers: false,
      mode: 'destroy',
      includeTargets: true,
    });
    expect(p!.status).toBe('error');
    expect(p!.error!.message).toContain(
      `domain acme.test (id ${acme.id}) is declared (destroy --include-targets), but 1 alert the plan keeps targets it: "by hand"`,
    );
    // Without the flag, destroy plans the alerts only and says the targets stay.
    const [q] = await planAll(prepare(app('additive', false), env()), factory, { triggers: false, mode: 'destroy' });
    expect(q!.status).toBe('ok');
    expect(q!.targetChanges).toBeUndefined();
  });

  it('refuses to delete an undeclared domain a declared subdomain is created under (by its id)', async () => {
    await provision('exclusive');
    const beta = (await account()).domains.find((d) => d.domain === 'beta.test')!;
    const [s] = app('exclusive', true);
    (s!.json.resource as Record<string, Record<string, Json>>).networkcalc_subdomain!.fresh = {
      domain_id: beta.id,
      prefix: 'fresh',
    };
    await emulator().control.clearRequests();
    const [p] = await planAll(prepare([s!], env()), factory, { triggers: false });
    expect(p!.status).toBe('error');
    expect(p!.error!.message).toContain(
      `domain beta.test (id ${beta.id}) is not declared, but its subdomain fresh.beta.test is, and deleting the domain would delete it`,
    );
    await applyAll([p!], factory, { parallelism: 4 });
    expect((await emulator().control.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
