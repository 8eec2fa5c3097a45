import { createHash } from 'node:crypto';
import { isRefused, type Problem, type Refused } from '../model/problems';
import { claims } from '../accounts/account-rules';
import { DEFAULT_BASE_URL, baseUrlProblem, normalizeBaseUrl, redactUrl } from '../accounts/base-url';
import { ENV, environmentSnapshot } from '../accounts/environment';
import { groupBy } from '../support/group-by';
import type { Credentials, DeclaredAlert, Scope } from './types';

/** One account of the service, reached with one set of credentials, claimed by one or more scopes. */
export interface Account {
  /**
   * Stable key: the base URL and the first (by key) of its scopes' `<stack>/<provider>`. Never
   * derived from a credential, so a token rotation keeps the account's shard, concurrency
   * group and drift report marker (docs/architecture.md, "A stable account identity").
   */
  key: string;
  /** Short name for output: the provider aliases of its scopes, or their stack names. */
  label: string;
  baseUrl: string;
  /** `token sha256:1a2b3c4d` or `client <id>`: identifies without revealing a secret. */
  identity: string;
  credentials: Credentials;
  scopes: Scope[];
  /**
   * Why the account cannot be reached (its credentials are missing): it fails alone, and the
   * other accounts of the run go on.
   */
  problem?: string;
}

export interface AccountResolution {
  /** Every account, those whose credentials are missing (with a `problem`) included. */
  accounts: Account[];
  /**
   * Base URLs that are not one (they may hold a secret, so the scope makes no account and
   * no output shows the URL): a problem of the app, not of one account.
   */
  problems: Problem[];
}

export function tokenFingerprint(token: string): string {
  return fingerprintOf(tokenDigest(token));
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');
const fingerprintOf = (digest: string) => `sha256:${digest.slice(0, 8)}`;

/** A scope's key, `<stack>/<provider key>`: unique in a run. */
export function scopeKey(stack: string, providerKey: string): string {
  return `${stack}/${providerKey}`;
}

/**
 * An account's stable key: its base URL and the first, by name, of its scopes' keys, nothing a
 * credential changes. Shards, concurrency groups and drift report markers follow it.
 */
export function accountKey(baseUrl: string, scopeKeys: readonly string[]): string {
  return `${baseUrl} ${[...scopeKeys].sort()[0]}`;
}

/** A variable's trimmed value; unset and blank are the same. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

/** A scope's base URL: --base-url, else the provider's base_url, else NETWORKCALC_BASE_URL, else the default. */
function scopeBaseUrl(
  scope: Scope,
  fromEnv: () => string | undefined,
  override: string | undefined,
): { baseUrl: string; urlProblem: string | null } {
  const [raw, source] =
    override !== undefined
      ? [override, '--base-url']
      : scope.baseUrl !== null
        ? [scope.baseUrl, 'base_url of the provider']
        : [fromEnv() ?? DEFAULT_BASE_URL, ENV.baseUrl];
  const baseUrl = normalizeBaseUrl(raw);
  return { baseUrl, urlProblem: baseUrlProblem(baseUrl, source) };
}

/**
 * `identity`: what output shows; `same`: what tells two credentials apart when grouping, the
 * whole digest (the shown 32 bits collide about once in a hundred fleets of 10,000 tokens).
 */
type Identified = { identity: string; credentials: Credentials; same?: string };
type Identify = (scope: Scope, baseUrl: string) => Identified | Refused;

/**
 * Groups scopes into accounts; a scope whose base URL is not one is a problem instead. Scopes
 * are one account when they have one base URL and either read the same credential variables
 * (whatever they hold) or hold credentials with the same identity (`identify`: a token's
 * hash, a client id). Scopes whose credentials are missing make an account with a `problem`,
 * named by their stacks, so that it fails alone. The key is the base URL and the first scope
 * key (`<stack>/<provider>`) by name: nothing a credential changes.
 */
function groupScopes(
  scopes: Scope[],
  env: NodeJS.ProcessEnv,
  baseUrlOverride: string | undefined,
  identify: Identify,
): AccountResolution {
  const problems: Problem[] = [];
  // Read once: every lookup in the process's environment walks all of it (10,000 tokens in a fleet).
  let envBaseUrl: { value: string | undefined } | undefined;
  const fromEnv = () => (envBaseUrl ??= { value: envValue(env, ENV.baseUrl) }).value;
  const entries = scopes.flatMap((scope) => {
    const { baseUrl, urlProblem } = scopeBaseUrl(scope, fromEnv, baseUrlOverride);
    if (urlProblem) {
      problems.push({
        path: `stack ${scope.stack}, provider ${scope.providerKey}`,
        field: 'base_url',
        value: redactUrl(baseUrl), // a base URL may carry user info or a token in its query
        message: urlProblem,
      });
      return [];
    }
    return [{ scope, baseUrl, found: identify(scope, baseUrl) }];
  });
  const parent = entries.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const firstWith = new Map<string, number>();
  const join = (key: string, i: number) => {
    const first = firstWith.get(key);
    if (first === undefined) firstWith.set(key, i);
    else parent[find(i)] = find(first);
  };
  entries.forEach(({ scope, baseUrl, found }, i) => {
    join(`variables ${baseUrl} ${scope.tokenEnv} ${scope.clientIdEnv} ${scope.clientSecretEnv}`, i);
    if (!isRefused(found)) join(`identity ${baseUrl} ${found.same ?? found.identity}`, i);
  });
  const groups = groupBy(
    entries.map((_, i) => i),
    (i) => find(i),
  );

  const accounts: Account[] = [];
  for (const members of groups.values()) {
    const first = entries[members[0]];
    const own = members.map((i) => entries[i].scope);
    const key = accountKey(
      first.baseUrl,
      own.map((s) => s.key),
    );
    const failures = members.flatMap((i) => {
      const { scope, found } = entries[i];
      return isRefused(found) ? [`stack ${scope.stack}, provider ${scope.providerKey}: ${found.problem}`] : [];
    });
    const resolved = members.map((i) => entries[i].found).find((f): f is Identified => !isRefused(f));
    const account: Account = {
      key,
      label: '',
      baseUrl: first.baseUrl,
      identity: resolved?.identity ?? 'no credentials',
      credentials: resolved?.credentials ?? { baseUrl: first.baseUrl },
      scopes: own,
    };
    if (failures.length) account.problem = failures.join('; ');
    accounts.push(account);
  }
  const used = new Map<string, number>();
  for (const a of accounts) {
    let label = [...new Set(a.scopes.map((s) => s.alias ?? s.stack))].join('+');
    const n = (used.get(label) ?? 0) + 1;
    used.set(label, n);
    if (n > 1) label = `${label}#${n}`;
    a.label = label;
    const names = (key: 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv') => {
      const named = [...new Set(a.scopes.map((s) => s[key]).filter((n): n is string => n !== null))];
      return named.length ? named.join(' or ') : null;
    };
    a.credentials.variables = {
      token: names('tokenEnv'),
      clientId: names('clientIdEnv'),
      clientSecret: names('clientSecretEnv'),
    };
  }
  return { accounts, problems };
}

/**
 * The checks `ncalc validate` can make without credentials: base URLs, and scopes that
 * overlap. Without the secrets an account cannot be told by its token, so scopes that read
 * the same credential variables count as one account: they reach the same account
 * whatever the variables hold.
 */
export function offlineAccountProblems(
  scopes: Scope[],
  alerts: DeclaredAlert[],
  env: NodeJS.ProcessEnv,
  options: { baseUrlOverride?: string } = {},
): Problem[] {
  const { accounts, problems } = groupScopes(scopes, env, options.baseUrlOverride, (scope, baseUrl) => ({
    identity: `credentials from ${credentialHint(scope)}`,
    credentials: { baseUrl },
  }));
  const declared = declaredNames(alerts);
  for (const account of accounts) problems.push(...findScopeOverlaps(account, declared));
  return problems;
}

/**
 * Resolves each scope's credentials from the environment and groups scopes by account (see
 * `groupScopes`). An account whose credentials are missing comes back with a `problem`.
 */
export function resolveAccounts(
  scopes: Scope[],
  env: NodeJS.ProcessEnv,
  options: { baseUrlOverride?: string } = {},
): AccountResolution {
  // A variable per scope: past a thousand, one copy of the environment is cheaper than
  // a walk of it per read (environmentSnapshot); below, the copy would cost more.
  const vars = scopes.length >= SNAPSHOT_FROM_SCOPES ? environmentSnapshot(env) : env;
  return groupScopes(scopes, vars, options.baseUrlOverride, (scope, baseUrl) =>
    resolveCredentials(scope, vars, baseUrl),
  );
}

/** Scopes from which credentials are read from one copy of the environment. */
export const SNAPSHOT_FROM_SCOPES = 1000;

/**
 * One scope's credentials from the environment, from the variables its block names and no
 * other (the NETWORKCALC_* defaults only when it names none, src/accounts/account-rules): the
 * token, with the block's client credentials beside it when both are set (the client renews
 * a refused token from them), or the client credentials alone. Also used by `ncalc export`
 * for an environment prefix.
 */
export function resolveCredentials(
  scope: Pick<Scope, 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv' | 'maxRetries' | 'timeoutSeconds'>,
  env: NodeJS.ProcessEnv,
  baseUrl: string,
): Identified | Refused {
  const read = (name: string | null) => (name === null ? undefined : envValue(env, name));
  const token = read(scope.tokenEnv);
  const clientId = read(scope.clientIdEnv);
  const clientSecret = read(scope.clientSecretEnv);
  const credentials: Credentials = {
    baseUrl,
    variables: { token: scope.tokenEnv, clientId: scope.clientIdEnv, clientSecret: scope.clientSecretEnv },
  };
  // Checked by the account rules: a whole number of attempts within bounds.
  if (scope.maxRetries !== null) credentials.maxAttempts = scope.maxRetries;
  if (scope.timeoutSeconds !== null) credentials.timeoutMs = scope.timeoutSeconds * 1000;
  if (token) {
    credentials.token = token;
    if (clientId && clientSecret) Object.assign(credentials, { clientId, clientSecret });
    const digest = tokenDigest(token);
    return { identity: `token ${fingerprintOf(digest)}`, credentials, same: `token ${digest}` };
  }
  if (clientId && clientSecret)
    return { identity: `client ${clientId}`, credentials: { ...credentials, clientId, clientSecret } };
  const half = clientId
    ? ` (${scope.clientIdEnv} is set but ${scope.clientSecretEnv} is not)`
    : clientSecret
      ? ` (${scope.clientSecretEnv} is set but ${scope.clientIdEnv} is not)`
      : '';
  return { problem: `no credentials${half}; set ${credentialHint(scope)}` };
}

/** True when a scope's block names no credentials, so it reads the NETWORKCALC_* defaults. */
export function readsDefaultCredentials(scope: Pick<Scope, 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv'>): boolean {
  return (
    scope.tokenEnv === ENV.token && scope.clientIdEnv === ENV.clientId && scope.clientSecretEnv === ENV.clientSecret
  );
}

/**
 * `A_TOKEN, or A_ID and A_SECRET`: the variables a scope reads its credentials from, and only
 * those, so that no message sends the user to a variable another account may use.
 */
export function credentialHint(scope: Pick<Scope, 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv'>): string {
  const ways: string[] = [];
  if (scope.tokenEnv !== null) ways.push(scope.tokenEnv);
  if (scope.clientIdEnv !== null && scope.clientSecretEnv !== null)
    ways.push(`${scope.clientIdEnv} and ${scope.clientSecretEnv}`);
  return ways.join(', or ');
}

/** `stack teamA (provider networkcalc, prefix "team-a-")`. */
export function describeScope(scope: Scope): string {
  const mode = scope.ownership === 'prefix' ? `prefix ${JSON.stringify(scope.prefix)}` : scope.ownership;
  return `stack ${scope.stack} (provider ${scope.providerKey}, ${mode})`;
}

/** Two scopes that claim a common alert name, and why. */
export interface ScopeOverlap {
  a: Scope;
  b: Scope;
  why: string;
}

/** The names each scope declares, by scope key: gathered once per run, not once per account. */
export type DeclaredNames = ReadonlyMap<string, ReadonlySet<string>>;

export function declaredNames(alerts: readonly DeclaredAlert[]): DeclaredNames {
  const declared = new Map<string, Set<string>>();
  for (const a of alerts) {
    const names = declared.get(a.scopeKey);
    if (names) names.add(a.spec.name);
    else declared.set(a.scopeKey, new Set([a.spec.name]));
  }
  return declared;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The pairs of scopes that claim a common alert name, as if they were scopes of one account:
 * exclusive claims every name, prefix the names starting with its prefix, additive only the
 * names it declares. `declared`: the names of every scope (`declaredNames`), so that the
 * check of one account reads its own scopes' names, not every alert of the run.
 */
export function overlappingScopes(scopes: readonly Scope[], declared: DeclaredNames): ScopeOverlap[] {
  const overlaps: ScopeOverlap[] = [];
  const names = (s: Scope) => declared.get(s.key) ?? NONE;
  for (let i = 0; i < scopes.length; i++) {
    for (let j = i + 1; j < scopes.length; j++) {
      const a = scopes[i];
      const b = scopes[j];
      let why: string | null = null;
      if (a.ownership === 'exclusive' || b.ownership === 'exclusive') {
        why = 'an exclusive scope owns every alert of the account';
      } else if (a.ownership === 'prefix' && b.ownership === 'prefix') {
        const pa = a.prefix ?? '';
        const pb = b.prefix ?? '';
        if (pa.startsWith(pb) || pb.startsWith(pa))
          why = `prefixes ${JSON.stringify(pa)} and ${JSON.stringify(pb)} overlap`;
      } else {
        const shared = [...new Set([...names(a), ...names(b)])].filter(
          (n) => claims(a, n, names(a)) && claims(b, n, names(b)),
        );
        if (shared.length) why = `both claim ${shared.map((n) => JSON.stringify(n)).join(', ')}`;
      }
      if (why) overlaps.push({ a, b, why });
    }
  }
  return overlaps;
}

/**
 * Two scopes of one account must not claim the same alert name, or one would delete or
 * rewrite what the other declares.
 */
export function findScopeOverlaps(account: Account, declared: DeclaredNames): Problem[] {
  // The message names its place (the account) itself.
  return overlappingScopes(account.scopes, declared).map(({ a, b, why }) => ({
    field: 'ownership',
    message: `account ${account.label} (${account.baseUrl}, ${account.identity}) is claimed by ${describeScope(a)} and ${describeScope(b)}: ${why}; use ownership "prefix" with distinct prefixes, or "additive" with distinct names, or separate credentials`,
  }));
}
