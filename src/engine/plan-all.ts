import type { LiveAlert } from '../model';
import { failedPlan, type AccountPlan } from '../plan/account-plan';
import { declaredNames, findScopeOverlaps, resolveAccounts, type Account } from '../plan/accounts';
import { declaredScopes, readDesired, type Desired, type StackDocument } from '../read/desired';
import { inShard, type Shard } from '../plan/shard';
import { toErrorInfo } from '../plan/error-info';
import { planScope, type PlanMode } from '../plan/plan';
import { guardSharedAccounts } from './shared-accounts';
import { expandPolicies, thresholdHosts, type DeclaredPolicy } from '../plan/coverage';
import { largestQuietThreshold, maxLifetimeDays } from '../model/renewal';
import { ConfigError } from '../contract/config-error';
import {
  planTargetCreates,
  INCLUDE_TARGETS_FLAG,
  planTargetDeletes,
  undeclaredTargetsNote,
  withPlannedTargets,
  type TargetChange,
} from '../plan/target-changes';
import { deleteGuard } from '../plan/plan';
import { indexDomains, resolveTarget } from '../plan/targets';
import type {
  ApiDomain,
  Change,
  ClientFactory,
  DeclaredAlert,
  HeldAlert,
  PlannedTrigger,
  Warning,
} from '../plan/types';
import { readTerraformStates } from '../read/terraform-state';
import { heldByAccount, heldByStack, terraformStateWarnings } from '../plan/terraform-held';
import { groupBy } from '../support/group-by';
import { Limiter } from '../support/limiter';

export interface Prepared {
  desired: Desired;
  accounts: Account[];
  /** The alerts the app's local Terraform states hold (none when they were not read). */
  held?: readonly HeldAlert[];
}

/**
 * The stacks a shard reads: those of its own accounts (and stacks without any provider), chosen
 * from the provider blocks alone, so that a shard of a large app parses and validates its own
 * alerts only. Null (read every stack) when the provider blocks or base URLs have a problem,
 * which every shard must then report. `accounts`: how many the whole app has; `keys`: the
 * shard's (a stack read for one of them may hold another shard's account too, in part).
 */
export function shardStacks(
  stacks: StackDocument[],
  env: NodeJS.ProcessEnv,
  shard: Shard,
  options: { baseUrlOverride?: string } = {},
): { stacks: StackDocument[]; accounts: number; keys: Set<string> } | null {
  const scopes = declaredScopes(stacks);
  if (!scopes) return null;
  const { accounts, problems } = resolveAccounts(scopes, env, options);
  if (problems.length) return null;
  const inside = accounts.filter((a) => inShard(a, shard));
  const mine = new Set(inside.flatMap((a) => a.scopes.map((s) => s.stack)));
  const withScopes = new Set(scopes.map((s) => s.stack));
  return {
    stacks: stacks.filter((s) => mine.has(s.name) || !withScopes.has(s.name)),
    accounts: accounts.length,
    keys: new Set(inside.map((a) => a.key)),
  };
}

/**
 * Everything that can be checked without the network; throws a ConfigError listing all
 * problems of the app (its JSON, base URLs, scopes that overlap). An account whose own
 * credentials are missing is not such a problem: it comes back with its `problem`,
 * fails alone when planned, and the other accounts go on.
 */
export function prepare(
  stacks: StackDocument[],
  env: NodeJS.ProcessEnv,
  options: {
    baseUrlOverride?: string;
    /** Read the stacks' local Terraform states (src/read/terraform-state.ts) from these directories. */
    terraformState?: { appDir: string; outdir: string };
  } = {},
): Prepared {
  const desired = readDesired(stacks);
  const { accounts, problems } = resolveAccounts(desired.scopes, env, options);
  const all = [...desired.problems, ...problems];
  const declared = declaredNames(desired.alerts);
  for (const account of accounts) all.push(...findScopeOverlaps(account, declared));
  // Only the accounts' settings from the environment are wrong: say so, not "not valid".
  const onlyAccounts = all.length > 0 && all.length === problems.length;
  if (all.length)
    throw new ConfigError({
      problems: all,
      summary: onlyAccounts
        ? 'an account cannot be reached as set up (credentials or base URL); nothing was called.'
        : undefined,
    });
  const held = options.terraformState
    ? readTerraformStates(stacks, options.terraformState.appDir, options.terraformState.outdir)
    : [];
  return { desired, accounts, held };
}

export interface PlanOptions {
  mode?: PlanMode;
  includeUndeclared?: boolean;
  /** destroy: also delete the declared domains and subdomains (INCLUDE_TARGETS_FLAG). */
  includeTargets?: boolean;
  /** Include report triggers (plan, apply); not for drift and destroy. */
  triggers?: boolean;
  /** Called as each account's list calls are done (for progress by account). */
  onPlanned?: (plan: AccountPlan) => void;
  /**
   * The lifetime (notAfter − notBefore, days) of the certificate a host serves, for policy
   * checks whose threshold is "before renewal fails"; without it, or when it cannot be read,
   * the longest lifetime allowed today is assumed (src/model/renewal).
   */
  certificateLifetime?: CertificateLifetime;
  /**
   * Also list the domains of an account whose plan uses no names but has live alerts the app
   * may adopt (undeclared, or beyond an additive scope), so that code written for them names
   * their targets (`drift --suggest`). Still one domains call per account at most; when it
   * fails the plan stands, and such code names targets by id.
   */
  liveTargetNames?: boolean;
  /** Accounts planned (listed) at once; default PLAN_ACCOUNTS_AT_ONCE. */
  accountsAtOnce?: number;
}

/**
 * Accounts listed at once by plan, drift, preview, the plan of apply and the check of a saved
 * plan (src/engine/revive-plan.ts), on the one limiter (src/support/limiter.ts): each is one
 * alerts list and at most one domains list, so a run of 1,000 accounts has at most 32 requests
 * in flight rather than 2,000 at once. An account that is answered 429 waits (and retries) in
 * its own slot; the others go on in theirs.
 */
export const PLAN_ACCOUNTS_AT_ONCE = 16;

export type CertificateLifetime = (host: string) => Promise<{ lifetimeDays: number } | { reason: string }>;

/**
 * Days of each host for "before renewal fails" checks: the largest threshold that fires only
 * once a renewal at a third of the served certificate's lifetime has failed. A certificate
 * that cannot be read gets the threshold of the longest lifetime allowed today, and a warning.
 */
async function renewalThresholds(
  policies: readonly DeclaredPolicy[],
  domains: readonly ApiDomain[],
  lifetime: CertificateLifetime | undefined,
): Promise<{ days: Map<string, number>; warnings: Warning[] }> {
  const days = new Map<string, number>();
  const warnings: Warning[] = [];
  const longest = maxLifetimeDays(new Date());
  const fallback = largestQuietThreshold(longest);
  await Promise.all(
    thresholdHosts(policies, domains).map(async (host) => {
      const got = lifetime ? await lifetime(host) : { reason: 'no certificate lookups in this run' };
      if ('lifetimeDays' in got) {
        days.set(host, largestQuietThreshold(got.lifetimeDays));
        return;
      }
      days.set(host, fallback);
      warnings.push({
        scopeKey: null,
        message: `the certificate of ${host} could not be read (${got.reason}); its "before renewal fails" threshold is ${fallback} days, for the longest lifetime allowed today (${longest} days)`,
      });
    }),
  );
  // In host order whatever order the lookups finished in.
  warnings.sort((a, b) => (a.message < b.message ? -1 : 1));
  return { days, warnings };
}

/**
 * Declared items by scope, each scope's in the app's order: an account takes its own without
 * reading the whole app's (1,000 accounts of 100 alerts: 1,000 reads of 100 alerts, not of 100,000).
 */
class ByScope<T extends { scopeKey: string }> {
  readonly #at: Map<string, number[]>;

  constructor(private readonly items: readonly T[]) {
    this.#at = groupBy(
      items.map((_, i) => i),
      (i) => items[i]!.scopeKey,
    );
  }

  /** The items of these scopes, in the app's order. */
  of(keys: ReadonlySet<string>): T[] {
    const at = [...keys].flatMap((k) => this.#at.get(k) ?? []);
    if (keys.size > 1) at.sort((a, b) => a - b);
    return at.map((i) => this.items[i]!);
  }
}

interface DesiredByScope {
  alerts: ByScope<Desired['alerts'][number]>;
  triggers: ByScope<Desired['triggers'][number]>;
  policies: ByScope<Desired['policies'][number]>;
  targets: ByScope<Desired['targets'][number]>;
}

/**
 * Plans one account: one list call, one domains call when names are used (or, with
 * `liveTargetNames`, live alerts to adopt), then a diff per scope.
 */
async function planAccount(
  account: Account,
  desired: DesiredByScope,
  factory: ClientFactory,
  options: PlanOptions,
  held: readonly HeldAlert[],
): Promise<AccountPlan> {
  const scopeKeys = new Set(account.scopes.map((s) => s.key));
  const alerts = desired.alerts.of(scopeKeys);
  const triggers = options.triggers ? desired.triggers.of(scopeKeys) : [];
  const policies = desired.policies.of(scopeKeys);
  const targets = desired.targets.of(scopeKeys);
  let live: LiveAlert[] = [];
  let domains: ApiDomain[] | null = null;
  if (account.problem !== undefined)
    return failedPlan({ account, live, domains }, { code: 'CONFIG_ERROR', message: account.problem, retryable: false });
  try {
    const api = factory(account.credentials);
    // Declared targets are created and deleted by name: they need the list too.
    const needsNames =
      targets.length > 0 ||
      alerts.some((a) => a.target.kind !== 'id') ||
      triggers.some((t) => t.target.kind !== 'id') ||
      policies.length > 0;
    // An additive scope always has live alerts to offer beyond its own: their names are asked for with the list.
    const adoptsBeyondScope = !!options.liveTargetNames && account.scopes.some((s) => s.ownership === 'additive');
    const adoptionNames = () => api.listDomains().catch(() => null);
    [live, domains] = await Promise.all([
      api.listAlerts(),
      needsNames ? api.listDomains() : adoptsBeyondScope ? adoptionNames() : Promise.resolve(null),
    ]);
    const index = domains ? indexDomains(domains) : null;
    // Declared targets the account lacks: created first; their placeholder ids go into the index.
    const plannedTargets = index && targets.length ? planTargetCreates(targets, index) : [];
    // destroy deletes alerts only: the declared targets are left in place (and none is created).
    const destroying = options.mode === 'destroy';
    const targetChanges: TargetChange[] = destroying ? [] : [...plannedTargets];
    const planDomains = domains && plannedTargets.length ? withPlannedTargets(domains, plannedTargets) : domains;
    const declared = await declaredAlerts(alerts, policies, planDomains, index, options);
    const scopes = planScopes(account, declared.resolved, live, options);
    // A rename into a taken name: nothing of the account is written (src/plan/plan.ts).
    if (scopes.refusals.length)
      return failedPlan(
        { account, live, domains },
        { code: 'NAME_TAKEN', message: scopes.refusals.join('; '), retryable: false },
      );
    const { changes, unchanged } = scopes;
    const warnings = [...declared.warnings, ...scopes.warnings];
    // An exclusive scope owns the account's targets too: those the app does not declare are deleted.
    const exclusive = account.scopes.find((s) => s.ownership === 'exclusive');
    // destroy --include-targets: the declared targets go too, after the alerts.
    const destroysTargets = destroying && !!options.includeTargets;
    if (domains && index && ((!destroying && exclusive) || destroysTargets)) {
      const pruned = planTargetDeletes(destroying ? null : exclusive!, targets, domains, index, live, changes, held);
      if (pruned.refusals.length)
        return failedPlan(
          { account, live, domains },
          { code: 'TARGET_IN_USE', message: pruned.refusals.join('; '), retryable: false },
        );
      for (const c of pruned.deletes) targetChanges.push(c);
      // destroy deletes on purpose: no guard, as for its alerts.
      if (pruned.deletes.length && exclusive && !destroying) {
        targetGuard(
          warnings,
          exclusive,
          declared.resolved,
          changes,
          live,
          domains,
          targets.length,
          pruned.deletes.length,
        );
      }
    }
    const undeclared =
      domains && index && !destroying && !exclusive ? undeclaredTargetsNote(targets, domains, index) : null;
    if (undeclared) warnings.push({ scopeKey: null, message: undeclared });
    if (destroying && targets.length && !destroysTargets)
      warnings.push({
        scopeKey: null,
        message: `the declared domains and subdomains (${targets.length}) are left in place: destroy deletes alerts only, unless given ${INCLUDE_TARGETS_FLAG}`,
      });
    // Alerts a local Terraform state holds are the other door's (src/plan/terraform-held.ts).
    for (const w of terraformStateWarnings(changes, held)) warnings.push(w);
    const planned = triggersToRun(triggers, index, changes);
    const coverage = declared.expansion?.report(live, changes, options.mode);
    if (domains === null && options.liveTargetNames && changes.some((c) => c.reason === 'undeclared'))
      domains = await adoptionNames();
    return {
      account,
      status: 'ok',
      error: null,
      changes,
      ...(targetChanges.length ? { targetChanges } : {}),
      unchanged,
      warnings,
      triggers: planned,
      live,
      domains,
      declared: declared.resolved,
      ...(coverage ? { coverage } : {}),
    };
  } catch (e) {
    return failedPlan({ account, live, domains }, toErrorInfo(e));
  }
}

/**
 * The exclusive scope's delete guard with its target deletes counted beside its alert deletes
 * (src/plan/plan.ts `deleteGuard`): it replaces the guard the alerts alone gave, if any.
 */
function targetGuard(
  warnings: Warning[],
  scope: Account['scopes'][number],
  declared: readonly DeclaredAlert[],
  changes: readonly Change[],
  live: readonly LiveAlert[],
  domains: readonly ApiDomain[],
  declaredTargets: number,
  targetDeletes: number,
): void {
  const at = warnings.findIndex((w) => w.guard && w.scopeKey === scope.key);
  if (at >= 0) warnings.splice(at, 1);
  let liveTargets = 0;
  for (const d of domains) if (d.id > 0) liveTargets += 1 + d.subdomains.filter((s) => s.id > 0).length;
  const guard = deleteGuard(
    scope,
    declared.filter((a) => a.scopeKey === scope.key).length,
    changes.filter((c) => c.action === 'delete' && c.scopeKey === scope.key).length,
    // An exclusive scope owns every live alert of the account.
    live.length,
    { declared: declaredTargets, deletes: targetDeletes, owned: liveTargets },
  );
  if (guard) warnings.unshift(guard);
}

/** The account's declared alerts with their targets resolved, and those its policies expand into. */
async function declaredAlerts(
  alerts: readonly Desired['alerts'][number][],
  policies: readonly Desired['policies'][number][],
  domains: ApiDomain[] | null,
  index: ReturnType<typeof indexDomains> | null,
  options: PlanOptions,
): Promise<{ resolved: DeclaredAlert[]; expansion: ReturnType<typeof expandPolicies> | null; warnings: Warning[] }> {
  const resolved: DeclaredAlert[] = alerts.map((a) => ({
    stack: a.stack,
    logicalId: a.logicalId,
    path: a.path,
    scopeKey: a.scopeKey,
    target: a.target,
    spec: a.target.kind === 'id' ? a.spec : { ...a.spec, target_id: resolveTarget(a.target, index, `alert ${a.path}`) },
  }));
  if (!policies.length) return { resolved, expansion: null, warnings: [] };
  // Policies expand into declared alerts from the domains list (src/plan/coverage).
  const thresholds = await renewalThresholds(policies, domains!, options.certificateLifetime);
  const expansion = expandPolicies(policies, resolved, domains!, thresholds.days);
  for (const a of expansion.alerts) resolved.push({ ...a, fromPolicy: true });
  return { resolved, expansion, warnings: [...thresholds.warnings] };
}

/** The diff of every scope of the account, gathered. */
function planScopes(account: Account, resolved: readonly DeclaredAlert[], live: LiveAlert[], options: PlanOptions) {
  const changes: Change[] = [];
  const warnings: Warning[] = [];
  const refusals: string[] = [];
  let unchanged = 0;
  for (const scope of account.scopes) {
    const p = planScope(
      scope,
      resolved.filter((a) => a.scopeKey === scope.key),
      live,
      options,
    );
    // One by one: a spread of 200,000 changes overflows the call stack.
    for (const c of p.changes) changes.push(c);
    unchanged += p.unchanged;
    for (const w of p.warnings) warnings.push(w);
    for (const r of p.refusals) refusals.push(r);
  }
  return { changes, unchanged, warnings, refusals };
}

/**
 * The report triggers to run. As in terraform: a report re-runs when the alerts of its target
 * change, or on every apply when asked to (a `${timestamp()}` trigger); an unchanged account runs none.
 */
function triggersToRun(
  triggers: readonly Desired['triggers'][number][],
  index: ReturnType<typeof indexDomains> | null,
  changes: readonly Change[],
): PlannedTrigger[] {
  const planned: PlannedTrigger[] = [];
  for (const t of triggers) {
    const targetId = resolveTarget(t.target, index, `report trigger ${t.path}`);
    const trigger: PlannedTrigger = {
      stack: t.stack,
      logicalId: t.logicalId,
      path: t.path,
      scopeKey: t.scopeKey,
      targetType: t.targetType,
      targetId,
      targetName: index?.names.get(`${t.targetType}:${targetId}`) ?? null,
      triggers: t.triggers,
    };
    if (runsEveryApply(trigger) || changes.some((c) => changesTarget(c, trigger))) planned.push(trigger);
  }
  return planned;
}

/**
 * Plans every account, `accountsAtOnce` at a time, in the order given; one account failing
 * does not stop the others. Accounts
 * that the list calls show to be one NetworkCalc account reached with different credentials
 * are then checked together for overlapping scopes (see `guardSharedAccounts`); those that
 * overlap come back failed.
 */
export async function planAll(
  prepared: Prepared,
  factory: ClientFactory,
  options: PlanOptions = {},
): Promise<AccountPlan[]> {
  const appScopeKeys = new Set(prepared.desired.scopes.map((s) => s.key));
  const accounts = prepared.accounts;
  const desired: DesiredByScope = {
    alerts: new ByScope(prepared.desired.alerts),
    triggers: new ByScope(prepared.desired.triggers),
    policies: new ByScope(prepared.desired.policies),
    targets: new ByScope(prepared.desired.targets ?? []),
  };
  const limit = new Limiter(Math.max(1, options.accountsAtOnce ?? PLAN_ACCOUNTS_AT_ONCE));
  const heldIndex = heldByStack(prepared.held ?? []);
  const plans = await Promise.all(
    accounts.map((account) =>
      limit.run(async () => {
        const held = heldByAccount(account, heldIndex, appScopeKeys);
        const plan = await planAccount(account, desired, factory, options, held);
        options.onPlanned?.(plan);
        return plan;
      }),
    ),
  );
  const failures = guardSharedAccounts(plans, prepared.desired.alerts);
  return plans.map((p) => {
    const error = failures.get(p);
    return error ? failedPlan(p, error) : p;
  });
}

/** A trigger holding `${timestamp()}` (ReportTrigger's `everyApply`) runs on every apply. */
function runsEveryApply(t: PlannedTrigger): boolean {
  return Object.values(t.triggers).some((v) => /\btimestamp\(\s*\)/.test(v));
}

/** Whether a change creates, edits or deletes an alert of the trigger's target. */
function changesTarget(c: Change, t: PlannedTrigger): boolean {
  return [c.before, c.after].some((a) => a?.target_type === t.targetType && a.target_id === t.targetId);
}
