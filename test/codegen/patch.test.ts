/**
 * The unified diff of known edits, checked by the tool users apply it with: git apply must
 * turn the old text into exactly what applyEdits makes, for edits anywhere in a file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { applyEdits, unifiedDiff } from '../../src/codegen/patch';
import type { TextEdit } from '../../src/codegen/suggestion';

const text = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
const at = (s: string) => text.indexOf(s);

function gitApplied(before: string, edits: TextEdit[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-patch-'));
  try {
    writeFileSync(path.join(dir, 'f.ts'), before);
    writeFileSync(path.join(dir, 'p.diff'), unifiedDiff('f.ts', before, edits));
    execFileSync('git', ['apply', '-p1', 'p.diff'], { cwd: dir, stdio: 'pipe' });
    return readFileSync(path.join(dir, 'f.ts'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases: Record<string, TextEdit[]> = {
  'one word': [{ start: at('line 5'), end: at('line 5') + 4, text: 'LINE' }],
  'a line deleted, one inserted far away': [
    { start: at('line 5\n'), end: at('line 6\n'), text: '' },
    { start: at('line 30\n'), end: at('line 30\n'), text: 'new\n' },
  ],
  'first and last line (no context before, none after)': [
    { start: 0, end: 1, text: 'L' },
    { start: at('line 39'), end: text.length, text: 'end\n' },
  ],
  'lines inserted': [{ start: at('line 20'), end: at('line 20'), text: 'a\nb\n' }],
  'changes close enough to share a hunk': [
    { start: at('line 10'), end: at('line 10') + 4, text: 'X' },
    { start: at('line 14'), end: at('line 14') + 4, text: 'Y' },
  ],
};

describe.each(Object.entries(cases))('%s', (_name, edits) => {
  it('git apply gives what applyEdits gives', () => {
    expect(gitApplied(text, edits)).toBe(applyEdits(text, edits));
  });
});

it('edits on adjacent lines read as diff -u writes them: the old lines, then the new', () => {
  const diff = unifiedDiff('f.ts', text, [
    { start: at('line 3'), end: at('line 3') + 4, text: 'LINE' },
    { start: at('line 4'), end: at('line 4') + 4, text: 'LINE' },
  ]);
  expect(diff).toContain('-line 3\n-line 4\n+LINE 3\n+LINE 4\n');
  expect(diff).toContain('@@ -1,8 +1,8 @@');
});

it('a file without a final newline says so, and still applies', () => {
  const short = 'a\nb\nc';
  const edits = [{ start: 4, end: 5, text: 'C' }];
  expect(unifiedDiff('f.ts', short, edits)).toContain(
    '-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n',
  );
  expect(gitApplied(short, edits)).toBe('a\nb\nC');
});

it('edits that change nothing make no diff; overlapping edits are refused', () => {
  expect(unifiedDiff('f.ts', text, [{ start: 0, end: 4, text: 'line' }])).toBe('');
  expect(() =>
    applyEdits(text, [
      { start: 0, end: 5, text: '' },
      { start: 3, end: 6, text: '' },
    ]),
  ).toThrow(/overlapping/);
});
