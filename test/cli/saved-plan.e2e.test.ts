/**
 * Saved plans end to end: `ncalc plan --save <file>` then `ncalc apply <file>` through the
 * real CLI against the emulator on 127.0.0.1. The file is applied exactly (not re-planned),
 * refused when an account changed in between, unreadable files are clear errors, and the
 * file holds no secret.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator();
let tmp: string;
let app: FixtureApp;
beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ncalc-saved-'));
  app = new FixtureApp({ main: threeAlerts() });
});
afterEach(() => {
  app.remove();
  rmSync(tmp, { recursive: true, force: true });
});

function threeAlerts(): Record<string, unknown> {
  return stack({
    provider: {},
    alerts: {
      A: alert({ name: 'a' }),
      B: alert({ name: 'b', filter_value: '192.0.2.2' }),
      C: alert({ name: 'c', type: 'SPF Record', subtype: undefined, filter: 'validity', filter_value: undefined }),
    },
  });
}

// The client credentials are set beside the token: neither may reach the file.
const env = (extra: Record<string, string> = {}) =>
  cliEnv({
    NETWORKCALC_TOKEN: 'demo-token',
    NETWORKCALC_CLIENT_ID: 'demo-client',
    NETWORKCALC_CLIENT_SECRET: 'demo-secret',
    NETWORKCALC_BASE_URL: emulator().url,
    ...extra,
  });

const live = () => new NetworkCalcClient({ baseUrl: emulator().url, token: 'demo-token' }).listAlerts();

/** API calls other than GETs since the request log was last cleared. */
async function writes(): Promise<string[]> {
  return (await emulator().control.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

async function save(file = path.join(tmp, 'plan.json'), extra: string[] = []): Promise<string> {
  const r = await ncalc(['plan', '--save', file, ...extra], { cwd: app.dir, env: env() });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Saved the plan to ${file}. To apply exactly this plan: ncalc apply ${file}`);
  return file;
}

describe('ncalc plan --save, then ncalc apply <file>', () => {
  it('applies exactly the saved changes (not a new plan of the app), without asking, and holds no secret', async () => {
    const file = await save();
    const text = readFileSync(file, 'utf8');
    for (const secret of ['demo-token', 'demo-secret']) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({
      format: 'ncalc-saved-plan',
      format_version: '1.0',
      accounts: [{ label: 'main', identity: expect.stringMatching(/^token sha256:/) }],
    });

    // The app changes after the plan was saved: the saved plan still creates a, b and c.
    app.write({ main: stack({ provider: {}, alerts: { Z: alert({ name: 'z' }) } }) });
    await emulator().control.clearRequests();
    // stdin is not a terminal and there is no --auto-approve: a saved plan was the review.
    const r = await ncalc(['apply', file], { cwd: app.dir, env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Applying the plan saved in ${file}`);
    expect(r.stdout).toContain('Apply complete: 3 created, 0 updated, 0 deleted, 0 failed.');
    // One list to check the plan is current, the writes, one list after them; the app was not synthesized.
    expect((await emulator().control.requests()).map((x) => `${x.method} ${x.path}`)).toEqual([
      'GET /api/alerts/',
      'POST /api/alerts/',
      'POST /api/alerts/',
      'POST /api/alerts/',
      'GET /api/alerts/',
    ]);
    expect((await live()).map((x) => x.name).sort()).toEqual(['a', 'b', 'c']);
  });

  it('refuses a plan whose account changed in between (edited out of band): exit 1, nothing written; a status change is not a change', async () => {
    const env0 = env();
    expect((await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env: env0 })).code).toBe(0);
    // A plan that changes one alert.
    const next = threeAlerts() as any;
    next.resource.networkcalc_alert.A.filter_value = '192.0.2.9';
    app.write({ main: next });
    const file = await save();

    // The service marks an alert as triggered: the plan is still current.
    const [a, b] = (await live()).sort((x, y) => x.id - y.id);
    await emulator().control.patchAlert('demo', a.id, {
      current_status: 'triggered',
      last_triggered_at: '2024-01-01T00:00:00Z',
    });
    // Someone edits another alert by hand: it is not.
    await emulator().control.patchAlert('demo', b.id, { filter_value: '198.51.100.1' });
    await emulator().control.clearRequests();

    let r = await ncalc(['apply', file], { cwd: app.dir, env: env0 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: the saved plan is stale; nothing was changed.');
    expect(r.stderr).toContain(
      'account main changed since the plan was saved (3 live alerts then and now, but not the same)',
    );
    expect(r.stderr).toContain('run ncalc plan --save again');
    expect(await writes()).toEqual([]);

    r = await ncalc(['apply', file, '--json'], { cwd: app.dir, env: env0 });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      command: 'apply',
      error: { code: 'STALE_PLAN', retryable: false, problems: [expect.stringContaining('account main changed')] },
      accounts: [],
    });
    expect(await writes()).toEqual([]);
    expect((await live()).find((x) => x.id === a.id)?.filter_value).toBe('192.0.2.1');
  });

  it('a saved plan applies once: applying it again is refused as stale', async () => {
    const file = await save();
    expect((await ncalc(['apply', file], { cwd: app.dir, env: env() })).code).toBe(0);
    const r = await ncalc(['apply', file], { cwd: app.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('account main changed since the plan was saved (0 live alerts then, 3 now)');
    expect(await live()).toHaveLength(3);
  });

  it('--json applies a saved plan without --auto-approve and names the file', async () => {
    const file = await save();
    const r = await ncalc(['apply', file, '--json'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      command: 'apply',
      plan_file: file,
      summary: { create: 3, applied: { created: 3, failed: 0 } },
    });
  });

  it('checks the delete guards at apply: refused without the flag, applied with it', async () => {
    expect((await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env: env() })).code).toBe(0);
    app.write({ main: stack({ provider: {} }) });
    const file = await save();
    await emulator().control.clearRequests();
    let r = await ncalc(['apply', file], { cwd: app.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: refusing to apply; nothing was changed.');
    expect(r.stderr).toContain('--allow-empty');
    expect(await writes()).toEqual([]);
    r = await ncalc(['apply', file, '--allow-empty'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(0);
    expect(await live()).toEqual([]);
  });

  it('refuses other credentials than the plan was made with, before any call', async () => {
    const file = await save();
    await emulator().control.clearRequests();
    const r = await ncalc(['apply', file], { cwd: app.dir, env: env({ NETWORKCALC_TOKEN: 'another-token' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the credentials in the environment are token sha256:[0-9a-f]{8}, but the plan was made with token sha256:[0-9a-f]{8}/,
    );
    expect(r.stdout + r.stderr).not.toContain('another-token');
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('flags that choose what to plan are usage errors with a saved plan', async () => {
    const file = await save();
    const r = await ncalc(['apply', file, '--stack', 'main', '--no-synth'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Error: --no-synth, --stack cannot be used with a saved plan: ${file} already fixes the app`,
    );
    expect(r.stderr).toContain('(run with --help for usage)');
    expect(await live()).toEqual([]);
  });

  it('does not save a plan that missed an account', async () => {
    const file = path.join(tmp, 'plan.json');
    const r = await ncalc(['plan', '--save', file], {
      cwd: app.dir,
      env: env({ NETWORKCALC_TOKEN: 'revoked', NETWORKCALC_CLIENT_ID: 'x', NETWORKCALC_CLIENT_SECRET: 'y' }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the plan was not saved to ${file}: some accounts could not be planned`);
    expect(existsSync(file)).toBe(false);
  });
});

describe('an unusable plan file is a clear error, and nothing is called', () => {
  const cases: Array<[string, (text: string) => string, RegExp]> = [
    [
      'edited after it was saved',
      (t) => t.replace('"192.0.2.2"', '"192.0.2.99"'),
      /was changed after ncalc saved it \(its checksum does not match its content\)/,
    ],
    ['truncated', (t) => t.slice(0, t.length / 2), /is not a saved plan: it is not valid JSON/],
    ['not a saved plan', () => '{"format_version": "1.0", "accounts": []}', /is not a plan saved by ncalc plan --save/],
    [
      'of another major version',
      (t) => t.replace('"format_version": "1.0"', '"format_version": "2.0"'),
      /is a saved plan of format "2.0"; this ncalc .* reads format 1\.x/,
    ],
  ];
  it.each(cases)('%s', async (_what, spoil, message) => {
    const file = await save();
    writeFileSync(file, spoil(readFileSync(file, 'utf8')));
    await emulator().control.clearRequests();
    const r = await ncalc(['apply', file, '--json'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: the saved plan cannot be applied; nothing was changed.');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'PLAN_FILE', retryable: false });
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('a file that does not exist', async () => {
    const r = await ncalc(['apply', 'nope.json'], { cwd: tmp, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'cannot read the saved plan nope.json: no such file; save one with ncalc plan --save nope.json',
    );
  });
});
