/**
 * `ncalc` against an emulator as strict as the real service may be: one DELETE form, latency,
 * seeded faults and creates whose answer is lost after the alert was stored. Every scenario
 * asserts convergence (every declared alert exactly once, nothing else) and request counts.
 */
import { startEmulator, DEMO_ACCOUNT, type RunningEmulator } from '../../src/emulator';
import { countConnections } from '../helpers/emulator';
import { faultMix } from '../helpers/faults';
import { alert, cliEnv, FixtureApp, ncalc, stack } from './support';

jest.setTimeout(300_000);

const provider = { token_env: 'NETWORKCALC_TOKEN' };

function appOf(count: number): FixtureApp {
  const alerts: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < count; i++)
    alerts[`a${i}`] = alert({ name: `alert ${i}`, subtype: 'TXT', filter: 'contains', filter_value: `v=spf1 ${i}` });
  return new FixtureApp({ main: stack({ provider, alerts }) });
}

describe('ncalc against a strict, faulty service', () => {
  let emu: RunningEmulator;
  let app: FixtureApp | undefined;
  const env = () => cliEnv({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  const names = async () => (await emu.control.state()).accounts[0]!.alerts.map((a) => a.name);

  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterEach(() => {
    app?.remove();
    app = undefined;
  });
  afterAll(async () => {
    await emu?.close();
  });

  for (const form of ['body', 'query', 'path'] as const) {
    test(`destroy of 300 at --parallelism 32 with only the ${form} DELETE form: one run, ≤ N + 6 DELETEs over ≤ P + 4 connections`, async () => {
      // A service of its own: the DELETE form is learned once per base URL for the process.
      const strict = await startEmulator({ deleteForm: form });
      try {
        const strictEnv = cliEnv({ NETWORKCALC_BASE_URL: strict.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
        app = appOf(300);
        const apply = await ncalc(['apply', '--auto-approve', '--parallelism', '32'], { cwd: app.dir, env: strictEnv });
        expect(apply.code).toBe(0);
        await strict.control.clearRequests();
        // Connections that carry the destroy's requests: one per lane, whatever the form.
        const watch = countConnections(strict);
        const destroy = await ncalc(['destroy', '--auto-approve', '--parallelism', '32'], {
          cwd: app.dir,
          env: strictEnv,
        });
        const connections = watch.stop();
        expect({ code: destroy.code, stderr: destroy.stderr }).toEqual({ code: 0, stderr: '' });
        expect((await strict.control.state()).accounts[0]!.alerts).toEqual([]);
        expect(await strict.control.countRequests({ method: 'DELETE', pathPrefix: '/api/alerts' })).toBeLessThanOrEqual(
          306,
        );
        expect(connections).toBeGreaterThan(0);
        expect(connections).toBeLessThanOrEqual(32 + 4);
      } finally {
        await strict.close();
      }
    });
  }

  /** Applies until exit 0, at most `maxRuns` times; returns the runs it took. */
  async function converge(count: number, maxRuns: number): Promise<number> {
    const failures: string[] = [];
    for (let run = 1; run <= maxRuns; run++) {
      const r = await ncalc(['apply', '--auto-approve', '--parallelism', '16'], { cwd: app!.dir, env: env() });
      if (r.code === 0) return run;
      expect(r.code).toBe(1);
      // What failed, for the message below: the lines of failed changes and the errors.
      const failed = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /fail|error/i.test(l));
      failures.push(`run ${run}: ${failed.slice(0, 8).join(' | ')}`);
    }
    throw new Error(
      `did not converge in ${maxRuns} runs: ${(await names()).length} of ${count} alerts\n${failures.join('\n')}`,
    );
  }

  for (const [rate, count, maxRuns] of [
    [0.2, 300, 2],
    [0.3, 500, 3],
  ] as const) {
    test(`${rate * 100} % faults and ${rate * 100} % ambiguous creates, ${count} alerts: converges in ≤ ${maxRuns} runs, no duplicate, nothing lost`, async () => {
      await emu.control.reset();
      await emu.control.updateSettings({ randomSeed: 1234 + count });
      for (const f of faultMix(rate, rate)) await emu.control.addFault(f);
      app = appOf(count);
      const runs = await converge(count, maxRuns);
      await emu.control.clearFaults();
      const live = await names();
      expect(live).toHaveLength(count);
      expect(new Set(live).size).toBe(count);
      const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: app.dir, env: env() });
      expect(plan.code).toBe(0);
      expect(runs).toBeLessThanOrEqual(maxRuns);
    });
  }

  test('two applies of one app against one account at once: the post-apply check reports the duplicates (exit 1), and the next apply removes them', async () => {
    await emu.control.reset();
    app = appOf(100);
    // Synthesized once, so that both applies start listing together; at 50 ms a request, each
    // one's 100 creates take over half a second, so both list before either has written.
    expect((await ncalc(['synth'], { cwd: app.dir, env: env() })).code).toBe(0);
    await emu.control.addFault({ kind: 'latency', latencyMs: 50, match: { path: '/api/' } });
    const [a, b] = await Promise.all([
      ncalc(['apply', '--auto-approve', '--no-synth', '--parallelism', '8'], { cwd: app.dir, env: env() }),
      ncalc(['apply', '--auto-approve', '--no-synth', '--parallelism', '8'], { cwd: app.dir, env: env() }),
    ]);
    await emu.control.clearFaults();
    const live = await names();
    expect(live.length).toBeGreaterThan(100);
    const failed = [a, b].filter((r) => r.code === 1);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const r of failed) {
      expect(r.stdout).toMatch(
        /after apply, account .* shows alerts this run did not make: \d+ name\(s\) now exist more than once: "alert \d+" \(ids \d+, \d+\)/,
      );
      expect(r.stdout).toContain('runs against one account must be serialised');
    }
    await emu.control.clearRequests();
    const fix = await ncalc(['apply', '--auto-approve', '--allow-mass-delete'], { cwd: app.dir, env: env() });
    expect(fix.code).toBe(0);
    expect(new Set(await names()).size).toBe(100);
    expect(await names()).toHaveLength(100);
  });
});
