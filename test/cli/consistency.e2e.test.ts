/**
 * What every command has in common: --json, -v, --no-color, usage errors as usage errors, the
 * synthesizing line and the progress counter on a terminal, and `retryable` in JSON errors.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { run } from '../../src/cli/program';
import { Progress, PROGRESS_INTERVAL_MS } from '../../src/cli/progress';
import { PACKAGE_VERSION } from '../../src/version';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { CLI, FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator();
let tmp: string;
const apps: FixtureApp[] = [];
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-consistency-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  apps.splice(0).forEach((a) => a.remove());
});

function app(alerts: Record<string, Record<string, unknown>> = { A: alert({ name: 'x' }) }): FixtureApp {
  const a = new FixtureApp({ main: stack({ provider: {}, alerts }) });
  apps.push(a);
  return a;
}

const demoEnv = (extra: Record<string, string> = {}) =>
  cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...extra });

/** Runs the CLI in-process with stdout and stderr as terminals (or not). */
async function onTerminal(
  args: string[],
  cwd: string,
  tty: boolean,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: { write: (s: string) => (stdout += s), isTTY: tty },
    stderr: { write: (s: string) => (stderr += s), isTTY: tty },
    stdin: new PassThrough(),
    env: demoEnv(),
    cwd,
  });
  return { code, stdout, stderr };
}

describe('--json', () => {
  it('drift --json is drift --format json; asking for two formats is a usage error', async () => {
    const a = app();
    const json = await ncalc(['drift', '--json'], { cwd: a.dir, env: demoEnv() });
    const format = await ncalc(['drift', '--format', 'json'], { cwd: a.dir, env: demoEnv() });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(format.stdout));
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'drift', in_sync: false });
    expect((await ncalc(['drift', '--json', '--format', 'json'], { cwd: a.dir, env: demoEnv() })).code).toBe(2);

    const both = await ncalc(['drift', '--json', '--format', 'markdown'], { cwd: a.dir, env: demoEnv() });
    expect(both.code).toBe(1);
    expect(both.stderr).toBe(
      'Error: --json and --format markdown ask for two formats; --json is --format json, so give one of them\n(run with --help for usage)\n',
    );
    expect(JSON.parse(both.stdout).error).toEqual({
      code: 'USAGE_ERROR',
      retryable: false,
      problems: [expect.stringContaining('--json and --format markdown')],
    });
  });

  it('provider schema takes --json (its only format), as terraform providers schema -json', async () => {
    const r = await ncalc(['provider', 'schema', '--json'], { cwd: tmp, env: cliEnv({}) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('provider_schemas');
  });

  it('every error in the JSON carries retryable: a refused token is not, an unreachable server is, a rejected write is not', async () => {
    const a = new FixtureApp({
      main: stack({
        provider: [
          { alias: 'refused', token_env: 'REFUSED_TOKEN' },
          {
            alias: 'down',
            token_env: 'DOWN_TOKEN',
            base_url: 'http://127.0.0.1:9',
            max_retries: 1,
            timeout_seconds: 2,
          },
          { alias: 'ok', token_env: 'OK_TOKEN' },
        ],
        alerts: {
          A: alert({ name: 'a', provider: 'networkcalc.refused' }),
          B: alert({ name: 'b', provider: 'networkcalc.down' }),
          C: alert({ name: 'c', provider: 'networkcalc.ok' }),
        },
      }),
    });
    apps.push(a);
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_CREATED',
      match: { method: 'POST', path: '/api/alerts' },
    });
    const r = await ncalc(['apply', '--auto-approve', '--json'], {
      cwd: a.dir,
      env: cliEnv({
        NETWORKCALC_BASE_URL: emulator().url,
        REFUSED_TOKEN: 'nope',
        DOWN_TOKEN: 'x',
        OK_TOKEN: 'demo-token',
      }),
    });
    expect(r.code).toBe(1);
    const byLabel = Object.fromEntries(JSON.parse(r.stdout).accounts.map((x: any) => [x.label, x]));
    expect(byLabel.refused.error).toMatchObject({ code: 'NOT_AUTHORIZED', retryable: false });
    expect(byLabel.down.error).toMatchObject({
      code: expect.stringMatching(/CONNECTION_ERROR|RETRIES_EXHAUSTED/),
      retryable: true,
    });
    expect(byLabel.ok.changes[0].result).toMatchObject({
      status: 'failed',
      error: { code: 'NOT_CREATED', retryable: false },
    });
  });
});

describe('usage errors', () => {
  it('apply --json without --auto-approve is a usage error, not an invalid configuration', async () => {
    const a = app();
    await emulator().control.clearRequests();
    const r = await ncalc(['apply', '--json'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: --json needs --auto-approve: apply cannot ask for confirmation while writing JSON\n(run with --help for usage)\n',
    );
    expect(r.stderr).not.toContain('configuration');
    expect(JSON.parse(r.stdout)).toMatchObject({
      command: 'apply',
      error: { code: 'USAGE_ERROR', retryable: false },
      accounts: [],
    });
    expect(await emulator().control.requests()).toEqual([]);
  });

  it.each([
    [
      ['apply', '--auto-approve', '--parallelism', '0'],
      'Error: --parallelism must be a whole number of at least 1, got "0"',
    ],
    [['plan', '--synth-timeout', 'soon'], 'Error: --synth-timeout must be a whole number of at least 1, got "soon"'],
    [
      ['synth', '--synth-workers', '0'],
      'Error: --synth-workers must be a whole number of at least 1 (1: one process) or auto (one per core, at most 8), got "0"',
    ],
    [['destroy', '--json'], 'Error: --json needs --auto-approve: destroy cannot ask'],
  ])('%j', async (args, message) => {
    const r = await ncalc(args, { cwd: app().dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(message)).toBe(true);
    expect(r.stderr).toContain('(run with --help for usage)');
  });
});

describe('--synth-workers', () => {
  it.each(['many', '1.5', '-2', ''])(
    'refuses %j before the app runs or any API call, whatever NCALC_SYNTH_WORKERS says',
    async (value) => {
      const a = app();
      await emulator().control.clearRequests();
      const r = await ncalc(['plan', '--synth-workers', value, '--app', 'node -e "process.exit(7)"'], {
        cwd: a.dir,
        env: demoEnv({ NCALC_SYNTH_WORKERS: '2' }),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `Error: --synth-workers must be a whole number of at least 1 (1: one process) or auto (one per core, at most 8), got ${JSON.stringify(value)}\n(run with --help for usage)\n`,
      );
      expect(await emulator().control.requests()).toEqual([]);
    },
  );
});

describe('flags every command takes', () => {
  it('-v and --version print the version', async () => {
    for (const flag of ['-v', '--version']) {
      const r = await ncalc([flag], { cwd: tmp, env: cliEnv({}) });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${PACKAGE_VERSION}\n`);
    }
  });

  it('every command and subcommand declares --no-color', async () => {
    // The program as run() builds it, captured through commander's own parse hook.
    const roots: Command[] = [];
    const spy = jest.spyOn(Command.prototype, 'parseAsync').mockImplementation(function (this: Command) {
      roots.push(this);
      return Promise.resolve(this);
    });
    try {
      await ncalc(['plan'], { cwd: tmp, env: cliEnv({}) });
    } finally {
      spy.mockRestore();
    }
    const missing: string[] = [];
    const visit = (cmd: Command, prefix: string) => {
      for (const sub of cmd.commands) {
        const name = `${prefix}${sub.name()}`;
        if (!sub.options.some((o) => o.long === '--no-color')) missing.push(name);
        visit(sub, `${name} `);
      }
    };
    const [root] = roots;
    visit(root, '');
    expect(root.commands.map((c) => c.name())).toEqual(
      expect.arrayContaining(['plan', 'apply', 'drift', 'export', 'emulator', 'provider']),
    );
    expect(missing).toEqual([]);
  });

  it('export and provider accept --no-color', async () => {
    let r = await ncalc(['export', '--no-color'], { cwd: tmp, env: demoEnv() });
    expect(r.stderr).toContain('Exported 0 alerts of account NETWORKCALC');
    expect(r.code).toBe(0);
    r = await ncalc(['provider', 'schema', '--no-color'], { cwd: tmp, env: cliEnv({}) });
    expect(r.code).toBe(0);
  });

  it('emulator accepts --no-color (real process)', async () => {
    requireBuild('dist/cli/main.js');
    const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', '--no-color'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 15_000;
      while (!/listening on http/.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`the emulator did not start: ${out}${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(err).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('on a terminal', () => {
  it('a "synthesizing…" line with the time it took; none off a terminal, with --json or with --no-synth', async () => {
    const a = app();
    const shown = await onTerminal(['plan'], a.dir, true);
    expect(shown.code).toBe(0);
    expect(shown.stderr.startsWith('synthesizing…\r\u001b[Ksynthesized in ')).toBe(true);
    expect(shown.stderr).toMatch(/synthesized in \d+\.\d s\n$/);
    for (const [args, tty] of [
      [['plan'], false],
      [['plan', '--json'], true],
      [['plan', '--no-synth'], true],
      [['validate', '--json'], true],
    ] as const) {
      const r = await onTerminal([...args], a.dir, tty);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
  });

  it('apply redraws its progress counter at most about 10 times a second', async () => {
    const alerts = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`A${i}`, alert({ name: `alert ${i}` })]));
    const a = app(alerts);
    // Synthesized once, so the apply below measures only itself.
    expect((await onTerminal(['plan'], a.dir, false)).code).toBe(0);
    await emulator().control.addFault({ kind: 'latency', latencyMs: 15, match: { method: 'POST' } });
    const started = Date.now();
    const again = await onTerminal(['apply', '--auto-approve', '--parallelism', '2', '--no-synth'], a.dir, true);
    const elapsed = Date.now() - started;
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Apply complete: 60 created');
    const draws = again.stderr.split('\r\u001b[K  … ').length - 1;
    expect(draws).toBeGreaterThan(0);
    expect(draws).toBeLessThanOrEqual(Math.ceil(elapsed / PROGRESS_INTERVAL_MS) + 1);
    // The counter is gone at the end.
    expect(again.stderr.endsWith('\r\u001b[K')).toBe(true);
  });
});

describe('Progress', () => {
  it('draws at most once per interval however fast the ticks come, and once more after a quiet interval', () => {
    jest.useFakeTimers();
    try {
      let stderr = '';
      const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((stderr += s), true) } };
      const p = new Progress(io, 1000, true, () => Date.now());
      for (let i = 0; i < 500; i++) {
        p.tick();
        jest.advanceTimersByTime(1);
      }
      // 500 ticks over 500 ms: the first draws at once, then one per 100 ms.
      expect(p.draws).toBeLessThanOrEqual(Math.ceil(500 / PROGRESS_INTERVAL_MS) + 1);
      expect(p.draws).toBeGreaterThanOrEqual(4);
      p.line('a result');
      jest.advanceTimersByTime(PROGRESS_INTERVAL_MS);
      expect(stderr.endsWith('  … 500/1000 done')).toBe(true);
      p.clear();
      expect(stderr.endsWith('\r\u001b[K')).toBe(true);
      const before = p.draws;
      jest.advanceTimersByTime(10 * PROGRESS_INTERVAL_MS);
      expect(p.draws).toBe(before);
    } finally {
      jest.useRealTimers();
    }
  });

  it('writes the result lines of one turn in one write, all of them before clear returns', async () => {
    const writes: string[] = [];
    const p = new Progress(
      { stdout: { write: (s: string) => (writes.push(s), true) }, stderr: { write: () => true } },
      3,
      false,
    );
    p.line('one');
    p.line('two');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['one\ntwo\n']);
    p.line('three');
    p.clear();
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
  });

  it('draws nothing when not on a terminal', () => {
    let stderr = '';
    const p = new Progress(
      { stdout: { write: () => true }, stderr: { write: (s: string) => ((stderr += s), true) } },
      3,
      false,
    );
    p.tick();
    p.line('x');
    p.clear();
    expect(stderr).toBe('');
  });
});
