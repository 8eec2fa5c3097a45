/**
 * Removing an account from an app, as docs/cli.md describes it: `ncalc destroy --stack
 * <stack>` first (its alerts are deleted, the other accounts untouched), then take the stack
 * out of the app. Taken out without destroy, its alerts stay in the account: ncalc no longer
 * reads that account, so nothing reports them.
 */
import type { EmulatorSeed } from '../../src/emulator';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const seed: EmulatorSeed = {
  accounts: ['alpha', 'beta'].map((name, i) => ({
    name,
    user_id: i + 1,
    tokens: [{ access_token: `${name}-token` }],
    domains: [{ id: 10 * (i + 1), domain: `${name}.example` }],
  })),
};

const emulator = useEmulator({ seed });
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

const accountStack = (name: string, targetId: number) =>
  stack({
    provider: { token_env: `${name.toUpperCase()}_TOKEN` },
    alerts: {
      Mx: alert({ name: `${name} mx`, target_id: targetId }),
      Www: alert({ name: `${name} www`, target_id: targetId }),
    },
  });

function app(withBeta: boolean): FixtureApp {
  const a = new FixtureApp({
    alpha: accountStack('alpha', 10),
    ...(withBeta ? { beta: accountStack('beta', 20) } : {}),
  });
  apps.push(a);
  return a;
}

const env = () =>
  cliEnv({ NETWORKCALC_BASE_URL: emulator().url, ALPHA_TOKEN: 'alpha-token', BETA_TOKEN: 'beta-token' });

async function alertsOf(name: string): Promise<string[]> {
  const state = await emulator().control.state();
  return state.accounts
    .find((a) => a.name === name)!
    .alerts.map((a) => a.name)
    .sort();
}

describe('removing an account', () => {
  it('destroy --stack beta, then the stack out of the app: beta emptied, alpha untouched, the next plan empty', async () => {
    const both = app(true);
    expect((await ncalc(['apply', '--auto-approve'], { cwd: both.dir, env: env() })).code).toBe(0);
    expect(await alertsOf('beta')).toEqual(['beta mx', 'beta www']);

    const destroy = await ncalc(['destroy', '--stack', 'beta', '--auto-approve'], { cwd: both.dir, env: env() });
    expect(destroy.code).toBe(0);
    expect(await alertsOf('beta')).toEqual([]);
    expect(await alertsOf('alpha')).toEqual(['alpha mx', 'alpha www']);
    // Only beta was called.
    expect(
      (await emulator().control.requests()).filter((r) => r.method === 'DELETE').map((r) => r.claimedAccount),
    ).toEqual(['beta', 'beta']);

    const without = app(false);
    const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: without.dir, env: env() });
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toContain('beta');
  });

  it('the stack taken out without destroy: its alerts stay in the account, and no run reports them', async () => {
    expect((await ncalc(['apply', '--auto-approve'], { cwd: app(true).dir, env: env() })).code).toBe(0);
    const without = app(false);
    await emulator().control.clearRequests();
    for (const args of [['plan', '--detailed-exitcode'], ['drift'], ['apply', '--auto-approve']]) {
      const r = await ncalc(args, { cwd: without.dir, env: env() });
      expect([args[0], r.code]).toEqual([args[0], 0]);
      expect(r.stdout).not.toContain('beta');
    }
    expect(await alertsOf('beta')).toEqual(['beta mx', 'beta www']);
    expect((await emulator().control.requests()).filter((r) => r.claimedAccount === 'beta')).toEqual([]);
  });
});
