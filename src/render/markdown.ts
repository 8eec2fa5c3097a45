/** Markdown pieces shared by the drift and coverage reports (GitHub job summaries, PR comments). */

/** Text in a table cell: no pipe that would end the cell, no line break that would end the row. */
export const md = (v: string): string => v.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Inline code; a backtick inside would end it early. */
export const code = (v: string): string => '`' + v.replace(/`/g, "'") + '`';

/** A report (drift, coverage) of a run whose configuration is not valid: nothing was checked. */
export function notCheckedMarkdown(title: string, problems: readonly string[]): string {
  const lines = [`## NetworkCalc alert ${title}`, '', '❌ **Not checked**: the configuration is not valid.', ''];
  return [...lines, ...problems.map((p) => `- ${md(p)}`), ''].join('\n') + '\n';
}
