/**
 * What README.md says npm itself keeps in TMPDIR (the tour keeps nothing: tour.e2e.test.ts):
 * on Node 22 and later its compile cache, unless NODE_DISABLE_COMPILE_CACHE=1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/build';

const major = Number(process.versions.node.split('.')[0]);

function npmLeaves(env: Record<string, string>): string[] {
  const tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-npm-tmp-'));
  try {
    const r = spawnSync('npm', ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH, HOME: tmp, TMPDIR: tmp, npm_config_update_notifier: 'false', ...env },
    });
    expect(r.status).toBe(0);
    return readdirSync(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

(major >= 22 ? test : test.skip)('npm keeps node-compile-cache in TMPDIR, and nothing with the variable set', () => {
  expect(npmLeaves({})).toContain('node-compile-cache');
  expect(npmLeaves({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual([]);
});

test('the README says so', () => {
  expect(readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')).toContain(
    'The tour leaves nothing in `TMPDIR`. npm itself keeps its cache in `~/.npm` and, on Node 22\nand later, a compile cache in `$TMPDIR/node-compile-cache`; `export\nNODE_DISABLE_COMPILE_CACHE=1` (as CI does) leaves that out too.',
  );
});
