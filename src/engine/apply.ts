import type { LiveAlert } from '../model';
import { AccountAlerts, createAlertOnce, type Listing } from '../converge';
import { isNetworkCalcError } from '../client/errors';
import type { AccountPlan } from '../plan/account-plan';
import { toErrorInfo, type ErrorInfo } from '../plan/error-info';
import { inScope } from '../plan/plan';
import { groupBy } from '../support/group-by';
import { Limiter } from '../support/limiter';
import { AccountLimit, defaultAccountParallelism, writingAccounts } from './account-limit';
import type { AlertsApi, Change, ClientFactory, PlannedTrigger } from '../plan/types';
import { isPlaceholderId, type TargetChange } from '../plan/target-changes';
import { createTargetOnce } from '../converge/create-target';
import { FreshList } from '../converge/fresh-list';

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

/** What apply did with a planned domain or subdomain create or delete (index-aligned with the plan's targetChanges). */
export interface TargetResult {
  status: 'ok' | 'failed' | 'skipped';
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

/** What apply did in one account: results index-aligned with the plan's changes and triggers. */
export interface AccountOutcome {
  readonly results: readonly ChangeResult[];
  readonly triggerResults: readonly TriggerResult[];
  /** The plan's domain and subdomain creates (made before the alert changes) and deletes (after them); absent when it has none. */
  readonly targetResults?: readonly TargetResult[];
  /**
   * Set when the list taken after the writes shows alerts this run did not make in a scope the
   * account owns: another writer was at work. Apply then fails (exit 1).
   */
  readonly interference?: Interference;
}

/** Apply's report: an outcome per account plan it wrote to (failed plans have none). */
export type ApplyReport = ReadonlyMap<AccountPlan, AccountOutcome>;

/**
 * Compares the account after apply with what apply made of the plan's list: every alert not
 * in that list must be one this run created, at most once per created name; anything else in
 * a scope the account owns (exclusive or prefix) came from another writer. Additive scopes own
 * no names but their declared ones, so only duplicates of created names count there.
 */
export function checkAfterApply(
  plan: Pick<AccountPlan, 'account' | 'changes' | 'live'>,
  results: readonly ChangeResult[],
  after: readonly LiveAlert[],
): Interference | undefined {
  const before = new Set(plan.live.map((a) => a.id));
  const created = new Map<string, number>();
  plan.changes.forEach((c, i) => {
    const r = results[i];
    if (c.action === 'create' && (r?.status === 'ok' || r?.status === 'adopted'))
      created.set(c.name, (created.get(c.name) ?? 0) + 1);
  });
  const newByName = new Map(
    [...groupBy(after, (a) => (before.has(a.id) ? undefined : a.name))].map(([name, alerts]) => [
      name,
      alerts.map((a) => a.id),
    ]),
  );
  const owns = (name: string) =>
    plan.account.scopes.some((scope) => scope.ownership !== 'additive' && inScope(scope, name, new Set()));
  const duplicates: Interference['duplicates'] = [];
  const unexpected: Interference['unexpected'] = [];
  for (const [name, ids] of newByName) {
    const made = created.get(name) ?? 0;
    if (made > 0 && ids.length > made) duplicates.push({ name, ids: ids.sort((x, y) => x - y) });
    else if (made === 0 && owns(name)) for (const id of ids) unexpected.push({ name, id });
  }
  if (!duplicates.length && !unexpected.length) return undefined;
  const parts: string[] = [];
  const shown = <T>(list: T[], show: (x: T) => string) =>
    `${list.slice(0, 5).map(show).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`;
  if (duplicates.length)
    parts.push(
      `${duplicates.length} name(s) now exist more than once: ${shown(duplicates, (d) => `${JSON.stringify(d.name)} (ids ${d.ids.join(', ')})`)}`,
    );
  if (unexpected.length)
    parts.push(
      `${unexpected.length} alert(s) appeared in a scope this account owns that this run did not create: ${shown(unexpected, (u) => `${JSON.stringify(u.name)} (id ${u.id})`)}`,
    );
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
  | { kind: 'trigger'; account: AccountPlan; trigger: PlannedTrigger; result: TriggerResult }
  | { kind: 'target'; account: AccountPlan; change: TargetChange; result: TargetResult };

export interface ApplyOptions {
  /** API writes in flight at once, across every account. */
  parallelism: number;
  /**
   * API writes in flight at once in one account, within `parallelism`. Default: `parallelism`
   * with one account, half of it (at least 1) with more (`defaultAccountParallelism`).
   */
  accountParallelism?: number;
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
  const resent = outcome.resent
    ? 'created on the second attempt: the account list showed that the first one had not happened'
    : undefined;
  if (outcome.kind === 'adopted') {
    return {
      status: 'adopted',
      id: outcome.alert.id,
      note: `the create's answer was lost; alert ${outcome.alert.id} of that name and settings appeared and was adopted`,
    };
  }
  const result: ChangeResult = { status: 'ok' };
  if (outcome.kind === 'created' && outcome.id !== undefined) result.id = outcome.id;
  if (resent) result.note = resent;
  return result;
}

async function runChange(api: AlertsApi, alerts: AccountAlerts, change: Change): Promise<ChangeResult> {
  if (change.after && isPlaceholderId(change.after.target_id))
    return { status: 'skipped', note: 'not run: the domain or subdomain it targets was not created' };
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

async function applyAccount(
  plan: AccountPlan,
  api: AlertsApi,
  limit: AccountLimit,
  options: ApplyOptions,
): Promise<AccountOutcome> {
  // The plan's list is the baseline: alerts in it existed before any create of this run. Only
  // creates whose answer was lost need a list here (ids are not learned), so a list starts as
  // soon as one asks, and those asking while it runs share the next.
  const alerts = new AccountAlerts(() => api.listAlerts(), { baseline: plan.live, gatherMs: 0 });
  // Domains, then subdomains, then the alerts and triggers on them (their placeholder ids replaced).
  const targets = await createTargets(plan, api, limit, options);
  const resolved = targets ? withTargetIds(plan, targets.ids) : plan;
  const { results, check } = await writeChanges(resolved, api, alerts, limit, options);
  // Deletes of targets last, alerts first: only once every alert change of the account went through.
  if (targets) await deleteTargets(plan, api, limit, options, targets.results, results);
  const interference =
    !options.signal?.aborted && plan.changes.length > 0 ? await otherWriters(plan, results, alerts, check) : undefined;
  const outcome = (triggerResults: TriggerResult[]): AccountOutcome => ({
    results,
    triggerResults,
    ...(targets ? { targetResults: targets.results } : {}),
    ...(interference ? { interference } : {}),
  });
  if (!options.triggers) return outcome([]);
  const converged =
    results.every((r) => r.status === 'ok' || r.status === 'adopted') &&
    !interference &&
    (targets?.results.every((r) => r.status === 'ok') ?? true);
  return outcome(await runTriggers(resolved, api, limit, options, converged));
}

/**
 * The plan's domain and subdomain creates: every domain (through the limit), then every
 * subdomain, each proven by the domains list when its answer does not give the id
 * (src/converge/create-target.ts). The real ids by placeholder id; null without creates.
 */
async function createTargets(
  plan: AccountPlan,
  api: AlertsApi,
  limit: AccountLimit,
  options: ApplyOptions,
): Promise<{ results: TargetResult[]; ids: Map<number, number> } | null> {
  const changes = plan.targetChanges ?? [];
  if (!changes.length) return null;
  const ids = new Map<number, number>();
  const results: TargetResult[] = changes.map(() => ({ status: 'skipped', note: INTERRUPTED }));
  // Creates that answer without the id share the lists that prove them.
  const proofs = new FreshList(() => api.listDomains());
  for (const targetType of ['domain', 'subdomain'] as const) {
    const creates = changes.flatMap((change, i) =>
      change.action === 'create' && change.targetType === targetType ? [{ change, i }] : [],
    );
    await limit.map(creates, async ({ change, i }) => {
      if (options.signal?.aborted) return;
      const domainId =
        change.domainId !== null && isPlaceholderId(change.domainId) ? ids.get(change.domainId) : change.domainId;
      if (targetType === 'subdomain' && domainId === undefined) {
        results[i] = { status: 'skipped', note: 'not run: its domain was not created' };
      } else {
        try {
          const made = await createTargetOnce(
            api,
            change.targetType === 'domain'
              ? { targetType: 'domain', name: change.name }
              : { targetType: 'subdomain', name: change.name, domainId: domainId!, prefix: change.prefix! },
            () => proofs.next(),
          );
          ids.set(change.placeholderId, made.id);
          results[i] = { status: 'ok', id: made.id, ...(made.note ? { note: made.note } : {}) };
        } catch (e) {
          results[i] = { status: 'failed', error: toErrorInfo(e) };
        }
      }
      options.onEvent?.({ kind: 'target', account: plan, change, result: results[i]! });
    });
  }
  return { results, ids };
}

/**
 * The plan's domain and subdomain deletes, after its alert changes: every subdomain, then
 * every domain (the reverse of creates). A delete answered NOT_FOUND is done. None starts
 * when an alert change of the account failed or was skipped: an alert meant to go may still
 * be on the target (what the service does with it is assumed, not documented).
 */
async function deleteTargets(
  plan: AccountPlan,
  api: AlertsApi,
  limit: AccountLimit,
  options: ApplyOptions,
  results: TargetResult[],
  alertResults: readonly ChangeResult[],
): Promise<void> {
  const changes = plan.targetChanges ?? [];
  const alertsDone = alertResults.every((r) => r.status === 'ok' || r.status === 'adopted');
  for (const targetType of ['subdomain', 'domain'] as const) {
    // A domain goes only once its subdomain deletes did.
    const subdomainsDone = changes.every(
      (c, i) => c.action !== 'delete' || c.targetType === 'domain' || results[i]!.status === 'ok',
    );
    const deletes = changes.flatMap((change, i) =>
      change.action === 'delete' && change.targetType === targetType ? [{ change, i }] : [],
    );
    await limit.map(deletes, async ({ change, i }) => {
      if (options.signal?.aborted) return;
      if (!alertsDone) results[i] = { status: 'skipped', note: 'not run: some alert changes of this account failed' };
      else if (targetType === 'domain' && !subdomainsDone)
        results[i] = { status: 'skipped', note: 'not run: a subdomain delete of this account failed' };
      else {
        try {
          if (change.targetType === 'domain') await api.deleteDomain!(change.id);
          else await api.deleteSubdomain!(change.domainId!, change.id);
          results[i] = { status: 'ok', id: change.id };
        } catch (e) {
          results[i] = isCode(e, 'NOT_FOUND')
            ? { status: 'ok', id: change.id, note: 'already gone' }
            : { status: 'failed', error: toErrorInfo(e) };
        }
      }
      options.onEvent?.({ kind: 'target', account: plan, change, result: results[i]! });
    });
  }
}

/** The plan with the placeholder target ids of its alert changes and triggers replaced by the created ones. */
function withTargetIds(plan: AccountPlan, ids: ReadonlyMap<number, number>): AccountPlan {
  const real = (id: number) => (isPlaceholderId(id) ? (ids.get(id) ?? id) : id);
  return {
    ...plan,
    changes: plan.changes.map((c) =>
      c.after && isPlaceholderId(c.after.target_id)
        ? { ...c, after: { ...c.after, target_id: real(c.after.target_id) } }
        : c,
    ),
    triggers: plan.triggers.map((t) => (isPlaceholderId(t.targetId) ? { ...t, targetId: real(t.targetId) } : t)),
  };
}

/** The account's alert changes, each through the limit; and the list begun with the last write. */
async function writeChanges(
  plan: AccountPlan,
  api: AlertsApi,
  alerts: AccountAlerts,
  limit: AccountLimit,
  options: ApplyOptions,
): Promise<{ results: ChangeResult[]; check: Promise<Listing> | undefined }> {
  let started = 0;
  let check: Promise<Listing> | undefined;
  const results = await limit.map(plan.changes, async (change): Promise<ChangeResult> => {
    if (options.signal?.aborted) return { status: 'skipped', note: INTERRUPTED };
    // The check after apply starts with the last write, alongside the writes in flight.
    if (++started === plan.changes.length) check = alerts.after(alerts.mark(), { now: true });
    const result = await runChange(api, alerts, change);
    // RATE_LIMITED, or the retries it led to exhausted (the last answer's status kept).
    if (result.status === 'failed' && (result.error?.code === 'RATE_LIMITED' || result.error?.httpStatus === 429)) {
      // In the error, so every output names the account the advice is about.
      result.error = { ...result.error, message: `${result.error.message}; ${limit.rateLimited()}` };
    }
    options.onEvent?.({ kind: 'change', account: plan, change, result });
    return result;
  });
  return { results, check };
}

/**
 * One list at the end of the writes: another writer shows as alerts this run did not make.
 * A list that started with the last write sees every alert of the run that could matter: a
 * create still in flight either shows (and counts as this run's) or not (and counts as
 * nothing). Only a create whose answer was lost may have sent again after it started, so then
 * a list after the writes decides, as a duplicate would come from such a re-send.
 */
async function otherWriters(
  plan: AccountPlan,
  results: ChangeResult[],
  alerts: AccountAlerts,
  check: Promise<Listing> | undefined,
): Promise<Interference | undefined> {
  try {
    const settled = plan.changes.every(
      (c, i) => c.action !== 'create' || (results[i]!.status === 'ok' && results[i]!.note === undefined),
    );
    const after = settled && check ? check : alerts.after(alerts.mark(), { now: true });
    return checkAfterApply(plan, results, (await after).alerts);
  } catch (e) {
    const error = toErrorInfo(e);
    return {
      duplicates: [],
      unexpected: [],
      error,
      message: `the account could not be listed after apply to check for concurrent writers: ${error.message}`,
    };
  }
}

/** The account's report triggers, once its alert changes all succeeded (`converged`). */
function runTriggers(
  plan: AccountPlan,
  api: AlertsApi,
  limit: AccountLimit,
  options: ApplyOptions,
  converged: boolean,
): Promise<TriggerResult[]> {
  return limit.map(plan.triggers, async (trigger): Promise<TriggerResult> => {
    if (options.signal?.aborted) return { status: 'skipped', note: INTERRUPTED };
    let result: TriggerResult;
    if (!converged) {
      result = { status: 'skipped', note: 'not run: some alert changes of this account failed' };
    } else {
      try {
        const r =
          trigger.targetType === 'domain'
            ? await api.triggerDomainReport(trigger.targetId)
            : await api.triggerSubdomainReport(trigger.targetId);
        result = { status: 'ok', reportUrl: r.report_url };
      } catch (e) {
        result = { status: 'failed', error: toErrorInfo(e) };
      }
    }
    options.onEvent?.({ kind: 'trigger', account: plan, trigger, result });
    return result;
  });
}

/**
 * Applies planned changes: accounts concurrently, every API write through its account's
 * limit (`accountParallelism`) and then the run's (`parallelism`). A failed change does not
 * stop the others. An account's report triggers run once its alert changes all succeeded. After `signal` aborts, nothing new starts.
 * The plans are not touched: what happened comes back as the report.
 */
export async function applyAll(
  plans: readonly AccountPlan[],
  factory: ClientFactory,
  options: ApplyOptions,
): Promise<ApplyReport> {
  const parallelism = Math.max(1, options.parallelism);
  const runLimit = new Limiter(parallelism);
  const perAccount = Math.min(
    parallelism,
    Math.max(1, options.accountParallelism ?? defaultAccountParallelism(parallelism, writingAccounts(plans))),
  );
  const report = new Map<AccountPlan, AccountOutcome>();
  await Promise.all(
    plans.map(async (plan) => {
      if (plan.status !== 'ok') return;
      let api: AlertsApi;
      try {
        api = factory(plan.account.credentials);
      } catch (e) {
        const error = toErrorInfo(e);
        report.set(plan, { results: plan.changes.map(() => ({ status: 'failed', error })), triggerResults: [] });
        return;
      }
      report.set(plan, await applyAccount(plan, api, new AccountLimit(plan.account, perAccount, runLimit), options));
    }),
  );
  // In the order of the plans, whatever order the accounts finished in.
  return new Map(plans.filter((p) => report.has(p)).map((p) => [p, report.get(p)!]));
}
