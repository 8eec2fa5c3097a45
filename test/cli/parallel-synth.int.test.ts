/**
 * Runs started at once from one checkout (the shards of a CI matrix on one machine) each
 * synthesize into their own directory: none reads another's half-written cdk.tf.json, and
 * the output directory holds a complete output afterwards (for --no-synth).
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, fleet, ncalc } from './support';

const N = 12;
const names = Array.from({ length: N }, (_, i) => `acct${String(i + 1).padStart(2, '0')}`);

const accounts = fleet(names);

const emulator = useEmulator({ seed: accounts.seed });
let app: FixtureApp;
beforeAll(() => {
  // One stack per account, each big enough that writing it takes a while: the race the
  // shared output directory lost.
  app = new FixtureApp(
    accounts.stacks((name, domainId) =>
      Object.fromEntries(
        Array.from({ length: 300 }, (_, k) => [
          `A${k}`,
          alert({ name: `${name} alert ${k}`, target_id: domainId, filter_value: `192.0.2.${(k % 250) + 1}` }),
        ]),
      ),
    ),
  );
});
afterAll(() => app.remove());

const env = () =>
  cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    ...accounts.tokens(),
  });

describe('parallel runs from one checkout', () => {
  it('four shards synthesizing at once all succeed, and leave one complete output', async () => {
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        [1, 2, 3, 4].map((i) => ncalc(['plan', '--json', '--shard', `${i}/4`], { cwd: app.dir, env: env() })),
      );
      for (const r of results) {
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      }
      const planned = results.flatMap((r) => JSON.parse(r.stdout).accounts.map((a: { label: string }) => a.label));
      expect(planned.sort()).toEqual(names);
    }
    // The private directories are gone; the output directory reads whole.
    expect(readdirSync(path.join(app.dir, 'cdktf.out')).filter((f) => f.startsWith('.ncalc-run-'))).toEqual([]);
    const r = await ncalc(['plan', '--no-synth', '--json'], { cwd: app.dir, env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary.create).toBe(N * 300);
    expect(readdirSync(path.join(app.dir, 'cdktf.out', 'stacks')).sort()).toEqual(names);
  });
});
