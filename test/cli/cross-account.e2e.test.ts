/**
 * End to end: credentials never cross accounts. Account alpha's block names its token
 * (ALPHA_TOKEN), which the service refuses; the default client credentials
 * (NETWORKCALC_CLIENT_ID / NETWORKCALC_CLIENT_SECRET) are account beta's, read by beta's
 * block, which names nothing. Alpha's refusal must stay alpha's error: no request with beta's
 * identity on alpha's behalf, beta's alerts untouched. (Reading the defaults beside a named
 * token, ncalc went on as beta and deleted every alert of beta under alpha's exclusive scope.)
 */
import type { EmulatorSeed } from '../../src/emulator';
import { useEmulator } from '../helpers/emulator';
import { alertSpec } from '../helpers/fixtures';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

/** A DNS A alert (the shared fixture's defaults) on the given domain. */
const seedAlert = (name: string, targetId: number) => alertSpec({ name, target_id: targetId });

const seed: EmulatorSeed = {
  accounts: [
    {
      name: 'alpha',
      user_id: 11,
      // Refused: expired long ago.
      tokens: [{ access_token: 'alpha-token', expires_at: '2020-01-01T00:00:00Z' }],
      domains: [{ id: 1, domain: 'alpha.example' }],
      alerts: [seedAlert('alpha-www', 1)],
    },
    {
      name: 'beta',
      user_id: 22,
      credentials: [{ client_id: 'beta-id', client_secret: 'beta-secret' }],
      domains: [{ id: 11, domain: 'beta.example' }],
      alerts: [seedAlert('beta-a', 11), seedAlert('beta-b', 11), seedAlert('beta-c', 11)],
    },
  ],
};

const emulator = useEmulator({ seed });
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

function app(): FixtureApp {
  const a = new FixtureApp({
    // What NetworkcalcAccount({ tokenEnv: 'ALPHA_TOKEN' }) synthesizes: the token variable only.
    alpha: stack({
      provider: { token_env: 'ALPHA_TOKEN', base_url: emulator().url },
      alerts: { Www: alert({ name: 'alpha-www', target_id: 1 }) },
    }),
    // Names no credential: the NETWORKCALC_* defaults are its own.
    beta: stack({
      provider: { base_url: emulator().url },
      alerts: {
        A: alert({ name: 'beta-a', target_id: 11 }),
        B: alert({ name: 'beta-b', target_id: 11 }),
        C: alert({ name: 'beta-c', target_id: 11 }),
      },
    }),
  });
  apps.push(a);
  return a;
}

const env = () =>
  cliEnv({
    ALPHA_TOKEN: 'alpha-token',
    NETWORKCALC_CLIENT_ID: 'beta-id',
    NETWORKCALC_CLIENT_SECRET: 'beta-secret',
  });

/** The requests made with account `name`'s credentials (accepted or refused), as `METHOD path`. */
async function requestsAs(name: string): Promise<string[]> {
  return (await emulator().control.requests())
    .filter((r) => r.claimedAccount === name)
    .map((r) => `${r.method} ${r.path}`);
}

async function betaAlerts(): Promise<string[]> {
  const state = await emulator().control.state();
  return state.accounts
    .find((a) => a.name === 'beta')!
    .alerts.map((a) => a.name)
    .sort();
}

describe("alpha's token refused, the default client credentials being beta's", () => {
  it('apply --stack alpha: alpha fails alone with its own advice; 0 requests as beta, beta untouched', async () => {
    const a = app();
    const r = await ncalc(['apply', '--stack', 'alpha', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(await requestsAs('beta')).toEqual([]);
    expect(await betaAlerts()).toEqual(['beta-a', 'beta-b', 'beta-c']);
    // Alpha's own requests only, each refused.
    const alpha = (await emulator().control.requests()).filter((x) => x.claimedAccount === 'alpha');
    expect(alpha.length).toBeGreaterThan(0);
    expect(alpha.every((x) => x.status === 401 && x.account === null)).toBe(true);
    const out = r.stdout + r.stderr;
    expect(out).toContain('set ALPHA_TOKEN to a valid access token');
    // Never sent to the variables another account reads.
    expect(out).not.toMatch(/NETWORKCALC_CLIENT_ID|NETWORKCALC_CLIENT_SECRET/);
    expect(out).not.toMatch(/deleted|beta-a/);
  });

  it('plan and drift of the whole app: alpha fails, beta is checked with its own credentials only', async () => {
    const a = app();
    for (const args of [['plan'], ['drift']]) {
      await emulator().control.clearRequests();
      const r = await ncalc(args, { cwd: a.dir, env: env() });
      expect([args[0], r.code]).toEqual([args[0], 1]);
      const json = await ncalc([...args, '--json'], { cwd: a.dir, env: env() });
      const accounts = JSON.parse(json.stdout).accounts as Array<{ label: string; status: string }>;
      expect(accounts.map((x) => [x.label, x.status]).sort()).toEqual([
        ['alpha', 'error'],
        ['beta', 'ok'],
      ]);
      // Beta's identity is used by beta's block: one exchange, then its list, per run.
      const asBeta = await requestsAs('beta');
      expect(asBeta.filter((x) => x === 'GET /api/alerts/')).toHaveLength(2);
      expect(asBeta.filter((x) => !['POST /api/auth/token', 'GET /api/alerts/'].includes(x))).toEqual([]);
    }
    expect(await betaAlerts()).toEqual(['beta-a', 'beta-b', 'beta-c']);
  });
});
