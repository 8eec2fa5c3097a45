/** Markdown pieces shared by the drift and coverage reports (GitHub job summaries, PR comments). */
import { escapeControls } from '../support/terminal-text';

/**
 * Text in a table cell: no pipe that would end the cell, no line break that would end the row,
 * no `<` that would open an HTML comment or tag and swallow what follows, and no control
 * character (shown as its escape, as on a terminal).
 */
export const md = (v: string): string =>
  escapeControls(v.replace(/\r?\n/g, ' ')).replace(/\|/g, '\\|').replace(/</g, '&lt;');

/**
 * Inline code, also in a table cell: a backtick inside would end it early and a pipe would
 * end the cell (GitHub reads `\|` as a pipe inside code in a table); control characters and
 * line breaks are shown as their escapes.
 */
export const code = (v: string): string => '`' + escapeControls(v).replace(/`/g, "'").replace(/\|/g, '\\|') + '`';

/** A report (drift, coverage) of a run whose configuration is not valid: nothing was checked. */
export function notCheckedMarkdown(title: string, problems: readonly string[]): string {
  const lines = [`## NetworkCalc alert ${title}`, '', '❌ **Not checked**: the configuration is not valid.', ''];
  return [...lines, ...problems.map((p) => `- ${md(p)}`), ''].join('\n') + '\n';
}
