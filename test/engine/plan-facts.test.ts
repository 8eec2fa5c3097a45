/**
 * What an account plan carries for the code written from it (`drift --suggest`): the domains
 * list it fetched (`liveTargetNames`: also for live alerts the app could adopt) and its
 * declarations with the policies expanded and marked. Against the emulator over HTTP, with its
 * request counts: one list per account and at most one domains list, whatever is asked.
 */
import { NetworkCalcClient } from '../../src/client';
import { DEMO_ACCOUNT } from '../../src/emulator';
import { planAll, prepare, type PlanOptions } from '../../src/engine/plan-all';
import type { AccountPlan } from '../../src/plan/account-plan';
import { useEmulator } from '../helpers/emulator';
import { spfBaselinePolicy } from '../helpers/fixtures';
import { alert, stack } from '../cli/support';

const emulator = useEmulator();

const env = () => ({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });
const factory = (c: { baseUrl: string; token?: string }) =>
  new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token });

/** The app's one alert, by target id: its plan needs no names. */
const DECLARED = { A: alert({ name: 'declared' }) };

async function plan(
  json: Record<string, unknown>,
  options: PlanOptions,
): Promise<{ plan: AccountPlan; lists: number; domainLists: number }> {
  const c = emulator().control;
  await c.clearRequests();
  const [p] = await planAll(prepare([{ name: 'main', json }], env()), factory, options);
  return {
    plan: p,
    lists: await c.countRequests({ method: 'GET', path: '/api/alerts/' }),
    domainLists: await c.countRequests({ method: 'GET', path: '/api/domains/' }),
  };
}

/** A live alert the app does not declare, on example.org. */
async function handMade(): Promise<void> {
  await emulator().control.createAlert(DEMO_ACCOUNT.name, {
    name: 'hand-made',
    type: 'SPF Record',
    filter: 'validity',
    target: 'example.org',
  });
}

const domainNames = (p: AccountPlan) => p.domains?.map((d) => d.domain);

describe('liveTargetNames: the domains of live alerts to adopt, listed by the plan', () => {
  test('GIVEN targets by id and an undeclared live alert THEN the plan lists the domains once, and only when asked', async () => {
    await handMade();
    const json = stack({ provider: {}, alerts: DECLARED });
    const plain = await plan(json, {});
    expect(plain.plan.changes.map((c) => [c.reason, c.name])).toEqual([
      ['missing', 'declared'],
      ['undeclared', 'hand-made'],
    ]);
    expect([plain.plan.domains, plain.lists, plain.domainLists]).toEqual([null, 1, 0]);

    const asked = await plan(json, { liveTargetNames: true });
    expect(asked.plan.changes).toEqual(plain.plan.changes);
    expect(domainNames(asked.plan)).toEqual(['example.com', 'example.org']);
    expect([asked.lists, asked.domainLists]).toEqual([1, 1]);
  });

  test('GIVEN nothing to adopt (ids only, nothing undeclared) THEN no domains list', async () => {
    const asked = await plan(stack({ provider: {}, alerts: DECLARED }), { liveTargetNames: true });
    expect(asked.plan.changes.map((c) => c.reason)).toEqual(['missing']);
    expect([asked.plan.domains, asked.lists, asked.domainLists]).toEqual([null, 1, 0]);
  });

  test('GIVEN targets by name THEN the one domains list of the plan serves both', async () => {
    await handMade();
    const json = stack({
      provider: {},
      alerts: { A: alert({ name: 'declared', target_id: '${data.networkcalc_domain.apex.id}' }) },
      data: { networkcalc_domain: { apex: { name: 'example.com' } } },
    });
    const asked = await plan(json, { liveTargetNames: true });
    expect(asked.plan.status).toBe('ok');
    expect(domainNames(asked.plan)).toEqual(['example.com', 'example.org']);
    expect([asked.lists, asked.domainLists]).toEqual([1, 1]);
  });

  test('GIVEN an additive scope THEN the domains are listed with the alerts, in sync or not; a failed domains call leaves the plan standing', async () => {
    const json = stack({ provider: { ownership: 'additive' }, alerts: DECLARED });
    const asked = await plan(json, { liveTargetNames: true });
    expect(domainNames(asked.plan)).toEqual(['example.com', 'example.org']);
    expect([asked.lists, asked.domainLists]).toEqual([1, 1]);

    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_FOUND',
      match: { method: 'GET', path: '/api/domains' },
    });
    const failing = await plan(json, { liveTargetNames: true });
    expect(failing.plan.status).toBe('ok');
    expect(failing.plan.changes.map((c) => c.name)).toEqual(['declared']);
    expect([failing.plan.domains, failing.lists, failing.domainLists]).toEqual([null, 1, 1]);
  });
});

test("GIVEN a generate policy THEN the plan's declarations hold its alerts, marked fromPolicy, beside the app's own", async () => {
  const json = stack({ provider: {}, alerts: DECLARED });
  json['//'] = spfBaselinePolicy();
  const { plan: p, domainLists } = await plan(json, { liveTargetNames: true });
  expect(domainLists).toBe(1);
  expect(p.declared?.map((d) => [d.spec.name, d.path, d.fromPolicy ?? false])).toEqual([
    ['declared', 'main/A', false],
    ['SPF validity · example.org', 'main/Baseline', true],
  ]);
});
