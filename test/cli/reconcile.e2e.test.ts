/**
 * End to end: the ncalc CLI (in-process, and as a real process where it matters) against
 * the real emulator on 127.0.0.1, with fixture apps synthesized the way cdktf does.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { CLI, FixtureApp, alert, cliEnv, ncalc, ncalcProcess, stack, threeTypeStack } from './support';

const emulator = useEmulator();
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

function app(stacks: Record<string, Record<string, unknown>>): FixtureApp {
  const a = new FixtureApp(stacks);
  apps.push(a);
  return a;
}

const demoEnv = (extra: Record<string, string> = {}) =>
  cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...extra });

async function liveAlerts(token = 'demo-token') {
  return new NetworkCalcClient({ baseUrl: emulator().url, token }).listAlerts();
}

async function listCalls(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const r of await emulator().control.requests()) {
    if (r.method === 'GET' && /^\/api\/alerts\/?$/.test(r.path.split('?')[0]))
      counts[r.account ?? '?'] = (counts[r.account ?? '?'] ?? 0) + 1;
  }
  return counts;
}

const baseline = () => threeTypeStack();

beforeAll(() => {
  // The process tests need the built CLI; `npm test` builds first.
  requireBuild('dist/cli/main.js');
});

describe('plan and apply', () => {
  it('creates, then is a no-op, then updates and deletes (real process)', async () => {
    const a = app({ main: baseline() });
    const env = demoEnv();

    let r = await ncalcProcess(['plan', '--detailed-exitcode'], { cwd: a.dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('+ alert "www A" (main/Www)');
    expect(r.stdout).toContain('Plan: 3 to create, 0 to update, 0 to delete.');

    r = await ncalcProcess(['apply', '--auto-approve'], { cwd: a.dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete: 3 created, 0 updated, 0 deleted, 0 failed.');
    const live = await liveAlerts();
    expect(live.map((x) => [x.name, x.target_type, x.target_id]).sort()).toEqual([
      ['cert expiry', 'domain', 4],
      ['spf valid', 'domain', 1],
      ['www A', 'subdomain', 2],
    ]);

    r = await ncalcProcess(['plan', '--detailed-exitcode'], { cwd: a.dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes. 3 alerts in sync.');
    expect(r.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete.');

    // Change one alert's filter value and type, drop another.
    const next = baseline() as any;
    next.resource.networkcalc_alert.Cert.filter_value = '14';
    next.resource.networkcalc_alert.Www = alert({
      name: 'www A',
      type: 'DNS Record',
      subtype: 'CNAME',
      filter: 'contains',
      filter_value: 'cdn',
      target_type: 'subdomain',
      target_id: 3,
    });
    delete next.resource.networkcalc_alert.Spf;
    a.write({ main: next });
    r = await ncalcProcess(['plan'], { cwd: a.dir, env });
    expect(r.stdout).toMatch(/~ alert "cert expiry" id \d+ \(main\/Cert\)\n\s+filter_value: "30" → "14"/);
    expect(r.stdout).toMatch(/subtype:\s+"A" → "CNAME"/);
    expect(r.stdout).toMatch(/target_id:\s+2 → 3/);
    expect(r.stdout).toMatch(/- alert "spf valid" id \d+/);
    expect(r.stdout).toContain('Plan: 0 to create, 2 to update, 1 to delete.');

    const before = new Map(live.map((x) => [x.name, x.id]));
    r = await ncalcProcess(['apply', '--auto-approve'], { cwd: a.dir, env });
    expect(r.code).toBe(0);
    const after = await liveAlerts();
    // Updates are PATCHes: the ids stay.
    expect(after.map((x) => [x.name, x.id]).sort()).toEqual([
      ['cert expiry', before.get('cert expiry')],
      ['www A', before.get('www A')],
    ]);
    expect(after.find((x) => x.name === 'www A')).toMatchObject({ subtype: 'CNAME', target_id: 3 });
  });

  it('makes exactly one alert list call (and one domains call) per account per plan', async () => {
    const a = app({ main: baseline() });
    await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    await emulator().control.clearRequests();
    const r = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    const reqs = await emulator().control.requests();
    expect(reqs.map((x) => `${x.method} ${x.path}`).sort()).toEqual(['GET /api/alerts/', 'GET /api/domains/']);
  });

  it('refuses to apply without --auto-approve when stdin is not a terminal (real process)', async () => {
    const a = app({ main: baseline() });
    const r = await ncalcProcess(['apply'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to apply without confirmation: standard input is not a terminal');
    expect(await liveAlerts()).toEqual([]);
  });

  it('asks on a terminal and applies only on "yes"', async () => {
    const a = app({ main: baseline() });
    let r = await ncalc(['apply'], { cwd: a.dir, env: demoEnv(), stdinTTY: true, input: 'no\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('apply cancelled; nothing was changed.');
    r = await ncalc(['apply'], { cwd: a.dir, env: demoEnv(), stdinTTY: true, input: 'yes\n' });
    expect(r.code).toBe(0);
    expect(await liveAlerts()).toHaveLength(3);
  });

  it('end of input at the prompt (Ctrl-D) cancels: exit 1, nothing changed', async () => {
    const a = app({ main: baseline() });
    const r = await ncalc(['apply'], { cwd: a.dir, env: demoEnv(), stdinTTY: true, input: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('apply cancelled; nothing was changed.');
    expect(await liveAlerts()).toEqual([]);
  });

  it('validates before any API call and says what to fix', async () => {
    const a = app({
      main: stack({
        provider: {},
        alerts: {
          A: alert({ name: 'x', type: 'SPF Record', filter: 'subject' }),
          B: alert({ name: 'y', target_id: '${data.networkcalc_domain.nope.id}' }),
        },
      }),
    });
    await emulator().control.clearRequests();
    const r = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the configuration is not valid; nothing was changed');
    expect(r.stderr).toMatch(/stack main, alert A: .*filter/);
    expect(r.stderr).toMatch(/stack main, alert B: target_id refers to data.networkcalc_domain.nope/);
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('a base URL carrying credentials is refused before any call, and never printed', async () => {
    const a = app({ main: baseline() });
    await emulator().control.clearRequests();
    const withSecret = emulator().url.replace('//', '//ops:hunter2pw@');
    for (const args of [['plan'], ['plan', '--json'], ['plan', '--base-url', withSecret]]) {
      const env = args.includes('--base-url') ? demoEnv() : demoEnv({ NETWORKCALC_BASE_URL: withSecret });
      const r = await ncalc(args, { cwd: a.dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /base URL "http:\/\/\*\*\*@127\.0\.0\.1:\d+" \(from (NETWORKCALC_BASE_URL|--base-url)\) carries user info/,
      );
      expect(r.stdout + r.stderr).not.toContain('hunter2pw');
    }
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('says which credentials are missing, as the failure of that account, without calling it', async () => {
    const a = app({ main: baseline() });
    const r = await ncalc(['plan'], { cwd: a.dir, env: cliEnv({ NETWORKCALC_BASE_URL: emulator().url }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '✗ CONFIG_ERROR: stack main, provider networkcalc: no credentials; set NETWORKCALC_TOKEN, or NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET',
    );
    expect(r.stdout).toContain(
      '1 account failed:\n  ✗ main: CONFIG_ERROR: stack main, provider networkcalc: no credentials',
    );
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('an unknown domain name is a clear error for that account', async () => {
    const a = app({
      main: stack({
        provider: {},
        alerts: { A: alert({ name: 'x', target_id: '${data.networkcalc_domain.d.id}' }) },
        data: { networkcalc_domain: { d: { name: 'nowhere.test' } } },
      }),
    });
    const r = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'domain "nowhere.test" (data.networkcalc_domain.d) is not in this account (its domains: example.com, example.org)',
    );
  });

  it('works with client credentials too, and never prints a secret', async () => {
    const a = app({ main: baseline() });
    const env = cliEnv({
      NETWORKCALC_CLIENT_ID: 'demo-client',
      NETWORKCALC_CLIENT_SECRET: 'demo-secret',
      NETWORKCALC_BASE_URL: emulator().url,
    });
    const r = await ncalc(['apply', '--auto-approve', '--verbose'], { cwd: a.dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(client demo-client)');
    expect(r.stdout + r.stderr).not.toContain('demo-secret');
    const t = await ncalc(['plan', '--json'], { cwd: a.dir, env: demoEnv() });
    expect(t.stdout).not.toContain('demo-token');
  });
});

describe('ownership', () => {
  const seedOthers = async () => {
    await emulator().control.createAlert('demo', {
      name: 'team-old',
      type: 'SPF Record',
      filter: 'validity',
      target_type: 'domain',
      target_id: 1,
    });
    await emulator().control.createAlert('demo', {
      name: 'someone else',
      type: 'SPF Record',
      filter: 'validity',
      target_type: 'domain',
      target_id: 1,
    });
  };

  it('exclusive: deletes every undeclared alert of the account', async () => {
    await seedOthers();
    const a = app({ main: stack({ provider: {}, alerts: { A: alert({ name: 'team-a' }) } }) });
    await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect((await liveAlerts()).map((x) => x.name)).toEqual(['team-a']);
  });

  it('prefix: touches only names with the prefix', async () => {
    await seedOthers();
    const a = app({
      main: stack({
        provider: { ownership: 'prefix', ownership_prefix: 'team-' },
        alerts: { A: alert({ name: 'team-a' }) },
      }),
    });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.stdout).toContain('Plan: 1 to create, 0 to update, 1 to delete.');
    expect((await liveAlerts()).map((x) => x.name).sort()).toEqual(['someone else', 'team-a']);
  });

  it('additive: never deletes, updates only what it declares', async () => {
    await seedOthers();
    const a = app({
      main: stack({
        provider: { ownership: 'additive' },
        alerts: {
          A: alert({
            name: 'team-old',
            type: 'SPF Record',
            subtype: undefined,
            filter: 'contains',
            filter_value: 'include:',
          }),
        },
      }),
    });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete.');
    const live = await liveAlerts();
    expect(live.map((x) => x.name).sort()).toEqual(['someone else', 'team-old']);
    expect(live.find((x) => x.name === 'team-old')).toMatchObject({ filter: 'contains', filter_value: 'include:' });
  });

  it('overlapping scopes of one account across stacks are an error before any call', async () => {
    const a = app({
      one: stack({
        provider: { ownership: 'prefix', ownership_prefix: 'team' },
        alerts: { A: alert({ name: 'team-x' }) },
      }),
      two: stack({
        provider: { ownership: 'prefix', ownership_prefix: 'team-b' },
        alerts: { B: alert({ name: 'team-b1' }) },
      }),
    });
    await emulator().control.clearRequests();
    const r = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /account one\+two .* is claimed by stack one \(provider networkcalc, prefix "team"\) and stack two \(provider networkcalc, prefix "team-b"\): prefixes "team" and "team-b" overlap/,
    );
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('disjoint prefixes of one account in two stacks share one list call', async () => {
    const a = app({
      one: stack({ provider: { ownership: 'prefix', ownership_prefix: 'a-' }, alerts: { A: alert({ name: 'a-1' }) } }),
      two: stack({ provider: { ownership: 'prefix', ownership_prefix: 'b-' }, alerts: { B: alert({ name: 'b-1' }) } }),
    });
    let r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    await emulator().control.clearRequests();
    r = await ncalc(['plan', '--stack', 'two'], { cwd: a.dir, env: demoEnv() });
    expect(r.stdout).toContain('No changes. 1 alert in sync.');
    r = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(r.stdout).toContain('No changes. 2 alerts in sync.');
    expect(await listCalls()).toEqual({ demo: 2 });
  });
});

describe('duplicate names', () => {
  it('declared twice in one scope: an error', async () => {
    const a = app({ main: stack({ provider: {}, alerts: { A: alert({ name: 'dup' }), B: alert({ name: 'dup' }) } }) });
    const r = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('alerts main/A and main/B are both named "dup"');
  });

  it('live duplicates: keeps the lowest id, deletes the others, says so', async () => {
    const c = emulator().control;
    const first = await c.createAlert('demo', {
      name: 'dup',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '192.0.2.1',
      target_type: 'domain',
      target_id: 1,
    });
    const second = await c.createAlert('demo', {
      name: 'dup',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '192.0.2.1',
      target_type: 'domain',
      target_id: 1,
    });
    const a = app({ main: stack({ provider: {}, alerts: { A: alert({ name: 'dup' }) } }) });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.stdout).toContain(
      `2 live alerts are named "dup": keeping the lowest id ${first.id} as the managed one, deleting ${second.id}`,
    );
    expect((await liveAlerts()).map((x) => x.id)).toEqual([first.id]);
  });
});

describe('drift', () => {
  async function applied() {
    const a = app({ main: baseline() });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    return { a, live: await liveAlerts() };
  }

  it('exit 0 in sync', async () => {
    const { a } = await applied();
    const r = await ncalc(['drift'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No drift.');
  });

  it('exit 2 on an out-of-band edit, with the field in every format', async () => {
    const { a, live } = await applied();
    const cert = live.find((x) => x.name === 'cert expiry')!;
    await emulator().control.patchAlert('demo', cert.id, { filter_value: '7', current_status: 'triggered' });
    const text = await ncalcProcess(['drift', '--no-synth'], { cwd: a.dir, env: demoEnv() });
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(
      /~ alert "cert expiry" id \d+ \(main\/Cert\) {2}# edited out of band; apply restores it\n\s+filter_value: "7" → "30"/,
    );
    const md = await ncalc(['drift', '--format', 'markdown'], { cwd: a.dir, env: demoEnv() });
    expect(md.code).toBe(2);
    expect(md.stdout).toContain('| ~ | `cert expiry` |');
    expect(md.stdout).toContain('filter_value: `"7"` → `"30"`');
    const json = await ncalc(['drift', '--format', 'json'], { cwd: a.dir, env: demoEnv() });
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ format_version: '1.0', command: 'drift', in_sync: false, summary: { update: 1 } });
    expect(doc.accounts[0].changes[0]).toMatchObject({
      action: 'update',
      drift: 'edited',
      name: 'cert expiry',
      fields: [{ field: 'filter_value', before: '7', after: '30' }],
    });
  });

  it('exit 2 on an out-of-band deletion and on an unmanaged addition', async () => {
    const { a, live } = await applied();
    await emulator().control.deleteAlert('demo', live[0].id);
    let r = await ncalc(['drift', '--format', 'json'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).accounts[0].changes).toMatchObject([
      { action: 'create', drift: 'missing', name: live[0].name },
    ]);

    await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    await emulator().control.createAlert('demo', {
      name: 'added by hand',
      type: 'SPF Record',
      filter: 'validity',
      target_type: 'domain',
      target_id: 4,
    });
    r = await ncalc(['drift'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /- alert "added by hand" id \d+ {2}# not declared \(added out of band\); apply deletes it/,
    );
  });

  it('server-side status changes are not drift', async () => {
    const { a, live } = await applied();
    for (const x of live)
      await emulator().control.patchAlert('demo', x.id, {
        current_status: 'triggered',
        last_triggered_at: '2025-06-01T00:00:00Z',
        is_active: false,
      });
    expect((await ncalc(['drift'], { cwd: a.dir, env: demoEnv() })).code).toBe(0);
  });

  it('appends the markdown to $GITHUB_STEP_SUMMARY', async () => {
    const { a } = await applied();
    const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-summary-'));
    const file = path.join(dir, 'summary.md');
    const r = await ncalc(['drift'], { cwd: a.dir, env: demoEnv({ GITHUB_STEP_SUMMARY: file }) });
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('✅ **In sync**: 3 alerts match the code.');
    rmSync(dir, { recursive: true, force: true });
  });

  it('an account without credentials is in the markdown report and the job summary too (exit 1)', async () => {
    const a = app({ main: baseline() });
    const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-summary-'));
    const file = path.join(dir, 'summary.md');
    const r = await ncalc(['drift', '--format', 'markdown'], {
      cwd: a.dir,
      env: cliEnv({ NETWORKCALC_BASE_URL: emulator().url, GITHUB_STEP_SUMMARY: file }),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '❌ 1 account failed: main (CONFIG_ERROR: stack main, provider networkcalc: no credentials; set NETWORKCALC_TOKEN',
    );
    expect(readFileSync(file, 'utf8')).toBe(r.stdout + '\n');
    rmSync(dir, { recursive: true, force: true });
  });

  it('exit 1 when the account cannot be reached', async () => {
    const a = app({ main: baseline() });
    const r = await ncalc(['drift', '--format', 'markdown'], {
      cwd: a.dir,
      env: demoEnv({ NETWORKCALC_TOKEN: 'wrong' }),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/❌ 1 account failed: main \(NOT_AUTHORIZED/);
  });
});

describe('many accounts', () => {
  const twoAccounts = async () => {
    const account = (name: string, userId: number, token: string, domainId: number) => ({
      name,
      user_id: userId,
      tokens: [{ access_token: token }],
      domains: [{ id: domainId, domain: `${name}.example` }],
      alerts: [],
    });
    await emulator().control.seed({
      accounts: [account('alpha', 1, 'alpha-token', 1), account('beta', 2, 'beta-token', 2)],
    });
  };
  const multi = () =>
    stack({
      provider: [
        { alias: 'alpha', token_env: 'ALPHA_TOKEN' },
        { alias: 'beta', token_env: 'BETA_TOKEN' },
      ],
      alerts: {
        A: alert({ name: 'alpha one', provider: 'networkcalc.alpha' }),
        B: alert({ name: 'beta one', target_id: 2, provider: 'networkcalc.beta' }),
      },
      triggers: { R: { domain_id: 2, provider: 'networkcalc.beta' } },
    });

  it('each account with its own credentials, isolated', async () => {
    await twoAccounts();
    const a = app({ main: multi() });
    const env = cliEnv({ NETWORKCALC_BASE_URL: emulator().url, ALPHA_TOKEN: 'alpha-token', BETA_TOKEN: 'beta-token' });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env });
    expect(r.code).toBe(0);
    expect((await liveAlerts('alpha-token')).map((x) => x.name)).toEqual(['alpha one']);
    expect((await liveAlerts('beta-token')).map((x) => x.name)).toEqual(['beta one']);
    await emulator().control.clearRequests();
    await ncalc(['plan'], { cwd: a.dir, env });
    expect(await listCalls()).toEqual({ alpha: 1, beta: 1 });
  });

  it('one account with a bad token does not stop the other; the summary names it (exit 1)', async () => {
    await twoAccounts();
    const a = app({ main: multi() });
    const env = cliEnv({ NETWORKCALC_BASE_URL: emulator().url, ALPHA_TOKEN: 'alpha-token', BETA_TOKEN: 'stale' });
    const r = await ncalc(['apply', '--auto-approve', '--json'], { cwd: a.dir, env });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary).toMatchObject({ failed_accounts: 1, applied: { created: 1 } });
    expect(doc.accounts.find((x: any) => x.label === 'beta')).toMatchObject({
      status: 'error',
      error: { code: 'NOT_AUTHORIZED' },
    });
    expect((await liveAlerts('alpha-token')).map((x) => x.name)).toEqual(['alpha one']);
    const text = await ncalc(['plan'], { cwd: a.dir, env });
    expect(text.stdout).toContain('Plan (incomplete: 1 account not planned): 0 to create, 0 to update, 0 to delete.');
    expect(text.stdout).toMatch(/1 of 2 accounts failed:\n {2}✗ beta: NOT_AUTHORIZED \(HTTP 401\): .*\n$/);
    // The advice names the variable this account reads, not the default one.
    expect(text.stdout).toMatch(
      /✗ listAlerts failed: NOT_AUTHORIZED \(HTTP 401\): .*set BETA_TOKEN to a valid access token/,
    );
    expect(text.stdout).not.toContain('NETWORKCALC_TOKEN');
    expect(text.stdout + text.stderr).not.toContain('stale');
  });
});

describe('report triggers', () => {
  it('run after the alerts converge; the report URL is printed and in --json', async () => {
    const a = app({
      main: stack({
        provider: {},
        alerts: { A: alert({ name: 'x' }), M: alert({ name: 'mail', target_type: 'subdomain', target_id: 3 }) },
        triggers: {
          Rep: { domain_id: '${data.networkcalc_domain.org.id}', triggers: { always: '${timestamp()}' } },
          Sub: { subdomain_id: 3, triggers: { release: 'v2' } },
          Idle: { domain_id: 2, triggers: { alerts: '0123' } },
        },
        data: { networkcalc_domain: { org: { name: 'example.org' } } },
      }),
    });
    const plan = await ncalc(['plan'], { cwd: a.dir, env: demoEnv() });
    expect(plan.stdout).toContain('» domain example.org (id 4) report (main/Rep)');
    expect(plan.stdout).toContain('» subdomain mail.example.com (id 3) report (main/Sub)  # triggers: release=v2');
    const r = await ncalc(['apply', '--auto-approve', '--json'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const triggers = doc.accounts[0].triggers;
    expect(triggers).toHaveLength(2);
    for (const t of triggers)
      expect(t.result).toMatchObject({
        status: 'ok',
        report_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      });
    const reqs = (await emulator().control.requests()).map((x) => `${x.method} ${x.path}`);
    const lastCreate = reqs.lastIndexOf('POST /api/alerts/');
    expect(reqs.indexOf('POST /api/reports/domain-reports/4')).toBeGreaterThan(lastCreate);
    expect(reqs).toContain('POST /api/reports/subdomain-reports/3');
    // No alert of domain 2 changed: its trigger is left alone, as terraform leaves it.
    expect(reqs).not.toContain('POST /api/reports/domain-reports/2');
    expect(plan.stdout).not.toContain('main/Idle');

    // Nothing changed: only the every-apply trigger runs.
    await emulator().control.clearRequests();
    const again = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: demoEnv() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('main/Rep');
    expect(again.stdout).not.toContain('main/Sub');
    const second = await ncalc(['apply', '--auto-approve', '--json'], { cwd: a.dir, env: demoEnv() });
    expect(JSON.parse(second.stdout).accounts[0].triggers.map((t: { path: string }) => t.path)).toEqual(['main/Rep']);
  });

  it('NOT_GENERATED is reported as a failed trigger (exit 1)', async () => {
    const a = app({
      main: stack({ provider: {}, alerts: { A: alert({ name: 'x' }) }, triggers: { Rep: { domain_id: 1 } } }),
    });
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_GENERATED',
      match: { method: 'POST', path: '/api/reports/' },
    });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ main: domain \(id 1\) report failed: NOT_GENERATED/);
    expect(r.stdout).toContain('Reports: 0 generated, 1 failed or skipped.');
    expect((await liveAlerts()).map((x) => x.name)).toEqual(['x']);
  });
});

describe('failures during apply', () => {
  it('a failed change does not stop the others; each failure is reported with its code', async () => {
    const a = app({
      main: stack({
        provider: {},
        alerts: { A: alert({ name: 'a' }), B: alert({ name: 'b' }), C: alert({ name: 'c' }) },
      }),
    });
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_CREATED',
      match: { method: 'POST', path: '/api/alerts' },
      count: 1,
    });
    const r = await ncalc(['apply', '--auto-approve', '--parallelism', '1'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ main: alert "a": create failed: NOT_CREATED/);
    expect(r.stdout).toContain('Apply finished with errors: 2 created, 0 updated, 0 deleted, 1 failed.');
    expect((await liveAlerts()).map((x) => x.name).sort()).toEqual(['b', 'c']);
  });

  it.each(['after', 'before'] as const)(
    'ambiguous creates (connection dropped %s the server acted) leave no duplicates',
    async (phase) => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      const a = app({
        main: stack({
          provider: {},
          alerts: Object.fromEntries(names.map((n) => [n.toUpperCase(), alert({ name: n })])),
        }),
      });
      await emulator().control.addFault({
        kind: 'drop',
        phase,
        match: { method: 'POST', path: '/api/alerts' },
        count: 4,
      });
      const r = await ncalc(['apply', '--auto-approve', '--json'], { cwd: a.dir, env: demoEnv() });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const live = await liveAlerts();
      expect(live.map((x) => x.name).sort()).toEqual(names);
      const statuses = JSON.parse(r.stdout).accounts[0].changes.map((c: any) => c.result.status);
      if (phase === 'after') expect(statuses.filter((s: string) => s === 'adopted').length).toBeGreaterThan(0);
      const again = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: demoEnv() });
      expect(again.code).toBe(0);
    },
  );
});

describe('Ctrl-C during apply (real process)', () => {
  it('finishes the write in flight, starts no other, reports what was done, exits 1', async () => {
    const names = ['a', 'b', 'c', 'd'];
    const a = app({
      main: stack({
        provider: {},
        alerts: Object.fromEntries(names.map((n) => [n.toUpperCase(), alert({ name: n })])),
      }),
    });
    await emulator().control.addFault({
      kind: 'latency',
      latencyMs: 1500,
      match: { method: 'POST', path: '/api/alerts' },
    });
    const child = spawn(process.execPath, [CLI, 'apply', '--auto-approve', '--parallelism', '1'], {
      cwd: a.dir,
      env: demoEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (d) => {
        const first = !stdout.includes('Applying');
        stdout += d;
        // The first create is now on the wire (it takes 1.5 s to answer).
        if (first && stdout.includes('Applying')) setTimeout(() => child.kill('SIGINT'), 300);
      });
      child.on('close', resolve);
    });
    expect(stderr).toContain('SIGINT: starting no new changes; waiting for the ones in flight');
    expect(stderr).not.toMatch(/Unhandled|at .*\.js:\d+/);
    expect(stdout).toContain('✓ main: alert "a" created');
    expect(stdout).toContain('Apply interrupted: 1 created, 0 updated, 0 deleted, 0 failed, 3 not started.');
    expect(code).toBe(1);
    expect((await liveAlerts()).map((x) => x.name)).toEqual(['a']);
  });
});

describe('destroy', () => {
  it('deletes what the app declares; undeclared alerts stay unless --all-in-scope', async () => {
    const a = app({ main: baseline() });
    await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    await emulator().control.createAlert('demo', {
      name: 'by hand',
      type: 'SPF Record',
      filter: 'validity',
      target_type: 'domain',
      target_id: 4,
    });
    let r = await ncalc(['destroy', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 0 to create, 0 to update, 3 to delete.');
    expect((await liveAlerts()).map((x) => x.name)).toEqual(['by hand']);
    r = await ncalc(['destroy', '--auto-approve', '--all-in-scope'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(0);
    expect(await liveAlerts()).toEqual([]);
  });

  it('refuses without confirmation when stdin is not a terminal', async () => {
    const a = app({ main: baseline() });
    await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: demoEnv() });
    const r = await ncalc(['destroy'], { cwd: a.dir, env: demoEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to destroy without confirmation');
    expect(await liveAlerts()).toHaveLength(3);
  });
});
