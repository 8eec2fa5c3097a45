/**
 * End to end: one NetworkCalc account reached with different credentials from different
 * stacks (a token in one, a client id and secret in the other). Before any call they look
 * like two accounts; the `user_id` of the live alerts shows they are one, and overlapping
 * scopes across them must fail every one of them without a write.
 */
import { NetworkCalcClient } from '../../src/client';
import type { EmulatorSeed } from '../../src/emulator';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { alertSpec } from '../helpers/fixtures';
import { FixtureApp, alert, cliEnv, ncalc, ncalcProcess, stack } from './support';

/** A DNS A alert (the shared fixture's defaults) on the given domain. */
const seedAlert = (name: string, targetId: number) => alertSpec({ name, target_id: targetId });

const seed: EmulatorSeed = {
  accounts: [
    {
      name: 'shared',
      user_id: 7,
      tokens: [{ access_token: 'shared-token' }, { access_token: 'shared-token-2' }],
      credentials: [{ client_id: 'shared-client', client_secret: 'shared-secret' }],
      domains: [{ id: 1, domain: 'example.com' }],
      alerts: [seedAlert('team-a-www', 1)],
    },
    {
      name: 'other',
      user_id: 8,
      tokens: [{ access_token: 'other-token' }],
      domains: [{ id: 11, domain: 'example.com' }],
      alerts: [seedAlert('team-a-www', 11)],
    },
  ],
};

const emulator = useEmulator({ seed });
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

beforeAll(() => {
  requireBuild('dist/cli/main.js');
});

function app(stacks: Record<string, Record<string, unknown>>): FixtureApp {
  const a = new FixtureApp(stacks);
  apps.push(a);
  return a;
}

const env = () =>
  cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    TEAM_A_TOKEN: 'shared-token',
    PLATFORM_CLIENT_ID: 'shared-client',
    PLATFORM_CLIENT_SECRET: 'shared-secret',
    OTHER_TOKEN: 'other-token',
  });

const teamA = (targetId = 1) =>
  stack({
    provider: { token_env: 'TEAM_A_TOKEN', ownership: 'prefix', ownership_prefix: 'team-a-' },
    alerts: { Www: alert({ name: 'team-a-www', target_id: targetId }) },
  });

/** The platform stack reads the client credentials of the same account; its token variable is unset. */
const platform = (provider: Record<string, unknown> = {}, alerts: Record<string, Record<string, unknown>> = {}) =>
  stack({
    provider: {
      token_env: 'PLATFORM_TOKEN',
      client_id_env: 'PLATFORM_CLIENT_ID',
      client_secret_env: 'PLATFORM_CLIENT_SECRET',
      ...provider,
    },
    alerts,
  });

async function writes(): Promise<string[]> {
  // Exchanging the client id and secret for an access token is a POST, but writes nothing.
  return (await emulator().control.requests())
    .filter((r) => r.method !== 'GET' && r.path.split('?')[0] !== '/api/auth/token')
    .map((r) => `${r.method} ${r.path}`);
}

async function names(token: string): Promise<string[]> {
  return (await new NetworkCalcClient({ baseUrl: emulator().url, token }).listAlerts()).map((a) => a.name).sort();
}

describe('one account reached with different credentials', () => {
  it('fails every account of the group when their scopes overlap, and writes nothing (plan, apply, drift, destroy)', async () => {
    const a = app({ teamA: teamA(), platform: platform() });

    const r = await ncalcProcess(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('- alert "team-a-www"');
    const failures = r.stdout
      .split('\n')
      .filter((l) =>
        l.includes(
          '✗ CONFIG_ERROR: the provider configurations of stacks platform, teamA reach the same NetworkCalc account (user 7) with different credentials',
        ),
      );
    expect(failures).toHaveLength(2);
    expect(failures[0]).toContain(
      'stack teamA (provider networkcalc, prefix "team-a-") and stack platform (provider networkcalc, exclusive): an exclusive scope owns every alert of the account',
    );
    expect(failures[0]).toContain(
      'use one set of credentials for that account in every stack, or make the scopes disjoint',
    );
    expect(r.stdout).toContain('Plan (incomplete: 2 accounts not planned)');

    const json = await ncalc(['plan', '--json'], { cwd: a.dir, env: env() });
    expect(json.code).toBe(1);
    const accounts = JSON.parse(json.stdout).accounts as Array<{
      status: string;
      error: { code: string; message: string };
    }>;
    expect(accounts).toHaveLength(2);
    for (const acc of accounts) {
      expect(acc.status).toBe('error');
      expect(acc.error.code).toBe('CONFIG_ERROR');
      expect(acc.error.message).toContain('same NetworkCalc account (user 7)');
    }

    for (const args of [
      ['apply', '--auto-approve'],
      ['drift'],
      ['destroy', '--auto-approve'],
      ['destroy', '--auto-approve', '--all-in-scope'],
    ]) {
      const x = await ncalc(args, { cwd: a.dir, env: env() });
      expect([args.join(' '), x.code]).toEqual([args.join(' '), 1]);
      expect([args.join(' '), x.stdout + x.stderr]).toEqual([
        args.join(' '),
        expect.stringContaining('reach the same NetworkCalc account (user 7) with different credentials'),
      ]);
    }

    expect(await writes()).toEqual([]);
    expect(await names('shared-token')).toEqual(['team-a-www']);
  });

  it('also fails two different tokens of one account', async () => {
    const a = app({ teamA: teamA(), platform: stack({ provider: { token_env: 'PLATFORM_TOKEN' } }) });
    const r = await ncalc(['apply', '--auto-approve'], {
      cwd: a.dir,
      env: { ...env(), PLATFORM_TOKEN: 'shared-token-2' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('reach the same NetworkCalc account (user 7) with different credentials');
    expect(await writes()).toEqual([]);
    expect(await names('shared-token')).toEqual(['team-a-www']);
  });

  it('plans and applies normally when the scopes are disjoint', async () => {
    const a = app({
      teamA: teamA(),
      platform: platform(
        { ownership: 'prefix', ownership_prefix: 'platform-' },
        { Mail: alert({ name: 'platform-mail', filter_value: '192.0.2.2' }) },
      ),
    });
    let r = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('✗');
    expect(r.stdout).not.toContain('- alert');
    expect(r.stdout).toContain('+ alert "platform-mail"');
    expect(r.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');

    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(await names('shared-token')).toEqual(['platform-mail', 'team-a-www']);

    r = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete.');
  });

  it('leaves two different accounts with identical scopes alone', async () => {
    const a = app({
      teamA: teamA(),
      other: stack({
        provider: { token_env: 'OTHER_TOKEN', ownership: 'prefix', ownership_prefix: 'team-a-' },
        alerts: { Www: alert({ name: 'team-a-www', target_id: 11 }) },
      }),
    });
    const r = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(r.stdout).not.toContain('✗');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete.');

    // Both exclusive: still two accounts, each planning only its own alerts.
    a.write({
      teamA: stack({ provider: { token_env: 'TEAM_A_TOKEN' }, alerts: { Www: alert({ name: 'team-a-www' }) } }),
      other: stack({
        provider: { token_env: 'OTHER_TOKEN' },
        alerts: { Www: alert({ name: 'team-a-www', target_id: 11 }) },
      }),
    });
    const x = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(x.stdout).not.toContain('✗');
    expect(x.code).toBe(0);
  });
});
