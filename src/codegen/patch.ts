/**
 * Edits to text, and their unified diff. The edits are known spans, so the diff needs no
 * longest-common-subsequence search: each group of edits on touching lines is one change,
 * and changes within twice the context of each other share a hunk, as `diff -u` does.
 */
import type { TextEdit } from './suggestion';
import { lineIndexAt, lineStarts } from '../support/lines';

const CONTEXT = 3;

/** The edits sorted by position; overlapping edits are a bug of the caller. */
function sorted(edits: readonly TextEdit[]): TextEdit[] {
  const out = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < out.length; i++)
    if (out[i].start < out[i - 1].end)
      throw new Error(`overlapping edits at offsets ${out[i - 1].start} and ${out[i].start}`);
  return out;
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of sorted(edits)) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * The lines and line starts of the last text seen: every suggestion in a file diffs the same
 * text, and splitting a 5,000-line file per suggestion was most of the diffs' cost.
 */
let cached: { text: string; lines: string[]; starts: number[] } | null = null;
function linesOf(text: string): { lines: string[]; starts: number[] } {
  if (cached?.text !== text) cached = { text, lines: splitLines(text), starts: lineStarts(text) };
  return cached;
}

/** Lines with their terminators kept, so the last line's missing newline is visible. */
function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ?? [];
}

interface Change {
  /** Old lines [from, to), 0-based. */
  from: number;
  to: number;
  added: string[];
}

function changesOf(text: string, edits: readonly TextEdit[]): Change[] {
  const { lines, starts } = linesOf(text);
  const groups: { from: number; to: number; edits: TextEdit[] }[] = [];
  for (const e of sorted(edits)) {
    const from = lineIndexAt(starts, e.start);
    // An edit ending at a line's start (a deleted whole line) does not touch that line.
    const endAt = lineIndexAt(starts, e.end);
    const endLine = e.end > e.start && starts[endAt] === e.end ? endAt - 1 : endAt;
    // Whole lines inserted at a line's start touch no old line: the diff adds them, nothing more.
    const linesInserted = e.end === e.start && starts[from] === e.start && e.text.endsWith('\n');
    const to = linesInserted ? from : Math.min(Math.max(endLine, from) + 1, Math.max(lines.length, from + 1));
    const last = groups[groups.length - 1];
    // Touching or adjacent lines make one change, so the diff reads - - + + as diff -u writes it.
    if (last && from <= last.to) {
      last.to = Math.max(last.to, to);
      last.edits.push(e);
    } else groups.push({ from, to, edits: [e] });
  }
  return groups.map((g) => {
    const base = starts[g.from] ?? text.length;
    const end = g.to < starts.length ? starts[g.to] : text.length;
    const old = text.slice(base, end);
    const shifted = g.edits.map((e) => ({ start: e.start - base, end: e.end - base, text: e.text }));
    return { from: g.from, to: g.to, added: splitLines(applyEdits(old, shifted)) };
  });
}

function lineOut(prefix: string, line: string): string {
  return line.endsWith('\n') ? prefix + line : `${prefix}${line}\n\\ No newline at end of file\n`;
}

/**
 * The unified diff (`git apply -p1`) of `edits` to the file `file` (a path with `/`
 * separators, relative to where the patch is applied). Empty when the edits change nothing.
 */
export function unifiedDiff(file: string, text: string, edits: readonly TextEdit[]): string {
  const { lines } = linesOf(text);
  const changes = changesOf(text, edits).filter((c) => c.added.join('') !== lines.slice(c.from, c.to).join(''));
  if (!changes.length) return '';
  const out = [`--- a/${file}\n`, `+++ b/${file}\n`];
  let delta = 0; // new line number minus old, before the current hunk
  for (let i = 0; i < changes.length;) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1].from - changes[j].to <= 2 * CONTEXT) j++;
    const from = Math.max(0, changes[i].from - CONTEXT);
    const to = Math.min(lines.length, changes[j].to + CONTEXT);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let at = from;
    let hunkDelta = 0;
    for (let k = i; k <= j; k++) {
      const c = changes[k];
      for (; at < c.from; at++, oldCount++, newCount++) body.push(lineOut(' ', lines[at]));
      for (; at < c.to; at++, oldCount++) body.push(lineOut('-', lines[at]));
      for (const l of c.added) body.push(lineOut('+', l));
      newCount += c.added.length;
      hunkDelta += c.added.length - (c.to - c.from);
    }
    for (; at < to; at++, oldCount++, newCount++) body.push(lineOut(' ', lines[at]));
    const oldStart = oldCount ? from + 1 : from;
    const newStart = newCount ? from + 1 + delta : from + delta;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`, ...body);
    delta += hunkDelta;
    i = j + 1;
  }
  return out.join('');
}
