/** Suggestions as text (terminal, log), as markdown (job summary, PR comment) and as JSON. */
import { code, md } from './markdown';
import type { Style } from './style';
import type { Suggestion } from '../codegen/suggestion';

const SIGN: Record<Suggestion['kind'], string> = { changed: '~', undeclared: '+', deleted: '-' };

function where(s: Suggestion): string {
  return s.file ? ` (${s.file}${s.line ? `:${s.line}` : ''})` : '';
}

export interface SuggestReport {
  suggestions: readonly Suggestion[];
  /** Everything as one patch for `git apply`. */
  patch: string;
  /** What stops a write; with `--write`, nothing was written when there are any. */
  problems: readonly string[];
  /** Files `--write` changed. */
  written: readonly string[] | null;
}

export function suggestText(r: SuggestReport, s: Style): string {
  const out: string[] = [];
  const withEdit = r.suggestions.filter((x) => x.diff).length;
  if (!r.suggestions.length && !r.problems.length) return '';
  const targets = r.suggestions.filter((x) => x.target).length;
  const alerts = r.suggestions.length - targets;
  out.push(
    s.bold(
      `Suggested edits to the code: ${withEdit} of ${alerts} alert${alerts === 1 ? '' : 's'} can be adopted by an edit` +
        (targets
          ? `; ${targets} ${targets === 1 ? 'domain or subdomain' : 'domains and subdomains'} to declare by hand`
          : ''),
    ),
  );
  for (const x of r.suggestions) out.push(`  ${SIGN[x.kind]} ${x.summary}${where(x)}`);
  for (const p of r.problems) out.push(s.red(`  ✗ ${p}`));
  if (r.patch) out.push('', r.patch.trimEnd());
  out.push('');
  if (r.written) {
    out.push(
      r.written.length
        ? s.green(
            `Wrote ${r.written.join(', ')}. Review with git diff; ncalc plan now shows no change for these alerts.`,
          )
        : r.problems.length
          ? s.red(refusal(r.problems))
          : 'Nothing to write.',
    );
  } else if (r.problems.length && withEdit)
    out.push(s.red('These problems stop --write; nothing can be written until they are fixed.'));
  else if (withEdit)
    out.push(
      'To apply: ncalc drift --suggest --write (or: ncalc drift --suggest --json | jq -r .suggest.patch | git apply)',
    );
  return out.join('\n') + '\n';
}

/** Why --write wrote nothing, as the last line of the output: the first reason, with what to do. */
function refusal(problems: readonly string[]): string {
  const more = problems.length - 1;
  return `Nothing was written: ${problems[0]}${more ? ` (and ${more} more problem${more === 1 ? '' : 's'} above)` : ''}.`;
}

/** The suggestions of one account, under its drift table. `diffs: false` leaves the diffs out (size). */
export function suggestMarkdown(list: readonly Suggestion[], diffs: boolean): string[] {
  if (!list.length) return [];
  const out: string[] = ['**Suggested edits to the code**', ''];
  for (const x of list) {
    const line = `${SIGN[x.kind]} ${code(x.alert)}: ${md(x.summary)}${x.file ? ` — ${code(`${x.file}${x.line ? `:${x.line}` : ''}`)}` : ''}`;
    if (!x.diff || !diffs) {
      out.push(`- ${line}${x.diff ? ' (diff left out: the report is over the size limit)' : ''}`);
      continue;
    }
    // A fence longer than any backtick run in the diff, so the diff cannot close it.
    const fence = '`'.repeat(Math.max(3, ...(x.diff.match(/`+/g) ?? []).map((r) => r.length + 1)));
    out.push(
      `<details><summary>${escapeHtml(line)}</summary>`,
      '',
      `${fence}diff`,
      x.diff.trimEnd(),
      fence,
      '',
      '</details>',
    );
  }
  out.push('');
  return out;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function suggestJson(r: SuggestReport): Record<string, unknown> {
  return {
    suggestions: r.suggestions.map((s) => ({
      kind: s.kind,
      account: s.account,
      alert: s.alert,
      path: s.path,
      file: s.file,
      line: s.line,
      summary: s.summary,
      diff: s.diff,
    })),
    patch: r.patch,
    problems: r.problems,
    written: r.written,
  };
}
