/**
 * checkAfterApply: the list taken after apply's writes against what apply made of the plan's
 * list. Another writer shows as duplicates of created names or as new alerts in owned scopes.
 */
import { type LiveAlert } from '../../src/model';
import type { AccountPlan } from '../../src/plan/account-plan';
import { checkAfterApply, type ChangeResult } from '../../src/engine/apply';
import type { Change, Scope } from '../../src/plan/types';
import { account, accountPlan, liveAlert, scope, SPF_VALIDITY } from '../helpers/fixtures';

const live = (id: number, name: string): LiveAlert => liveAlert(id, { name, ...SPF_VALIDITY });

/** A plan of creates, and what apply made of them. */
function applied(
  over: Partial<Scope>,
  before: LiveAlert[],
  creates: string[],
  statuses: ChangeResult['status'][] = creates.map(() => 'ok'),
): [AccountPlan, ChangeResult[]] {
  const changes = creates.map((name) => ({ action: 'create', name }) as unknown as Change);
  const plan = accountPlan(account('demo', { scopes: [scope(over)] }), { changes, live: before });
  return [plan, statuses.map((status) => ({ status }))];
}

describe('checkAfterApply', () => {
  test('GIVEN exactly what apply made THEN nothing to report', () => {
    const [plan, results] = applied({}, [live(1, 'old')], ['a', 'b']);
    expect(checkAfterApply(plan, results, [live(1, 'old'), live(2, 'a'), live(3, 'b')])).toBeUndefined();
  });

  test('GIVEN a created name twice THEN a duplicate with both ids, and the message says to serialise runs', () => {
    const [plan, results] = applied({}, [], ['a']);
    const found = checkAfterApply(plan, results, [live(2, 'a'), live(5, 'a')]);
    expect(found?.duplicates).toEqual([{ name: 'a', ids: [2, 5] }]);
    expect(found?.message).toContain('runs against one account must be serialised');
  });

  test('GIVEN a new alert in an exclusive scope that apply did not create THEN it is unexpected; in an additive scope it is not ours', () => {
    expect(checkAfterApply(...applied({}, [], ['a']), [live(2, 'a'), live(3, 'stranger')])?.unexpected).toEqual([
      { name: 'stranger', id: 3 },
    ]);
    expect(
      checkAfterApply(...applied({ ownership: 'additive' }, [], ['a']), [live(2, 'a'), live(3, 'stranger')]),
    ).toBeUndefined();
  });

  test('GIVEN a prefix scope THEN only new alerts under the prefix count; a failed create is not expected', () => {
    const [plan, results] = applied(
      { ownership: 'prefix', prefix: 'team-' },
      [],
      ['team-a', 'team-b'],
      ['ok', 'failed'],
    );
    const found = checkAfterApply(plan, results, [live(2, 'team-a'), live(3, 'other'), live(4, 'team-b')]);
    expect(found?.unexpected).toEqual([{ name: 'team-b', id: 4 }]);
  });
});
