/**
 * The suggestions of a run as one patch: edits that meet in one file are shared, merged, or
 * leave a suggestion without a diff that says why; the combined patch always applies.
 */
import { assemble, type Draft } from '../../src/codegen/assemble';
import { applyEdits } from '../../src/codegen/patch';
import type { TextEdit } from '../../src/codegen/suggestion';

const text = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n') + '\n';
const at = (s: string) => text.indexOf(s);

function draft(alert: string, line: number, edits: TextEdit[]): Draft {
  return { kind: 'changed', account: 'main', alert, path: null, file: 'main.ts', line, summary: alert, edits };
}

/** Every edit of the suggestions with a diff, once: what the written patch makes. */
function combined(suggestions: ReturnType<typeof assemble>): string {
  const edits: TextEdit[] = [];
  for (const s of suggestions)
    for (const e of s.edits)
      if (!edits.some((x) => x.start === e.start && x.end === e.end && x.text === e.text)) edits.push(e);
  return applyEdits(text, edits);
}

it('an insertion inside a range another suggestion deletes: the later one has no diff and says which edit it meets', () => {
  const deleted = draft('a', 3, [{ start: at('line 2'), end: at('line 4'), text: '' }]);
  const added = draft('b', 4, [{ start: at('line 3') + 2, end: at('line 3') + 2, text: 'X' }]);
  const [one, two] = assemble([deleted, added], () => text);
  expect(one.diff).toContain('-line 2\n-line 3\n');
  expect(two).toMatchObject({ edits: [], diff: null });
  expect(two.summary).toBe(
    'b; no diff, since its edit overlaps the edit for a (main.ts:3): make that one first, then ask for the suggestions again',
  );
  expect(combined([one, two])).toBe(text.replace('line 2\nline 3\n', ''));
});

it('an insertion where a deletion ends, and equal edits (a shared import): both kept, made once', () => {
  const line4 = at('line 4');
  const imports = { start: 0, end: 0, text: 'import\n' };
  const deleted = draft('a', 3, [{ start: at('line 3'), end: line4, text: '' }, imports]);
  const added = draft('b', 4, [{ start: line4, end: line4, text: 'new\n' }, imports]);
  const out = assemble([deleted, added], () => text);
  expect(out.map((s) => s.edits.length)).toEqual([2, 2]);
  expect(out[1].diff).toContain('+new\n');
  expect(combined(out)).toBe('import\n' + text.replace('line 3\n', 'new\n'));
});

it('deletions that overlap are merged: the later one keeps what the earlier leaves', () => {
  const first = draft('a', 2, [{ start: at('line 2'), end: at('line 4'), text: '' }]);
  const second = draft('b', 3, [{ start: at('line 3'), end: at('line 6'), text: '' }]);
  const out = assemble([first, second], () => text);
  expect(out[1].edits).toEqual([{ start: at('line 4'), end: at('line 6'), text: '' }]);
  expect(combined(out)).toBe(text.replace('line 2\nline 3\nline 4\nline 5\n', ''));
});

it("a suggestion whose own edits overlap has no diff; the others' stay", () => {
  const bad = draft('a', 1, [
    { start: at('line 1'), end: at('line 1') + 4, text: 'LINE' },
    { start: at('line 1') + 2, end: at('line 1') + 6, text: 'x' },
  ]);
  const good = draft('b', 5, [{ start: at('line 5'), end: at('line 5') + 4, text: 'LINE' }]);
  const out = assemble([bad, good], () => text);
  expect(out[0]).toMatchObject({
    edits: [],
    diff: null,
    summary: 'a; no diff, since its edits overlap each other: make the change by hand',
  });
  expect(out[1].diff).toContain('+LINE 5\n');
});
