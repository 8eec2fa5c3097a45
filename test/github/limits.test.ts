/** GitHub's size limits: a body within 65,536 characters, the job summary within 1 MiB with what it holds. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { reportPointer, withinBody, withinSummary } from '../../src/github/limits';

const report = (lines: number, width = 100) =>
  Array.from({ length: lines }, (_, i) => `| ${i} | ${'x'.repeat(width)} |`).join('\n') + '\n';

it('a body that fits is unchanged; one over the limit is cut at a line and points to the artifact', () => {
  const where = reportPointer('https://github.example/o/r/actions/runs/1');
  expect(withinBody(report(10), where)).toBe(report(10));
  const cut = withinBody(report(2_000), where);
  expect(cut.length).toBeLessThanOrEqual(65_536);
  expect(cut.length).toBeGreaterThan(60_000);
  expect(cut).toMatch(
    /\n_… \d+ more lines not shown: the body is over GitHub's 65,536-character limit; the whole report is in the report artifact of https:\/\/github\.example\/o\/r\/actions\/runs\/1\._\n$/,
  );
});

it('the summary counts bytes and what the file holds already', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-summary-'));
  try {
    const file = path.join(dir, 'summary.md');
    expect(withinSummary(file, report(10))).toBe(report(10));
    writeFileSync(file, 'y'.repeat(1024 * 1024 - 50_000));
    // Two bytes a character: 30,000 characters are 60,000 bytes.
    const wide = report(300, 100).replace(/x/g, 'é');
    const cut = withinSummary(file, wide);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(50_000);
    expect(cut).toMatch(/the job summary is over GitHub's 1 MiB limit; the whole report is in the job's log\._\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
