/** The drift report in markdown, for a pull request comment or a GitHub job summary. */
import type { AccountPlan } from './account-plan';
import { code, md, notCheckedMarkdown } from './markdown';
import { coverageTotals } from './coverage';
import { gapsMarkdown } from './coverage-render';
import { DRIFT_WORDS, failedAccountsLine, formatValue, scopeText } from './render-text';
import { driftKind, totals } from './totals';

/** `note`: a line under the title (which shard of a sharded run this is). */
export function driftMarkdown(plans: readonly AccountPlan[], note?: string): string {
  const t = totals(plans);
  const n = t.create + t.update + t.delete;
  const out: string[] = ['## NetworkCalc alert drift', ''];
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
    out.push(...gapsMarkdown(p.coverage));
    if (!p.changes.length) {
      out.push(`In sync (${p.unchanged} alert${p.unchanged === 1 ? '' : 's'}).`, '');
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
      out.push(`| ${sign} | ${code(c.name)} | ${c.id ?? '—'} | ${md(DRIFT_WORDS[driftKind(c)])} | ${md(details)} |`);
    }
    out.push('');
  }
  return out.join('\n') + '\n';
}

/** The drift report of a run whose configuration is not valid (nothing was checked). */
export function driftErrorMarkdown(problems: readonly string[]): string {
  return notCheckedMarkdown('drift', problems);
}
