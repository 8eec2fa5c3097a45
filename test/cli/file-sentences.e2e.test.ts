/**
 * Paths that cannot be written, as one sentence naming the path and the fix (exit 1, no stack,
 * no system code), through the built `ncalc`: `synth --out` onto a file, below a file, and
 * where the system refuses; `provider install` with a --cli-config or --dir it cannot write;
 * a `.terraform.lock.hcl` that is a directory.
 *
 * Tests may run as root, for whom `chmod` makes nothing read-only. So the refusals are real
 * ones that hold for root too: sysfs (/sys) refuses new files (EACCES) and new directories
 * (EPERM) to everyone, and /proc refuses new directories (ENOENT; Node's recursive mkdir never
 * returns there, which ncalc's own directory maker avoids).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { requireBuild } from '../helpers/build';
import { FixtureApp, alert, cliEnv, ncalcProcess, stack } from './support';

jest.setTimeout(120_000);

let tmp: string;
let app: FixtureApp;
beforeAll(() => {
  requireBuild('dist/cli/main.js');
  app = new FixtureApp({ main: stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } }) });
});
afterAll(() => app?.remove());
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-file-sentences-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const env = () => cliEnv({ HOME: tmp });

/** One `Error: ` line (or a head and indented lines), no stack, no system code, exit 1. */
function expectSentence(r: { code: number; stderr: string }, sentence: string): void {
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(sentence);
  expect(r.stderr).not.toMatch(/^\s+at .+[:(]/m);
  expect(r.stderr).not.toMatch(/\b(EEXIST|EACCES|EPERM|ENOENT|EISDIR|ENOTDIR)\b/);
}

describe('synth --out', () => {
  const fix = 'give --out a directory that can be written (it is made when missing)';

  test('GIVEN --out names a file THEN one sentence names it', async () => {
    const file = path.join(tmp, 'afile');
    writeFileSync(file, 'x');
    const r = await ncalcProcess(['synth', '--out', file], { cwd: app.dir, env: env() });
    expectSentence(r, `cannot write the synthesized output to ${file}: ${file} is a file, not a directory; ${fix}`);
  });

  test('GIVEN --out below a file THEN the file is named', async () => {
    const file = path.join(tmp, 'afile');
    writeFileSync(file, 'x');
    const r = await ncalcProcess(['synth', '--out', path.join(file, 'sub')], { cwd: app.dir, env: env() });
    expectSentence(r, `${path.join(file, 'sub')}: ${file} is a file, not a directory; ${fix}`);
  });

  test('GIVEN --out where the system refuses a directory (sysfs, /proc) THEN a sentence, and no hang', async () => {
    let r = await ncalcProcess(['synth', '--out', '/sys/ncalc-out'], { cwd: app.dir, env: env() });
    expectSentence(r, `/sys/ncalc-out is not accessible (operation not permitted); ${fix}`);
    r = await ncalcProcess(['synth', '--out', '/proc/ncalc-out'], { cwd: app.dir, env: env(), timeoutMs: 20_000 });
    expectSentence(r, `/proc/ncalc-out does not exist; ${fix}`);
  });
});

describe('provider install', () => {
  test('GIVEN a --cli-config the system refuses to write (EACCES, also for root) THEN a sentence naming it', async () => {
    const r = await ncalcProcess(
      ['provider', 'install', '--dir', path.join(tmp, 'mirror'), '--cli-config', '/sys/ncalc-test.tfrc'],
      { cwd: tmp, env: env() },
    );
    expectSentence(
      r,
      'Error: /sys/ncalc-test.tfrc is not accessible (permission denied); make it writable, or give --cli-config a file that can be written',
    );
    expect(existsSync('/sys/ncalc-test.tfrc')).toBe(false);
  });

  test('GIVEN a --dir the system refuses THEN a sentence naming the path and --dir', async () => {
    const r = await ncalcProcess(['provider', 'install', '--dir', '/sys/ncalc-mirror'], { cwd: tmp, env: env() });
    expect(r.stderr).toMatch(
      /^Error: \/sys\/ncalc-mirror\S* is not accessible \(operation not permitted\); make it writable, or give --dir a directory that can be written$/m,
    );
    expectSentence(r, 'give --dir a directory');
  });

  test('GIVEN the app has a .terraform.lock.hcl that is a directory THEN a sentence naming it and the fix', async () => {
    const lock = path.join(app.dir, '.terraform.lock.hcl');
    mkdirSync(lock);
    try {
      const r = await ncalcProcess(['provider', 'install'], { cwd: app.dir, env: env(), timeoutMs: 60_000 });
      expectSentence(
        r,
        `${lock} is a directory, not a lock file; remove it (rm -r ${lock}) and run ncalc provider install again`,
      );
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  });
});
