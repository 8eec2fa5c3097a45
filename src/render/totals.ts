import type { AccountPlan } from '../plan/account-plan';
import type { AccountOutcome, ApplyReport } from '../engine/apply';
import { coverageTotals } from '../plan/coverage';
import { errorReason } from '../plan/error-info';
import type { Change, DeleteGuard, Warning } from '../plan/types';
import { quoteText } from '../support/terminal-text';

/** The commands whose results the renderers show. */
export type Command = 'plan' | 'apply' | 'drift' | 'destroy' | 'validate' | 'coverage' | 'synth' | 'preview' | 'report';

export interface Totals {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  triggers: number;
  /** Domains and subdomains to create. */
  targets: number;
  /** Domains and subdomains to delete (exclusive ownership; destroy --include-targets). */
  targetDeletes: number;
  failedAccounts: number;
}

export function totals(plans: readonly AccountPlan[]): Totals {
  const t: Totals = {
    create: 0,
    update: 0,
    delete: 0,
    unchanged: 0,
    triggers: 0,
    targets: 0,
    targetDeletes: 0,
    failedAccounts: 0,
  };
  for (const p of plans) {
    if (p.status === 'error') t.failedAccounts++;
    for (const c of p.changes) t[c.action]++;
    t.unchanged += p.unchanged;
    t.triggers += p.triggers.length;
    for (const c of p.targetChanges ?? []) t[c.action === 'create' ? 'targets' : 'targetDeletes']++;
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
  /** Domains and subdomains (targetChanges) created, deleted, failed, and not run. */
  targets: { created: number; deleted: number; failed: number; notRun: number };
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
    targets: { created: 0, deleted: 0, failed: 0, notRun: 0 },
  };
  for (const p of plans) {
    const outcome = report.get(p);
    if (!outcome) continue;
    outcome.targetResults?.forEach((r, i) => {
      const done = p.targetChanges![i]!.action === 'create' ? 'created' : 'deleted';
      t.targets[r.status === 'ok' ? done : r.status === 'failed' ? 'failed' : 'notRun']++;
    });
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

/** True when apply did not do everything it was asked: a change, a target change or a report failed, or another writer interfered. */
export function applyFailed(report: ApplyReport): boolean {
  for (const o of report.values()) {
    if (
      o.interference ||
      o.results.some((r) => r.status === 'failed') ||
      o.triggerResults.some((r) => r.status === 'failed') ||
      o.targetResults?.some((r) => r.status === 'failed')
    )
      return true;
  }
  return false;
}

/** The warnings of the plans that make apply refuse without their flag. */
export function guardsOf(plans: readonly AccountPlan[]): Array<Warning & { guard: DeleteGuard }> {
  return plans.flatMap((p) => p.warnings.filter((w): w is Warning & { guard: DeleteGuard } => w.guard !== undefined));
}

export type DriftKind = 'new' | 'missing' | 'edited' | 'renamed' | 'unmanaged' | 'duplicate';

export function driftKind(c: Change): DriftKind {
  if (c.action === 'create') return c.newTarget ? 'new' : 'missing';
  if (c.action === 'update') return c.reason === 'renamed' ? 'renamed' : 'edited';
  return c.reason === 'duplicate' ? 'duplicate' : 'unmanaged';
}

/** The changes drift counts as renamed rather than edited. */
export const renamedCount = (changes: readonly Change[]): number =>
  changes.filter((c) => driftKind(c) === 'renamed').length;

/**
 * Where an account ended: plan `no_changes` / `changes`; drift `in_sync` / `drift`; apply
 * `applied` / `no_changes` / `interrupted`; any command `failed` (the account could not be
 * planned, its credentials are missing or refused, or a change, a report or the check after
 * apply failed).
 */
export type AccountStatus = 'no_changes' | 'changes' | 'in_sync' | 'drift' | 'applied' | 'interrupted' | 'failed';

/** One line of the per-account summary at the end of plan, apply and drift (text, JSON, markdown). */
export interface AccountRow {
  account: string;
  stacks: string[];
  /** Planned (plan, drift) or done (apply) creates, updates and deletes. */
  create: number;
  update: number;
  delete: number;
  /** drift: the updates that are console renames (counted in `update` too); 0 otherwise. */
  renamed: number;
  /** apply: changes (of alerts and targets) and reports that failed. */
  failed: number;
  status: AccountStatus;
  /** Why the account failed, in one line; null when it did not. */
  reason: string | null;
}

/** The first line of a message, so that a table row stays one line. */
export const oneLine = (text: string): string => text.split('\n', 1)[0]!.trim();

function applyRow(p: AccountPlan, o: AccountOutcome): Omit<AccountRow, 'account' | 'stacks' | 'renamed'> {
  const row = { create: 0, update: 0, delete: 0, failed: 0 };
  let skipped = 0;
  const reasons: string[] = [];
  o.results.forEach((r, i) => {
    const c = p.changes[i]!;
    if (r.status === 'ok' || r.status === 'adopted') row[c.action]++;
    else if (r.status === 'skipped') skipped++;
    else {
      row.failed++;
      reasons.push(`${c.action} ${quoteText(c.name)}: ${oneLine(errorReason(r.error!))}`);
    }
  });
  o.targetResults?.forEach((r, i) => {
    if (r.status !== 'failed') return;
    const c = p.targetChanges![i]!;
    row.failed++;
    reasons.push(`${c.action} ${c.targetType} ${quoteText(c.name)}: ${oneLine(errorReason(r.error!))}`);
  });
  for (const r of o.triggerResults) {
    if (r.status === 'failed') {
      row.failed++;
      reasons.push(`report: ${oneLine(errorReason(r.error!))}`);
    } else if (r.status === 'skipped') skipped++; // interrupted, or after a failure counted above
  }
  if (o.interference) reasons.unshift(oneLine(o.interference.message));
  const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more)` : '';
  if (reasons.length) return { ...row, status: 'failed', reason: `${reasons[0]}${more}` };
  if (skipped) return { ...row, status: 'interrupted', reason: null };
  const work = p.changes.length + p.triggers.length;
  return { ...row, status: work ? 'applied' : 'no_changes', reason: null };
}

/** The per-account summary of a run, in the order of the plans. `report`: apply's results. */
export function accountRows(command: Command, plans: readonly AccountPlan[], report?: ApplyReport): AccountRow[] {
  return plans.map((p) => {
    const head = { account: p.account.label, stacks: [...new Set(p.account.scopes.map((s) => s.stack))] };
    if (p.status === 'error')
      return {
        ...head,
        create: 0,
        update: 0,
        delete: 0,
        renamed: 0,
        failed: 0,
        status: 'failed',
        reason: oneLine(errorReason(p.error!)),
      };
    // An account apply did not get to (a refused plan) keeps its planned counts and status.
    const outcome = command === 'drift' || command === 'plan' ? undefined : report?.get(p);
    if (outcome) return { ...head, ...applyRow(p, outcome), renamed: 0 };
    const counts = { create: 0, update: 0, delete: 0 };
    for (const c of p.changes) counts[c.action]++;
    const changed = p.changes.length > 0;
    const status: AccountStatus =
      command === 'drift'
        ? changed || (p.coverage && coverageTotals([p.coverage]).gaps)
          ? 'drift'
          : 'in_sync'
        : changed || p.triggers.length
          ? 'changes'
          : 'no_changes';
    const renamed = command === 'drift' ? renamedCount(p.changes) : 0;
    return { ...head, ...counts, renamed, failed: 0, status, reason: null };
  });
}
