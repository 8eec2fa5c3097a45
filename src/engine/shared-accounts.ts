import {
  credentialHint,
  declaredNames,
  describeScope,
  overlappingScopes,
  readsDefaultCredentials,
  type DeclaredNames,
} from '../plan/accounts';
import { ENV } from '../accounts/environment';
import type { ErrorInfo } from '../plan/error-info';
import type { Account } from '../plan/accounts';
import type { DeclaredAlert } from '../plan/types';
import type { LiveAlert } from '../model';

/** What the shared-account check needs of a plan: its account and the list it saw. */
export interface ListedAccount {
  readonly account: Account;
  readonly live: readonly LiveAlert[];
}

/** A set of planned accounts that are one NetworkCalc account, and the users they share. */
export interface SharedAccount<P extends ListedAccount = ListedAccount> {
  plans: P[];
  userIds: number[];
}

/**
 * Planned accounts that are really one. Accounts are grouped by credentials before any call,
 * so two different credentials of one NetworkCalc account (a token and a client id, or two
 * tokens) look like two accounts. The list response tells them apart: an alert's `user_id`
 * is the user who created it, and two NetworkCalc accounts never share a user. Accounts on
 * one base URL whose live alerts share a user are one (transitively). An account without
 * live alerts (or whose list call failed) cannot be placed this way.
 */
export function sharedAccounts<P extends ListedAccount>(plans: readonly P[]): SharedAccount<P>[] {
  const parent = plans.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const users = plans.map(
    (p) => new Set(p.live.map((a) => a.user_id).filter((u): u is number => typeof u === 'number')),
  );
  const firstWithUser = new Map<string, number>();
  const seenTwice = new Set<string>();
  plans.forEach((p, i) => {
    for (const u of users[i]) {
      const key = `${p.account.baseUrl} ${u}`;
      const first = firstWithUser.get(key);
      if (first === undefined) {
        firstWithUser.set(key, i);
        continue;
      }
      seenTwice.add(key);
      parent[find(i)] = find(first);
    }
  });
  const groups = new Map<number, number[]>();
  plans.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()]
    .filter((members) => members.length > 1)
    .map((members) => {
      const userIds = new Set<number>();
      for (const i of members)
        for (const u of users[i]) if (seenTwice.has(`${plans[i].account.baseUrl} ${u}`)) userIds.add(u);
      return { plans: members.map((i) => plans[i]), userIds: [...userIds].sort((x, y) => x - y) };
    });
}

/**
 * The overlap check of `prepare`, over accounts found to be one only after their list calls.
 * When the scopes of such a group overlap, the accounts whose credentials were not their own
 * fail: those reading the NETWORKCALC_* defaults, when the others of the group name their own
 * variables (the defaults hold another account's credentials). The others go on, unless they
 * still overlap among themselves (then nobody can tell whose credentials are whose, and every
 * one of them fails, so that no write happens in any). The result maps each failed plan to
 * its error, with a message naming the stacks and what to do. Scopes that do not overlap are
 * fine: each one only touches its own names.
 */
export function guardSharedAccounts<P extends ListedAccount>(
  plans: readonly P[],
  alerts: readonly DeclaredAlert[],
): Map<P, ErrorInfo> {
  // The declared names by scope, gathered once and only when some accounts are one.
  let declared: DeclaredNames | undefined;
  return guardGroups(plans, () => (declared ??= declaredNames(alerts)));
}

function guardGroups<P extends ListedAccount>(plans: readonly P[], declared: () => DeclaredNames): Map<P, ErrorInfo> {
  const failures = new Map<P, ErrorInfo>();
  const fail = (p: P, message: string) => failures.set(p, { code: 'CONFIG_ERROR', message, retryable: false });
  for (const group of sharedAccounts(plans)) {
    const accounts = group.plans.map((p) => p.account);
    const overlaps = overlappingScopes(
      accounts.flatMap((a) => a.scopes),
      declared(),
    );
    if (!overlaps.length) continue;
    const users = group.userIds.length === 1 ? `user ${group.userIds[0]}` : `users ${group.userIds.join(', ')}`;
    const borrowed = group.plans.filter((p) => p.account.scopes.every(readsDefaultCredentials));
    const own = group.plans.filter((p) => !borrowed.includes(p));
    if (borrowed.length && own.length) {
      const owners = own.map((p) => `${p.account.label} (${variablesOf(p.account)})`).join(', ');
      for (const p of borrowed) {
        const stacks = [...new Set(p.account.scopes.map((s) => s.stack))].sort().join(', ');
        fail(
          p,
          `the provider configuration of stack ${stacks} names no credentials, so it read the default ${ENV.token} / ${ENV.clientId} / ${ENV.clientSecret}, ` +
            `and they reach the NetworkCalc account (${users}) of ${owners}, which names its own. Nothing is planned for ${p.account.label}; ` +
            `give stack ${stacks} its own credentials (NetworkcalcAccount tokenEnv, or clientIdEnv and clientSecretEnv; token_env, … in Terraform), ` +
            `or unset the default variables if they are not its account's`,
        );
      }
      // What is left may still be one account reached by several blocks naming their own.
      const rest = guardGroups(own, declared);
      for (const [p, error] of rest) failures.set(p, error);
      continue;
    }
    const stacks = [...new Set(accounts.flatMap((a) => a.scopes.map((s) => s.stack)))].sort();
    const message =
      `the provider configurations of stacks ${stacks.join(', ')} reach the same NetworkCalc account (${users}) with different credentials ` +
      `(${accounts.map((a) => `${a.label}: ${a.identity} from ${variablesOf(a)}`).join('; ')}), and their scopes overlap: ` +
      `${overlaps.map(({ a, b, why }) => `${describeScope(a)} and ${describeScope(b)}: ${why}`).join('; ')}. ` +
      `Nothing is planned for ${accounts.map((a) => a.label).join(' + ')}; check which of these variables holds another account's credentials, ` +
      `use one set of credentials for that account in every stack, or make the scopes disjoint: ownership "prefix" with distinct prefixes, or "additive" with distinct names`;
    for (const p of group.plans) fail(p, message);
  }
  return failures;
}

/** `ACCT07_TOKEN`: the variables an account's credentials came from. */
function variablesOf(account: Account): string {
  return [...new Set(account.scopes.map(credentialHint))].join('; ');
}
