/**
 * Synthesize once, shard many: `ncalc synth --out <dir>` runs the app one time; the shards of
 * a CI matrix read that output with `--no-synth --out <dir>`, never run the app, and together
 * make the API calls of one unsharded run (one list per account), each only for its accounts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, fleet, ncalc } from './support';

const N = 8;
const names = Array.from({ length: N }, (_, i) => `acct${i + 1}`);

const accounts = fleet(names);

const emulator = useEmulator({ seed: accounts.seed });
let app: FixtureApp;
const appRuns = () => readFileSync(path.join(app.dir, 'runs.log'), 'utf8').split('\n').filter(Boolean).length;

beforeAll(() => {
  app = new FixtureApp(
    accounts.stacks((name, domainId) => ({ A: alert({ name: `alert of ${name}`, target_id: domainId }) })),
  );
  // The app counts its runs.
  writeFileSync(path.join(app.dir, 'count.js'), "require('fs').appendFileSync(__dirname + '/runs.log', 'run\\n');\n");
  writeFileSync(path.join(app.dir, 'runs.log'), '');
  writeFileSync(path.join(app.dir, 'cdktf.json'), JSON.stringify({ app: 'node count.js && node synth.js' }));
});
afterAll(() => app.remove());

const env = () =>
  cliEnv({
    NETWORKCALC_BASE_URL: emulator().url,
    ...accounts.tokens(),
  });
const run = (...args: string[]) => ncalc(args, { cwd: app.dir, env: env() });

describe('ncalc synth, then shards with --no-synth', () => {
  it('runs the app once; four shards read its output and list each account exactly once', async () => {
    const synth = await run('synth', '--out', 'shared-out');
    expect(synth.stderr).toBe('');
    expect(synth.code).toBe(0);
    expect(synth.stdout).toBe(
      `Synthesized ${N} stacks (${N} alerts, ${N} provider configurations) into shared-out; checked without credentials.\n` +
        'Read it without running the app again: ncalc plan|apply|drift --no-synth --out shared-out [--shard i/n]\n',
    );
    expect(appRuns()).toBe(1);
    // No credential was needed, no API call was made.
    expect(await emulator().control.requests()).toEqual([]);

    const shards = await Promise.all(
      [1, 2, 3, 4].map((i) => run('drift', '--json', '--no-synth', '--out', 'shared-out', '--shard', `${i}/4`)),
    );
    expect(appRuns()).toBe(1);
    const checked = shards.flatMap((r) => {
      const labels: string[] = JSON.parse(r.stdout).accounts.map((a: { label: string }) => a.label);
      // Every alert is missing; a shard the hash gave no account has nothing to check.
      expect(r.code).toBe(labels.length ? 2 : 0);
      return labels;
    });
    expect(checked.sort()).toEqual(names);
    // Together the calls of one run: one list of alerts per account, nothing else.
    const requests = await emulator().control.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.account}`).sort()).toEqual(
      names.map((n) => `GET /api/alerts/ ${n}`).sort(),
    );
  });

  it("a shard reads only its own accounts' stacks: an invalid alert in another shard fails that shard alone", async () => {
    // GIVEN an output where one account's stack declares an alert no model accepts
    const broken = new FixtureApp(
      accounts.stacks((name, domainId) => ({
        A: alert(
          name === 'acct3'
            ? { name: `alert of ${name}`, target_id: domainId, filter: 'is roughly' }
            : { name: `alert of ${name}`, target_id: domainId },
        ),
      })),
    );
    try {
      const at = (...args: string[]) => ncalc(args, { cwd: broken.dir, env: env() });
      // (written by the app itself: ncalc synth would refuse it)
      execFileSync(process.execPath, ['synth.js'], {
        cwd: broken.dir,
        env: { CDKTF_OUTDIR: path.join(broken.dir, 'out') },
      });
      // An unsharded run reads every stack and refuses.
      const all = await at('plan', '--no-synth', '--out', 'out');
      expect(all.code).toBe(1);
      expect(all.stderr).toContain('acct3');
      const shards = await Promise.all(
        [1, 2, 3, 4].map((i) => at('plan', '--json', '--no-synth', '--out', 'out', '--shard', `${i}/4`)),
      );
      const failed = shards.filter((r) => r.code === 1);
      // Only the shard of acct3 fails, naming it; the others plan their accounts.
      expect(failed).toHaveLength(1);
      expect(failed[0]!.stderr).toContain('acct3');
      const planned = shards
        .filter((r) => r.code !== 1)
        .flatMap((r) => JSON.parse(r.stdout).accounts.map((a: { label: string }) => a.label) as string[]);
      expect(planned).not.toContain('acct3');
      expect(planned.length).toBeGreaterThan(0);
    } finally {
      broken.remove();
    }
  });

  it('a shard plans, saves and applies from the shared output', async () => {
    expect((await run('synth', '--out', 'shared-out', '--json')).code).toBe(0);
    const before = appRuns();
    const plan = await run('plan', '--no-synth', '--out', 'shared-out', '--shard', '1/2', '--save', 'shard1.plan');
    expect(plan.code).toBe(0);
    const apply = await run('apply', 'shard1.plan');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/Apply complete: \d+ created/);
    expect(appRuns()).toBe(before);
  });

  it('--synth-workers spreads the synth over that many runs of the app, and wins over NCALC_SYNTH_WORKERS', async () => {
    const synth = (out: string, flag: string, variable: string) =>
      ncalc(['synth', '--out', out, '--synth-workers', flag], {
        cwd: app.dir,
        env: { ...env(), NCALC_SYNTH_WORKERS: variable },
      });
    let before = appRuns();
    // The variable is not read when the flag is given, so even a value it refuses does not matter.
    const spread = await synth('spread-out', '3', 'many');
    expect(spread.stderr).toBe('');
    expect(spread.code).toBe(0);
    expect(appRuns() - before).toBe(3);
    before = appRuns();
    const one = await synth('one-out', '1', '4');
    expect(one.code).toBe(0);
    expect(appRuns() - before).toBe(1);
    // The same stacks (the merged manifest is written with its keys sorted, as cdktf writes it).
    const manifest = (out: string): unknown =>
      JSON.parse(readFileSync(path.join(app.dir, out, 'manifest.json'), 'utf8'));
    expect(manifest('spread-out')).toEqual(manifest('one-out'));
  });

  it('an app that does not synthesize fails ncalc synth with what to fix, and writes nothing for the shards', async () => {
    const r = await ncalc(['synth', '--out', 'bad-out', '--app', 'node -e "process.exit(3)"'], {
      cwd: app.dir,
      env: env(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: the configuration is not valid; nothing was changed\.\n {2}- synth: the app .* exited with code 3/,
    );
    const shard = await run('drift', '--no-synth', '--out', 'bad-out', '--shard', '1/2');
    expect(shard.code).toBe(1);
    expect(shard.stderr).toContain('bad-out/manifest.json does not exist');
  });
});
