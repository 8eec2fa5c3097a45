/**
 * Text output above the grouping threshold, with the built ncalc against the emulator: three
 * accounts × 60 alerts from empty. Text groups by account ("… N more"), `--detail` prints every
 * line, JSON keeps everything, and a failed create is printed however many lines are left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, fleet, ncalcProcess } from './support';

const names = ['acc1', 'acc2', 'acc3'];
const PER = 60;
const accounts = fleet(names);
// The strictest DELETE form: only the path form.
const emulator = useEmulator({ seed: accounts.seed, deleteForm: 'path' });
let app: FixtureApp;
let out: string;

beforeAll(() => {
  requireBuild('dist/cli/main.js');
  app = new FixtureApp(
    accounts.stacks((name, domainId) =>
      Object.fromEntries(
        Array.from({ length: PER }, (_, i) => [`A${i}`, alert({ name: `${name} alert ${i}`, target_id: domainId })]),
      ),
    ),
  );
  out = mkdtempSync(path.join(tmpdir(), 'ncalc-grouped-'));
});
afterAll(() => {
  app.remove();
  rmSync(out, { recursive: true, force: true });
});

const run = (args: string[]) =>
  ncalcProcess([...args, '--no-synth', '--out', out], {
    cwd: app.dir,
    env: cliEnv({ NETWORKCALC_BASE_URL: emulator().url, ...accounts.tokens() }),
    timeoutMs: 30_000,
  });

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** The `… N more` counts, in order. */
const mores = (text: string) => [...text.matchAll(/^ {2}… (\d+) more \(`--detail` for all\)$/gm)].map((m) => +m[1]!);

describe('text output above the threshold', () => {
  beforeAll(async () => {
    // Synthesize once; every run below reads the output.
    const r = await ncalcProcess(['synth', '--out', out], { cwd: app.dir, env: cliEnv({}), timeoutMs: 30_000 });
    expect(r.code).toBe(0);
  });

  it('plan groups by account; --detail and --json have every change', async () => {
    const grouped = await run(['plan']);
    expect(grouped.code).toBe(0);
    expect(count(grouped.stdout, /^ {2}60 changes: 60 to create, 0 to update, 0 to delete$/gm)).toBe(3);
    expect(count(grouped.stdout, /^ {2}\+ alert /gm)).toBe(30);
    expect(mores(grouped.stdout)).toEqual([50, 50, 50]);
    expect(grouped.stdout).not.toMatch(/^ {6}name: /m);
    expect(grouped.stdout).toContain('Plan: 180 to create, 0 to update, 0 to delete.');

    const detail = await run(['plan', '--detail']);
    expect(count(detail.stdout, /^ {2}\+ alert /gm)).toBe(180);
    expect(count(detail.stdout, /^ {6}name: /gm)).toBe(180);
    expect(mores(detail.stdout)).toEqual([]);

    const json = await run(['plan', '--json']);
    const doc = JSON.parse(json.stdout);
    expect(doc.accounts.flatMap((a: { changes: unknown[] }) => a.changes)).toHaveLength(180);
  });

  it("apply shows each account's first results and every failure, then how many more; destroy --detail shows all", async () => {
    // The first 11 creates in acc2 are refused (not retryable): more failures than lines shown.
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_CREATED',
      match: { method: 'POST', path: '/api/alerts', account: 'acc2' },
      count: 11,
    });
    // Slow creates (about 9 s in all): not a terminal, so a progress line on stderr every 5 s.
    await emulator().control.addFault({ kind: 'latency', latencyMs: 400, match: { method: 'POST' } });
    const applied = await run(['apply', '--auto-approve']);
    expect(applied.stderr).toMatch(/^ {2}… \[\d\/3 accounts\] \d+\/180 done, [\d.]+\/s, about [\d a-z]+ left$/m);
    expect(applied.stderr).not.toContain('\r');
    expect(applied.code).toBe(1);
    const results = applied.stdout.slice(applied.stdout.indexOf('Applying ('));
    const failed = count(results, /^ {2}✗ acc2: alert .*create failed: NOT_CREATED/gm);
    const created = count(results, /^ {2}✓ acc\d: alert .* created$/gm);
    expect(failed).toBe(11);
    // Every result is a line or counted in its account's "… N more".
    expect(created + failed + mores(results).reduce((a, b) => a + b, 0)).toBe(180);
    expect(created).toBeLessThanOrEqual(30);
    for (const name of ['acc1', 'acc3'])
      expect(results).toMatch(new RegExp(`^\\[\\d/3 accounts\\] ${name}: 60 created\\n {2}… 50 more`, 'm'));
    expect(results).toMatch(/^\[\d\/3 accounts\] acc2: 49 created, 11 failed$/m);
    expect(results).toContain('Apply finished with errors: 169 created, 0 updated, 0 deleted, 11 failed.');

    // JSON keeps every result.
    await emulator().control.clearFaults();
    const json = await run(['apply', '--auto-approve', '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.accounts.flatMap((a: { changes: unknown[] }) => a.changes)).toHaveLength(11);

    const destroyed = await run(['destroy', '--auto-approve', '--detail']);
    expect(destroyed.code).toBe(0);
    const gone = destroyed.stdout.slice(destroyed.stdout.indexOf('Destroying ('));
    expect(count(gone, /^ {2}✓ acc\d: alert .* deleted$/gm)).toBe(180);
    expect(mores(destroyed.stdout)).toEqual([]);
    expect(gone).toContain('Destroy complete: 0 created, 0 updated, 180 deleted, 0 failed.');
  });

  it('drift groups the same way', async () => {
    const drift = await run(['drift']);
    expect(drift.code).toBe(2);
    expect(count(drift.stdout, /^ {2}60 differences: 60 missing, 0 edited, 0 to delete$/gm)).toBe(3);
    expect(mores(drift.stdout)).toEqual([50, 50, 50]);
    expect(count((await run(['drift', '--detail'])).stdout, /^ {2}\+ alert /gm)).toBe(180);
  });
});
