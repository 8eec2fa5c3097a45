/** Offsets to lines: one line table for every reader of source text (TypeScript, HCL, diffs). */

/** What ends a line in JavaScript (V8's positions): `\r\n`, `\n`, `\r`, U+2028 and U+2029. */
export const JS_LINE_BREAKS = /\r\n|[\n\r\u2028\u2029]/g;

/**
 * The offset where each line of `text` starts, the first line's (0) included. A line ends at
 * `\n` (HCL, unified diffs; a `\r` before it stays in the line), or at each match of `breaks`.
 */
export function lineStarts(text: string, breaks?: RegExp): number[] {
  const starts = [0];
  if (!breaks) {
    // indexOf, not a regular expression: this runs over every line of large files.
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  const global = new RegExp(breaks.source, 'g');
  for (let m = global.exec(text); m; m = global.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/** The 0-based index of the line holding `offset` (a binary search over `lineStarts`). */
export function lineIndexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
