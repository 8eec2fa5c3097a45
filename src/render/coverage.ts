/**
 * Coverage as users see it: the gap lines `plan` and `drift` add under an account, and the
 * table of `ncalc coverage` (text, markdown, JSON).
 */
import { describeTargets } from '../model/policy';
import type { Account } from '../plan/accounts';
import {
  coverageGaps,
  coverageTotals,
  type CoverageReport,
  type CoverageStatus,
  type PolicyCoverage,
} from '../plan/coverage';
import type { ErrorInfo } from '../plan/error-info';
import { code, md, notCheckedMarkdown } from './markdown';
import { errorText } from '../plan/error-info';
import { escapeControls, quoteText } from '../support/terminal-text';

/** What the coverage renderers read of an account's plan. */
export interface CoveragePlan {
  readonly account: Account;
  readonly status: 'ok' | 'error';
  readonly error: ErrorInfo | null;
  readonly coverage?: CoverageReport;
}

export interface CoverageStyle {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

/** Gap lines shown under an account in `plan` and `drift`, at most this many; the full table is `ncalc coverage`. */
const SHOWN_GAPS = 50;

/** One line per gap (at most SHOWN_GAPS), for the text of plan, apply and drift. */
export function gapLines(report: CoverageReport | undefined, s: CoverageStyle): string[] {
  const gaps = coverageGaps(report);
  const lines = gaps
    .slice(0, SHOWN_GAPS)
    .map(
      (g) =>
        s.red(`  ✗ coverage gap: ${g.targetType} ${escapeControls(g.host)} has no ${quoteText(g.check)} alert`) +
        s.dim(`  # policy ${g.policy} (${g.mode})`),
    );
  if (gaps.length > SHOWN_GAPS)
    lines.push(s.dim(`  … and ${gaps.length - SHOWN_GAPS} more coverage gaps (ncalc coverage lists them all)`));
  return lines;
}

/** The line under a plan or a drift report about the policies; null when the app has none. */
export function gapSummary(reports: ReadonlyArray<CoverageReport | undefined>): string | null {
  if (!reports.some((r) => r?.policies.length)) return null;
  const t = coverageTotals(reports);
  if (!t.gaps)
    return `Coverage: no gaps; every target of the policies has its alerts (${t.covered} live, ${t.pending} made by apply).`;
  return `Coverage: ${t.gaps} gap${t.gaps === 1 ? '' : 's'}, targets that no live or declared alert covers (see "✗ coverage gap" above; ncalc coverage shows the table).`;
}

/** The gaps of an account for `--json` (`accounts[].coverage_gaps`). */
export function gapsJson(report: CoverageReport | undefined): Array<Record<string, unknown>> {
  return coverageGaps(report).map((g) => ({
    policy: g.policy,
    mode: g.mode,
    target_type: g.targetType,
    target_id: g.targetId,
    target: g.host,
    check: g.check,
  }));
}

/** The gaps of an account as markdown, for the drift report; empty when there are none. */
export function gapsMarkdown(report: CoverageReport | undefined): string[] {
  const gaps = coverageGaps(report);
  if (!gaps.length) return [];
  const out = [
    `**Coverage gaps** (${gaps.length}): targets that no live or declared alert covers.`,
    '',
    '| Target | Check | Policy |',
    '|---|---|---|',
  ];
  for (const g of gaps.slice(0, SHOWN_GAPS))
    out.push(`| ${g.targetType} ${code(g.host)} | ${md(g.check)} | ${code(g.policy)} (${g.mode}) |`);
  if (gaps.length > SHOWN_GAPS) out.push(`| … | ${gaps.length - SHOWN_GAPS} more | |`);
  out.push('');
  return out;
}

// ---- the table of `ncalc coverage` ----

export const MARKS: Readonly<Record<CoverageStatus, string>> = { covered: '✓', pending: '+', gap: 'gap' };
export const LEGEND =
  '✓ a live alert covers it · + apply creates (or fixes) the alert that covers it · gap: no live or declared alert covers it';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `Policy main/Baseline (generate): domains and subdomains; 7 targets × 2 checks`. */
export function policyHeading(p: PolicyCoverage): string {
  return `Policy ${p.path} (${p.mode}): ${describeTargets(p.targets)}; ${plural(p.rows.length, 'target')} × ${plural(p.checks.length, 'check')}`;
}

/** `Coverage: 12 covered, 1 made by apply, 2 gaps, of 15 checks.` */
export function coverageLine(plans: readonly CoveragePlan[]): string {
  const t = coverageTotals(plans.map((p) => p.coverage));
  const failed = plans.filter((p) => p.status === 'error').length;
  const head = failed ? `Coverage (incomplete: ${plural(failed, 'account')} not checked)` : 'Coverage';
  return `${head}: ${t.covered} covered, ${t.pending} made by apply, ${plural(t.gaps, 'gap')}, of ${plural(t.cells, 'check')} on the policies' targets.`;
}

/** True when every check of every policy is covered by a live alert now (and still will be after apply). */
export function fullyCovered(plans: readonly CoveragePlan[]): boolean {
  const t = coverageTotals(plans.map((p) => p.coverage));
  return t.covered === t.cells;
}

function statusText(status: CoverageStatus, s: CoverageStyle, width: number): string {
  const text = MARKS[status].padEnd(width);
  return status === 'covered' ? s.green(text) : status === 'pending' ? s.yellow(text) : s.red(text);
}

/** Text: per account and policy, targets × checks. */
export function coverageText(
  plans: readonly CoveragePlan[],
  s: CoverageStyle,
  heading: (p: CoveragePlan) => string,
): string {
  const out: string[] = [];
  for (const p of plans) {
    out.push(s.bold(heading(p)));
    if (p.status === 'error') {
      out.push(s.red(`  ✗ ${errorText(p.error!)}`), '');
      continue;
    }
    if (!p.coverage?.policies.length) out.push('  No policy.');
    for (const policy of p.coverage?.policies ?? []) {
      out.push(`  ${policyHeading(policy)}`);
      if (!policy.rows.length) {
        out.push(s.dim('    No domain or subdomain of the account is selected.'));
        continue;
      }
      const first = Math.max('target'.length, ...policy.rows.map((r) => escapeControls(r.host).length));
      const widths = policy.checks.map((c) => Math.max(c.label.length, MARKS.gap.length));
      out.push(
        s.dim(
          `    ${'target'.padEnd(first)}  ${policy.checks.map((c, i) => c.label.padEnd(widths[i])).join('  ')}`.trimEnd(),
        ),
      );
      for (const row of policy.rows) {
        out.push(
          `    ${escapeControls(row.host).padEnd(first)}  ${row.cells.map((c, i) => statusText(c.status, s, widths[i])).join('  ')}`.trimEnd(),
        );
      }
    }
    out.push('');
  }
  out.push(s.dim(LEGEND));
  const line = coverageLine(plans);
  out.push(s.bold(fullyCovered(plans) && !plans.some((p) => p.status === 'error') ? s.green(line) : line));
  return out.join('\n') + '\n';
}

/** Markdown for a pull request comment or `$GITHUB_STEP_SUMMARY`. */
export function coverageMarkdown(plans: readonly CoveragePlan[], label: (p: CoveragePlan) => string): string {
  const t = coverageTotals(plans.map((p) => p.coverage));
  const failed = plans.filter((p) => p.status === 'error');
  const out: string[] = ['## NetworkCalc alert coverage', ''];
  const headline = failed.length
    ? `❌ **Not fully checked**: ${plural(failed.length, 'account')} could not be planned.`
    : t.gaps
      ? `❌ **${plural(t.gaps, 'gap')}**: targets that no live or declared alert covers.`
      : t.pending
        ? `⚠️ **${t.pending} pending**: apply creates the alerts that cover them.`
        : `✅ **Covered**: every selected target has its alerts (${plural(t.cells, 'check')}).`;
  out.push(headline, '', md(coverageLine(plans)), '', md(LEGEND), '');
  for (const p of plans) {
    out.push(`### Account ${code(label(p))}`, '');
    if (p.status === 'error') {
      out.push(`❌ ${code(p.error!.code)} ${md(p.error!.message)}`, '');
      continue;
    }
    for (const policy of p.coverage?.policies ?? []) {
      out.push(`#### ${md(policyHeading(policy))}`, '');
      if (!policy.rows.length) {
        out.push('No domain or subdomain of the account is selected.', '');
        continue;
      }
      out.push(
        `| Target | ${policy.checks.map((c) => md(c.label)).join(' | ')} |`,
        `|---|${policy.checks.map(() => '---|').join('')}`,
      );
      for (const row of policy.rows)
        out.push(
          `| ${code(row.host)} | ${row.cells.map((c) => (c.status === 'gap' ? '❌ gap' : MARKS[c.status])).join(' | ')} |`,
        );
      out.push('');
    }
  }
  return out.join('\n') + '\n';
}

/** The coverage report of a run whose configuration is not valid (nothing was checked). */
export function coverageErrorMarkdown(problems: readonly string[]): string {
  return notCheckedMarkdown('coverage', problems);
}

/** The policies of an account for `ncalc coverage --json`. */
export function coverageJson(report: CoverageReport | undefined): Array<Record<string, unknown>> {
  return (report?.policies ?? []).map((p) => ({
    path: p.path,
    stack: p.stack,
    provider: p.provider,
    mode: p.mode,
    targets: {
      domains: p.targets.domains,
      subdomains: p.targets.subdomains,
      include: p.targets.include,
      exclude: p.targets.exclude,
    },
    checks: p.checks.map((c) => ({
      label: c.label,
      type: c.type,
      subtype: c.subtype,
      filter: c.filter,
      filter_value: c.filter_value,
    })),
    rows: p.rows.map((r) => ({
      target_type: r.targetType,
      target_id: r.targetId,
      target: r.host,
      cells: r.cells.map((c, i) => ({ check: p.checks[i].label, status: c.status, alert: c.alert })),
    })),
  }));
}

/** The summary of `ncalc coverage --json`. */
export function coverageSummaryJson(plans: readonly CoveragePlan[]): Record<string, number> {
  const t = coverageTotals(plans.map((p) => p.coverage));
  return {
    checks: t.cells,
    covered: t.covered,
    pending: t.pending,
    gaps: t.gaps,
    failed_accounts: plans.filter((p) => p.status === 'error').length,
  };
}
