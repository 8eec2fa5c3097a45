import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, cliEnv } from './support';

const TOUR = path.join(ROOT, 'dist', 'cli', 'tour.js');

/**
 * `npm start` runs this: it must finish by itself, quickly, with exit 0, and leave nothing in
 * TMPDIR, in the environment of a user who set none of the cache variables CI sets.
 */
it('the tour runs plan, apply, drift (exit 2) and apply again, then stops everything', async () => {
  if (!existsSync(TOUR)) throw new Error(`${TOUR} is missing; run npm run build first`);
  const tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-tour-'));
  const {
    TSX_DISABLE_CACHE: _tsx,
    NODE_DISABLE_COMPILE_CACHE: _node,
    ...userEnv
  } = cliEnv({
    HOME: process.env.HOME ?? '',
    TMPDIR: tmp,
  });
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [TOUR], {
      cwd: ROOT,
      env: userEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the tour did not end within 60 s:\n${out}`));
    }, 60_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve({ code: c, stdout: out });
    });
  });
  expect(stdout).toContain('Plan: 10 to create, 0 to update, 0 to delete.');
  expect(stdout).toMatch(/report: http:\/\/127\.0\.0\.1:\d+\/\S+/);
  expect(stdout).toMatch(/→ HTTP 200/);
  expect(stdout).toContain('No changes. 10 alerts in sync.');
  expect(stdout).toMatch(/\$ ncalc drift\n[\s\S]*filter_value: "3" → "21"[\s\S]*\(exit code 2\)/);
  expect(stdout).toContain('emulator stopped.');
  expect(stdout).not.toContain('demo-token');
  expect(stdout).toContain(
    "examples/quickstart/main.ts declares 10 alerts and a report with this package's constructs, in a CDK Terrain (cdktn) app.",
  );
  expect(code).toBe(0);
  // Nothing of the tour's own is left; tsx's folder for its IPC pipes stays, empty.
  const left = readdirSync(tmp, { recursive: true, encoding: 'utf8' });
  rmSync(tmp, { recursive: true, force: true });
  expect(left.filter((f) => !/^tsx-\d+$/.test(f))).toEqual([]);
}, 70_000);
