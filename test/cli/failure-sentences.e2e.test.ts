/**
 * Failures as sentences: each bad input or environment below gets one line naming the thing
 * and the fix, with `Error: ` in front (the one prefix of the CLI), exit 1, and nothing
 * written: no file, no API write. Through the real CLI, against the emulator or a small HTTP
 * server answering what the interface does not describe.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { CLI, FixtureApp, alert, cliEnv, ncalc, ncalcProcess, stack } from './support';

jest.setTimeout(60_000);

const emulator = useEmulator();
let tmp: string;
const apps: FixtureApp[] = [];
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-sentences-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  apps.splice(0).forEach((a) => a.remove());
});

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...extra });

function app(alerts: Record<string, Record<string, unknown>> = { A: alert({ name: 'x' }) }): FixtureApp {
  const a = new FixtureApp({ main: stack({ provider: {}, alerts }) });
  apps.push(a);
  return a;
}

/** Every request the emulator saw (the control surface is not logged). */
const apiRequests = async () => (await emulator().control.requests()).map((r) => `${r.method} ${r.path}`);

/** Every file under `dir`, relative, sorted: what a failed command must leave as it was. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** One line per error, `Error: ` first; no JavaScript stack, no raw system code. */
function expectSentence(stderr: string, message: string): void {
  expect(stderr).toContain(message);
  expect(stderr).not.toMatch(/^\s+at .+[:(]/m);
  expect(stderr).not.toMatch(/\b(ENOENT|EISDIR|ENOTDIR|UNEXPECTED:)/);
  for (const line of stderr.split('\n').filter((l) => l && !l.startsWith(' ') && !l.startsWith('(run with')))
    expect(line).toMatch(/^Error: /);
}

describe('paths: refused before any call, nothing written, never a system code', () => {
  beforeEach(async () => {
    await emulator().control.clearRequests();
  });

  it('export --out into a missing directory, and onto a directory', async () => {
    mkdirSync(path.join(tmp, 'd'));
    let r = await ncalc(['export', '--out', 'missing/dir/a.ts'], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expectSentence(
      r.stderr,
      '--out missing/dir/a.ts: the directory missing/dir does not exist; create it first (mkdir -p missing/dir) or give another path',
    );
    r = await ncalc(['export', '--out', 'd', '--hcl', 'd'], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expectSentence(r.stderr, '--out d is a directory; give a file name, such as d/alerts.ts');
    expectSentence(r.stderr, '--hcl d is a directory; give a file name, such as d/alerts.tf');
    expect(filesUnder(tmp)).toEqual(['d']);
    expect(await apiRequests()).toEqual([]);
  });

  it('plan --save into a missing directory names the path given, not a temp file', async () => {
    const a = app();
    const r = await ncalc(['plan', '--save', 'missing/plan.json'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expectSentence(
      r.stderr,
      'Error: --save missing/plan.json: the directory missing does not exist; create it first (mkdir -p missing) or give another path',
    );
    expect(r.stderr).not.toContain('.tmp');
    expect(existsSync(path.join(a.dir, 'missing'))).toBe(false);
    expect(await apiRequests()).toEqual([]);
  });

  it('-C a directory that does not exist, or a file', async () => {
    writeFileSync(path.join(tmp, 'afile'), '');
    let r = await ncalc(['plan', '-C', path.join(tmp, 'nope')], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: the app directory cannot be used; nothing was changed.\n  - -C ${path.join(tmp, 'nope')}: no such directory; give the directory of the app (the one holding cdktf.json)\n`,
    );
    r = await ncalc(['drift', '-C', 'afile'], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expectSentence(
      r.stderr,
      '-C afile: a file, not a directory; give the directory of the app (the one holding cdktf.json)',
    );
    expect(await apiRequests()).toEqual([]);
  });

  it('provider install --dir under a file: refused, nothing created', async () => {
    writeFileSync(path.join(tmp, 'afile'), '');
    // provider install resolves --dir from the process's directory: an absolute path here.
    const dir = path.join(tmp, 'afile', 'x');
    const r = await ncalc(['provider', 'install', '--dir', dir], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expectSentence(
      r.stderr,
      `Error: --dir ${dir}: ${path.join(tmp, 'afile')} is a file, not a directory; give a directory (it is created when missing)`,
    );
    expect(filesUnder(tmp)).toEqual(['afile']);
  });
});

describe('a hand-edited cdk.tf.json', () => {
  it('a filter_value object names its type; nothing is called', async () => {
    await emulator().control.clearRequests();
    const a = app({ A: alert({ name: 'x', filter_value: { ip: '192.0.2.1' } }) });
    const r = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expectSentence(
      r.stderr,
      'filter_value {"ip":"192.0.2.1"} (an object) is not valid for filter "equals"; give a string',
    );
    expect(r.stderr).not.toContain('[object Object]');
    expect(await apiRequests()).toEqual([]);
  });
});

describe('drift --suggest --write never leaves the repository', () => {
  const SPF = {
    id: 7,
    user_id: 1,
    is_active: true,
    current_status: 'healthy',
    action: 'email',
    last_triggered_at: null,
    name: 'spf',
    type: 'SPF Record',
    subtype: null,
    filter: 'validity',
    filter_value: null,
    target_type: 'domain',
    target_id: 1,
  };
  /** The JSON of a refresh-only plan in which the alert was renamed to "spf2" in the console. */
  const driftPlan = {
    format_version: '1.2',
    terraform_version: '1.11.4',
    planned_values: { root_module: {} },
    resource_drift: [
      {
        address: 'networkcalc_alert.spf',
        mode: 'managed',
        type: 'networkcalc_alert',
        name: 'spf',
        provider_name: 'registry.terraform.io/networkcalc/networkcalc',
        change: { actions: ['update'], before: SPF, after: { ...SPF, name: 'spf2' } },
      },
    ],
    configuration: { provider_config: {}, root_module: { resources: [] } },
    applyable: true,
    complete: true,
    errored: false,
  };
  const BLOCK = 'resource "networkcalc_alert" "spf" {\n  name = "spf"\n}\n';

  it('a tracked link to a file outside: refused with or without --force; the file and the link unchanged', async () => {
    // GIVEN a repository whose main.tf is a tracked link to a file outside it
    const repo = path.join(tmp, 'repo');
    const outside = path.join(tmp, 'outside');
    mkdirSync(repo);
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'main.tf'), BLOCK);
    symlinkSync(path.join(outside, 'main.tf'), path.join(repo, 'main.tf'));
    writeFileSync(path.join(repo, 'drift.json'), JSON.stringify(driftPlan));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        cwd: repo,
        stdio: 'ignore',
      });
    git('init', '-q');
    git('add', 'main.tf');
    git('commit', '-qm', 'link');
    for (const force of [[], ['--force']]) {
      // WHEN the suggestions are written
      const r = await ncalc(['drift', '--suggest', '--terraform-plan', 'drift.json', '--write', ...force], {
        cwd: repo,
        env: env(),
      });
      // THEN refused, naming the link, its target and the repository
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        `main.tf is a link to ${path.join(outside, 'main.tf')}, which is outside the repository ${repo}; ncalc writes only inside it (--force does not change that): apply the diff to that file by hand`,
      );
      expect(r.stdout).not.toContain('Review with git diff');
      expect(readFileSync(path.join(outside, 'main.tf'), 'utf8')).toBe(BLOCK);
      expect(lstatSync(path.join(repo, 'main.tf')).isSymbolicLink()).toBe(true);
    }
  });

  it('a link to a file inside the repository: the file it points to is edited, the link stays a link', async () => {
    const repo = path.join(tmp, 'repo');
    mkdirSync(path.join(repo, 'modules'), { recursive: true });
    writeFileSync(path.join(repo, 'modules', 'alerts.tf'), BLOCK);
    symlinkSync(path.join('modules', 'alerts.tf'), path.join(repo, 'main.tf'));
    writeFileSync(path.join(repo, 'drift.json'), JSON.stringify(driftPlan));
    const r = await ncalc(['drift', '--suggest', '--terraform-plan', 'drift.json', '--write', '--force'], {
      cwd: repo,
      env: env(),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(readFileSync(path.join(repo, 'modules', 'alerts.tf'), 'utf8')).toBe(BLOCK.replace('"spf"\n', '"spf2"\n'));
    expect(lstatSync(path.join(repo, 'main.tf')).isSymbolicLink()).toBe(true);
  });
});

describe('what the API sends that the interface does not describe', () => {
  let server: Server;
  let url: string;
  let answer: (req: IncomingMessage, res: ServerResponse) => void;
  let seen: string[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => answer(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const entry = (over: Record<string, unknown>) => ({
    id: 5,
    user_id: 1,
    name: 'x',
    is_active: true,
    current_status: 'healthy',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.9',
    action: 'email',
    last_triggered_at: null,
    target_domain: { id: 1, domain: 'example.com' },
    ...over,
  });
  const listing = (alerts: unknown[]) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'OK', alerts }));
  };

  it.each([
    ['without a name', entry({ name: undefined }), 'alert 5 in API response has no name'],
    ['with a number as its name', entry({ name: 42 }), 'alert 5 in API response has a name that is not a string (42)'],
    [
      'with neither target_domain nor target_subdomain',
      entry({ target_domain: undefined }),
      'alert 5 "x" in API response has no target (neither target_domain nor target_subdomain, nor target_type and target_id)',
    ],
    ['with an id that is not a number', entry({ id: 'five' }), 'alert in API response has no usable id: "five"'],
  ])('a list entry %s: the account is refused (one rule), nothing written', async (_what, bad, message) => {
    answer = listing([bad]);
    const a = app();
    const r = await ncalc(['apply', '--auto-approve'], {
      cwd: a.dir,
      env: cliEnv({ NETWORKCALC_TOKEN: 't', NETWORKCALC_BASE_URL: url }),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ listAlerts failed: UNEXPECTED_RESPONSE (HTTP 200): `);
    expect(r.stdout).toContain(message);
    expect(r.stdout).not.toMatch(/UNEXPECTED:|Cannot read properties/);
    expect(seen.filter((s) => !s.startsWith('GET '))).toEqual([]);
  });

  it('an error status names its code once', async () => {
    answer = (_req, res) => {
      res.writeHead(431, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'HEADERS_TOO_LARGE' }));
    };
    const a = app();
    const r = await ncalc(['plan'], { cwd: a.dir, env: cliEnv({ NETWORKCALC_TOKEN: 't', NETWORKCALC_BASE_URL: url }) });
    expect(r.code).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.includes('✗'))!;
    expect(line).toMatch(/✗ listAlerts failed: [A-Z_]+ \(HTTP 431\)/);
    const code = /failed: ([A-Z_]+)/.exec(line)![1];
    expect(line.split(code).length - 1).toBe(1);
  });
});

describe('distinct messages, one prefix', () => {
  it('plan without credentials says so, not "the configuration is not valid"', async () => {
    await emulator().control.clearRequests();
    const a = app();
    const r = await ncalc(['plan'], { cwd: a.dir, env: cliEnv({ NETWORKCALC_BASE_URL: emulator().url }) });
    expect(r.code).toBe(1);
    // The account's own failure (every other account would still be planned), named in the last lines.
    expect(r.stdout).toContain(
      '1 account failed:\n  ✗ main: CONFIG_ERROR: stack main, provider networkcalc: no credentials; set NETWORKCALC_TOKEN, or NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET\n',
    );
    expect(r.stdout + r.stderr).not.toContain('the configuration is not valid');
    expect(await apiRequests()).toEqual([]);
  });

  it('usage errors, commander’s own included, start with "Error: " too', async () => {
    const a = app();
    for (const args of [
      ['plan', '--bogus'],
      ['apply', '--parallelism', '0'],
      ['emulator', '--port', 'x'],
    ]) {
      const r = await ncalc(args, { cwd: a.dir, env: env() });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error: /);
      expect(r.stderr).toContain('(run with --help for usage)');
    }
  });
});

describe('--json on every command, exit codes in every --help', () => {
  const commands = [
    'plan',
    'validate',
    'apply',
    'drift',
    'coverage',
    'destroy',
    'export',
    'import-blocks',
    'emulator',
    'provider install',
    'provider schema',
  ];

  it.each(commands)('%s --help lists --json (and the exit codes)', async (command) => {
    const r = await ncalc([...command.split(' '), '--help'], { cwd: tmp, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--json');
    if (command !== 'provider schema') expect(r.stdout).toContain('Exit codes');
  });

  it('apply and destroy give their own exit codes; the top-level help has coverage’s 2', async () => {
    const apply = await ncalc(['apply', '--help'], { cwd: tmp, env: env() });
    expect(apply.stdout).toContain('apply never exits 2');
    expect(apply.stdout).not.toContain('drift: there is drift');
    const destroy = await ncalc(['destroy', '--help'], { cwd: tmp, env: env() });
    expect(destroy.stdout).toContain('destroy never exits 2');
    const top = await ncalc(['--help'], { cwd: tmp, env: env() });
    expect(top.stdout).toContain('coverage: a target is not covered');
  });

  it('export --json: the result with the TypeScript, or the error document', async () => {
    let r = await ncalc(['export', '--json'], { cwd: tmp, env: env() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ command: 'export', account: 'NETWORKCALC', files: [] });
    expect(doc.typescript).toContain('new App()');
    r = await ncalc(['export', '--json', '--out', 'missing/a.ts'], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'CONFIG_ERROR',
      problems: [expect.stringContaining('the directory missing does not exist')],
    });
  });

  it('provider install --json: a result, or the error document', async () => {
    writeFileSync(path.join(tmp, 'afile'), '');
    let r = await ncalc(['provider', 'install', '--json', '--dir', path.join(tmp, 'afile', 'x')], {
      cwd: tmp,
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      command: 'provider install',
      error: { problems: [expect.stringContaining('is a file, not a directory')] },
    });
    r = await ncalc(['provider', 'install', '--json', '--dir', path.join(tmp, 'mirror')], { cwd: tmp, env: env() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ command: 'provider install', status: 'ok' });
    expect(doc.messages.join('\n')).toContain(path.join(tmp, 'mirror'));
  });

  describe('emulator --json (real process)', () => {
    beforeAll(() => requireBuild('dist/cli/main.js'));

    it('starts with one JSON document, or fails with the error document', async () => {
      const busy = new URL(emulator().url).port;
      const r = await ncalcProcess(['emulator', '--json', '--port', busy], { cwd: tmp, env: cliEnv({}) });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error.problems).toEqual([
        `port ${busy} on 127.0.0.1 is already in use; choose another port (0 picks a free one)`,
      ]);
      expect(r.stderr).toMatch(/^Error: port \d+ on 127\.0\.0\.1 is already in use/);

      const child = spawn(process.execPath, [CLI, 'emulator', '--json', '--port', '0'], {
        cwd: tmp,
        env: cliEnv({}),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const first = await new Promise<string>((resolve, reject) => {
          let out = '';
          const timer = setTimeout(() => reject(new Error(`no JSON line in time: ${out}`)), 15_000);
          child.stdout.on('data', (d) => {
            out += d;
            if (out.includes('\n')) {
              clearTimeout(timer);
              resolve(out.slice(0, out.indexOf('\n')));
            }
          });
        });
        const doc = JSON.parse(first);
        expect(doc).toMatchObject({ command: 'emulator', status: 'listening', accounts: [{ name: 'demo' }] });
        expect(doc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      } finally {
        const closed = new Promise((resolve) => child.on('close', resolve));
        child.kill('SIGTERM');
        await closed;
      }
    });
  });
});
