/** The plan, apply results and drift as text for a terminal or a log. */
import { SPEC_FIELDS, type AlertSpec } from '../model';
import type { AccountPlan } from '../plan/account-plan';
import type { ApplyReport, ChangeResult, TargetResult, TriggerResult } from '../engine/apply';
import { targetDeleteText, type TargetChange } from '../plan/target-changes';
import { coverageTotals } from '../plan/coverage';
import { gapLines, gapSummary } from './coverage';
import { errorReason, errorText } from '../plan/error-info';
import { targetNameOf, targetNames, type TargetNames } from '../plan/targets';
import {
  VERBS,
  accountRows,
  applyTotals,
  driftKind,
  renamedCount,
  guardsOf,
  totals,
  type AccountRow,
  type Command,
  type DriftKind,
  type Totals,
} from './totals';
import { triggeredLines } from './triggered';
import type { Style } from './style';
import type { Change, DeleteGuard, PlannedTrigger, Warning } from '../plan/types';
import { escapeControls, quoteText } from '../support/terminal-text';
import { accountCounts, firstLines, type Detail } from './grouping';

export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '(none)';
  return typeof v === 'string' ? quoteText(v) : String(v);
}

/** `stack main, provider networkcalc: ownership exclusive`, one per scope of the account. */
export function scopeText(p: Pick<AccountPlan, 'account'>): string[] {
  return p.account.scopes.map((s) => {
    const mode = s.ownership === 'prefix' ? `prefix ${quoteText(s.prefix ?? '')}` : s.ownership;
    return `stack ${s.stack}, provider ${s.providerKey}: ownership ${mode}`;
  });
}

export function accountHeading(p: Pick<AccountPlan, 'account'>): string {
  return `Account ${p.account.label} — ${p.account.baseUrl} (${p.account.identity})`;
}

function reasonText(c: Change): string {
  switch (c.reason) {
    case 'missing':
      return 'declared, not in the account';
    case 'changed':
      return 'differs from the declaration';
    case 'renamed':
      return `renamed in the account to ${quoteText(c.before?.name ?? '')}; the update names it back, keeping id ${c.id}`;
    case 'undeclared':
      return 'not declared, in an owned scope';
    case 'duplicate':
      return 'duplicate name; the lowest id is kept';
    case 'destroy':
      return 'destroy';
  }
}

/** The code once: a client message already names it (`listAlerts failed: NOT_AUTHORIZED (HTTP 401): …`). */
function targetLabel(t: PlannedTrigger): string {
  return `${t.targetType} ${t.targetName ?? ''}${t.targetName ? ' ' : ''}(id ${t.targetId})`;
}

function alertLines(spec: AlertSpec, indent: string, names?: TargetNames): string[] {
  const width = Math.max(...SPEC_FIELDS.map((f) => f.length));
  const target = targetNameOf(spec, names);
  const note = target && escapeControls(target);
  return SPEC_FIELDS.filter(
    (f) => !(f === 'subtype' && spec.subtype === null) && !(f === 'filter_value' && spec.filter_value === ''),
  ).map(
    (f) =>
      `${indent}${`${f}:`.padEnd(width + 2)}${formatValue(spec[f])}${f === 'target_id' && note ? `  # ${note}` : ''}`,
  );
}

/** One change, terraform-style. `names` annotates target ids with their domain names. */
export function changeLines(c: Change, s: Style, verbose = true, comment?: string, names?: TargetNames): string[] {
  const where = c.path ? ` (${c.path})` : '';
  const idText = c.id !== null ? ` id ${c.id}` : '';
  switch (c.action) {
    case 'create':
      return [
        s.green(`  + alert ${quoteText(c.name)}${where}`) + (comment ? s.dim(`  # ${comment}`) : ''),
        ...(verbose ? alertLines(c.after!, '      ', names).map((l) => s.green(l)) : []),
      ];
    case 'update': {
      const width = Math.max(...c.fields.map((f) => f.field.length));
      const before = targetNameOf(c.before, names);
      const after = targetNameOf(c.after, names);
      const note = (field: string) =>
        field === 'target_id' && (before || after)
          ? s.dim(`  # ${before ? escapeControls(before) : '?'} → ${after ? escapeControls(after) : '?'}`)
          : '';
      return [
        s.yellow(`  ~ alert ${quoteText(c.name)}${idText}${where}`) +
          (comment || c.reason === 'renamed' ? s.dim(`  # ${comment ?? reasonText(c)}`) : ''),
        ...c.fields.map(
          (f) =>
            s.yellow(`      ${`${f.field}:`.padEnd(width + 2)}${formatValue(f.before)} → ${formatValue(f.after)}`) +
            note(f.field),
        ),
      ];
    }
    case 'delete':
      return [s.red(`  - alert ${quoteText(c.name)}${idText}${where}`) + s.dim(`  # ${comment ?? reasonText(c)}`)];
  }
}

export function summaryLine(t: Totals, command: Command): string {
  // Counts cover only the accounts that could be planned; say so rather than imply "nothing to do".
  const head = t.failedAccounts
    ? `Plan (incomplete: ${t.failedAccounts} account${t.failedAccounts === 1 ? '' : 's'} not planned)`
    : 'Plan';
  const targetDeletes = t.targetDeletes
    ? `, then ${t.targetDeletes} domain${t.targetDeletes === 1 ? '' : 's'} and subdomains to delete`
    : '';
  if (command === 'destroy') return `${head}: 0 to create, 0 to update, ${t.delete} to delete${targetDeletes}.`;
  const targets = t.targets ? `${t.targets} domain${t.targets === 1 ? '' : 's'} and subdomains to create, then ` : '';
  return `${head}: ${targets}${t.create} to create, ${t.update} to update, ${t.delete} to delete${targetDeletes}.`;
}

/** The words of a grouped account's counts (`60 changes: 60 to create, …`). */
const PLAN_WORDS = { create: 'to create', update: 'to update', delete: 'to delete' } as const;
const DRIFT_COUNT_WORDS = { create: 'missing', update: 'edited', delete: 'to delete' } as const;

/**
 * The plan as text: per account, its scopes, changes, warnings and triggers. `detail`
 * (src/render/grouping.ts): everything, or each account's counts and first lines.
 */
export function planText(plans: readonly AccountPlan[], command: Command, s: Style, detail: Detail = null): string {
  const out: string[] = [];
  for (const p of plans) {
    out.push(s.bold(accountHeading(p)));
    for (const line of scopeText(p)) out.push(s.dim(`  ${line}`));
    if (p.status === 'error') {
      out.push(s.red(`  ✗ ${errorText(p.error!)}`), '');
      continue;
    }
    for (const w of p.warnings) out.push(warningLine(w, s));
    if (command === 'plan') out.push(...triggeredLines(p, s));
    // Target creates before the alert changes, target deletes after them: the order apply runs them in.
    const targetChanges = p.targetChanges ?? [];
    for (const c of targetChanges) if (c.action === 'create') out.push(targetChangeLine(c, s));
    if (!p.changes.length) out.push(`  No changes. ${p.unchanged} alert${p.unchanged === 1 ? '' : 's'} in sync.`);
    const names = targetNames(p);
    if (detail && p.changes.length) out.push(s.bold(accountCounts(p, PLAN_WORDS, 'change')));
    out.push(...firstLines(p.changes, (c) => changeLines(c, s, command !== 'destroy', undefined, names), detail));
    for (const c of targetChanges) if (c.action === 'delete') out.push(targetChangeLine(c, s));
    if (p.triggers.length) {
      out.push('  Report triggers apply will run:');
      const triggerLine = (t: PlannedTrigger) => {
        const map = Object.entries(t.triggers)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
        return [`  » ${targetLabel(t)} report (${t.path})${map ? s.dim(`  # triggers: ${map}`) : ''}`];
      };
      out.push(...firstLines(p.triggers, triggerLine, detail));
    }
    out.push(...gapLines(p.coverage, s));
    out.push('');
  }
  const t = totals(plans);
  // apply and destroy show the table once, after their results.
  const rows = accountRows('plan', plans);
  if (command === 'plan') out.push(...accountTable(rows, 'plan', s));
  out.push(s.bold(summaryLine(t, command)));
  const coverage = gapSummary(plans.map((p) => p.coverage));
  if (coverage) out.push(coverage);
  if (t.triggers) out.push(`Apply will also run ${t.triggers} report trigger${t.triggers === 1 ? '' : 's'}.`);
  const guards = guardsOf(plans);
  if (guards.length && command === 'plan') out.push(s.red(guardSummary(guards)));
  out.push(...failedRowLines(rows, s));
  return out.join('\n') + '\n';
}

const COLUMNS: Readonly<Record<'plan' | 'drift' | 'apply', readonly string[]>> = {
  plan: ['create', 'update', 'delete'],
  drift: ['missing', 'edited', 'to delete'],
  apply: ['created', 'updated', 'deleted', 'failed'],
};

/** Wide enough for a short reason; the whole line comes in the last lines of the output. */
const TABLE_REASON_WIDTH = 72;

const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/**
 * The per-account summary table: one row per account (account, counts, status, error),
 * under a line of totals by status. Runs of one account have their total line instead.
 */
export function accountTable(rows: readonly AccountRow[], kind: 'plan' | 'drift' | 'apply', s: Style): string[] {
  if (rows.length < 2) return [];
  // Drift names a rename as its own kind, as its summary line does: a column when there is one.
  const renames = kind === 'drift' && rows.some((r) => r.renamed > 0);
  const columns = renames ? ['missing', 'edited', 'renamed', 'to delete'] : COLUMNS[kind];
  const counts = (r: AccountRow) =>
    renames ? [r.create, r.update - r.renamed, r.renamed, r.delete] : [r.create, r.update, r.delete, r.failed];
  const status = (r: AccountRow) => r.status.replace('_', ' ');
  const byStatus = new Map<string, number>();
  for (const r of rows) byStatus.set(status(r), (byStatus.get(status(r)) ?? 0) + 1);
  const cells = rows.map((r) => [
    r.account,
    ...counts(r).slice(0, columns.length).map(String),
    status(r),
    r.reason ? clip(r.reason, TABLE_REASON_WIDTH) : '',
  ]);
  const head = ['account', ...columns, 'status', 'error'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  // Names and words left-aligned, counts right-aligned; no trailing blanks.
  const line = (c: string[]) =>
    `  ${c
      .map((v, i) => (i > 0 && i <= columns.length ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()}`;
  const statuses = [...byStatus].map(([k, n]) => `${n} ${k}`).join(', ');
  const paint = (r: AccountRow, text: string) =>
    r.status === 'failed' ? s.red(text) : r.status === 'changes' || r.status === 'drift' ? s.yellow(text) : text;
  return [
    s.bold(`Accounts: ${rows.length} (${statuses})`),
    s.dim(line(head)),
    ...rows.map((r, i) => paint(r, line(cells[i]!))),
    '',
  ];
}

/** The failed accounts, each with its one-line reason: the last lines of the output. */
export function failedRowLines(rows: readonly AccountRow[], s: Style): string[] {
  const failed = rows.filter((r) => r.status === 'failed');
  if (!failed.length) return [];
  return [
    s.red(
      `${failed.length}${rows.length > 1 ? ` of ${rows.length}` : ''} account${rows.length === 1 ? '' : 's'} failed:`,
    ),
    ...failed.map((r) => s.red(`  ✗ ${r.account}: ${r.reason}`)),
  ];
}

/** A warning; one that apply enforces stands out. */
function warningLine(w: Warning, s: Style): string {
  return w.guard ? s.red(s.bold(`  ! ${w.message}`)) : s.yellow(`  ! ${w.message}`);
}

/** `Apply will refuse: …; pass --allow-empty …`: one line for the guards a plan trips. */
export function guardSummary(guards: ReadonlyArray<{ guard: DeleteGuard }>): string {
  const flags = [...new Set(guards.map((g) => g.guard.flag))];
  const deletes = guards.reduce((n, g) => n + g.guard.deletes, 0);
  return `Apply will refuse: ${guards.length === 1 ? 'a scope' : `${guards.length} scopes`} would lose ${deletes} live alert${deletes === 1 ? '' : 's'} (see "!" above); pass ${flags.join(' and ')} to apply anyway.`;
}

/** `2 accounts failed: a (CODE: message); b (…)`: the failed accounts in one line (the markdown report's head). */
export function failedAccountsLine(plans: readonly AccountPlan[]): string {
  const failed = plans.filter((p) => p.status === 'error');
  const each = failed.map((p) => `${p.account.label} (${errorReason(p.error!)})`);
  return `${failed.length} account${failed.length === 1 ? '' : 's'} failed: ${each.join('; ')}`;
}

/** `  + domain example.com (app/Domain)`: a domain or subdomain the plan creates, or `  - …` deletes. */
export function targetChangeLine(c: TargetChange, s: Style): string {
  if (c.action === 'delete')
    return (
      s.red(`  - ${c.targetType} ${quoteText(c.name)}`) +
      s.dim(` (id ${c.id}, after the alert changes: ${targetDeleteText(c)})`)
    );
  return s.green(`  + ${c.targetType} ${quoteText(c.name)}`) + s.dim(` (${c.path}, created before the alerts on it)`);
}

export function targetResultLine(p: Pick<AccountPlan, 'account'>, c: TargetChange, r: TargetResult, s: Style): string {
  const who = `${p.account.label}: ${c.targetType} ${quoteText(c.name)}${r.id !== undefined ? ` (id ${r.id})` : ''}`;
  if (r.status === 'failed') return s.red(`  ✗ ${who}: ${c.action} failed: ${errorReason(r.error!)}`);
  if (r.status === 'skipped') return s.yellow(`  - ${who}: ${r.note}`);
  return s.green(`  ✓ ${who} ${VERBS[c.action]}`) + (r.note ? s.dim(` — ${r.note}`) : '');
}

export function changeResultLine(p: Pick<AccountPlan, 'account'>, c: Change, r: ChangeResult, s: Style): string {
  const idText = r.id !== undefined ? ` (id ${r.id})` : c.id !== null ? ` (id ${c.id})` : '';
  const who = `${p.account.label}: alert ${quoteText(c.name)}${idText}`;
  if (r.status === 'failed') return s.red(`  ✗ ${who}: ${c.action} failed: ${errorReason(r.error!)}`);
  if (r.status === 'skipped') return s.yellow(`  - ${who}: ${r.note}`);
  const verb = r.status === 'adopted' ? 'adopted' : VERBS[c.action];
  return s.green(`  ✓ ${who} ${verb}`) + (r.note ? s.dim(` — ${r.note}`) : '');
}

/** What apply did so far in one account, for its progress line. */
export interface AccountTally {
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  reports: number;
}

/** `[12/50 accounts] acct12: 40 created, 1 failed`: printed when an account's last change is done. */
export function accountDoneLine(place: number, of: number, label: string, t: AccountTally, s: Style): string {
  const parts = (
    [
      [t.created, 'created'],
      [t.updated, 'updated'],
      [t.deleted, 'deleted'],
      [t.reports, `report${t.reports === 1 ? '' : 's'}`],
      [t.failed, 'failed'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, w]) => `${n} ${w}`);
  const text = `[${place}/${of} accounts] ${label}: ${parts.join(', ') || 'nothing to do'}`;
  return t.failed ? s.red(text) : s.bold(text);
}

export function triggerResultLine(
  p: Pick<AccountPlan, 'account'>,
  t: PlannedTrigger,
  r: TriggerResult,
  s: Style,
): string {
  const who = `${p.account.label}: ${targetLabel(t)} report`;
  if (r.status === 'ok') return s.green(`  ✓ ${who}: ${r.reportUrl}`);
  if (r.status === 'skipped') return s.yellow(`  - ${who}: ${r.note}`);
  return s.red(`  ✗ ${who} failed: ${errorReason(r.error!)}`);
}

export function applySummary(
  plans: readonly AccountPlan[],
  report: ApplyReport,
  s: Style,
  command: 'apply' | 'destroy' = 'apply',
): string {
  const t = applyTotals(plans, report);
  const lines: string[] = [];
  const adopted = t.adopted ? `, ${t.adopted} adopted` : '';
  const skipped = t.skipped ? `, ${t.skipped} not started` : '';
  const interfered = plans.filter((p) => report.get(p)?.interference);
  const errors = t.failed || t.failedReports || t.targets.failed || interfered.length;
  // A run whose alert changes all worked but whose reports failed says so in the headline.
  const reportsFailed = t.failedReports
    ? `; ${t.failedReports} report${t.failedReports === 1 ? '' : 's'} failed or skipped`
    : '';
  const rows = accountRows(command, plans, report);
  lines.push(...accountTable(rows, 'apply', s));
  // Whole accounts that could not be planned are errors too, though none of their changes ran.
  const unplanned = plans.filter((p) => p.status === 'error').length;
  const notPlanned = unplanned
    ? `; ${unplanned} of ${plans.length} account${plans.length === 1 ? '' : 's'} could not be planned`
    : '';
  const headline = t.skipped ? 'interrupted' : errors || unplanned ? 'finished with errors' : 'complete';
  const line = `${command === 'destroy' ? 'Destroy' : 'Apply'} ${headline}: ${t.created} created, ${t.updated} updated, ${t.deleted} deleted${adopted}, ${t.failed} failed${skipped}${reportsFailed}${notPlanned}.`;
  lines.push(errors || t.skipped || unplanned ? s.red(line) : s.bold(line));
  const tt = t.targets;
  if (tt.created || tt.deleted || tt.failed || tt.notRun) {
    const notRun = tt.notRun ? `, ${tt.notRun} not run` : '';
    const text = `Domains and subdomains: ${tt.created} created, ${tt.deleted} deleted, ${tt.failed} failed${notRun}.`;
    lines.push(tt.failed || tt.notRun ? s.red(text) : text);
  }
  if (t.reports || t.failedReports)
    lines.push(`Reports: ${t.reports} generated, ${t.failedReports} failed or skipped.`);
  for (const p of interfered) lines.push(s.red(`✗ ${report.get(p)!.interference!.message}`));
  lines.push(...failedRowLines(rows, s));
  return lines.join('\n') + '\n';
}

export const DRIFT_WORDS: Readonly<Record<DriftKind, string>> = {
  new: 'new target (no alert of the account watches it yet); apply creates it',
  missing: 'missing (deleted out of band); apply creates it',
  edited: 'edited out of band; apply restores it',
  renamed: 'renamed out of band; apply names it back (one update, same id)',
  unmanaged: 'not declared (added out of band); apply deletes it',
  duplicate: 'duplicate name; apply deletes it',
};

/** Drift as text; `detail` as for planText. */
export function driftText(plans: readonly AccountPlan[], s: Style, detail: Detail = null): string {
  const out: string[] = [];
  for (const p of plans) {
    out.push(s.bold(accountHeading(p)));
    if (p.status === 'error') {
      out.push(s.red(`  ✗ ${errorText(p.error!)}`), '');
      continue;
    }
    for (const w of p.warnings) out.push(warningLine(w, s));
    out.push(...triggeredLines(p, s));
    // A declared target the account lacks: deleted in the console, or never created.
    for (const c of p.targetChanges ?? [])
      out.push(
        s.yellow(
          c.action === 'create'
            ? `  ! ${c.targetType} ${quoteText(c.name)} (${c.path}): missing from the account; apply creates it`
            : `  ! ${c.targetType} ${quoteText(c.name)} (id ${c.id}): not in the app; apply ${targetDeleteText(c)}`,
        ),
      );
    if (!p.changes.length && !p.targetChanges?.length)
      out.push(s.green(`  In sync: ${p.unchanged} alert${p.unchanged === 1 ? '' : 's'} match the code.`));
    const names = targetNames(p);
    if (detail && p.changes.length) out.push(s.bold(accountCounts(p, DRIFT_COUNT_WORDS, 'difference')));
    out.push(...firstLines(p.changes, (c) => changeLines(c, s, false, DRIFT_WORDS[driftKind(c)], names), detail));
    out.push(...gapLines(p.coverage, s));
    out.push('');
  }
  const t = totals(plans);
  const n = t.create + t.update + t.delete + t.targets + t.targetDeletes;
  const unchecked = t.failedAccounts
    ? `${t.failedAccounts} account${t.failedAccounts === 1 ? '' : 's'} not checked`
    : '';
  // Coverage gaps are drift (exit 2) though no alert differs: never "No drift" over them.
  const gaps = coverageTotals(plans.map((p) => p.coverage)).gaps;
  const renamed = renamedCount(plans.flatMap((p) => p.changes));
  const renames = renamed ? `${renamed} renamed, ` : '';
  const found = n
    ? `Drift: ${n} difference${n === 1 ? '' : 's'} (${t.targets ? `${t.targets} domains or subdomains missing, ` : ''}${t.targetDeletes ? `${t.targetDeletes} domains or subdomains not in the app, ` : ''}${t.create} missing, ${t.update - renamed} edited, ${renames}${t.delete} to delete)`
    : gaps
      ? 'Drift: no alert differs from the code, but the alert policies have coverage gaps'
      : unchecked
        ? 'No drift in the accounts checked'
        : 'No drift';
  const rows = accountRows('drift', plans);
  out.push(...accountTable(rows, 'drift', s));
  out.push(s.bold(unchecked ? `${found}; ${unchecked}.` : `${found}.`));
  const coverage = gapSummary(plans.map((p) => p.coverage));
  if (coverage) out.push(coverage);
  out.push(...failedRowLines(rows, s));
  return out.join('\n') + '\n';
}
