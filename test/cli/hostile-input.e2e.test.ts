/**
 * Bad input, through the real CLI (`run(argv, io)`) against the real emulator on 127.0.0.1:
 * malformed synthesized JSON, an app that declares no alerts, a mass deletion, a large
 * account, invalid constructs and invalid alert names. Each case asserts the exit code, the
 * message, and what reached the API (nothing, where the input is invalid).
 */
import fs from 'node:fs';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { demoSeed, startEmulator, type RunningEmulator, type SeedAlert } from '../../src/emulator';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, ROOT, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator();
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

function app(stacks: Record<string, unknown>): FixtureApp {
  const a = new FixtureApp(stacks as Record<string, Record<string, unknown>>);
  apps.push(a);
  return a;
}

const env = () => cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });

const seedAlert = (name: string): SeedAlert => ({
  name,
  type: 'DNS Record',
  subtype: 'A',
  filter: 'equals',
  filter_value: '192.0.2.1',
  target_type: 'domain',
  target_id: 1,
});

/** The demo account holding `names` as live alerts. */
async function seedAlerts(names: string[]): Promise<void> {
  const seed = demoSeed();
  seed.accounts[0].alerts = names.map(seedAlert);
  await emulator().control.seed(seed);
  await emulator().control.clearRequests();
}

async function liveNames(): Promise<string[]> {
  return (await emulator().control.state()).accounts[0].alerts.map((a) => a.name).sort();
}

/** What the API saw, as `METHOD /path` with ids as `:id` (the control surface is not logged). */
async function requests(emu = emulator()): Promise<string[]> {
  return (await emu.control.requests()).map(
    (r) =>
      `${r.method} ${r.path
        .split('?')[0]
        .replace(/\/+$/, '')
        .replace(/\/\d+$/, '/:id')}`,
  );
}

const writes = async () => (await requests()).filter((r) => !r.startsWith('GET '));

/** No line of a JavaScript stack trace ("    at fn (file:1:2)"). */
const NO_STACK = /^\s+at .+[:(]/m;

describe('1. malformed synthesized blocks are errors, never "no alerts"', () => {
  // Each: a stack JSON, and what the message must say.
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'resource.networkcalc_alert is an array',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: [alert({ name: 'a' })] } },
      'stack main: resource.networkcalc_alert is an array; expected an object of blocks keyed by logical id',
    ],
    [
      'resource.networkcalc_alert is a string',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: 'a' } },
      'stack main: resource.networkcalc_alert is a string; expected an object',
    ],
    [
      'resource.networkcalc_alert is a number',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: 5 } },
      'stack main: resource.networkcalc_alert is a number; expected an object',
    ],
    [
      'an alert entry is a string',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: { A: 'x' } } },
      "stack main: resource.networkcalc_alert.A is a string; expected an object (the block's attributes)",
    ],
    [
      'an alert entry is null',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: { A: null } } },
      'stack main: resource.networkcalc_alert.A is null; expected an object',
    ],
    [
      'resource is an array',
      { provider: { networkcalc: [{}] }, resource: [] },
      'stack main: resource is an array; expected an object of resource types',
    ],
    [
      'data.networkcalc_domain is a string',
      { provider: { networkcalc: [{}] }, data: { networkcalc_domain: 'example.com' } },
      'stack main: data.networkcalc_domain is a string; expected an object',
    ],
    [
      'provider is a string',
      { provider: 'networkcalc' },
      'stack main: provider is a string; expected an object of provider configurations',
    ],
    [
      'provider.networkcalc holds a number',
      { provider: { networkcalc: [1] } },
      'stack main: provider.networkcalc[0] is a number; expected an object (a provider configuration)',
    ],
    [
      'an unknown networkcalc resource type',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alerts: { A: alert({ name: 'a' }) } } },
      'stack main: resource.networkcalc_alerts is not a NetworkCalc resource type; known: networkcalc_alert, networkcalc_report_trigger, networkcalc_domain, networkcalc_subdomain',
    ],
    [
      'count on an alert',
      { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: { A: alert({ name: 'a', count: 0 }) } } },
      'stack main: resource.networkcalc_alert.A: "count" is not supported',
    ],
    [
      'a misspelt attribute',
      {
        provider: { networkcalc: [{}] },
        resource: { networkcalc_alert: { A: alert({ name: 'a', filter_vale: 'x' }) } },
      },
      'stack main: resource.networkcalc_alert.A: unknown attribute "filter_vale"',
    ],
    [
      'trigger values that are objects',
      {
        provider: { networkcalc: [{}] },
        resource: { networkcalc_report_trigger: { R: { domain_id: 1, triggers: { v: { x: 1 } } } } },
      },
      'report trigger R: triggers.v is an object; trigger values are strings',
    ],
    [
      'the stack document is an array',
      [] as unknown as Record<string, unknown>,
      'stack main: its cdk.tf.json holds an array; expected an object',
    ],
  ];

  it.each(cases)(
    '%s: plan and apply exit 1 before any API call, naming the stack and the JSON path',
    async (_name, json, message) => {
      await seedAlerts(['keep me', 'and me']);
      const a = app({ main: json });
      for (const args of [
        ['plan'],
        ['apply', '--auto-approve'],
        ['apply', '--auto-approve', '--allow-empty', '--json'],
      ]) {
        const r = await ncalc(args, { cwd: a.dir, env: env() });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('Error: the configuration is not valid; nothing was changed.');
        expect(r.stderr).toContain(message);
        expect(r.stderr).not.toMatch(NO_STACK);
      }
      expect(await requests()).toEqual([]);
      expect(await liveNames()).toEqual(['and me', 'keep me']);
    },
  );

  it('a malformed manifest entry is an error too, naming the file and the field', async () => {
    await seedAlerts(['keep me']);
    const a = app({ main: stack({ provider: {} }) });
    let r = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    const out = path.join(a.dir, 'cdktf.out');
    writeFileSync(
      path.join(out, 'manifest.json'),
      JSON.stringify({ version: '0.21.0', stacks: { main: 'stacks/main/cdk.tf.json' } }),
    );
    r = await ncalc(['apply', '--auto-approve', '--no-synth'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${path.join(out, 'manifest.json')}: stacks.main is a string; expected an object (synthesize again)`,
    );
    writeFileSync(
      path.join(out, 'manifest.json'),
      JSON.stringify({ stacks: { main: { synthesizedStackPath: '../../elsewhere.json' } } }),
    );
    r = await ncalc(['plan', '--no-synth'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'stacks.main.synthesizedStackPath "../../elsewhere.json" is outside the output directory',
    );
    expect(await requests()).toEqual(['GET /api/alerts']);
    expect(await liveNames()).toEqual(['keep me']);
  });
});

describe('2. delete guards', () => {
  it('an app that declares no alerts: plan says so, apply refuses with zero writes, --allow-empty deletes', async () => {
    await seedAlerts(['one', 'two', 'three']);
    const a = app({ main: stack({ provider: {} }) });

    let r = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '! stack main, provider networkcalc declares no alerts, so apply would delete all 3 live alerts its scope owns (ownership "exclusive"). apply refuses this unless --allow-empty is given',
    );
    expect(r.stdout).toContain(
      'Apply will refuse: a scope would lose 3 live alerts (see "!" above); pass --allow-empty to apply anyway.',
    );

    r = await ncalc(['plan', '--json'], { cwd: a.dir, env: env() });
    expect(JSON.parse(r.stdout).accounts[0].guards).toEqual([
      expect.objectContaining({
        kind: 'empty_scope',
        flag: '--allow-empty',
        stack: 'main',
        provider: 'networkcalc',
        deletes: 3,
        owned: 3,
      }),
    ]);

    await emulator().control.clearRequests();
    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: refusing to apply; nothing was changed\.\n {2}- stack main, provider networkcalc declares no alerts/,
    );
    r = await ncalc(['apply', '--auto-approve', '--json'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'DELETE_GUARD',
      problems: [expect.stringContaining('--allow-empty')],
    });
    // Asking on a terminal changes nothing: the refusal comes before the question.
    r = await ncalc(['apply'], { cwd: a.dir, env: env(), stdinTTY: true, input: 'yes\n' });
    expect(r.code).toBe(1);
    expect(await requests()).toEqual(['GET /api/alerts', 'GET /api/alerts', 'GET /api/alerts']);
    expect(await liveNames()).toEqual(['one', 'three', 'two']);

    // The other guard's flag does not let it through.
    r = await ncalc(['apply', '--auto-approve', '--allow-mass-delete'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);

    await emulator().control.clearRequests();
    r = await ncalc(['apply', '--auto-approve', '--allow-empty'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete: 0 created, 0 updated, 3 deleted, 0 failed.');
    expect((await writes()).sort()).toEqual([
      'DELETE /api/alerts/:id',
      'DELETE /api/alerts/:id',
      'DELETE /api/alerts/:id',
    ]);
    expect(await liveNames()).toEqual([]);
  });

  it('a wrong --stack that selects a stack without alerts is refused the same way', async () => {
    await seedAlerts(['one']);
    const a = app({
      alerts: stack({ provider: {}, alerts: { One: alert({ name: 'one' }) } }),
      empty: stack({ provider: { ownership: 'exclusive' } }),
    });
    const r = await ncalc(['apply', '--auto-approve', '--stack', 'empty'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('stack empty, provider networkcalc declares no alerts');
    expect(await writes()).toEqual([]);
  });

  it('deleting more than half (and more than 10) of a scope is refused unless --allow-mass-delete', async () => {
    const names = Array.from({ length: 14 }, (_, i) => `alert ${String(i).padStart(2, '0')}`);
    await seedAlerts(names);
    // The app lost most of its alerts (a failed loop): 2 of 14 remain declared.
    const a = app({
      main: stack({ provider: {}, alerts: { A: alert({ name: 'alert 00' }), B: alert({ name: 'alert 01' }) } }),
    });
    let r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'stack main, provider networkcalc: apply would delete 12 of the 14 live alerts its scope owns (ownership "exclusive"), more than 50 %. apply refuses this unless --allow-mass-delete is given',
    );
    expect(await writes()).toEqual([]);

    // destroy is not guarded: deleting is what it is asked for.
    r = await ncalc(['plan', '--json'], { cwd: a.dir, env: env() });
    expect(JSON.parse(r.stdout).accounts[0].guards.map((g: { kind: string }) => g.kind)).toEqual(['mass_delete']);

    r = await ncalc(['apply', '--auto-approve', '--allow-mass-delete'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('12 deleted');
    expect(await liveNames()).toEqual(['alert 00', 'alert 01']);
  });

  it('destroy --all-in-scope of an empty scope is not guarded: it deletes what it was asked to', async () => {
    await seedAlerts(['one', 'two']);
    const a = app({ main: stack({ provider: {} }) });
    const r = await ncalc(['destroy', '--all-in-scope', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(await liveNames()).toEqual([]);
  });
});

describe('3. a large account', () => {
  const n = 20_000;
  let big: RunningEmulator;
  beforeAll(async () => {
    const seed = demoSeed();
    seed.accounts[0].alerts = Array.from({ length: n }, (_, i) => seedAlert(`bulk ${i}`));
    big = await startEmulator({ seed });
  }, 60_000);
  afterAll(() => big?.close());

  it('plans 20,000 live alerts in one list call, and refuses to delete them all', async () => {
    const bigEnv = cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: big.url });
    const a = app({
      main: stack({ provider: {}, alerts: { Keep: alert({ name: 'bulk 1' }), New: alert({ name: 'brand new' }) } }),
    });
    const started = Date.now();
    let r = await ncalc(['plan', '--json'], { cwd: a.dir, env: bigEnv });
    const planMs = Date.now() - started;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary).toMatchObject({ create: 1, update: 0, delete: n - 1, unchanged: 1 });
    expect(doc.accounts[0].guards).toEqual([
      expect.objectContaining({ kind: 'mass_delete', deletes: n - 1, owned: n }),
    ]);
    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: bigEnv });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`apply would delete ${n - 1} of the ${n} live alerts`);
    expect(await requests(big)).toEqual(['GET /api/alerts', 'GET /api/alerts']);
    expect((await big.control.state()).accounts[0].alerts).toHaveLength(n);
    // Seconds, not minutes, on a shared 2-core machine (the list call included).
    expect(planMs).toBeLessThan(30_000);
  }, 90_000);
});

describe('4. invalid constructs: the problems as a list, no JavaScript stack', () => {
  let dir: string;
  beforeAll(() => {
    requireBuild('dist/index.js');
    dir = mkdtempSync(path.join(tmpdir(), 'ncalc-constructs-app-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A real cdktf app using the built package, as a user writes it. */
  function constructApp(body: string): string {
    const cdk = require.resolve('cdktf', { paths: [ROOT] });
    writeFileSync(
      path.join(dir, 'main.js'),
      `const { App, TerraformStack } = require(${JSON.stringify(cdk)});
const { Alert, AlertTarget, NetworkcalcAccount, ReportTrigger } = require(${JSON.stringify(path.join(ROOT, 'dist'))});
const app = new App();
const stack = new TerraformStack(app, 'main');
${body}
app.synth();
`,
    );
    writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'node main.js' }));
    return dir;
  }

  const INVALID = `new NetworkcalcAccount(stack, 'Account');
new Alert(stack, 'Bad', { name: 'x', target: AlertTarget.domain('Example..com'), dnsRecord: { record: 'AAAA', filter: 'equals', value: '1' } });
new Alert(stack, 'Days', { name: 'days', target: AlertTarget.domainId(1), certificate: { expiresInDays: '99999999999999999' } });
new Alert(stack, 'Null', null);
new ReportTrigger(stack, 'Report', 'example.com');`;

  it('ncalc plan lists every problem with its construct path, and --json carries them as data; nothing is called', async () => {
    const cwd = constructApp(INVALID);
    // The temporary folders this run makes (other suites synthesize in the same tmpdir meanwhile).
    const made: string[] = [];
    const original = fs.mkdtempSync;
    const mkdtemp = jest.spyOn(fs, 'mkdtempSync').mockImplementation(((prefix: string) => {
      const dir = original(prefix);
      made.push(dir);
      return dir;
    }) as typeof fs.mkdtempSync);
    let r = await ncalc(['plan'], { cwd, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(NO_STACK);
    expect(r.stderr).not.toContain('node:internal');
    expect(r.stderr.split('\n')).toEqual([
      'Error: the configuration is not valid; nothing was changed.',
      '  - [main/Account/Domain example..com] domain name "Example..com" is not valid; give a bare host name such as example.com (labels of letters, digits and hyphens joined by single dots), without scheme, port or path',
      '  - [main/Bad] subtype "AAAA" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT (from dnsRecord.record)',
      '  - [main/Days] filter_value "99999999999999999" is too large for filter "expires in (days)"; give a whole number of days from 1 to 3650 (ten years) (from certificate.expiresInDays)',
      '  - [main/Null] props must be an object (name, target and one of dnsRecord, spfRecord, certificate); got null',
      '  - [main/Report] props must be an object (target, and optionally triggers and account); got a string "example.com"',
      '',
    ]);

    r = await ncalc(['plan', '--json'], { cwd, env: env() });
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stdout).error;
    expect(error.code).toBe('CONFIG_ERROR');
    expect(error.details).toContainEqual({
      path: 'main/Bad',
      field: 'dnsRecord.record',
      value: 'AAAA',
      allowed: ['A', 'CNAME', 'MX', 'TXT'],
      message: 'subtype "AAAA" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT (from dnsRecord.record)',
    });
    expect(error.details).toContainEqual(expect.objectContaining({ path: 'main/Null', field: 'props', value: null }));
    expect(error.details).toHaveLength(error.problems.length);
    expect(await requests()).toEqual([]);
    // ncalc's hand-over folder is gone.
    mkdtemp.mockRestore();
    const handOver = made.filter((d) => path.basename(d).startsWith('ncalc-problems-'));
    expect(handOver).toHaveLength(2);
    expect(handOver.filter((d) => existsSync(d))).toEqual([]);
  });

  it('the app run on its own (as cdktf synth runs it) prints the list without a JavaScript stack', async () => {
    const cwd = constructApp(INVALID);
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['main.js'], { cwd, encoding: 'utf8', env: cliEnv({}), timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'NetworkcalcValidationError: Validation failed with the following errors:\n  [main/Account/Domain example..com] domain name',
    );
    expect(r.stderr).toContain('  [main/Null] props must be an object');
    expect(r.stderr).toContain('Nothing was written. Fix the errors above and synthesize again.');
    expect(r.stderr).not.toMatch(NO_STACK);
  });
});

describe('5. names and values the model refuses, at every door', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'a name of invisible characters',
      { alerts: { A: alert({ name: '\u200b\u200b' }) } },
      'name "\u200b\u200b" has no visible character (only blanks or invisible characters such as U+200B); give the alert a readable name',
    ],
    [
      'a name with NUL',
      { alerts: { A: alert({ name: 'a\u0000b' }) } },
      'name "a\\u0000b" contains the control character U+0000 at position 2; names are one line of printable text',
    ],
    [
      'a name with a newline',
      { alerts: { A: alert({ name: 'a\nb' }) } },
      'contains the control character U+000A at position 2',
    ],
    [
      'a day count beyond a safe integer',
      {
        alerts: {
          A: alert({
            name: 'c',
            type: 'Certificate (TLS)',
            subtype: undefined,
            filter: 'expires in (days)',
            filter_value: '99999999999999999',
          }),
        },
      },
      'filter_value "99999999999999999" is too large for filter "expires in (days)"; give a whole number of days from 1 to 3650 (ten years)',
    ],
    [
      'a domain name with an empty label',
      {
        alerts: { A: alert({ name: 'a', target_id: '${data.networkcalc_domain.d.id}' }) },
        data: { networkcalc_domain: { d: { name: 'Example..com' } } },
      },
      'data.networkcalc_domain.d: domain name "Example..com" is not valid',
    ],
  ];

  it.each(cases)('%s: validate and apply exit 1 with the reason, nothing is called', async (_name, parts, message) => {
    await seedAlerts(['keep me']);
    const a = app({ main: stack({ provider: {}, ...parts }) });
    for (const args of [['validate'], ['apply', '--auto-approve']]) {
      const r = await ncalc(args, { cwd: a.dir, env: env() });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
    }
    expect(await requests()).toEqual([]);
  });

  it('the emulator refuses such a name too (one model for every door)', async () => {
    await seedAlerts([]);
    const { call } = await import('../helpers/emulator');
    const r = await call(emulator().url, 'POST', '/api/alerts/', {
      token: 'demo-token',
      json: { ...seedAlert('\u200b'), filter_value: '192.0.2.1' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 'INVALID_BODY' });
  });
});
