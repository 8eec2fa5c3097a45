/**
 * Alignment as `terraform fmt` makes it: the `=` of consecutive one-line attributes lines up,
 * one space after the longest name of the run. An edited block keeps that alignment when it
 * had it: lines added take the run's width, and the others move when the longest name changes.
 */
import type { HclAttribute, HclBlock, HclFile } from './hcl-parse';
import { lineStart } from './hcl-parse';
import type { TextEdit } from './suggestion';

/** The attribute is alone on its lines: nothing but blanks before it and blanks or a comment after. */
export function aloneOnLines(file: HclFile, attr: HclAttribute): boolean {
  if (file.text.slice(lineStart(file, attr.line), attr.nameStart).trim() !== '') return false;
  const rest = file.text.slice(attr.exprEnd, lineStart(file, attr.endLine + 1)).trim();
  return rest === '' || rest.startsWith('#') || rest.startsWith('//');
}

/**
 * Whether `terraform fmt` aligns the attribute's `=` with its neighbours: it is alone on its
 * line and no bracket is left open at the end of its first line (a heredoc is one token).
 */
function alignable(file: HclFile, attr: HclAttribute): boolean {
  if (!aloneOnLines(file, attr)) return false;
  let depth = 0;
  for (const t of attr.expr) {
    if (t.line !== attr.line) break;
    if (t.kind === 'punct' && '([{'.includes(t.text)) depth++;
    else if (t.kind === 'punct' && ')]}'.includes(t.text)) depth--;
  }
  return depth === 0;
}

type Row = { attr: HclAttribute } | { insert: string } | 'break';

/** The block's attribute lines as `terraform fmt` groups them: runs of alignable attributes on consecutive lines. */
function rowsOf(
  file: HclFile,
  block: HclBlock,
  removed: ReadonlySet<HclAttribute> = new Set(),
  inserts: ReadonlyMap<HclAttribute, string[]> = new Map(),
  insertsBefore: ReadonlyMap<HclAttribute, string[]> = new Map(),
): Row[] {
  const rows: Row[] = [];
  let prev: HclAttribute | undefined;
  for (const attr of block.attributes) {
    if (prev && attr.line !== prev.endLine + 1) rows.push('break');
    prev = attr;
    for (const name of insertsBefore.get(attr) ?? []) rows.push({ insert: name });
    if (!removed.has(attr)) rows.push(alignable(file, attr) ? { attr } : 'break');
    for (const name of inserts.get(attr) ?? []) rows.push({ insert: name });
  }
  return rows;
}

function runsOf(rows: Row[]): Exclude<Row, 'break'>[][] {
  const runs: Exclude<Row, 'break'>[][] = [[]];
  for (const r of rows) {
    if (r === 'break') runs.push([]);
    else runs[runs.length - 1].push(r);
  }
  return runs.filter((r) => r.length);
}

const rowName = (r: Exclude<Row, 'break'>): string => ('attr' in r ? r.attr.name : r.insert);

/** Every run of the block already has `terraform fmt`'s alignment (one space after the longest name). */
export function fmtAligned(file: HclFile, block: HclBlock): boolean {
  return runsOf(rowsOf(file, block)).every((run) => {
    const width = Math.max(...run.map((r) => rowName(r).length));
    return run.every(
      (r) =>
        'attr' in r && file.text.slice(r.attr.nameEnd, r.attr.equals) === ' '.repeat(width - r.attr.name.length + 1),
    );
  });
}

/**
 * The edits that realign the block's runs once `removed` lines are gone and the lines of
 * `inserts` (after an attribute) and `insertsBefore` are added, and the width each added name
 * is padded to.
 */
export function realign(
  file: HclFile,
  block: HclBlock,
  removed: ReadonlySet<HclAttribute>,
  inserts: ReadonlyMap<HclAttribute, string[]> = new Map(),
  insertsBefore: ReadonlyMap<HclAttribute, string[]> = new Map(),
): { edits: TextEdit[]; widths: Map<string, number> } {
  const edits: TextEdit[] = [];
  const widths = new Map<string, number>();
  for (const run of runsOf(rowsOf(file, block, removed, inserts, insertsBefore))) {
    const width = Math.max(...run.map((r) => rowName(r).length));
    for (const r of run) {
      if ('insert' in r) widths.set(r.insert, width);
      else if (file.text.slice(r.attr.nameEnd, r.attr.equals) !== ' '.repeat(width - r.attr.name.length + 1))
        edits.push({ start: r.attr.nameEnd, end: r.attr.equals, text: ' '.repeat(width - r.attr.name.length + 1) });
    }
  }
  return { edits, widths };
}
