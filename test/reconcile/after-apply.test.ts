/**
 * checkAfterApply: the list taken after apply's writes against what apply made of the plan's
 * list. Another writer shows as duplicates of created names or as new alerts in owned scopes.
 */
import { readLiveAlert, type LiveAlert } from '../../src/model';
import type { Account } from '../../src/plan/accounts';
import type { AccountPlan } from '../../src/plan/account-plan';
import { checkAfterApply, type ChangeResult } from '../../src/engine/apply';
import type { Change, Scope } from '../../src/plan/types';

const scope = (over: Partial<Scope> = {}): Scope => ({
  key: 's/networkcalc',
  stack: 's',
  providerKey: 'networkcalc',
  alias: null,
  baseUrl: null,
  tokenEnv: 'T',
  clientIdEnv: 'I',
  clientSecretEnv: 'S',
  ownership: 'exclusive',
  prefix: null,
  maxRetries: null,
  timeoutSeconds: null,
  ...over,
});

const live = (id: number, name: string): LiveAlert =>
  readLiveAlert({
    name,
    type: 'SPF Record',
    subtype: null,
    filter: 'validity',
    filter_value: '',
    target_type: 'domain',
    target_id: 1,
    id,
    user_id: 1,
    is_active: true,
    current_status: 'healthy',
    action: 'email',
    last_triggered_at: null,
    target_domain: null,
    target_subdomain: null,
  });

/** A plan of creates, and what apply made of them. */
function applied(
  over: Partial<Scope>,
  before: LiveAlert[],
  creates: string[],
  statuses: ChangeResult['status'][] = creates.map(() => 'ok'),
): [AccountPlan, ChangeResult[]] {
  const account: Account = {
    key: 'k',
    label: 'demo',
    baseUrl: 'http://x',
    identity: 'token',
    credentials: { baseUrl: 'http://x' },
    scopes: [scope(over)],
  };
  const changes = creates.map((name) => ({ action: 'create', name }) as unknown as Change);
  const plan: AccountPlan = {
    account,
    status: 'ok',
    error: null,
    changes,
    unchanged: 0,
    warnings: [],
    triggers: [],
    live: before,
    domains: null,
  };
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
