import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_ACCOUNT, startEmulator } from '../../src/emulator';
import { ncalc } from '../cli/support';
import { requireBuild } from '../helpers/build';
import { call } from '../helpers/emulator';
import { alive } from '../helpers/processes';

const root = resolve(__dirname, '..', '..');
const main = join(root, 'dist', 'cli', 'main.js');
// A start or an exit waits this long: on two cores with other work on them, starting Node and the
// emulator has taken over 15 s.
const PROCESS_WAIT_MS = 60_000;
const TEST_MS = 3 * PROCESS_WAIT_MS;

interface Proc {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Proc {
  const child = spawn(process.execPath, [main, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, out: () => out, err: () => err, exit };
}

/** Waits for `predicate` or fails after `ms`, so a hung process cannot hang the suite. */
async function within<T>(ms: number, what: string, poll: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await poll();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exitWithin(p: Proc, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, rej) => {
    timer = setTimeout(() => {
      p.child.kill('SIGKILL');
      rej(new Error(`process did not exit within ${ms} ms; stdout: ${p.out()} stderr: ${p.err()}`));
    }, ms);
  });
  // The timer goes as soon as the process exits: a pending one would keep jest waiting.
  return Promise.race([p.exit, late]).finally(() => clearTimeout(timer));
}

let dir: string;
beforeAll(() => {
  requireBuild('dist/cli/main.js');
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ncalc-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ncalc emulator', () => {
  it(
    'prints where it listens, the demo credentials and the control token; SIGINT stops it with exit 0',
    async () => {
      const data = join(dir, 'state.json');
      const p = run(['emulator', '--port', '0', '--data', data, '--control-token', 'ctl-123']);
      try {
        const url = await within(
          PROCESS_WAIT_MS,
          'the listening line',
          () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.out())?.[1],
        );
        expect(p.out()).toContain(DEMO_ACCOUNT.clientId);
        expect(p.out()).toContain(DEMO_ACCOUNT.clientSecret);
        expect(p.out()).toContain(`NETWORKCALC_TOKEN=${DEMO_ACCOUNT.token}`);
        expect(p.out()).toContain('x-emulator-token: ctl-123');
        const created = await call(url, 'POST', '/api/domains/', {
          token: DEMO_ACCOUNT.token,
          json: { domain: 'cli.dev' },
        });
        expect(created.status).toBe(200);
        p.child.kill('SIGINT');
        expect(await exitWithin(p, 10_000)).toBe(0);
        expect(JSON.parse(readFileSync(data, 'utf8')).accounts[0].domains.map((d: any) => d.domain)).toContain(
          'cli.dev',
        );
      } finally {
        p.child.kill('SIGKILL');
      }
    },
    TEST_MS,
  );

  it(
    'SIGTERM stops it too',
    async () => {
      const p = run(['emulator', '--port', '0']);
      try {
        await within(PROCESS_WAIT_MS, 'the listening line', () => (/listening on/.test(p.out()) ? true : undefined));
        p.child.kill('SIGTERM');
        expect(await exitWithin(p, 10_000)).toBe(0);
      } finally {
        p.child.kill('SIGKILL');
      }
    },
    TEST_MS,
  );

  it(
    'started in the background of a script, it stops when the script is gone (the README recipe through npx)',
    async () => {
      // A shell that runs the emulator as its child, as `npx ncalc emulator &` does (npm → sh →
      // node): when the shell is killed, `kill %1` reached it but not the emulator.
      const shell = spawn(
        '/bin/sh',
        ['-c', `"${process.execPath}" "${main}" emulator --port 0 & echo "pid $!"; wait`],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      let out = '';
      shell.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      let pid = 0;
      try {
        await within(PROCESS_WAIT_MS, 'the listening line', () => (/listening on/.test(out) ? true : undefined));
        pid = Number(/pid (\d+)/.exec(out)![1]);
        expect(alive(pid)).toBe(true);
        shell.kill('SIGKILL');
        await within(5_000, 'the emulator to stop', () => (alive(pid) ? undefined : true));
        expect(out).toMatch(/its parent \(pid \d+\) is gone: stopping the emulator/);
      } finally {
        shell.kill('SIGKILL');
        try {
          if (pid) process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    },
    TEST_MS,
  );

  it(
    'a port in use: exit 1 and a clear message',
    async () => {
      const other = await startEmulator();
      try {
        const p = run(['emulator', '--port', new URL(other.url).port]);
        expect(await exitWithin(p, PROCESS_WAIT_MS)).toBe(1);
        expect(p.err()).toMatch(/port \d+ on 127\.0\.0\.1 is already in use/);
      } finally {
        await other.close();
      }
    },
    TEST_MS,
  );

  it(
    'an invalid seed file: exit 1 naming the field',
    async () => {
      const seed = join(dir, 'seed.json');
      writeFileSync(seed, JSON.stringify({ accounts: [{ name: 'a', user_id: 1, credentials: [{ client_id: 'c' }] }] }));
      const p = run(['emulator', '--port', '0', '--seed', seed]);
      expect(await exitWithin(p, PROCESS_WAIT_MS)).toBe(1);
      expect(p.err()).toContain('accounts[0].credentials[0].client_secret must be a non-empty string');
      const missing = run(['emulator', '--port', '0', '--seed', join(dir, 'nope.json')]);
      expect(await exitWithin(missing, PROCESS_WAIT_MS)).toBe(1);
      expect(missing.err()).toMatch(/cannot read seed file/);
    },
    TEST_MS,
  );

  it(
    'a custom seed lists its accounts without printing secrets',
    async () => {
      const seed = join(dir, 'seed.json');
      writeFileSync(
        seed,
        JSON.stringify({
          accounts: [{ name: 'ops', user_id: 3, credentials: [{ client_id: 'ops-id', client_secret: 'top-secret' }] }],
        }),
      );
      const p = run(['emulator', '--port', '0', '--seed', seed]);
      try {
        await within(PROCESS_WAIT_MS, 'the listening line', () => (/listening on/.test(p.out()) ? true : undefined));
        expect(p.out()).toContain('account ops: client id ops-id');
        expect(p.out()).not.toContain('top-secret');
        p.child.kill('SIGINT');
        expect(await exitWithin(p, 10_000)).toBe(0);
      } finally {
        p.child.kill('SIGKILL');
      }
    },
    TEST_MS,
  );

  it(
    '--delete-form accepts a DELETE only in that form and says so',
    async () => {
      const p = run(['emulator', '--port', '0', '--delete-form', 'body']);
      try {
        const url = await within(
          PROCESS_WAIT_MS,
          'the listening line',
          () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.out())?.[1],
        );
        expect(p.out()).toContain('DELETE:         alert id in the body only (--delete-form)');
        expect((await call(url, 'DELETE', '/api/alerts/1', { token: DEMO_ACCOUNT.token })).body).toEqual({
          status: 'MISSING_VALUES',
        });
        expect(
          (await call(url, 'DELETE', '/api/alerts/', { token: DEMO_ACCOUNT.token, json: { alert_id: 1 } })).body,
        ).toEqual({ status: 'NOT_FOUND' });
        p.child.kill('SIGTERM');
        expect(await exitWithin(p, 10_000)).toBe(0);
      } finally {
        p.child.kill('SIGKILL');
      }
    },
    TEST_MS,
  );

  it.each([
    [
      ['--delete-form', 'header'],
      "option '--delete-form <form>' argument 'header' is invalid. Allowed choices are path, query, body.",
    ],
    [['--port', 'abc'], '--port must be a whole number from 0 to 65535, got "abc"'],
  ])('%j is a usage error: exit 1, a message naming the option, no stack', async (args, message) => {
    const res = await ncalc(['emulator', ...args], { cwd: dir, env: {} });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help documents --delete-form', async () => {
    const res = await ncalc(['emulator', '--help'], { cwd: dir, env: {} });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/--delete-form <form>\s+accept a DELETE of an alert only with the id in this\s+form/);
    expect(res.stdout).toContain('(choices: "path", "query", "body")');
  });

  it(
    'a data file another emulator holds: exit 1 naming the file and its pid',
    async () => {
      const data = join(dir, 'held.json');
      const holder = await startEmulator({ dataFile: data });
      try {
        const p = run(['emulator', '--port', '0', '--data', data]);
        expect(await exitWithin(p, PROCESS_WAIT_MS)).toBe(1);
        expect(p.err()).toBe(
          `Error: data file ${data} is in use by another emulator (pid ${process.pid}, lock file ${data}.lock); stop it or give another --data file\n`,
        );
      } finally {
        await holder.close();
      }
    },
    TEST_MS,
  );

  it('--version prints the package version', async () => {
    const p = run(['--version']);
    expect(await exitWithin(p, 10_000)).toBe(0);
    expect(p.out().trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  }, 20_000);
});
