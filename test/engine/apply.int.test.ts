/**
 * The plan is a value: planAll and applyAll against the emulator over HTTP. Apply reports what
 * it did and leaves the plan as it was, so one plan can be rendered, saved or applied alike.
 */
import { NetworkCalcClient } from '../../src/client';
import { applyAll } from '../../src/engine/apply';
import { sharedClients } from '../../src/engine/shared-clients';
import { liveDigest, readSavedPlan, savedPlanText } from '../../src/read/saved-plan';
import { revivePlan } from '../../src/engine/revive-plan';
import { planAll, prepare } from '../../src/engine/plan-all';
import { type Credentials } from '../../src/plan/types';
import { useEmulator } from '../helpers/emulator';
import { alertSpec, SPF_VALIDITY, spfBaselinePolicy } from '../helpers/fixtures';
import { alert, stack } from '../cli/support';

const emulator = useEmulator();

const env = () => ({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });

function prepared(alerts: Record<string, Record<string, unknown>>) {
  return prepare([{ name: 'main', json: stack({ provider: {}, alerts, triggers: { R: { domain_id: 1 } } }) }], env());
}

/** A factory that counts the clients it makes. */
function counting(): { factory: (c: Credentials) => NetworkCalcClient; made: () => number } {
  let made = 0;
  return {
    factory: (c) => {
      made++;
      return new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token });
    },
    made: () => made,
  };
}

describe('applyAll', () => {
  it('GIVEN a plan WHEN applied THEN the report has a result per change and trigger, and the plan is unchanged', async () => {
    const { factory } = counting();
    const [plan] = await planAll(prepared({ A: alert({ name: 'a' }), B: alert({ name: 'b' }) }), factory, {
      triggers: true,
    });
    const before = JSON.stringify(plan);
    const events: string[] = [];
    const report = await applyAll([plan], factory, {
      parallelism: 2,
      triggers: true,
      onEvent: (e) => events.push(e.kind),
    });
    expect(JSON.stringify(plan)).toBe(before);
    const outcome = report.get(plan)!;
    expect(outcome.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(outcome.triggerResults).toEqual([
      { status: 'ok', reportUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) },
    ]);
    expect(outcome.interference).toBeUndefined();
    expect(events.sort()).toEqual(['change', 'change', 'trigger']);
    // The same plan again: its list is the baseline, so the second run sees the first run's alerts as another writer's.
    const again = await applyAll([plan], factory, { parallelism: 2, triggers: false });
    expect(
      again
        .get(plan)!
        .interference?.duplicates.map((d) => d.name)
        .sort(),
    ).toEqual(['a', 'b']);
  });

  it('a failed account gets no outcome; errors carry retryable', async () => {
    const { factory } = counting();
    const p = prepared({ A: alert({ name: 'a' }) });
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_CREATED',
      match: { method: 'POST', path: '/api/alerts' },
    });
    const [plan] = await planAll(p, factory, { triggers: false });
    const report = await applyAll([plan], factory, { parallelism: 1 });
    expect(report.get(plan)!.results).toEqual([
      { status: 'failed', error: expect.objectContaining({ code: 'NOT_CREATED', retryable: false }) },
    ]);

    const [refused] = await planAll(
      prepare([{ name: 'main', json: stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } }) }], {
        ...env(),
        NETWORKCALC_TOKEN: 'nope',
      }),
      factory,
    );
    expect(refused).toMatchObject({
      status: 'error',
      error: { code: 'NOT_AUTHORIZED', retryable: false },
      changes: [],
    });
    expect((await applyAll([refused], factory, { parallelism: 1 })).has(refused)).toBe(false);
  });

  it('sharedClients makes one client per set of credentials, so plan and apply share it', async () => {
    const { factory, made } = counting();
    const shared = sharedClients(factory);
    const [plan] = await planAll(prepared({ A: alert({ name: 'a' }) }), shared, { triggers: false });
    await applyAll([plan], shared, { parallelism: 1 });
    expect(made()).toBe(1);
  });
});

describe('a saved plan', () => {
  it('round-trips to the same changes, with the live list of one fresh list call', async () => {
    const { factory } = counting();
    const [plan] = await planAll(prepared({ A: alert({ name: 'a' }) }), factory, { triggers: true });
    const saved = readSavedPlan(savedPlanText([plan], { triggers: true, shard: null }), 'plan.json');
    const [revived] = await revivePlan(saved, env(), factory);
    expect(revived.changes).toEqual(plan.changes);
    expect(revived.triggers).toEqual(plan.triggers);
    expect(revived.warnings).toEqual(plan.warnings);
    expect(revived.account).toEqual(plan.account);
    expect(liveDigest(revived.live)).toBe(liveDigest(plan.live));
    expect(revived.coverage).toBeUndefined();
  });

  it('of an account naming only its token: read back with no client variable, and the defaults still unread', async () => {
    const { factory } = counting();
    const stacks = [
      { name: 'main', json: stack({ provider: { token_env: 'MAIN_TOKEN' }, alerts: { A: alert({ name: 'a' }) } }) },
    ];
    const ownEnv = { MAIN_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url };
    const [plan] = await planAll(prepare(stacks, ownEnv), factory, {});
    const text = savedPlanText([plan], { triggers: false, shard: null });
    expect(JSON.parse(text).accounts[0].scopes[0]).toMatchObject({
      tokenEnv: 'MAIN_TOKEN',
      clientIdEnv: null,
      clientSecretEnv: null,
    });
    const saved = readSavedPlan(text, 'plan.json');
    expect((await revivePlan(saved, ownEnv, factory))[0].account.credentials).toMatchObject({
      token: 'demo-token',
      variables: { token: 'MAIN_TOKEN', clientId: null, clientSecret: null },
    });
    // The token gone, the default client credentials set: refused, not used in its place.
    const others = { NETWORKCALC_CLIENT_ID: 'demo-client', NETWORKCALC_CLIENT_SECRET: 'demo-secret' };
    await expect(revivePlan(saved, { ...others, NETWORKCALC_BASE_URL: emulator().url }, factory)).rejects.toThrow(
      'no credentials; set MAIN_TOKEN',
    );
  });

  it("keeps the coverage of the app's alert policies, to show it again at apply", async () => {
    const { factory } = counting();
    const json = stack({ provider: {} });
    json['//'] = spfBaselinePolicy();
    const [plan] = await planAll(prepare([{ name: 'main', json }], env()), factory, { triggers: true });
    expect(plan.coverage?.policies).toHaveLength(1);
    const saved = readSavedPlan(savedPlanText([plan], { triggers: true, shard: null }), 'plan.json');
    const [revived] = await revivePlan(saved, env(), factory);
    expect(revived.changes.map((c) => c.name)).toEqual(['SPF validity · example.org']);
    expect(revived.coverage).toEqual(plan.coverage);
  });

  it('refuses to save a plan with a failed account', async () => {
    const [failed] = await planAll(
      prepare([{ name: 'main', json: stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } }) }], {
        ...env(),
        NETWORKCALC_TOKEN: 'nope',
      }),
      counting().factory,
    );
    expect(() => savedPlanText([failed], { triggers: true, shard: null })).toThrow(
      'a plan with failed accounts cannot be saved (main)',
    );
  });
});

/**
 * The check after apply is one list that starts with the last write and runs alongside the
 * writes in flight (no round trip after them), unless a create's answer was lost: then it is
 * taken after the writes, where a re-send's duplicate would show.
 */
describe('the check after apply', () => {
  /** Times on the emulator's server: when each list arrived, when the last POST was answered. */
  function serverTimes() {
    const lists: number[] = [];
    let lastPostAnswered = 0;
    const onRequest = (req: { method?: string; url?: string }, res: { on(e: 'finish', f: () => void): void }) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/alerts')) lists.push(performance.now());
      if (req.method === 'POST' && req.url?.startsWith('/api/alerts'))
        res.on('finish', () => (lastPostAnswered = Math.max(lastPostAnswered, performance.now())));
    };
    emulator().app.server.on('request', onRequest);
    return {
      stop: () => {
        emulator().app.server.off('request', onRequest);
        return { lists, lastPostAnswered };
      },
    };
  }

  const many = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`A${i}`, alert({ name: `c${i}` })]));

  it('GIVEN 40 creates at parallelism 8 THEN the one list after the plan starts before the last create is answered', async () => {
    const { factory } = counting();
    const [plan] = await planAll(prepared(many(40)), factory, { triggers: false });
    await emulator().control.addFault({ kind: 'latency', latencyMs: 30, match: { path: '/api/' } });
    const times = serverTimes();
    const report = await applyAll([plan], factory, { parallelism: 8 });
    const { lists, lastPostAnswered } = times.stop();
    expect(report.get(plan)!.results.every((r) => r.status === 'ok')).toBe(true);
    expect(report.get(plan)!.interference).toBeUndefined();
    expect(lists).toHaveLength(1);
    expect(lists[0]!).toBeLessThan(lastPostAnswered);
  });

  it('GIVEN another writer added an alert in the owned scope after the plan THEN the overlapped check reports it', async () => {
    const { factory } = counting();
    const [plan] = await planAll(prepared(many(20)), factory, { triggers: false });
    await emulator().control.createAlert('demo', alertSpec({ name: 'from elsewhere', ...SPF_VALIDITY }));
    const report = await applyAll([plan], factory, { parallelism: 4 });
    expect(report.get(plan)!.interference?.unexpected.map((u) => u.name)).toEqual(['from elsewhere']);
  });

  it('GIVEN a create whose answer was lost THEN the check is a list taken after every write', async () => {
    const { factory } = counting();
    const [plan] = await planAll(prepared(many(24)), factory, { triggers: false });
    await emulator().control.addFault({ kind: 'latency', latencyMs: 20, match: { path: '/api/' } });
    await emulator().control.addFault({
      kind: 'drop',
      phase: 'after',
      match: { method: 'POST', path: '/api/alerts' },
      count: 1,
    });
    const times = serverTimes();
    const report = await applyAll([plan], factory, { parallelism: 8 });
    const { lists, lastPostAnswered } = times.stop();
    const outcome = report.get(plan)!;
    expect(outcome.results.filter((r) => r.status === 'adopted')).toHaveLength(1);
    expect(outcome.interference).toBeUndefined();
    expect(lists[lists.length - 1]!).toBeGreaterThan(lastPostAnswered);
    expect((await emulator().control.state()).accounts[0]!.alerts).toHaveLength(24);
  });
});
