/**
 * planScope at the size of the biggest accounts: 200,000 live alerts. An integration suite for
 * its size (seconds of CPU); figures are in bench/RESULTS.md ("`ncalc` at scale").
 */
import { planScope } from '../../src/plan/plan';
import { declared, manyLiveAlerts, scope } from '../helpers/fixtures';

it('plans 200,000 live alerts: no stack overflow, no copy of the list, not quadratic', () => {
  const n = 200_000;
  const have = manyLiveAlerts(n);
  const want = [declared('alert 7', { filter_value: '192.0.2.9' }), declared('brand new')];
  const started = Date.now();
  const plan = planScope(scope(), want, have);
  const count = (action: string) => plan.changes.filter((c) => c.action === action).length;
  // Numbers only: a failing matcher would print 200,000 changes.
  expect([count('update'), count('create'), count('delete')]).toEqual([1, 1, n - 1]);
  expect(plan.changes[0]).toMatchObject({ action: 'update', name: 'alert 7' });
  expect(plan.warnings[0].guard).toEqual({
    kind: 'mass_delete',
    flag: '--allow-mass-delete',
    deletes: n - 1,
    owned: n,
  });
  // Not a speed figure (about 1 s on a quiet 2-core machine, 26 s at a load of 16): a bound
  // that only a quadratic plan (hours at this size) exceeds, whatever else the machine runs.
  expect(Date.now() - started).toBeLessThan(120_000);
}, 180_000);
