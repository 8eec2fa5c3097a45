/** The CLI as users meet it: help, colour, synthesis of the real examples, errors. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { run } from '../../src/cli/program';
import { NetworkCalcClient } from '../../src/client';
import { useEmulator } from '../helpers/emulator';
import { CLI, FixtureApp, ROOT, alert, cliEnv, ncalc, ncalcProcess, stack } from './support';

const emulator = useEmulator();
let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-cli-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('help', () => {
  it.each(['plan', 'validate', 'apply', 'drift', 'destroy', 'export', 'import-blocks'])(
    'ncalc %s --help',
    async (cmd) => {
      const r = await ncalc([cmd, '--help'], { cwd: tmp, env: cliEnv({}) });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: ncalc ${cmd} [options]`);
      expect(r.stdout).toMatch(/Exit codes:/);
    },
  );

  it.each(['emulator', 'provider install', 'provider schema'])('ncalc %s --help', async (cmd) => {
    const r = await ncalc([...cmd.split(' '), '--help'], { cwd: tmp, env: cliEnv({}) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: ncalc ${cmd}`);
  });

  it('a reader that closes early (ncalc … | head) ends the command quietly (real process)', async () => {
    const child = spawn(process.execPath, [CLI, 'provider', 'schema'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Closed before the first write, as `head` does once it has read enough.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('ncalc did not exit within 10 s')), 10_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });

  it('an unknown flag is an error with a hint', async () => {
    const r = await ncalc(['plan', '--frobnicate'], { cwd: tmp, env: cliEnv({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown option '--frobnicate'");
  });
});

describe('colour', () => {
  async function planWithTTY(env: NodeJS.ProcessEnv, extra: string[] = []): Promise<string> {
    const a = new FixtureApp({ main: stack({ provider: {}, alerts: { A: alert({ name: 'x' }) } }) });
    let out = '';
    const stdin = new PassThrough();
    await run(['plan', ...extra], {
      stdout: { write: (s: string) => (out += s), isTTY: true },
      stderr: { write: () => true },
      stdin,
      env,
      cwd: a.dir,
    });
    a.remove();
    return out;
  }
  const env = () => ({ PATH: process.env.PATH, NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });

  it('on a terminal', async () => {
    expect(await planWithTTY(env())).toContain('\u001b[32m  + alert "x"');
  });
  it('never with NO_COLOR or --no-color', async () => {
    expect(await planWithTTY({ ...env(), NO_COLOR: '1' })).not.toContain('\u001b[');
    expect(await planWithTTY(env(), ['--no-color'])).not.toContain('\u001b[');
  });
});

describe('synthesis', () => {
  it('synthesizes examples/quickstart with its cdktf.json app (real process)', async () => {
    const env = cliEnv({
      NETWORKCALC_TOKEN: 'demo-token',
      NETWORKCALC_BASE_URL: emulator().url,
      HOME: process.env.HOME ?? tmp,
    });
    const out = path.join(tmp, 'out');
    let r = await ncalcProcess(
      ['plan', '-C', path.join(ROOT, 'examples/quickstart'), '--out', out, '--detailed-exitcode'],
      { cwd: ROOT, env, timeoutMs: 60_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('+ alert "www.example.com certificate expiry" (quickstart/WwwCertificate)');
    expect(r.stdout).toContain('Plan: 10 to create, 0 to update, 0 to delete.');
    r = await ncalcProcess(
      ['apply', '-C', path.join(ROOT, 'examples/quickstart'), '--out', out, '--no-synth', '--auto-approve'],
      { cwd: ROOT, env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ quickstart: domain example.com \(id 1\) report: http:\/\/127\.0\.0\.1:\d+\//);
    r = await ncalcProcess(['drift', '-C', path.join(ROOT, 'examples/quickstart'), '--out', out, '--no-synth'], {
      cwd: ROOT,
      env,
    });
    expect(r.code).toBe(0);
  }, 70_000);

  it('examples/multi-account: two accounts, each with its own token; one bad token fails only its account', async () => {
    const account = (name: string, userId: number, token: string, base: number) => ({
      name,
      user_id: userId,
      tokens: [{ access_token: token }],
      domains: [
        { id: base + 1, domain: 'example.com', subdomains: [{ id: base + 2, prefix: 'www' }] },
        { id: base + 3, domain: 'example.org' },
      ],
    });
    await emulator().control.seed({
      accounts: [account('prod', 1, 'prod-token', 100), account('staging', 2, 'staging-token', 200)],
    });
    const out = path.join(tmp, 'out');
    const dir = path.join(ROOT, 'examples/multi-account');
    const base = { NETWORKCALC_BASE_URL: emulator().url, HOME: process.env.HOME ?? tmp };
    let r = await ncalcProcess(['apply', '-C', dir, '--out', out, '--auto-approve'], {
      cwd: ROOT,
      env: cliEnv({ ...base, PROD_NETWORKCALC_TOKEN: 'prod-token', STAGING_NETWORKCALC_TOKEN: 'revoked' }),
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 of 2 accounts failed:\n {2}✗ staging: NOT_AUTHORIZED \(HTTP 401\): /);
    const prod = await new NetworkCalcClient({ baseUrl: emulator().url, token: 'prod-token' }).listAlerts();
    expect(prod).toHaveLength(7);
    expect(prod.find((a) => a.name === 'www.example.com certificate expiry')).toMatchObject({
      filter_value: '30',
      target_id: 102,
    });

    r = await ncalcProcess(['apply', '-C', dir, '--out', out, '--no-synth', '--auto-approve'], {
      cwd: ROOT,
      env: cliEnv({ ...base, PROD_NETWORKCALC_TOKEN: 'prod-token', STAGING_NETWORKCALC_TOKEN: 'staging-token' }),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/domain example.org \(id 203\) report: http/);
    const staging = await new NetworkCalcClient({ baseUrl: emulator().url, token: 'staging-token' }).listAlerts();
    expect(staging).toHaveLength(8);
  }, 70_000);

  it('a synth that does not finish in time is stopped, with a clear message', async () => {
    writeFileSync(path.join(tmp, 'cdktf.json'), JSON.stringify({ app: 'node -e "setTimeout(() => {}, 60000)"' }));
    const started = Date.now();
    const r = await ncalc(['plan', '--synth-timeout', '1'], { cwd: tmp, env: cliEnv({}) });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('did not finish within 1 s; raise --synth-timeout or check the app');
  });

  it('a failing app shows the end of its output', async () => {
    writeFileSync(
      path.join(tmp, 'cdktf.json'),
      JSON.stringify({ app: 'node -e "console.error(\'boom: bad prop\'); process.exit(3)"' }),
    );
    const r = await ncalc(['plan'], { cwd: tmp, env: cliEnv({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/exited with code 3; its output ends with:\n\s+boom: bad prop/);
  });

  it('a failing app that prints its environment does not get a secret printed, in text or JSON', async () => {
    // Long enough that the shown tail starts in the middle of the output.
    writeFileSync(
      path.join(tmp, 'cdktf.json'),
      JSON.stringify({
        app: 'node -e "for (let i = 0; i < 40; i++) console.log(JSON.stringify(process.env)); process.exit(1)"',
      }),
    );
    const env = cliEnv({
      NETWORKCALC_TOKEN: 'tok-hunter2',
      NETWORKCALC_CLIENT_SECRET: 'sec-hunter2',
      PROD_API_KEY: 'key-hunter2',
      PADDING: 'x'.repeat(150),
    });
    for (const args of [['plan'], ['plan', '--json'], ['drift', '--format', 'json']]) {
      const r = await ncalc(args, { cwd: tmp, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('"NETWORKCALC_TOKEN":"[redacted]"');
      expect(r.stdout + r.stderr).not.toMatch(/hunter2/);
    }
  });

  it('a failing app does not get a secret printed from a variable only the app names (token_env of an earlier synth)', async () => {
    // GIVEN an app synthesized once, whose account reads its token from PROD_NC
    const a = new FixtureApp({
      main: stack({ provider: { token_env: 'PROD_NC' }, alerts: { A: alert({ name: 'a' }) } }),
    });
    try {
      expect((await ncalc(['validate'], { cwd: a.dir, env: cliEnv({}) })).code).toBe(0);
      // WHEN it fails now, printing that variable
      const r = await ncalc(
        ['plan', '--app', 'node -e "console.error(\'cannot connect with \' + process.env.PROD_NC); process.exit(2)"'],
        {
          cwd: a.dir,
          env: cliEnv({ PROD_NC: 'plain-name-hunter3' }),
        },
      );
      // THEN its value is masked
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('cannot connect with [redacted]');
      expect(r.stdout + r.stderr).not.toContain('hunter3');
    } finally {
      a.remove();
    }
  });

  it('Ctrl-C during synth stops the app and everything it started, then exits 1 (real process)', async () => {
    const marker = `ncalc-synth-marker-${process.pid}-${Date.now()}`;
    // A shell that starts a long-lived child: both must be gone afterwards.
    writeFileSync(
      path.join(tmp, 'cdktf.json'),
      JSON.stringify({ app: `node -e "setTimeout(() => {}, 60000)" ${marker} & wait` }),
    );
    const child = spawn(process.execPath, [CLI, 'plan'], {
      cwd: tmp,
      env: cliEnv({}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const running = () =>
      execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .some((l) => l.includes(marker) && !l.includes('ps -eo'));
    const deadline = Date.now() + 10_000;
    while (!running()) {
      if (Date.now() > deadline) throw new Error('the app did not start within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('ncalc did not exit within 10 s of SIGINT')), 10_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code).toBe(1);
    expect(stderr).toContain('synth: interrupted (SIGINT); the app was stopped and nothing was changed');
    await new Promise((r) => setTimeout(r, 300));
    expect(running()).toBe(false);
  });

  it('no cdktf.json, unknown stack: say what to do', async () => {
    let r = await ncalc(['plan'], { cwd: tmp, env: cliEnv({}) });
    expect(r.stderr).toContain('no cdktf.json in');
    const a = new FixtureApp({ main: stack({ provider: {} }) });
    r = await ncalc(['plan', '--stack', 'nope'], { cwd: a.dir, env: cliEnv({ NETWORKCALC_TOKEN: 't' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown stack nope; the app has main');
    a.remove();
  });

  it('a synthesized file that is not JSON is named, with the fix', async () => {
    const a = new FixtureApp({ main: stack({ provider: {} }) });
    const env = cliEnv({ NETWORKCALC_TOKEN: 't' });
    execFileSync(process.execPath, ['synth.js'], { cwd: a.dir, env: { CDKTF_OUTDIR: path.join(a.dir, 'cdktf.out') } });
    const file = path.join(a.dir, 'cdktf.out', 'stacks', 'main', 'cdk.tf.json');
    writeFileSync(file, '{"resource": ');
    const r = await ncalc(['plan', '--no-synth', '--json'], { cwd: a.dir, env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.problems).toEqual([
      expect.stringMatching(/^.*cdk\.tf\.json is not valid JSON \(.*\); synthesize again$/),
    ]);
    expect(r.stderr).toContain(`${file} is not valid JSON`);
    a.remove();
  });
});

describe('an account whose server is down', () => {
  it('fails alone; the other account is planned', async () => {
    const a = new FixtureApp({
      main: stack({
        provider: [
          { alias: 'up', token_env: 'UP_TOKEN' },
          {
            alias: 'down',
            token_env: 'DOWN_TOKEN',
            base_url: 'http://127.0.0.1:9',
            max_retries: 1,
            timeout_seconds: 2,
          },
        ],
        alerts: {
          A: alert({ name: 'a', provider: 'networkcalc.up' }),
          B: alert({ name: 'b', provider: 'networkcalc.down' }),
        },
      }),
    });
    const r = await ncalc(['plan', '--json'], {
      cwd: a.dir,
      env: cliEnv({ NETWORKCALC_BASE_URL: emulator().url, UP_TOKEN: 'demo-token', DOWN_TOKEN: 'x' }),
    });
    a.remove();
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.accounts.map((x: any) => [x.label, x.status])).toEqual([
      ['up', 'ok'],
      ['down', 'error'],
    ]);
    expect(doc.accounts[1].error.code).toMatch(/CONNECTION_ERROR|RETRIES_EXHAUSTED/);
    expect(doc.accounts[0].changes).toHaveLength(1);
  });
});

describe('plan --json', () => {
  it('is the documented document, with triggers', async () => {
    const a = new FixtureApp({
      main: stack({ provider: {}, alerts: { A: alert({ name: 'x' }) }, triggers: { R: { subdomain_id: 2 } } }),
    });
    const r = await ncalc(['plan', '--json'], {
      cwd: a.dir,
      env: cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url }),
    });
    a.remove();
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({
      format_version: '1.0',
      command: 'plan',
      summary: { create: 1, update: 0, delete: 0, unchanged: 0, triggers: 1, failed_accounts: 0 },
      account_summary: [
        { account: 'main', stacks: ['main'], create: 1, update: 0, delete: 0, status: 'changes', error: null },
      ],
      accounts: [
        {
          label: 'main',
          base_url: emulator().url,
          identity: expect.stringMatching(/^token sha256:[0-9a-f]{8}$/),
          scopes: [{ stack: 'main', provider: 'networkcalc', ownership: 'exclusive', prefix: null }],
          status: 'ok',
          error: null,
          summary: { create: 1, update: 0, delete: 0, unchanged: 0 },
          warnings: [],
          guards: [],
          triggered: [],
          changes: [
            {
              action: 'create',
              reason: 'missing',
              name: 'x',
              id: null,
              stack: 'main',
              provider: 'networkcalc',
              logical_id: 'A',
              path: 'main/A',
              before: null,
              after: {
                name: 'x',
                type: 'DNS Record',
                subtype: 'A',
                filter: 'equals',
                filter_value: '192.0.2.1',
                target_type: 'domain',
                target_id: 1,
              },
              fields: [],
            },
          ],
          triggers: [
            {
              stack: 'main',
              provider: 'networkcalc',
              logical_id: 'R',
              path: 'main/R',
              target_type: 'subdomain',
              target_id: 2,
              target_name: null,
              triggers: { always: '${timestamp()}' },
            },
          ],
        },
      ],
    });
  });

  it('an invalid configuration gives the error document', async () => {
    const a = new FixtureApp({ main: stack({ provider: { ownership: 'prefix' } }) });
    const r = await ncalc(['plan', '--json'], { cwd: a.dir, env: cliEnv({ NETWORKCALC_TOKEN: 't' }) });
    a.remove();
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: '1.0',
      command: 'plan',
      accounts: [],
      error: {
        code: 'CONFIG_ERROR',
        retryable: false,
        problems: ['stack main, provider networkcalc: ownership "prefix" needs a non-empty ownership_prefix'],
        // The same problems as data, in the same order: where, the attribute, what was given.
        details: [
          {
            path: 'stack main, provider networkcalc',
            field: 'ownership_prefix',
            value: null,
            allowed: null,
            message: 'ownership "prefix" needs a non-empty ownership_prefix',
          },
        ],
      },
    });
  });
});
