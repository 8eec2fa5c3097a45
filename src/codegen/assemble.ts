/**
 * The suggestions of a run as one patch that applies. Each suggester builds its suggestions'
 * edits alone; here they meet, file by file, in the order given: an edit equal to one taken
 * is shared (the import two new declarations need), deletions that overlap are merged (the
 * later one keeps only what the earlier leaves), and any other edit that touches a range
 * already edited makes its suggestion one without a diff, saying which edit it collides with.
 * So every suggestion with a diff applies together with the others, and a collision never
 * fails the run.
 */
import * as path from 'node:path';
import { unifiedDiff } from './patch';
import type { Suggestion, TextEdit } from './suggestion';

/** A suggestion as a suggester makes it: its edits, no diff yet. */
export type Draft = Omit<Suggestion, 'diff'>;

const isInsertion = (e: TextEdit) => e.start === e.end;

/** Whether two edits cannot both be made: they change one range (touching ends are fine). */
function collide(a: TextEdit, b: TextEdit): boolean {
  if (isInsertion(a) && isInsertion(b)) return false;
  if (isInsertion(a)) return b.start < a.start && a.start < b.end;
  if (isInsertion(b)) return a.start < b.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

const same = (a: TextEdit, b: TextEdit) => a.start === b.start && a.end === b.end && a.text === b.text;

/** What of the deletion `d` the deletion `taken` leaves: up to two pieces. */
function minus(d: TextEdit, taken: TextEdit): TextEdit[] {
  const out: TextEdit[] = [];
  if (d.start < taken.start) out.push({ start: d.start, end: taken.start, text: '' });
  if (d.end > taken.end) out.push({ start: taken.end, end: d.end, text: '' });
  return out;
}

interface Taken {
  edit: TextEdit;
  owner: Draft;
}

/**
 * `edits` fitted to the edits `taken`: an equal edit is kept (made once in the patch),
 * deletions are trimmed to what the taken ones leave; `fresh` are those not taken yet. The
 * taken edit that blocks them otherwise.
 */
function fit(owner: Draft, taken: readonly Taken[]): { edits: TextEdit[]; fresh: TextEdit[] } | { blocker: Taken } {
  const pending = [...owner.edits];
  const out: TextEdit[] = [];
  const fresh: TextEdit[] = [];
  while (pending.length) {
    const e = pending.shift()!;
    // Its own edits taken so far count too: they must fit each other.
    const hit = [...taken, ...out.map((edit) => ({ edit, owner }))].find((t) => same(t.edit, e) || collide(t.edit, e));
    if (!hit) {
      out.push(e);
      fresh.push(e);
    } else if (same(hit.edit, e)) out.push(e);
    else if (e.text === '' && hit.edit.text === '') pending.unshift(...minus(e, hit.edit));
    else return { blocker: hit };
  }
  return { edits: out, fresh };
}

/**
 * The suggestions with their diffs, every edit fitting with every other of its file.
 * `textOf(file)` is the text the edits of `file` were computed on.
 */
export function assemble(drafts: readonly Draft[], textOf: (file: string) => string | undefined): Suggestion[] {
  const taken = new Map<string, Taken[]>();
  return drafts.map((d): Suggestion => {
    const text = d.file && d.edits.length ? textOf(d.file) : undefined;
    if (!d.file || text === undefined) return { ...d, diff: null };
    const inFile = taken.get(d.file) ?? [];
    taken.set(d.file, inFile);
    const fitted = fit(d, inFile);
    if (!('edits' in fitted)) {
      const b = fitted.blocker.owner;
      const why =
        b === d
          ? 'its edits overlap each other: make the change by hand'
          : `its edit overlaps the edit for ${b.alert}${b.line ? ` (${b.file}:${b.line})` : ''}: make that one first, then ask for the suggestions again`;
      return {
        ...d,
        summary: `${d.summary}; no diff, since ${why}`,
        edits: [],
        diff: null,
      };
    }
    for (const edit of fitted.fresh) inFile.push({ edit, owner: d });
    return {
      ...d,
      edits: fitted.edits,
      diff: unifiedDiff(d.file.split(path.sep).join('/'), text, fitted.edits),
    };
  });
}
