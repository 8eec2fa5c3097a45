import pLimit from 'p-limit';
import type { LiveAlert } from '../model';
import { AccountAlerts, createAlertOnce } from '../converge';
import { isNetworkCalcError } from '../client/errors';
import { describeScope, findScopeOverlaps, overlappingScopes, resolveAccounts, type Account } from './accounts';
import { DEFAULT_CLIENT_ID_ENV, DEFAULT_CLIENT_SECRET_ENV, DEFAULT_TOKEN_ENV, readDesired, type Desired, type StackDocument } from './desired';
import { inScope, planScope, type PlanMode } from './plan';
import { ConfigError } from './synth';
import type { AlertsApi, ApiDomain, Change, ClientFactory, DeclaredAlert, PlannedTrigger, Scope, TargetRef, Warning } from './types';

export interface ErrorInfo {
  code: string;
  message: string;
  operation?: string;
  httpStatus?: number;
}

export function toErrorInfo(e: unknown): ErrorInfo {
  if (isNetworkCalcError(e)) {
    const info: ErrorInfo = { code: e.code, message: e.message, operation: e.operation };
    if (e.httpStatus !== undefined) info.httpStatus = e.httpStatus;
    return info;
  }
  if (e instanceof ConfigError) return { code: 'CONFIG_ERROR', message: e.message };
  return { code: 'UNEXPECTED', message: e instanceof Error ? e.message : String(e) };
}

type CredentialVariables = Pick<Scope, 'tokenEnv' | 'clientIdEnv' | 'clientSecretEnv'>;
const DEFAULT_VARIABLES: CredentialVariables = { tokenEnv: DEFAULT_TOKEN_ENV, clientIdEnv: DEFAULT_CLIENT_ID_ENV, clientSecretEnv: DEFAULT_CLIENT_SECRET_ENV };

/**
 * The client's advice ("check NETWORKCALC_TOKEN") names the default variables; an account
 * that reads others (`tokenEnv` …) is told its own.
 */
export function adviseVariables(info: ErrorInfo, scopes: CredentialVariables[]): ErrorInfo {
  let message = info.message;
  for (const key of ['tokenEnv', 'clientIdEnv', 'clientSecretEnv'] as const) {
    const own = [...new Set(scopes.map((s) => s[key]))].join(' or ');
    if (own && own !== DEFAULT_VARIABLES[key]) message = message.replace(new RegExp(`\\b${DEFAULT_VARIABLES[key]}\\b`, 'g'), own);
  }
  return message === info.message ? info : { ...info, message };
}

export interface ChangeResult {
  /**
   * `adopted`: a create whose outcome was unknown turned out to have happened. `skipped`: not
   * started because the run was interrupted.
   */
  status: 'ok' | 'failed' | 'adopted' | 'skipped';
  id?: number;
  error?: ErrorInfo;
  note?: string;
}

export interface TriggerResult {
  status: 'ok' | 'failed' | 'skipped';
  reportUrl?: string;
  error?: ErrorInfo;
  note?: string;
}

export interface AccountPlan {
  account: Account;
  /** `error`: the account could not be planned (or applied); see `error`. */
  status: 'ok' | 'error';
  error: ErrorInfo | null;
  changes: Change[];
  unchanged: number;
  warnings: Warning[];
  triggers: PlannedTrigger[];
  /** Filled by apply, index-aligned with `changes` / `triggers`. */
  results?: ChangeResult[];
  triggerResults?: TriggerResult[];
  /**
   * Set by apply when the list taken after its writes shows alerts it did not make in a scope
   * it owns: another writer was at work. Apply then fails (exit 1).
   */
  interference?: Interference;
  /** Not serialized. */
  api: AlertsApi | null;
  live: LiveAlert[];
  domains: ApiDomain[] | null;
}

export interface Prepared {
  desired: Desired;
  accounts: Account[];
}

/** Everything that can be checked without the network; throws a ConfigError listing all problems. */
export function prepare(stacks: StackDocument[], env: NodeJS.ProcessEnv, options: { baseUrlOverride?: string } = {}): Prepared {
  const desired = readDesired(stacks);
  const { accounts, problems } = resolveAccounts(desired.scopes, env, options);
  const all = [...desired.problems, ...problems];
  for (const account of accounts) all.push(...findScopeOverlaps(account, desired.alerts));
  if (all.length) throw new ConfigError(all);
  return { desired, accounts };
}

export interface PlanOptions {
  mode?: PlanMode;
  includeUndeclared?: boolean;
  /** Include report triggers (plan, apply); not for drift and destroy. */
  triggers?: boolean;
}

interface DomainIndex {
  domains: Map<string, number>;
  subdomains: Map<string, number>;
  names: Map<string, string>;
}

export function indexDomains(domains: ApiDomain[]): DomainIndex {
  const index: DomainIndex = { domains: new Map(), subdomains: new Map(), names: new Map() };
  for (const d of domains) {
    index.domains.set(d.domain.toLowerCase(), d.id);
    index.names.set(`domain:${d.id}`, d.domain);
    for (const s of d.subdomains) {
      index.subdomains.set(s.subdomain.toLowerCase(), s.id);
      index.names.set(`subdomain:${s.id}`, s.subdomain);
    }
  }
  return index;
}

function resolveTarget(ref: TargetRef, index: DomainIndex | null, where: string): number {
  if (ref.kind === 'id') return ref.id;
  const map = ref.targetType === 'domain' ? index!.domains : index!.subdomains;
  const id = map.get(ref.name);
  if (id === undefined) {
    const known = [...map.keys()].sort().join(', ') || 'none';
    throw new ConfigError([`${where}: ${ref.targetType} ${JSON.stringify(ref.name)} (${ref.dataSource}) is not in this account (its ${ref.targetType}s: ${known}); add it in NetworkCalc or fix the name`]);
  }
  return id;
}

/** Plans one account: one list call, one domains call when names are used, then a diff per scope. */
async function planAccount(account: Account, desired: Desired, factory: ClientFactory, options: PlanOptions): Promise<AccountPlan> {
  const plan: AccountPlan = {
    account, status: 'ok', error: null, changes: [], unchanged: 0, warnings: [], triggers: [], api: null, live: [], domains: null,
  };
  const scopeKeys = new Set(account.scopes.map((s) => s.key));
  const alerts = desired.alerts.filter((a) => scopeKeys.has(a.scopeKey));
  const triggers = options.triggers ? desired.triggers.filter((t) => scopeKeys.has(t.scopeKey)) : [];
  try {
    const api = factory(account.credentials);
    plan.api = api;
    const needsNames = alerts.some((a) => a.target.kind === 'name') || triggers.some((t) => t.target.kind === 'name');
    const [live, domains] = await Promise.all([api.listAlerts(), needsNames ? api.listDomains() : Promise.resolve(null)]);
    plan.live = live;
    plan.domains = domains;
    const index = domains ? indexDomains(domains) : null;
    const resolved: DeclaredAlert[] = alerts.map((a) => ({
      stack: a.stack, logicalId: a.logicalId, path: a.path, scopeKey: a.scopeKey, target: a.target,
      spec: a.target.kind === 'id' ? a.spec : { ...a.spec, target_id: resolveTarget(a.target, index, `alert ${a.path}`) },
    }));
    for (const scope of account.scopes) {
      const p = planScope(scope, resolved.filter((a) => a.scopeKey === scope.key), live, options);
      // One by one: a spread of 200,000 changes overflows the call stack.
      for (const c of p.changes) plan.changes.push(c);
      plan.unchanged += p.unchanged;
      for (const w of p.warnings) plan.warnings.push(w);
    }
    for (const t of triggers) {
      const targetId = resolveTarget(t.target, index, `report trigger ${t.path}`);
      plan.triggers.push({
        stack: t.stack, logicalId: t.logicalId, path: t.path, scopeKey: t.scopeKey, targetType: t.targetType, targetId,
        targetName: index?.names.get(`${t.targetType}:${targetId}`) ?? null, triggers: t.triggers,
      });
    }
  } catch (e) {
    plan.status = 'error';
    plan.error = adviseVariables(toErrorInfo(e), account.scopes);
    plan.changes = [];
    plan.triggers = [];
  }
  return plan;
}

/**
 * Plans every account concurrently; one account failing does not stop the others. Accounts
 * that the list calls show to be one NetworkCalc account reached with different credentials
 * are then checked together for overlapping scopes (see `guardSharedAccounts`).
 */
export async function planAll(prepared: Prepared, factory: ClientFactory, options: PlanOptions = {}): Promise<AccountPlan[]> {
  const plans = await Promise.all(prepared.accounts.map((a) => planAccount(a, prepared.desired, factory, options)));
  guardSharedAccounts(plans, prepared.desired.alerts);
  return plans;
}

/** A set of planned accounts that are one NetworkCalc account, and the users they share. */
export interface SharedAccount {
  plans: AccountPlan[];
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
export function sharedAccounts(plans: AccountPlan[]): SharedAccount[] {
  const parent = plans.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const users = plans.map((p) => new Set(p.live.map((a) => a.user_id).filter((u): u is number => typeof u === 'number')));
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
      for (const i of members) for (const u of users[i]) if (seenTwice.has(`${plans[i].account.baseUrl} ${u}`)) userIds.add(u);
      return { plans: members.map((i) => plans[i]), userIds: [...userIds].sort((x, y) => x - y) };
    });
}

/**
 * The overlap check of `prepare`, over accounts found to be one only after their list calls.
 * When the scopes of such a group overlap, every account of the group is failed (so that no
 * write happens in any of them) with a message naming the stacks and what to do. Scopes that
 * do not overlap are fine: each one only touches its own names.
 */
export function guardSharedAccounts(plans: AccountPlan[], alerts: DeclaredAlert[]): void {
  for (const group of sharedAccounts(plans)) {
    const accounts = group.plans.map((p) => p.account);
    const overlaps = overlappingScopes(accounts.flatMap((a) => a.scopes), alerts);
    if (!overlaps.length) continue;
    const users = group.userIds.length === 1 ? `user ${group.userIds[0]}` : `users ${group.userIds.join(', ')}`;
    const stacks = [...new Set(accounts.flatMap((a) => a.scopes.map((s) => s.stack)))].sort();
    const message =
      `the provider configurations of stacks ${stacks.join(', ')} reach the same NetworkCalc account (${users}) with different credentials ` +
      `(${accounts.map((a) => `${a.label}: ${a.identity}`).join('; ')}), and their scopes overlap: ` +
      `${overlaps.map(({ a, b, why }) => `${describeScope(a)} and ${describeScope(b)}: ${why}`).join('; ')}. ` +
      `Nothing is planned for ${accounts.map((a) => a.label).join(' + ')}; use one set of credentials for that account in every stack, ` +
      `or make the scopes disjoint: ownership "prefix" with distinct prefixes, or "additive" with distinct names`;
    for (const p of group.plans) {
      p.status = 'error';
      p.error = { code: 'CONFIG_ERROR', message };
      p.changes = [];
      p.triggers = [];
      p.warnings = [];
      p.unchanged = 0;
    }
  }
}

/** Alerts found after apply that this run did not make (see `checkAfterApply`). */
export interface Interference {
  /** Names that now exist more often than this run left them, with their ids. */
  duplicates: Array<{ name: string; ids: number[] }>;
  /** New alerts in an owned scope that this run did not create. */
  unexpected: Array<{ name: string; id: number }>;
  /** Set instead when the list after apply failed. */
  error?: ErrorInfo;
  message: string;
}

/**
 * Compares the account after apply with what apply made of the plan's list: every alert not
 * in that list must be one this run created, at most once per created name; anything else in
 * a scope the account owns (exclusive or prefix) came from another writer. Additive scopes own
 * no names but their declared ones, so only duplicates of created names count there.
 */
export function checkAfterApply(plan: AccountPlan, after: readonly LiveAlert[]): Interference | undefined {
  const before = new Set(plan.live.map((a) => a.id));
  const created = new Map<string, number>();
  plan.changes.forEach((c, i) => {
    const r = plan.results?.[i];
    if (c.action === 'create' && (r?.status === 'ok' || r?.status === 'adopted')) created.set(c.name, (created.get(c.name) ?? 0) + 1);
  });
  const newByName = new Map<string, number[]>();
  for (const a of after) {
    if (before.has(a.id)) continue;
    const ids = newByName.get(a.name);
    if (ids) ids.push(a.id);
    else newByName.set(a.name, [a.id]);
  }
  const owns = (name: string) => plan.account.scopes.some((scope) => scope.ownership !== 'additive' && inScope(scope, name, new Set()));
  const duplicates: Interference['duplicates'] = [];
  const unexpected: Interference['unexpected'] = [];
  for (const [name, ids] of newByName) {
    const made = created.get(name) ?? 0;
    if (made > 0 && ids.length > made) duplicates.push({ name, ids: ids.sort((x, y) => x - y) });
    else if (made === 0 && owns(name)) for (const id of ids) unexpected.push({ name, id });
  }
  if (!duplicates.length && !unexpected.length) return undefined;
  const parts: string[] = [];
  const shown = <T>(list: T[], show: (x: T) => string) => `${list.slice(0, 5).map(show).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`;
  if (duplicates.length) parts.push(`${duplicates.length} name(s) now exist more than once: ${shown(duplicates, (d) => `${JSON.stringify(d.name)} (ids ${d.ids.join(', ')})`)}`);
  if (unexpected.length) parts.push(`${unexpected.length} alert(s) appeared in a scope this account owns that this run did not create: ${shown(unexpected, (u) => `${JSON.stringify(u.name)} (id ${u.id})`)}`);
  return {
    duplicates,
    unexpected,
    message:
      `after apply, account ${plan.account.label} shows alerts this run did not make: ${parts.join('; ')}. ` +
      'Another run or tool wrote to the account at the same time; runs against one account must be serialised ' +
      '(in CI, one concurrency group per account). Run ncalc plan to see what the next apply will change.',
  };
}

export type ApplyEvent =
  | { kind: 'change'; account: AccountPlan; change: Change; result: ChangeResult }
  | { kind: 'trigger'; account: AccountPlan; trigger: PlannedTrigger; result: TriggerResult };

export interface ApplyOptions {
  parallelism: number;
  onEvent?: (event: ApplyEvent) => void;
  /** Run report triggers after the alerts converge. */
  triggers?: boolean;
  /** Once aborted, no new write starts; writes in flight finish. */
  signal?: AbortSignal;
}

const INTERRUPTED = 'not started: the run was interrupted';

const isCode = (e: unknown, code: string) => isNetworkCalcError(e) && e.code === code;

/** A create through the shared ambiguous-create policy (src/converge): never a duplicate. */
async function createChange(api: AlertsApi, alerts: AccountAlerts, change: Change): Promise<ChangeResult> {
  const outcome = await createAlertOnce(api, alerts, change.after!, { identify: false });
  const resent = outcome.resent ? 'created on the second attempt: the account list showed that the first one had not happened' : undefined;
  if (outcome.kind === 'adopted') {
    return { status: 'adopted', id: outcome.alert.id, note: `the create's answer was lost; alert ${outcome.alert.id} of that name and settings appeared and was adopted` };
  }
  const result: ChangeResult = { status: 'ok' };
  if (outcome.kind === 'created' && outcome.id !== undefined) result.id = outcome.id;
  if (resent) result.note = resent;
  return result;
}

async function runChange(api: AlertsApi, alerts: AccountAlerts, change: Change): Promise<ChangeResult> {
  try {
    switch (change.action) {
      case 'create':
        return await createChange(api, alerts, change);
      // PATCH and DELETE are idempotent: the client retries them itself on an unknown outcome.
      case 'update':
        await api.updateAlert(change.id!, change.after!);
        return { status: 'ok', id: change.id! };
      case 'delete':
        try {
          await api.deleteAlert(change.id!);
        } catch (e) {
          if (isCode(e, 'NOT_FOUND')) return { status: 'ok', id: change.id!, note: 'already gone' };
          throw e;
        }
        return { status: 'ok', id: change.id! };
    }
  } catch (e) {
    return { status: 'failed', error: toErrorInfo(e) };
  }
}

/**
 * Applies planned changes: accounts concurrently, every API write through one limiter of
 * `parallelism`. A failed change does not stop the others. An account's report triggers
 * run once its alert changes all succeeded. After `signal` aborts, nothing new starts.
 */
export async function applyAll(plans: AccountPlan[], options: ApplyOptions): Promise<void> {
  const limit = pLimit(Math.max(1, options.parallelism));
  await Promise.all(
    plans.map(async (plan) => {
      if (plan.status !== 'ok' || !plan.api) return;
      const api = plan.api;
      // The plan's list is the baseline: alerts in it existed before any create of this run.
      const alerts = new AccountAlerts(() => api.listAlerts(), { baseline: plan.live });
      plan.results = await Promise.all(
        plan.changes.map((change) =>
          limit(async (): Promise<ChangeResult> => {
            if (options.signal?.aborted) return { status: 'skipped', note: INTERRUPTED };
            const result = await runChange(api, alerts, change);
            if (result.error) result.error = adviseVariables(result.error, plan.account.scopes);
            options.onEvent?.({ kind: 'change', account: plan, change, result });
            return result;
          }),
        ),
      );
      // One list after the writes: another writer shows as alerts this run did not make.
      if (!options.signal?.aborted && plan.changes.length > 0) {
        try {
          plan.interference = checkAfterApply(plan, (await alerts.after(alerts.mark())).alerts);
        } catch (e) {
          const error = adviseVariables(toErrorInfo(e), plan.account.scopes);
          plan.interference = {
            duplicates: [],
            unexpected: [],
            error,
            message: `the account could not be listed after apply to check for concurrent writers: ${error.message}`,
          };
        }
      }
      if (!options.triggers) return;
      const converged = plan.results.every((r) => r.status === 'ok' || r.status === 'adopted') && !plan.interference;
      plan.triggerResults = await Promise.all(
        plan.triggers.map((trigger) =>
          limit(async (): Promise<TriggerResult> => {
            if (options.signal?.aborted) return { status: 'skipped', note: INTERRUPTED };
            let result: TriggerResult;
            if (!converged) {
              result = { status: 'skipped', note: 'not run: some alert changes of this account failed' };
            } else {
              try {
                const r = trigger.targetType === 'domain' ? await api.triggerDomainReport(trigger.targetId) : await api.triggerSubdomainReport(trigger.targetId);
                result = { status: 'ok', reportUrl: r.report_url };
              } catch (e) {
                result = { status: 'failed', error: adviseVariables(toErrorInfo(e), plan.account.scopes) };
              }
            }
            options.onEvent?.({ kind: 'trigger', account: plan, trigger, result });
            return result;
          }),
        ),
      );
    }),
  );
}
