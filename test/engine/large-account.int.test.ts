/**
 * An account with 200,000 live alerts plans, through the same functions the CLI uses
 * (prepare, planAll), with an in-process client: no stack overflow, every change accounted for.
 */
import { type LiveAlert } from '../../src/model';
import { planAll, prepare } from '../../src/engine/plan-all';
import { toJson } from '../../src/render/json';
import { totals } from '../../src/render/totals';
import type { AlertsApi } from '../../src/plan/types';
import { alert, stack } from '../cli/support';
import { manyLiveAlerts } from '../helpers/fixtures';

function apiWith(live: LiveAlert[]): { api: AlertsApi; calls: string[] } {
  const calls: string[] = [];
  const refuse = (what: string) => async () => {
    calls.push(what);
    throw new Error(`${what} must not be called while planning`);
  };
  return {
    calls,
    api: {
      listAlerts: async () => {
        calls.push('list');
        return live;
      },
      listDomains: refuse('listDomains'),
      createAlert: refuse('create'),
      updateAlert: refuse('update'),
      deleteAlert: refuse('delete'),
      triggerDomainReport: refuse('trigger'),
      triggerSubdomainReport: refuse('trigger'),
    },
  };
}

describe('planning a large account', () => {
  it('GIVEN 200,000 live alerts and 2 declared WHEN planned THEN one list call, 199,999 deletes, a mass-delete guard', async () => {
    const n = 200_000;
    const { api, calls } = apiWith(manyLiveAlerts(n));
    const prepared = prepare(
      [
        {
          name: 'big',
          json: stack({
            provider: {},
            alerts: { Keep: alert({ name: 'alert 5' }), Change: alert({ name: 'alert 6', filter_value: '192.0.2.7' }) },
          }),
        },
      ],
      { NETWORKCALC_TOKEN: 't', NETWORKCALC_BASE_URL: 'http://127.0.0.1:9' },
    );
    const started = Date.now();
    const [plan] = await planAll(prepared, () => api, { triggers: true });
    expect(plan.status).toBe('ok');
    expect(calls).toEqual(['list']);
    const t = totals([plan]);
    expect([t.create, t.update, t.delete, t.unchanged]).toEqual([0, 1, n - 2, 1]);
    expect(plan.warnings.map((w) => w.guard?.kind)).toEqual(['mass_delete']);
    // The JSON document is built without spreading the changes either.
    const json = toJson('plan', [plan]) as { accounts: Array<{ changes: unknown[]; guards: unknown[] }> };
    expect(json.accounts[0].changes.length).toBe(n - 1);
    expect(json.accounts[0].guards).toHaveLength(1);
    // Generous for a shared 2-core machine; about 2 s here.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
