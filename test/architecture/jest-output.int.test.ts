/**
 * What `npm test` prints besides the tests: no warning of jest's module map, a skipped suite
 * with its reason, and jest's "worker failed to exit" with what it means.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const TierDuration = require('../helpers/tier-duration.js') as new () => {
  onRunStart(): void;
  lines(results: unknown): string[];
};

test('a run of the unit tier prints no "Haste module naming collision"', () => {
  // A cache of its own: jest warns when it builds its module map, not when it reuses one.
  const cache = mkdtempSync(path.join(tmpdir(), 'ncalc-jest-cache-'));
  try {
    const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
    const r = spawnSync(
      process.execPath,
      [jest, 'test/support/limiter.test.ts', '--selectProjects=unit', `--cacheDirectory=${cache}`],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), CI: 'true' },
        timeout: 120_000,
      },
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('Tests:');
    expect(r.stdout + r.stderr).not.toContain('Haste module naming collision');
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('the last lines name each suite skipped whole, and explain the worker message when jest printed it', () => {
  const reporter = new TierDuration();
  const stderr = Object.getOwnPropertyDescriptor(process.stderr, 'write');
  process.stderr.write = () => true;
  try {
    reporter.onRunStart();
    process.stderr.write('A worker process has failed to exit gracefully and has been force exited. ...\n');
  } finally {
    if (stderr) Object.defineProperty(process.stderr, 'write', stderr);
    else delete (process.stderr as { write?: unknown }).write;
  }
  const pending = (title: string) => ({ status: 'pending', title: 't', ancestorTitles: [title] });
  const lines = reporter.lines({
    numTotalTests: 3,
    numFailedTestSuites: 0,
    testResults: [
      { displayName: { name: 'e2e' }, testResults: [pending('cdktf deploy (cdktf-cli runs only on Node 22)')] },
      { displayName: { name: 'e2e' }, testResults: [pending('x'), { status: 'passed', ancestorTitles: ['y'] }] },
    ],
  });
  expect(lines[0]).toMatch(/^== e2e \(2 suites\): 3 tests in [\d.]+ s$/);
  expect(lines.slice(1)).toEqual([
    '   skipped: cdktf deploy (cdktf-cli runs only on Node 22)',
    `   ("A worker process has failed to exit gracefully" above: a worker took more than jest's 500 ms to hand back its memory on busy cores, not a leak; see jest.config.js)`,
  ]);
});
