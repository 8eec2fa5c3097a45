import { diffAlert, specOf, type LiveAlert } from '../model';
import type { Change, DeclaredAlert, Scope, Warning } from './types';

export interface ScopePlan {
  changes: Change[];
  unchanged: number;
  warnings: Warning[];
}

export type PlanMode = 'converge' | 'destroy';

/** True when a live alert of this name falls in the scope's ownership. */
export function inScope(scope: Scope, name: string, declared: ReadonlySet<string>): boolean {
  switch (scope.ownership) {
    case 'exclusive':
      return true;
    case 'prefix':
      return name.startsWith(scope.prefix ?? '');
    case 'additive':
      return declared.has(name);
  }
}

function byName(live: LiveAlert[]): Map<string, LiveAlert[]> {
  const map = new Map<string, LiveAlert[]>();
  for (const a of live) {
    const list = map.get(a.name);
    if (list) list.push(a);
    else map.set(a.name, [a]);
  }
  for (const list of map.values()) list.sort((x, y) => x.id - y.id);
  return map;
}

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Identity is the name, so an alert renamed by hand reads as missing. Finds, among the live
 * alerts carrying no declared name, one that looks like the missing alert renamed: the same
 * name in another case, or (prefix scope) the name without the prefix.
 */
function renameFinder(scope: Scope, live: LiveAlert[], declared: ReadonlySet<string>): (name: string) => LiveAlert | undefined {
  const byLower = new Map<string, LiveAlert>();
  for (const a of [...live].sort((x, y) => x.id - y.id)) {
    if (!declared.has(a.name) && !byLower.has(a.name.toLowerCase())) byLower.set(a.name.toLowerCase(), a);
  }
  const prefix = scope.ownership === 'prefix' ? (scope.prefix ?? '') : '';
  return (name) => byLower.get(name.toLowerCase()) ?? (prefix && name.startsWith(prefix) ? byLower.get(name.slice(prefix.length).toLowerCase()) : undefined);
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
  const owned = byName(live.filter((a) => inScope(scope, a.name, names)));
  const changes: Change[] = [];
  const warnings: Warning[] = [];
  let unchanged = 0;
  const base = { scopeKey: scope.key, stack: scope.stack };
  const canDelete = scope.ownership !== 'additive';
  const renamed = renameFinder(scope, live, names);

  const del = (a: LiveAlert, reason: Change['reason'], d: DeclaredAlert | null): Change => ({
    ...base, action: 'delete', reason, name: a.name, id: a.id, logicalId: d?.logicalId ?? null, path: d?.path ?? null, before: specOf(a), after: null, fields: [],
  });

  for (const d of [...declared].sort((x, y) => compareNames(x.spec.name, y.spec.name))) {
    const matches = owned.get(d.spec.name) ?? [];
    if (mode === 'destroy') {
      for (const a of matches) changes.push(del(a, 'destroy', d));
      continue;
    }
    const [kept, ...extra] = matches;
    if (!kept) {
      const like = renamed(d.spec.name);
      if (like) {
        const fate = !owned.has(like.name) ? 'leaves it alone (it is outside this scope)' : canDelete ? 'deletes it as undeclared' : 'leaves it alone';
        warnings.push({
          scopeKey: scope.key,
          message: `${JSON.stringify(d.spec.name)} is not in the account, but alert ${like.id} ${JSON.stringify(like.name)} looks like it renamed: apply creates a new alert and ${fate}; to keep the old one, rename it back by hand`,
        });
      }
      changes.push({ ...base, action: 'create', reason: 'missing', name: d.spec.name, id: null, logicalId: d.logicalId, path: d.path, before: null, after: d.spec, fields: [] });
    } else {
      const fields = diffAlert(d.spec, kept);
      if (fields.length) {
        changes.push({ ...base, action: 'update', reason: 'changed', name: d.spec.name, id: kept.id, logicalId: d.logicalId, path: d.path, before: specOf(kept), after: d.spec, fields });
      } else unchanged++;
    }
    if (extra.length) {
      const ids = extra.map((a) => a.id).join(', ');
      if (canDelete) {
        warnings.push({ scopeKey: scope.key, message: `${extra.length + 1} live alerts are named ${JSON.stringify(d.spec.name)}: keeping the lowest id ${kept.id} as the managed one, deleting ${ids}` });
        for (const a of extra) changes.push(del(a, 'duplicate', null));
      } else {
        warnings.push({ scopeKey: scope.key, message: `${extra.length + 1} live alerts are named ${JSON.stringify(d.spec.name)}: managing the lowest id ${kept.id}; ownership "additive" never deletes, so ${ids} stay` });
      }
    }
  }

  if (canDelete && (mode === 'converge' || options.includeUndeclared)) {
    const reason = mode === 'destroy' ? 'destroy' : 'undeclared';
    for (const name of [...owned.keys()].sort(compareNames)) {
      if (names.has(name)) continue;
      for (const a of owned.get(name)!) changes.push(del(a, reason, null));
    }
    // An empty app in an owning scope is valid, but is more often a mistake (a stack left out,
    // alerts moved to another account) than an intent: say it loudly before apply asks.
    const undeclared = changes.filter((c) => c.reason === 'undeclared').length;
    if (mode === 'converge' && declared.length === 0 && undeclared > 0) {
      warnings.push({
        scopeKey: scope.key,
        message: `this scope declares no alerts, so apply deletes all ${undeclared} live alert${undeclared === 1 ? '' : 's'} it owns (ownership "${scope.ownership}"); if that is not intended, declare them, or use Ownership.additive() to only add`,
      });
    }
  }
  return { changes, unchanged, warnings };
}

