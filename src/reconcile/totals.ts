import type { AccountPlan } from './account-plan';
import type { ApplyReport } from './apply';
import type { Change, DeleteGuard, Warning } from './types';

/** The commands whose results the renderers show. */
export type Command = 'plan' | 'apply' | 'drift' | 'destroy' | 'validate' | 'coverage' | 'preview';

export interface Totals {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  triggers: number;
  failedAccounts: number;
}

export function totals(plans: readonly AccountPlan[]): Totals {
  const t: Totals = { create: 0, update: 0, delete: 0, unchanged: 0, triggers: 0, failedAccounts: 0 };
  for (const p of plans) {
    if (p.status === 'error') t.failedAccounts++;
    for (const c of p.changes) t[c.action]++;
    t.unchanged += p.unchanged;
    t.triggers += p.triggers.length;
  }
  return t;
}

export const VERBS = { create: 'created', update: 'updated', delete: 'deleted' } as const;

export interface ApplyTotals {
  created: number;
  updated: number;
  deleted: number;
  adopted: number;
  failed: number;
  /** Not started: the run was interrupted. */
  skipped: number;
  reports: number;
  failedReports: number;
}

export function applyTotals(plans: readonly AccountPlan[], report: ApplyReport): ApplyTotals {
  const t: ApplyTotals = {
    created: 0,
    updated: 0,
    deleted: 0,
    adopted: 0,
    failed: 0,
    skipped: 0,
    reports: 0,
    failedReports: 0,
  };
  for (const p of plans) {
    const outcome = report.get(p);
    if (!outcome) continue;
    outcome.results.forEach((r, i) => {
      if (r.status === 'ok') t[VERBS[p.changes[i].action]]++;
      else t[r.status]++;
    });
    for (const r of outcome.triggerResults) {
      if (r.status === 'ok') t.reports++;
      else t.failedReports++;
    }
  }
  return t;
}

/** True when apply did not do everything it was asked: a change or report failed, or another writer interfered. */
export function applyFailed(report: ApplyReport): boolean {
  for (const o of report.values()) {
    if (
      o.interference ||
      o.results.some((r) => r.status === 'failed') ||
      o.triggerResults.some((r) => r.status === 'failed')
    )
      return true;
  }
  return false;
}

/** The warnings of the plans that make apply refuse without their flag. */
export function guardsOf(plans: readonly AccountPlan[]): Array<Warning & { guard: DeleteGuard }> {
  return plans.flatMap((p) => p.warnings.filter((w): w is Warning & { guard: DeleteGuard } => w.guard !== undefined));
}

export type DriftKind = 'missing' | 'edited' | 'unmanaged' | 'duplicate';

export function driftKind(c: Change): DriftKind {
  if (c.action === 'create') return 'missing';
  if (c.action === 'update') return 'edited';
  return c.reason === 'duplicate' ? 'duplicate' : 'unmanaged';
}
