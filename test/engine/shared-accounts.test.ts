import { type LiveAlert } from '../../src/model';
import type { AccountPlan } from '../../src/plan/account-plan';
import { guardSharedAccounts, sharedAccounts } from '../../src/engine/shared-accounts';
import type { Change, DeclaredAlert, Scope } from '../../src/plan/types';
import { account, accountPlan, liveAlert, scope, spec } from '../helpers/fixtures';

const live = (id: number, userId: number | null): LiveAlert =>
  liveAlert(id, { user_id: userId, target_domain: { id: 1, domain: 'example.com' } });

function planned(
  label: string,
  userIds: Array<number | null>,
  over: { baseUrl?: string; scope?: Partial<Scope> } = {},
): AccountPlan {
  const baseUrl = over.baseUrl ?? 'https://networkcalc.com';
  const change = { action: 'delete', name: 'x' } as unknown as Change;
  return accountPlan(
    account(label, {
      key: `${baseUrl} ${label}`,
      baseUrl,
      identity: `token ${label}`,
      credentials: { baseUrl },
      scopes: [scope({ stack: label, ...over.scope })],
    }),
    { changes: [change], unchanged: 1, live: userIds.map((u, i) => live(i + 1, u)) },
  );
}

const labels = (plans: AccountPlan[]) =>
  sharedAccounts(plans).map((g) => [g.plans.map((p) => p.account.label), g.userIds]);

describe('sharedAccounts', () => {
  it('groups accounts on one base URL whose live alerts share a user, transitively', () => {
    const plans = [planned('a', [1, 2]), planned('b', [2, 3]), planned('c', [3]), planned('d', [4]), planned('e', [])];
    expect(labels(plans)).toEqual([
      [
        ['a', 'b', 'c'],
        [2, 3],
      ],
    ]);
  });

  it('does not group across base URLs, nor on alerts without a user', () => {
    const plans = [planned('a', [1, null]), planned('b', [1], { baseUrl: 'http://127.0.0.1:1' }), planned('c', [null])];
    expect(labels(plans)).toEqual([]);
  });
});

describe('guardSharedAccounts', () => {
  const declared = (stack: string, name: string): DeclaredAlert => ({
    stack,
    logicalId: 'A',
    path: `${stack}/A`,
    scopeKey: `${stack}/networkcalc`,
    spec: spec(name),
    target: { kind: 'id', id: 1 },
  });

  it('fails every account of a group whose scopes overlap, and leaves the others; the plans themselves are not touched', () => {
    const plans = [
      planned('a', [7], { scope: { ownership: 'prefix', prefix: 'a-' } }),
      planned('b', [7]),
      planned('c', [8]),
    ];
    const failures = guardSharedAccounts(plans, [declared('a', 'a-www')]);
    expect(plans.map((p) => failures.has(p))).toEqual([true, true, false]);
    expect(failures.get(plans[0])).toEqual(failures.get(plans[1]));
    expect(failures.get(plans[0])).toMatchObject({ code: 'CONFIG_ERROR', retryable: false });
    expect(failures.get(plans[0])!.message).toContain(
      'the provider configurations of stacks a, b reach the same NetworkCalc account (user 7) with different credentials',
    );
    expect(plans.map((p) => [p.status, p.changes.length, p.unchanged])).toEqual([
      ['ok', 1, 1],
      ['ok', 1, 1],
      ['ok', 1, 1],
    ]);
  });

  it('keeps a group whose scopes are disjoint', () => {
    const plans = [
      planned('a', [7], { scope: { ownership: 'prefix', prefix: 'a-' } }),
      planned('b', [7], { scope: { ownership: 'additive' } }),
    ];
    expect(guardSharedAccounts(plans, [declared('a', 'a-www'), declared('b', 'b-www')]).size).toBe(0);
  });
});

describe('the block whose credentials were not its own', () => {
  const defaults = {
    tokenEnv: 'NETWORKCALC_TOKEN',
    clientIdEnv: 'NETWORKCALC_CLIENT_ID',
    clientSecretEnv: 'NETWORKCALC_CLIENT_SECRET',
  };
  const own = { tokenEnv: 'ACCT50_TOKEN', clientIdEnv: null, clientSecretEnv: null };

  it('GIVEN a block reading the defaults and one naming its own, one user THEN only the one reading the defaults fails', () => {
    const acct50 = planned('acct50', [50], { scope: own });
    const legacy = planned('legacy', [50], { scope: defaults });
    const failures = guardSharedAccounts([acct50, legacy], []);
    expect([...failures.keys()].map((p) => p.account.label)).toEqual(['legacy']);
    const message = failures.get(legacy)!.message;
    expect(message).toContain(
      'the provider configuration of stack legacy names no credentials, so it read the default NETWORKCALC_TOKEN / NETWORKCALC_CLIENT_ID / NETWORKCALC_CLIENT_SECRET, and they reach the NetworkCalc account (user 50) of acct50 (ACCT50_TOKEN), which names its own. Nothing is planned for legacy',
    );
  });

  it('GIVEN two blocks both naming their own variables, one user THEN both fail, each variable named', () => {
    const a = planned('acct07', [50], { scope: { ...own, tokenEnv: 'ACCT07_TOKEN' } });
    const b = planned('acct50', [50], { scope: own });
    const failures = guardSharedAccounts([a, b], []);
    expect([...failures.keys()].map((p) => p.account.label).sort()).toEqual(['acct07', 'acct50']);
    expect(failures.get(a)!.message).toContain(
      'acct07: token acct07 from ACCT07_TOKEN; acct50: token acct50 from ACCT50_TOKEN',
    );
    expect(failures.get(a)!.message).toContain("check which of these variables holds another account's credentials");
  });
});
