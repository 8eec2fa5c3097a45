/**
 * `ncalc synth` stopped by SIGTERM leaves nothing in TMPDIR: the folder where the app writes
 * its constructs' source locations (`ncalc-locations-*`) goes whether the signal arrives while
 * the app runs (its handler stops the app, the command ends with its sentence) or at any other
 * moment (the folder's own handler removes it, then the signal ends the process). Real
 * processes, real signals; the sources through tsx's require hook, no build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../helpers/processes';
import { cliEnv } from './support';

const SRC = path.join(__dirname, '..', '..', 'src');
let tmp: string;
let app: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-signal-tmp-'));
  app = mkdtempSync(path.join(tmpdir(), 'ncalc-signal-app-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(app, { recursive: true, force: true });
});

/** A node child running `script` with the sources compiled on load, TMPDIR its own. */
function node(script: string, cwd: string): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
    cwd,
    env: cliEnv({ TMPDIR: tmp }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, output: () => out, exited };
}

const locations = () => readdirSync(tmp).filter((f) => f.startsWith('ncalc-locations-'));

test('GIVEN SIGTERM while the app runs THEN the app is stopped, ncalc says so, and TMPDIR is left empty', async () => {
  writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ app: 'sleep 30' }));
  const main = path.join(SRC, 'cli', 'main.ts');
  const run = node(
    `process.argv.splice(1, process.argv.length, 'ncalc', 'synth'); require(${JSON.stringify(main)});`,
    app,
  );
  try {
    await waitFor('the locations folder', () => locations().length === 1, 30_000);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(run.output()).toContain('synth: interrupted (SIGTERM); the app was stopped and nothing was changed');
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    run.child.kill('SIGKILL');
  }
}, 60_000);

test('GIVEN SIGTERM while no app runs THEN the folder is removed and the signal still ends the process', async () => {
  const files = path.join(SRC, 'cli', 'files.ts');
  const run = node(
    `const { scratchDirectory } = require(${JSON.stringify(files)}); scratchDirectory('ncalc-locations-'); console.log('ready'); setTimeout(() => {}, 30000);`,
    tmp,
  );
  try {
    await waitFor('the folder', () => run.output().includes('ready'), 30_000);
    expect(locations()).toHaveLength(1);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(locations()).toEqual([]);
  } finally {
    run.child.kill('SIGKILL');
  }
}, 60_000);
