import { diffAlert, specOf, type CanonicalAlert, type LiveAlert } from '../model';
import { SPEC_FIELDS } from '../model/fields';
import { claims } from '../accounts/account-rules';
import { groupBy } from '../support/group-by';
import type { Change, DeclaredAlert, DeleteGuard, Scope, Warning } from './types';

export interface ScopePlan {
  changes: Change[];
  unchanged: number;
  warnings: Warning[];
  /**
   * Renames the plan refuses to make (see renamesIntoTakenNames), one sentence each: the
   * account's plan fails with them before any write.
   */
  refusals: string[];
}

/**
 * When one apply deletes "a large share" of a scope: more than `moreThan` alerts and more
 * than `share` of the live alerts the scope owns. A declaration that lost most of its alerts
 * (a failed loop, a wrong `--stack`) looks like this; a clean-up of a few stale alerts does not.
 */
export const MASS_DELETE = { moreThan: 10, share: 0.5 } as const;

/** The flag that lets apply make each guarded deletion. */
export const GUARD_FLAGS: Readonly<Record<DeleteGuard['kind'], string>> = {
  empty_scope: '--allow-empty',
  mass_delete: '--allow-mass-delete',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The guard a converging plan of one scope trips, if any: the scope declares no alerts but
 * would delete live ones (`empty_scope`), or it would delete a large share of them
 * (`mass_delete`, see MASS_DELETE). An empty scope is the more specific of the two. `targets`:
 * the live domains and subdomains an exclusive scope deletes, counted with the alerts.
 */
export function deleteGuard(
  scope: Scope,
  declared: number,
  deletes: number,
  owned: number,
  targets: { declared: number; deletes: number; owned: number } = { declared: 0, deletes: 0, owned: 0 },
): Warning | null {
  const all = deletes + targets.deletes;
  if (all === 0) return null;
  const mode =
    scope.ownership === 'prefix'
      ? `ownership "prefix" ${JSON.stringify(scope.prefix)}`
      : `ownership "${scope.ownership}"`;
  const where = `stack ${scope.stack}, provider ${scope.providerKey}`;
  // Only a plan deleting targets speaks of them, so alert-only plans read as they always did.
  const things = targets.deletes ? 'live alert or target' : 'live alert';
  const count = (n: number) => plural(n, things).replace('alert or targets', 'alerts or targets');
  const guard = (kind: DeleteGuard['kind'], flag: string) => ({
    kind,
    flag,
    deletes: all,
    owned: owned + targets.owned,
    ...(targets.deletes ? { targets: targets.deletes } : {}),
  });
  if (declared + targets.declared === 0) {
    const flag = GUARD_FLAGS.empty_scope;
    return {
      scopeKey: scope.key,
      message:
        `${where} declares no alerts, so apply would delete all ${count(all)} its scope owns (${mode}). ` +
        `apply refuses this unless ${flag} is given; if it is not intended, check the app (a stack left out, a wrong --stack, alerts moved elsewhere), or use Ownership.additive() to only add`,
      guard: guard('empty_scope', flag),
    };
  }
  const ownedAll = owned + targets.owned;
  if (all > MASS_DELETE.moreThan && all > ownedAll * MASS_DELETE.share) {
    const flag = GUARD_FLAGS.mass_delete;
    return {
      scopeKey: scope.key,
      message:
        `${where}: apply would delete ${all} of the ${count(ownedAll)} its scope owns (${mode}), more than ${MASS_DELETE.share * 100} %. ` +
        `apply refuses this unless ${flag} is given; check that the app declares every ${targets.deletes ? 'alert and target' : 'alert'} it should`,
      guard: guard('mass_delete', flag),
    };
  }
  return null;
}

export type PlanMode = 'converge' | 'destroy';

/** True when a live alert of this name falls in the scope's ownership. */
export function inScope(scope: Scope, name: string, declared: ReadonlySet<string>): boolean {
  return claims(scope, name, declared);
}

/** The live alerts the scope owns, by name, each list ordered by id. No copy of `live` is made. */
function ownedByName(
  scope: Scope,
  live: readonly LiveAlert[],
  declared: ReadonlySet<string>,
): { owned: Map<string, LiveAlert[]>; count: number } {
  const owned = groupBy(live, (a) => (inScope(scope, a.name, declared) ? a.name : undefined));
  let count = 0;
  for (const list of owned.values()) {
    count += list.length;
    if (list.length > 1) list.sort((x, y) => x.id - y.id);
  }
  return { owned, count };
}

/**
 * A planned change. Built in one place with one property order: an object spread here made a
 * plan of 200,000 deletions take seconds instead of a fraction of one.
 */
function change(
  scope: Scope,
  action: Change['action'],
  reason: Change['reason'],
  name: string,
  id: number | null,
  declared: DeclaredAlert | null,
  before: Change['before'],
  after: Change['after'],
  fields: Change['fields'],
): Change {
  return {
    action,
    reason,
    name,
    id,
    scopeKey: scope.key,
    stack: scope.stack,
    logicalId: declared?.logicalId ?? null,
    path: declared?.path ?? null,
    before,
    after,
    fields,
  };
}

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Identity is the name, so an alert renamed by hand reads as missing. Finds, among the live
 * alerts carrying no declared name, one that looks like the missing alert renamed: the same
 * name in another case, or (prefix scope) the name without the prefix. The index is built on
 * the first missing alert only, as most plans have none.
 */
function renameFinder(
  scope: Scope,
  live: readonly LiveAlert[],
  declared: ReadonlySet<string>,
): (name: string) => LiveAlert | undefined {
  let byLower: Map<string, LiveAlert> | null = null;
  const index = () => {
    if (byLower) return byLower;
    byLower = new Map();
    for (const a of live) {
      if (declared.has(a.name)) continue;
      const key = a.name.toLowerCase();
      const prior = byLower.get(key);
      if (!prior || a.id < prior.id) byLower.set(key, a);
    }
    return byLower;
  };
  const prefix = scope.ownership === 'prefix' ? (scope.prefix ?? '') : '';
  return (name) =>
    index().get(name.toLowerCase()) ??
    (prefix && name.startsWith(prefix) ? index().get(name.slice(prefix.length).toLowerCase()) : undefined);
}

/** The settings of an alert without its name: what a rename in the console leaves unchanged. */
function settingsKey(a: CanonicalAlert): string {
  let key = '';
  for (const field of SPEC_FIELDS) if (field !== 'name') key += JSON.stringify(a[field] ?? null) + '\u0000';
  return key;
}

/**
 * The one live alert outside the scope with no declared name and the settings of `spec`, if
 * exactly one: a rename the plan may not make (see findRenames), only warn about. Indexed on
 * the first call only.
 */
function sameSettingsOutside(
  scope: Scope,
  live: readonly LiveAlert[],
  declared: ReadonlySet<string>,
): (spec: CanonicalAlert) => LiveAlert | undefined {
  let bySettings: Map<string, LiveAlert | null> | null = null;
  const index = () => {
    if (bySettings) return bySettings;
    bySettings = new Map();
    for (const a of live) {
      if (declared.has(a.name) || inScope(scope, a.name, declared)) continue;
      const key = settingsKey(a);
      bySettings.set(key, bySettings.has(key) ? null : a);
    }
    return bySettings;
  };
  return (spec) => index().get(settingsKey(spec)) ?? undefined;
}

/**
 * Renames made in the console, as one-to-one pairs: a declared alert that is missing, and a
 * live alert the scope owns whose name is not declared, with equal settings. Only a pair with
 * no other candidate on either side counts (two missing alerts with the settings of one live
 * alert, or two live alerts for one missing alert, are left as creates and deletes). Only
 * alerts the scope owns are renamed: in ownership "additive", and outside a prefix, an
 * undeclared alert may be another app's or a person's, and renaming it would take it over
 * (two such apps would rename it back and forth).
 */
function findRenames(
  scope: Scope,
  missing: readonly DeclaredAlert[],
  owned: ReadonlyMap<string, LiveAlert[]>,
  declared: ReadonlySet<string>,
): Map<DeclaredAlert, LiveAlert> {
  const renames = new Map<DeclaredAlert, LiveAlert>();
  if (!missing.length || scope.ownership === 'additive') return renames;
  const wanted = groupBy(missing, (d) => settingsKey(d.spec));
  // A generator, not a copy of the list (see "Big accounts" in docs/architecture.md).
  function* undeclared(): Generator<LiveAlert> {
    for (const [name, alerts] of owned) if (!declared.has(name)) yield* alerts;
  }
  const candidates = groupBy(undeclared(), (a) => {
    const key = settingsKey(a);
    return wanted.has(key) ? key : undefined;
  });
  for (const [key, alerts] of candidates) {
    const ds = wanted.get(key)!;
    if (ds.length === 1 && alerts.length === 1) renames.set(ds[0]!, alerts[0]!);
  }
  return renames;
}

/**
 * Renames in the app into a name the account already has: a declared alert whose name is held
 * by a live alert of other settings (which the plan would update), while exactly one live
 * alert without a declared name has exactly its settings (the alert before the rename, which
 * the plan would delete, or leave beside it in ownership "additive"). Converging would take
 * over the other alert and drop the renamed one's id; so the plan refuses, naming both.
 */
function renamesIntoTakenNames(
  scope: Scope,
  declared: readonly DeclaredAlert[],
  owned: ReadonlyMap<string, LiveAlert[]>,
  live: readonly LiveAlert[],
  names: ReadonlySet<string>,
): string[] {
  const taken = declared.filter((d) => {
    const kept = owned.get(d.spec.name)?.[0];
    return kept !== undefined && diffAlert(d.spec, kept).length > 0;
  });
  if (!taken.length) return [];
  const bySettings = new Map<string, LiveAlert[]>();
  for (const a of live) {
    if (names.has(a.name) || (scope.ownership !== 'additive' && !inScope(scope, a.name, names))) continue;
    const key = settingsKey(a);
    const list = bySettings.get(key);
    if (list) list.push(a);
    else bySettings.set(key, [a]);
  }
  const refusals: string[] = [];
  for (const d of taken) {
    const before = bySettings.get(settingsKey(d.spec));
    if (before?.length !== 1) continue;
    const from = before[0]!;
    const holder = owned.get(d.spec.name)![0]!;
    refusals.push(
      `alert ${d.path} looks renamed in the app from ${JSON.stringify(from.name)} (alert ${from.id}, same settings) to ${JSON.stringify(d.spec.name)}, ` +
        `but the account already has alert ${holder.id} ${JSON.stringify(d.spec.name)}, which this plan does not remove; ` +
        `ncalc refuses to rename into a taken name (it would take over alert ${holder.id} and drop alert ${from.id}): ` +
        `give the alert a free name, or rename or delete alert ${holder.id} in the account first`,
    );
  }
  return refusals;
}

/** A delete of a live alert. */
function deleteOf(scope: Scope, a: LiveAlert, reason: Change['reason'], d: DeclaredAlert | null): Change {
  return change(scope, 'delete', reason, a.name, a.id, d, specOf(a), null, []);
}

/** What a scope plan knows of the live alerts while it walks the declared ones. */
interface LiveView {
  owned: ReadonlyMap<string, LiveAlert[]>;
  /** Declared alerts that take over a live alert under another name. */
  renames: ReadonlyMap<DeclaredAlert, LiveAlert>;
  renamedIds: ReadonlySet<number>;
  /** A live alert whose name differs from this one only in case or spacing. */
  renamed: (name: string) => LiveAlert | undefined;
  /** A live alert outside the scope with the same settings as this one. */
  outsideWithSettings: (spec: CanonicalAlert) => LiveAlert | undefined;
  /** Whether some live alert of the account, of any scope, watches this alert's target. */
  watched: (spec: CanonicalAlert) => boolean;
}

/** The targets the account's live alerts watch, gathered on the first question. */
function watchedTargets(live: readonly LiveAlert[]): (spec: CanonicalAlert) => boolean {
  let targets: Set<string> | undefined;
  const key = (a: Pick<CanonicalAlert, 'target_type' | 'target_id'>) => `${a.target_type}:${a.target_id}`;
  return (spec) => (targets ??= new Set(live.map(key))).has(key(spec));
}

/** A warning that a missing alert looks like a live one renamed, saying what apply does to it. */
function lookalikeWarning(scope: Scope, view: LiveView, d: DeclaredAlert, like: LiveAlert): Warning {
  const canDelete = scope.ownership !== 'additive';
  const fate = !view.owned.has(like.name)
    ? scope.ownership === 'additive'
      ? 'leaves it alone (ownership "additive" never takes over an alert it does not declare)'
      : 'leaves it alone (it is outside this scope)'
    : canDelete
      ? 'deletes it as undeclared'
      : 'leaves it alone';
  return {
    scopeKey: scope.key,
    message: `${JSON.stringify(d.spec.name)} is not in the account, but alert ${like.id} ${JSON.stringify(like.name)} looks like it renamed: apply creates a new alert and ${fate}; to keep the old one, rename it back by hand`,
  };
}

/** A declared alert with no live one of its name: taken over from a rename, or created. */
function planMissing(scope: Scope, view: LiveView, d: DeclaredAlert, changes: Change[], warnings: Warning[]): void {
  const from = view.renames.get(d);
  if (from) {
    const fields = diffAlert(d.spec, from);
    changes.push(change(scope, 'update', 'renamed', d.spec.name, from.id, d, specOf(from), d.spec, fields));
    return;
  }
  const like = view.renamed(d.spec.name) ?? view.outsideWithSettings(d.spec);
  // One renamed back into another declared alert is not this one's.
  if (like && !view.renamedIds.has(like.id)) warnings.push(lookalikeWarning(scope, view, d, like));
  const create = change(scope, 'create', 'missing', d.spec.name, null, d, null, d.spec, []);
  // A policy's alert for a target nothing of the account watches: the target is new in the
  // account (a domain added in the console), not an alert deleted. A declared alert stays
  // "missing": its only alert on a target may well have been deleted.
  if (d.fromPolicy && !view.watched(d.spec)) create.newTarget = true;
  changes.push(create);
}

/** Live alerts sharing a declared name: the lowest id is managed, the others deleted unless additive. */
function planDuplicates(
  scope: Scope,
  d: DeclaredAlert,
  kept: LiveAlert,
  extra: readonly LiveAlert[],
  changes: Change[],
  warnings: Warning[],
): void {
  const ids = extra.map((a) => a.id).join(', ');
  if (scope.ownership !== 'additive') {
    warnings.push({
      scopeKey: scope.key,
      message: `${extra.length + 1} live alerts are named ${JSON.stringify(d.spec.name)}: keeping the lowest id ${kept.id} as the managed one, deleting ${ids}`,
    });
    for (const a of extra) changes.push(deleteOf(scope, a, 'duplicate', null));
  } else {
    warnings.push({
      scopeKey: scope.key,
      message: `${extra.length + 1} live alerts are named ${JSON.stringify(d.spec.name)}: managing the lowest id ${kept.id}; ownership "additive" never deletes, so ${ids} stay`,
    });
  }
}

/**
 * Plans one scope, level-based: compares the declared alerts with the live alerts of the
 * scope by name. `declared` must have resolved target ids. Live alerts outside the scope
 * are never changed (only named in a warning when one looks renamed). Deterministic: changes come out ordered by name, then id.
 *
 * With `mode: 'destroy'`, every live alert with a declared name is deleted; with
 * `includeUndeclared` also the other alerts an exclusive or prefix scope owns.
 */
export function planScope(
  scope: Scope,
  declared: DeclaredAlert[],
  live: LiveAlert[],
  options: { mode?: PlanMode; includeUndeclared?: boolean } = {},
): ScopePlan {
  const mode = options.mode ?? 'converge';
  const names = new Set(declared.map((d) => d.spec.name));
  const { owned, count: ownedCount } = ownedByName(scope, live, names);
  const changes: Change[] = [];
  const warnings: Warning[] = [];
  let unchanged = 0;
  const canDelete = scope.ownership !== 'additive';
  const renames =
    mode === 'converge'
      ? findRenames(
          scope,
          declared.filter((d) => !owned.has(d.spec.name)),
          owned,
          names,
        )
      : new Map<DeclaredAlert, LiveAlert>();
  const view: LiveView = {
    owned,
    renames,
    renamedIds: new Set([...renames.values()].map((a) => a.id)),
    renamed: renameFinder(scope, live, names),
    outsideWithSettings: sameSettingsOutside(scope, live, names),
    watched: watchedTargets(live),
  };
  const refusals = mode === 'converge' ? renamesIntoTakenNames(scope, declared, owned, live, names) : [];

  for (const d of [...declared].sort((x, y) => compareNames(x.spec.name, y.spec.name))) {
    const matches = owned.get(d.spec.name) ?? [];
    if (mode === 'destroy') {
      for (const a of matches) changes.push(deleteOf(scope, a, 'destroy', d));
      continue;
    }
    const [kept, ...extra] = matches;
    if (!kept) planMissing(scope, view, d, changes, warnings);
    else {
      const fields = diffAlert(d.spec, kept);
      if (fields.length) {
        changes.push(change(scope, 'update', 'changed', d.spec.name, kept.id, d, specOf(kept), d.spec, fields));
      } else unchanged++;
      if (extra.length) planDuplicates(scope, d, kept, extra, changes, warnings);
    }
  }

  if (canDelete && (mode === 'converge' || options.includeUndeclared)) {
    const reason = mode === 'destroy' ? 'destroy' : 'undeclared';
    for (const name of [...owned.keys()].sort(compareNames)) {
      if (names.has(name)) continue;
      for (const a of owned.get(name)!) if (!view.renamedIds.has(a.id)) changes.push(deleteOf(scope, a, reason, null));
    }
  }
  // destroy deletes on purpose; apply must not lose a scope's alerts to a broken declaration.
  if (mode === 'converge') {
    let deletes = 0;
    for (const c of changes) if (c.action === 'delete') deletes++;
    const guard = deleteGuard(scope, declared.length, deletes, ownedCount);
    if (guard) warnings.unshift(guard);
  }
  return { changes, unchanged, warnings, refusals };
}
