/** The drift report in markdown, for a pull request comment or a GitHub job summary. */
import { createHash } from 'node:crypto';
import { suggestMarkdown } from './suggestions';
import type { Suggestion } from '../codegen/suggestion';
import type { AccountPlan } from '../plan/account-plan';
import { code, md, notCheckedMarkdown } from './markdown';
import { coverageTotals } from '../plan/coverage';
import { gapsMarkdown } from './coverage';
import { DRIFT_WORDS, failedAccountsLine, formatValue, scopeText } from './text';
import { accountRows, driftKind, totals, type AccountRow } from './totals';
import { triggeredMarkdown } from './triggered';

/** GitHub refuses a comment or issue body longer than this many characters. */
export const GITHUB_BODY_LIMIT = 65_536;

/** First line of every drift report, so a workflow finds the comment or issue it posted before. */
export const DRIFT_MARKER = '<!-- ncalc-drift -->';

/** The marker of one account's report: stable across runs and token rotations (a hash of the account key: base URL and stack). */
export function accountMarker(p: Pick<AccountPlan, 'account'>): string {
  return `<!-- ncalc-drift account=${createHash('sha256').update(p.account.key).digest('hex').slice(0, 16)} -->`;
}

/**
 * `note`: a line under the title (which shard of a sharded run this is); `suggestions`: the
 * edits of `ncalc drift --suggest`, shown under each account's table. Kept under GitHub's
 * body limit: the diffs go first, then lines from the end, and the report says so.
 */
export function driftMarkdown(
  plans: readonly AccountPlan[],
  note?: string,
  suggestions?: readonly Suggestion[],
  marker = DRIFT_MARKER,
): string {
  const full = driftMarkdownOf(plans, note, suggestions, true, marker);
  if (full.length <= GITHUB_BODY_LIMIT) return full;
  return withinBodyLimit(driftMarkdownOf(plans, note, suggestions, false, marker), 'ncalc drift');
}

/**
 * A report cut to GitHub's body limit: lines from the end, and a last line that says how many
 * were left out and that `command`'s log has them all. Unchanged when it fits.
 */
export function withinBodyLimit(markdown: string, command: string): string {
  return withinLimit(
    markdown,
    GITHUB_BODY_LIMIT,
    (k) =>
      `\n_… ${k} more line${k === 1 ? '' : 's'} not shown: the report is over GitHub's ${GITHUB_BODY_LIMIT.toLocaleString('en-US')}-character limit. The job's log has all of it (\`${command}\`)._\n`,
  );
}

/** GitHub keeps at most this many bytes of one step's job summary (`$GITHUB_STEP_SUMMARY`). */
export const GITHUB_SUMMARY_LIMIT = 1024 * 1024;

/**
 * `markdown` cut to `limit` (characters, or bytes with `bytes`): whole lines from the end, then
 * `notice(k)` saying the k lines left out and where they are. Unchanged when it fits.
 */
export function withinLimit(markdown: string, limit: number, notice: (left: number) => string, bytes = false): string {
  const size = (s: string) => (bytes ? Buffer.byteLength(s) : s.length);
  if (size(markdown) <= limit) return markdown;
  // The final newline ends the last line; it is not a line of its own.
  const lines = markdown.replace(/\n$/, '').split('\n');
  let kept = lines.length;
  let total = size(lines.join('\n'));
  while (kept > 0 && total + size(notice(lines.length - kept)) > limit) total -= size(lines[--kept]) + 1;
  return lines.slice(0, kept).join('\n') + notice(lines.length - kept);
}

function driftMarkdownOf(
  plans: readonly AccountPlan[],
  note: string | undefined,
  suggestions: readonly Suggestion[] | undefined,
  diffs: boolean,
  marker: string,
): string {
  const t = totals(plans);
  const n = t.create + t.update + t.delete;
  const out: string[] = [marker, '## NetworkCalc alert drift', ''];
  if (note) out.push(`_${md(note)}_`, '');
  if (t.failedAccounts) out.push(`❌ ${md(failedAccountsLine(plans))}`, '');
  // Never a green headline over an account that could not be checked.
  const checked = t.failedAccounts ? ' in the accounts checked' : '';
  const gaps = coverageTotals(plans.map((p) => p.coverage)).gaps;
  const headline = n
    ? `⚠️ **${n} difference${n === 1 ? '' : 's'}** between the code and the live alerts${checked}.`
    : gaps
      ? `⚠️ **${gaps} coverage gap${gaps === 1 ? '' : 's'}**: targets of the alert policies that no live or declared alert covers${checked}.`
      : t.failedAccounts
        ? `❌ **Not fully checked**: no drift in the accounts checked (${t.unchanged} alert${t.unchanged === 1 ? '' : 's'}), ${t.failedAccounts} account${t.failedAccounts === 1 ? '' : 's'} not checked.`
        : `✅ **In sync**: ${t.unchanged} alert${t.unchanged === 1 ? '' : 's'} match the code.`;
  out.push(headline, '');
  // Every account by name before any detail: a report cut at the size limit still names them all.
  out.push(...accountTableMarkdown(accountRows('drift', plans)));
  for (const p of plans) {
    out.push(
      `### Account ${code(p.account.label)}`,
      '',
      `${md(p.account.baseUrl)} · ${md(scopeText(p).join('; '))}`,
      '',
    );
    if (p.status === 'error') {
      out.push(`❌ ${code(p.error!.code)} ${md(p.error!.message)}`, '');
      continue;
    }
    for (const w of p.warnings) out.push(`> ⚠️ ${md(w.message)}`, '');
    out.push(...triggeredMarkdown(p));
    out.push(...gapsMarkdown(p.coverage));
    if (!p.changes.length) {
      out.push(`In sync (${p.unchanged} alert${p.unchanged === 1 ? '' : 's'}).`, '');
      if (suggestions)
        out.push(
          ...suggestMarkdown(
            suggestions.filter((x) => x.account === p.account.label),
            diffs,
          ),
        );
      continue;
    }
    out.push('| | Alert | Id | Drift | Details |', '|---|---|---|---|---|');
    for (const c of p.changes) {
      const sign = c.action === 'create' ? '+' : c.action === 'update' ? '~' : '-';
      const details =
        c.action === 'update'
          ? c.fields
              .map((f) => `${f.field}: ${code(formatValue(f.before))} → ${code(formatValue(f.after))}`)
              .join('<br>')
          : '';
      out.push(`| ${sign} | ${code(c.name)} | ${c.id ?? '—'} | ${md(DRIFT_WORDS[driftKind(c)])} | ${details} |`);
    }
    out.push('');
    if (suggestions)
      out.push(
        ...suggestMarkdown(
          suggestions.filter((x) => x.account === p.account.label),
          diffs,
        ),
      );
  }
  return out.join('\n') + '\n';
}

const STATUS_MARK: Readonly<Record<string, string>> = { in_sync: 'in sync', drift: '⚠️ drift', failed: '❌ failed' };

/** Longest error shown in a cell; the account's section below has all of it. */
const CELL_REASON_LIMIT = 200;

/** The per-account summary of a drift report (several accounts): account, counts, status, error. */
export function accountTableMarkdown(rows: readonly AccountRow[]): string[] {
  if (rows.length < 2) return [];
  const reason = (r: AccountRow) =>
    !r.reason ? '' : r.reason.length > CELL_REASON_LIMIT ? `${r.reason.slice(0, CELL_REASON_LIMIT - 1)}…` : r.reason;
  // A console rename is its own kind, as in the text table: a column when there is one.
  const renames = rows.some((r) => r.renamed > 0);
  const counts = (r: AccountRow) => (renames ? `${r.update - r.renamed} | ${r.renamed}` : `${r.update}`);
  return [
    `| Account | Missing | Edited |${renames ? ' Renamed |' : ''} To delete | Status | Error |`,
    `|---|--:|--:|${renames ? '--:|' : ''}--:|---|---|`,
    ...rows.map(
      (r) =>
        `| ${code(r.account)} | ${r.create} | ${counts(r)} | ${r.delete} | ${STATUS_MARK[r.status] ?? r.status} | ${md(reason(r))} |`,
    ),
    '',
  ];
}

/** The drift report of a run whose configuration is not valid (nothing was checked). */
export function driftErrorMarkdown(problems: readonly string[]): string {
  return notCheckedMarkdown('drift', problems);
}
