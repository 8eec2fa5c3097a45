/** The preview as text, as JSON (its format is in docs/cli.md) and as markdown for a pull request comment. */
import type { AccountPlan } from '../plan/account-plan';
import { code, md } from './markdown';
import { withinBodyLimit } from './markdown-report';
import { errorText } from '../plan/error-info';
import { accountHeading, summaryLine } from './text';
import { type Style } from './style';
import { totals } from './totals';
import { JsonItems } from './json';
import { previewTotals, type AlertPreview, type PreviewReport, type PreviewTotals } from '../preview/preview';
import { escapeControls, quoteText } from '../support/terminal-text';

/** First line of the markdown, so a workflow finds the comment it posted before. */
export const PREVIEW_MARKER = '<!-- ncalc-preview -->';

const STATE_WORDS = { fires: 'fires now', quiet: 'quiet', unknown: 'cannot evaluate' } as const;
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** `3 new alerts would fire as soon as they are created` (null when none would). */
export function newFiringLine(t: PreviewTotals): string | null {
  if (!t.newFiring) return null;
  return `${plural(t.newFiring, 'new alert')} would fire as soon as ${t.newFiring === 1 ? 'it is' : 'they are'} created`;
}

/** `Preview: 2 fire now, 5 quiet, 1 cannot be evaluated.` */
export function previewSummaryLine(t: PreviewTotals): string {
  const parts = [`${t.fires} fire${t.fires === 1 ? 's' : ''} now`, `${t.quiet} quiet`];
  if (t.unknown) parts.push(`${t.unknown} cannot be evaluated`);
  const warn = t.warnings
    ? ` ${plural(t.warnings, 'certificate threshold')} fire${t.warnings === 1 ? 's' : ''} before renewal.`
    : '';
  return `Preview of ${plural(t.alerts, 'alert')}: ${parts.join(', ')}.${warn}`;
}

function detailOf(a: AlertPreview): string {
  return a.state === 'unknown' ? a.reason! : a.observed;
}

function stateText(a: AlertPreview, s: Style): string {
  const word = STATE_WORDS[a.state].padEnd(16);
  return a.state === 'fires' ? s.red(`● ${word}`) : a.state === 'quiet' ? s.green(`○ ${word}`) : s.yellow(`? ${word}`);
}

export function previewText(report: PreviewReport, s: Style, withHeadings = true): string {
  const out: string[] = [];
  out.push(
    s.bold("Preview: each alert's condition evaluated now from this machine") +
      s.dim(` (${report.resolver}, ${report.at.toISOString().replace(/\.\d+Z$/, 'Z')})`),
  );
  for (const { plan, alerts } of report.accounts) {
    if (withHeadings) out.push(s.bold(accountHeading(plan)));
    if (plan.status === 'error') {
      out.push(s.red(`  ✗ not evaluated: ${errorText(plan.error!)}`));
      continue;
    }
    if (!alerts.length) out.push('  No alert to evaluate.');
    for (const a of alerts) {
      const action = a.plan === 'unchanged' ? '' : s.dim(` [${a.plan}]`);
      out.push(
        `  ${stateText(a, s)}${quoteText(a.name)}${action}${a.host ? s.dim(`  ${escapeControls(a.host)}`) : ''}`,
      );
      out.push(`      ${detailOf(a)}`);
      if (a.warning) out.push(s.yellow(`      ! ${a.warning}`));
    }
  }
  out.push('');
  const t = previewTotals(report);
  out.push(s.bold(previewSummaryLine(t)));
  const line = newFiringLine(t);
  if (line) out.push(s.red(`${line}.`));
  return out.join('\n') + '\n';
}

function alertJson(a: AlertPreview): Record<string, unknown> {
  return {
    name: a.name,
    path: a.path,
    stack: a.stack,
    plan: a.plan,
    type: a.alert.type,
    subtype: a.alert.subtype,
    filter: a.alert.filter,
    filter_value: a.alert.filter_value,
    target_type: a.alert.target_type,
    target_id: a.alert.target_id,
    host: a.host,
    state: a.state,
    observed: a.state === 'unknown' ? null : a.observed,
    reason: a.reason,
    warning: a.warning,
    suggested_days: a.suggestedDays,
    data: a.data,
  };
}

/** The `preview` object of `plan --preview --json`, and the body of `preview --json`. */
export function previewJson(report: PreviewReport): Record<string, unknown> {
  const t = previewTotals(report);
  return {
    resolver: report.resolver,
    evaluated_at: report.at.toISOString(),
    summary: {
      alerts: t.alerts,
      fires: t.fires,
      quiet: t.quiet,
      unknown: t.unknown,
      new_firing: t.newFiring,
      renewal_warnings: t.warnings,
    },
    // Made as they are written (writeJsonDocument): one account's verdicts in memory at a time.
    accounts: new JsonItems(report.accounts.length, (i) => {
      const { plan, alerts } = report.accounts[i]!;
      return {
        label: plan.account.label,
        base_url: plan.account.baseUrl,
        identity: plan.account.identity,
        status: plan.status,
        error: plan.error,
        alerts: alerts.map(alertJson),
      };
    }),
  };
}

/**
 * The markdown headline: what fires, and how many alerts were evaluated. Green only when every
 * alert of every account was evaluated and none fires: "cannot evaluate" (no network, a host
 * not known) or an account not planned is never reported as all clear.
 */
export function previewHeadline(t: PreviewTotals, failedAccounts: number): string {
  const evaluated = t.fires + t.quiet;
  const of =
    evaluated === t.alerts
      ? `${t.alerts === 1 ? 'the' : `all ${t.alerts}`} ${t.alerts === 1 ? 'alert' : 'alerts'} evaluated`
      : `${evaluated} of ${plural(t.alerts, 'alert')} evaluated, ${t.unknown} cannot be`;
  const notPlanned = failedAccounts ? `; ${plural(failedAccounts, 'account')} not planned` : '';
  const line = newFiringLine(t);
  if (line) return `⚠️ **${line}** (${of}${notPlanned}).`;
  if (t.fires) return `⚠️ **${plural(t.fires, 'alert')} would fire now** (${of}${notPlanned}).`;
  if (t.alerts === 0)
    return `${failedAccounts ? '❌' : 'ℹ️'} **No alert was evaluated**: there is none to evaluate${notPlanned}.`;
  if (evaluated === 0)
    return `❔ **No alert could be evaluated** (${plural(t.alerts, 'alert')}${notPlanned}); the reasons are below.`;
  if (t.unknown || failedAccounts) return `❔ **No alert would fire now among those evaluated** (${of}${notPlanned}).`;
  return `✅ **No alert would fire now** (${of}).`;
}

/**
 * The preview for a pull request comment: the headline, then one table per account; cut to
 * GitHub's body limit as the drift report is.
 */
export function previewMarkdown(report: PreviewReport, plans: readonly AccountPlan[]): string {
  const t = previewTotals(report);
  const out: string[] = [PREVIEW_MARKER, '## NetworkCalc alert preview', ''];
  const failed = report.accounts.filter((a) => a.plan.status === 'error').length;
  out.push(previewHeadline(t, failed), '');
  out.push(`${md(previewSummaryLine(t))} ${md(summaryLine(totals(plans), 'plan'))}`, '');
  out.push(
    `_Evaluated ${report.at.toISOString().replace(/\.\d+Z$/, 'Z')} from the machine that ran \`ncalc\` (${md(report.resolver)})._`,
    '',
  );
  for (const { plan, alerts } of report.accounts) {
    out.push(`### Account ${code(plan.account.label)}`, '');
    if (plan.status === 'error') {
      out.push(`❌ ${code(plan.error!.code)} ${md(plan.error!.message)}`, '');
      continue;
    }
    if (!alerts.length) {
      out.push('No alert to evaluate.', '');
      continue;
    }
    out.push('| Now | Alert | Plan | Target | Observed |', '|---|---|---|---|---|');
    for (const a of alerts) {
      const icon = a.state === 'fires' ? '🔴 fires now' : a.state === 'quiet' ? '🟢 quiet' : '❔ cannot evaluate';
      const warning = a.warning ? `<br>⚠️ ${md(a.warning)}` : '';
      out.push(
        `| ${icon} | ${code(a.name)} | ${a.plan} | ${a.host ? code(a.host) : '—'} | ${md(detailOf(a))}${warning} |`,
      );
    }
    out.push('');
  }
  return withinBodyLimit(out.join('\n') + '\n', 'ncalc preview');
}
