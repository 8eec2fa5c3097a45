import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, cliEnv } from './support';

const TOUR = path.join(ROOT, 'dist', 'cli', 'tour.js');

/** `npm start` runs this: it must finish by itself, quickly, with exit 0. */
it('the tour runs plan, apply, drift (exit 2) and apply again, then stops everything', async () => {
  if (!existsSync(TOUR)) throw new Error(`${TOUR} is missing; run npm run build first`);
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [TOUR], {
      cwd: ROOT,
      env: cliEnv({ HOME: process.env.HOME ?? '' }),
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
  expect(code).toBe(0);
}, 70_000);
