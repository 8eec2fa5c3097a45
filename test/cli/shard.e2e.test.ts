/**
 * `--shard i/n` end to end: six accounts of one app spread over the shards of a CI matrix,
 * every account in exactly one shard, the same one on every run, and only its accounts called.
 */
import type { EmulatorSeed } from '../../src/emulator';
import { parseShard, shardOfKey } from '../../src/plan/shard';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const N = 6;
const names = Array.from({ length: N }, (_, i) => `acc${i + 1}`);

const seed: EmulatorSeed = {
  accounts: names.map((name, i) => ({
    name,
    user_id: i + 1,
    tokens: [{ access_token: `${name}-token` }],
    domains: [{ id: 100 * (i + 1), domain: 'example.com' }],
  })),
};

const emulator = useEmulator({ seed });
let app: FixtureApp;
beforeAll(() => {
  app = new FixtureApp({
    main: stack({
      provider: names.map((name) => ({ alias: name, token_env: `${name.toUpperCase()}_TOKEN` })),
      alerts: Object.fromEntries(
        names.map((name, i) => [
          `A${i + 1}`,
          alert({ name: `alert of ${name}`, provider: `networkcalc.${name}`, target_id: 100 * (i + 1) }),
        ]),
      ),
    }),
  });
});
afterAll(() => app.remove());

const env = () =>
  cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    ...Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-token`])),
  });

async function planShard(shard: string): Promise<{ labels: string[]; doc: any; called: string[] }> {
  await emulator().control.clearRequests();
  const r = await ncalc(['plan', '--json', '--shard', shard], { cwd: app.dir, env: env() });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout);
  const called = [...new Set((await emulator().control.requests()).map((x) => x.account ?? '?'))].sort();
  return { labels: doc.accounts.map((a: any) => a.label).sort(), doc, called };
}

describe('--shard i/n', () => {
  it('puts every account in exactly one of n shards, the same on every run, and calls only its accounts', async () => {
    const seen: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const { labels, doc, called } = await planShard(`${i}/3`);
      expect(doc.shard).toEqual({ index: i, count: 3, accounts: labels.length, total_accounts: N });
      expect(called).toEqual(labels);
      expect((await planShard(`${i}/3`)).labels).toEqual(labels);
      seen.push(...labels);
    }
    expect(seen.sort()).toEqual([...names].sort());
    // One shard is the whole app.
    expect((await planShard('1/1')).labels).toEqual([...names].sort());
  });

  it('apply and drift take the same shard; text output says which', async () => {
    // An account's shard hashes its base URL, and the emulator's port differs on every run:
    // take the first shard count that leaves accounts in both shard 1 and shard 2.
    let n = 2;
    let first = await planShard(`1/${n}`);
    let second = await planShard(`2/${n}`);
    while (!first.labels.length || !second.labels.length) {
      expect(n).toBeLessThan(N);
      n++;
      [first, second] = [await planShard(`1/${n}`), await planShard(`2/${n}`)];
    }
    const { labels } = second;
    let r = await ncalc(['apply', '--auto-approve', '--shard', `2/${n}`], { cwd: app.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Shard 2/${n}: ${labels.length} of ${N} accounts; the other ${N - labels.length}`);
    expect(r.stdout).toContain(`Apply complete: ${labels.length} created`);
    // Shard 2 is in sync now, shard 1 still misses its alerts.
    r = await ncalc(['drift', '--shard', `2/${n}`], { cwd: app.dir, env: env() });
    expect(r.code).toBe(0);
    r = await ncalc(['drift', '--shard', `1/${n}`, '--format', 'markdown'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`_Shard 1/${n}: ${first.labels.length} of ${N} accounts`);
  });

  it.each(['0/3', '4/3', '3', 'a/b', '1/0', ''])(
    'rejects --shard %j as a usage error, before synthesizing',
    async (shard) => {
      await emulator().control.clearRequests();
      const r = await ncalc(['plan', '--shard', shard, '--json'], { cwd: app.dir, env: env() });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error: --shard .*expected <i>\/<n> with 1 ≤ i ≤ n/);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'USAGE_ERROR', retryable: false });
      expect(await emulator().control.requests()).toEqual([]);
    },
  );
});

describe('shard assignment', () => {
  it('spreads many account keys about evenly and depends on the key alone', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++)
      counts[shardOfKey(`https://networkcalc.com token sha256:${i.toString(16).padStart(8, '0')}`, 4) - 1]++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
    expect(shardOfKey('https://networkcalc.com client ops', 5)).toBe(
      shardOfKey('https://networkcalc.com client ops', 5),
    );
    expect(parseShard(' 2 / 5 ')).toEqual({ index: 2, count: 5 });
  });
});
