/**
 * One account's configuration problem stays that account's: a stack whose token variable is
 * unset is reported and fails the run (exit 1), while every other account is planned,
 * applied and drift-checked; a shard needs only its own accounts' secrets; and an account
 * keeps its shard when its token is rotated (the key is the base URL and the stack).
 */
import type { EmulatorSeed } from '../../src/emulator';
import { shardOfKey } from '../../src/plan/shard';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const names = ['acct01', 'acct02', 'acct03', 'acct04', 'acct05', 'acct06'];
const MISSING = 'acct03';

const seed: EmulatorSeed = {
  accounts: names.map((name, i) => ({
    name,
    user_id: i + 1,
    tokens: [{ access_token: `${name}-token` }, { access_token: `${name}-rotated` }],
    domains: [{ id: 100 * (i + 1), domain: `${name}.example` }],
  })),
};

const emulator = useEmulator({ seed });
let app: FixtureApp;
beforeAll(() => {
  // One stack per account, as NetworkcalcAccount({ tokenEnv: 'ACCTnn_TOKEN' }) writes it.
  app = new FixtureApp(
    Object.fromEntries(
      names.map((name, i) => [
        name,
        stack({
          provider: { token_env: `${name.toUpperCase()}_TOKEN` },
          alerts: { Mx: alert({ name: `mx of ${name}`, target_id: 100 * (i + 1) }) },
        }),
      ]),
    ),
  );
});
afterAll(() => app.remove());

/** Every account's token but the missing one's (`all`: its too); `rotated`: the second token of each. */
const env = (rotated = false, all = false) =>
  cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    ...Object.fromEntries(
      names
        .filter((n) => all || n !== MISSING)
        .map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-${rotated ? 'rotated' : 'token'}`]),
    ),
  });

const statuses = (doc: any): string[][] =>
  doc.accounts.map((a: any) => [a.label, a.status, a.error?.code ?? '']).sort();

describe('an account without its secret', () => {
  it('plan: reported and exit 1, every other account planned; apply: the others applied', async () => {
    const plan = await ncalc(['plan', '--json'], { cwd: app.dir, env: env() });
    expect(plan.code).toBe(1);
    const doc = JSON.parse(plan.stdout);
    expect(statuses(doc)).toEqual(names.map((n) => (n === MISSING ? [n, 'error', 'CONFIG_ERROR'] : [n, 'ok', ''])));
    const failed = doc.accounts.find((a: any) => a.label === MISSING);
    expect(failed.error.message).toBe(`stack ${MISSING}, provider networkcalc: no credentials; set ACCT03_TOKEN`);
    const text = await ncalc(['plan'], { cwd: app.dir, env: env() });
    expect(text.code).toBe(1);
    expect(text.stdout + text.stderr).not.toContain('configuration is not valid');

    const apply = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env: env() });
    expect(apply.code).toBe(1);
    // Five accounts with changes: each gets half of the run's writes at most.
    expect(apply.stdout).toContain('Applying (parallelism 8, 4 per account)…');
    const state = await emulator().control.state();
    for (const account of state.accounts)
      expect([account.name, account.alerts.length]).toEqual([account.name, account.name === MISSING ? 0 : 1]);
    // Nothing was sent on behalf of the account without credentials.
    expect((await emulator().control.requests()).filter((r) => r.claimedAccount === MISSING)).toEqual([]);
  });

  it('--account-parallelism above --parallelism is a usage error, before anything runs', async () => {
    const r = await ncalc(['apply', '--auto-approve', '--parallelism', '4', '--account-parallelism', '5'], {
      cwd: app.dir,
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "Error: --account-parallelism 5 is more than --parallelism 4; one account's writes are part of the run's, so give at most 4",
    );
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('drift --shard i/3: a shard needs only its own secrets; the one holding the account fails, after checking the rest', async () => {
    const url = emulator().url;
    const shardOf = (name: string) => shardOfKey(`${url} ${name}/networkcalc`, 3);
    for (let i = 1; i <= 3; i++) {
      const r = await ncalc(['drift', '--json', '--shard', `${i}/3`], { cwd: app.dir, env: env() });
      const mine = names.filter((n) => shardOf(n) === i);
      const doc = JSON.parse(r.stdout);
      expect(doc.accounts.map((a: any) => a.label).sort()).toEqual(mine);
      const holdsMissing = mine.includes(MISSING);
      // The declared alerts were never created (the emulator starts each test afresh): drift, exit 2.
      expect([i, r.code]).toEqual([i, holdsMissing ? 1 : mine.length ? 2 : 0]);
      expect(
        statuses(doc)
          .filter(([, s]) => s === 'error')
          .map(([n]) => n),
      ).toEqual(holdsMissing ? [MISSING] : []);
    }
  });

  it('a token rotation moves no account to another shard', async () => {
    const labelsOf = async (i: number, rotated: boolean) => {
      const r = await ncalc(['plan', '--json', '--shard', `${i}/3`], { cwd: app.dir, env: env(rotated, true) });
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout)
        .accounts.map((a: any) => a.label)
        .sort();
    };
    const before = [await labelsOf(1, false), await labelsOf(2, false), await labelsOf(3, false)];
    expect(before.flat().sort()).toEqual(names);
    for (let i = 1; i <= 3; i++) expect(await labelsOf(i, true)).toEqual(before[i - 1]);
  });
});
