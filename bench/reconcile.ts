/**
 * ncalc at scale: the built CLI (`node dist/cli/main.js`, one process per command, as users
 * run it) against an in-process emulator on 127.0.0.1, with a pre-synthesized app of N alerts
 * read with --no-synth so synthesis does not dominate (one extra series synthesizes a real
 * cdktf app). Per command: wall time, peak RSS of the ncalc process, and the emulator's
 * request counts, checked against what the plan says (1 list per account, writes = changes).
 *
 *   npm run build && npx tsx bench/reconcile.ts [sizes, default 100,1000,5000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../src/emulator';
import {
  ACCOUNT,
  TOKEN,
  alertName,
  benchSeed,
  countRequests,
  fmtMs,
  isDriftVictim,
  killCurrent,
  median,
  runNcalc,
  table,
  writeCdktfApp,
  writeFixtureApp,
  type RequestCounts,
  type RunResult,
  benchEnv,
} from './support';

const SIZES = (process.argv[2] ?? '100,1000,5000').split(',').map(Number);
const PARALLELISM = [1, 8, 32];
/** Repetitions per measurement (median reported); read-only commands and resets are cheap. */
const REPS = 3;
const LATENCY_MS = 20;
const LATENCY_N = 1000;
const SYNTH_N = 1000;
const COMMAND_TIMEOUT_MS = 300_000;
/** The whole run stops starting new measurements after this. */
const DEADLINE_MS = 30 * 60_000;

interface Expect {
  code: number;
  stdout: RegExp;
  listAlerts: number;
  listDomains: number;
  post: number;
  patch: number;
  del: number;
}

interface Measured {
  runs: RunResult[];
  counts: RequestCounts;
  ok: boolean;
  problems: string[];
}

const started = Date.now();
let emu: RunningEmulator | undefined;
let scratch: string | undefined;

async function cleanup(): Promise<void> {
  killCurrent();
  await emu?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

function check(label: string, r: RunResult, c: RequestCounts, e: Expect): string[] {
  const p: string[] = [];
  if (r.code !== e.code) p.push(`${label}: exit ${r.code}, expected ${e.code}: ${r.stderr.slice(0, 500)}`);
  if (!e.stdout.test(r.stdout)) p.push(`${label}: output does not match ${e.stdout}: …${r.stdout.slice(-300)}`);
  for (const k of ['listAlerts', 'listDomains', 'post', 'patch', 'del'] as const) {
    if (c[k] !== e[k]) p.push(`${label}: ${k} ${c[k]}, expected ${e[k]}`);
  }
  if (c.other) p.push(`${label}: ${c.other} other requests`);
  return p;
}

/** Runs one command `reps` times, `before` each (state reset, faults); checks every run. */
async function measure(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  reps: number,
  e: Expect,
  before?: () => Promise<void>,
): Promise<Measured> {
  const runs: RunResult[] = [];
  const problems: string[] = [];
  let counts: RequestCounts | undefined;
  for (let i = 0; i < reps; i++) {
    await before?.();
    await emu!.control.clearRequests();
    const r = await runNcalc(args, env, scratch!, COMMAND_TIMEOUT_MS);
    counts = countRequests(await emu!.control.requests());
    problems.push(...check(label, r, counts, e));
    runs.push(r);
  }
  if (problems.length) console.error(problems.join('\n'));
  return { runs, counts: counts!, ok: problems.length === 0, problems };
}

function row(n: number, label: string, m: Measured, writes?: number): string[] {
  const ms = m.runs.map((r) => r.ms);
  const wall = median(ms);
  const range = m.runs.length > 1 ? ` (${fmtMs(Math.min(...ms))}–${fmtMs(Math.max(...ms))})` : '';
  const c = m.counts;
  return [
    n.toLocaleString('en-US'),
    label,
    `${fmtMs(wall)}${range}`,
    String(m.runs.length),
    `${Math.max(...m.runs.map((r) => r.rssMb)).toFixed(0)} MiB`,
    String(c.listAlerts),
    String(c.listDomains),
    `${c.post} / ${c.patch} / ${c.del}`,
    writes ? `${Math.round(writes / (wall / 1000)).toLocaleString('en-US')}` : '—',
    m.ok ? '✓' : '✗',
  ];
}

const HEAD = [
  'N',
  'command',
  'wall, median (min–max)',
  'runs',
  'peak RSS',
  'GET /api/alerts/',
  'GET /api/domains/',
  'POST / PATCH / DELETE',
  'writes/s',
  'checks',
];
const NONE = { post: 0, patch: 0, del: 0 };
const LISTS = { listAlerts: 1, listDomains: 1 };

const outOfTime = () => Date.now() - started > DEADLINE_MS;

/** Edits every 100th alert out of band (DNS A value), as someone in the web UI would. */
async function editOutOfBand(n: number): Promise<number> {
  const state = await emu!.control.state();
  const account = state.accounts.find((a) => a.name === ACCOUNT)!;
  const ids = new Map(account.alerts.map((a) => [a.name, a.id]));
  let edited = 0;
  for (let i = 0; i < n; i++) {
    if (!isDriftVictim(i)) continue;
    await emu!.control.patchAlert(ACCOUNT, ids.get(alertName(i))!, { filter_value: '198.51.100.7' });
    edited++;
  }
  return edited;
}

async function main(): Promise<void> {
  emu = await startEmulator({ host: '127.0.0.1', port: 0, seed: benchSeed() });
  scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-'));
  const env = benchEnv({
    NETWORKCALC_BASE_URL: emu.url,
    NETWORKCALC_TOKEN: TOKEN,
    NO_COLOR: '1',
    CHECKPOINT_DISABLE: '1',
  });
  const reset = () => emu!.control.reset();
  console.log(
    `node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; emulator in this process; ncalc = node dist/cli/main.js --no-synth\n`,
  );

  const rows: string[][] = [];
  const skipped: string[] = [];
  for (const n of SIZES) {
    if (outOfTime()) {
      skipped.push(`N=${n}`);
      continue;
    }
    const reps = REPS;
    const app = path.join(scratch, `app-${n}`);
    writeFixtureApp(app, n);
    const common = ['-C', app, '--no-synth'];
    await reset();

    const createPlan = new RegExp(`Plan: ${n} to create, 0 to update, 0 to delete\\.`);
    rows.push(
      row(
        n,
        `plan (${n} creates)`,
        await measure('plan', ['plan', ...common], env, reps, { code: 0, stdout: createPlan, ...LISTS, ...NONE }),
      ),
    );

    for (const p of PARALLELISM) {
      const m = await measure(
        `apply p${p}`,
        ['apply', ...common, '--auto-approve', '--parallelism', String(p)],
        env,
        reps,
        {
          code: 0,
          stdout: new RegExp(`Apply complete: ${n} created, 0 updated, 0 deleted, 0 failed\\.`),
          ...LISTS,
          ...NONE,
          post: n,
        },
        reset,
      );
      rows.push(row(n, `apply --parallelism ${p} (${n} creates)`, m, n));
    }

    // The state is now applied: nothing to do.
    const inSync = new RegExp(`No changes\\. ${n} alerts in sync\\.`);
    rows.push(
      row(
        n,
        'plan (no changes)',
        await measure('no-op plan', ['plan', ...common], env, reps, { code: 0, stdout: inSync, ...LISTS, ...NONE }),
      ),
    );

    const edited = await editOutOfBand(n);
    const drift = new RegExp(`Drift: ${edited} differences? \\(0 missing, ${edited} edited, 0 to delete\\)\\.`);
    rows.push(
      row(
        n,
        `drift (${edited} edited = 1%)`,
        await measure('drift', ['drift', ...common], env, reps, { code: 2, stdout: drift, ...LISTS, ...NONE }),
      ),
    );
    const fix = new RegExp(`Apply complete: 0 created, ${edited} updated, 0 deleted, 0 failed\\.`);
    rows.push(
      row(
        n,
        `apply (${edited} edited back)`,
        await measure('apply drift', ['apply', ...common, '--auto-approve'], env, 1, {
          code: 0,
          stdout: fix,
          ...LISTS,
          ...NONE,
          patch: edited,
        }),
        edited,
      ),
    );
  }
  console.log('### ncalc against the emulator (no latency)\n');
  console.log(table(HEAD, rows));
  if (skipped.length) console.log(`\nSkipped (time bound): ${skipped.join(', ')}`);

  // What parallelism buys when every request takes 20 ms more, as over a WAN.
  if (!outOfTime()) {
    const n = LATENCY_N;
    const app = path.join(scratch, `app-${n}`);
    writeFixtureApp(app, n);
    const common = ['-C', app, '--no-synth'];
    const slow = async () => {
      await reset();
      await emu!.control.addFault({ kind: 'latency', latencyMs: LATENCY_MS });
    };
    const lat: string[][] = [];
    const createPlan = new RegExp(`Plan: ${n} to create, 0 to update, 0 to delete\\.`);
    lat.push(
      row(
        n,
        'plan',
        await measure('plan', ['plan', ...common], env, 1, { code: 0, stdout: createPlan, ...LISTS, ...NONE }, slow),
      ),
    );
    for (const p of PARALLELISM) {
      const m = await measure(
        `apply p${p}`,
        ['apply', ...common, '--auto-approve', '--parallelism', String(p)],
        env,
        1,
        { code: 0, stdout: new RegExp(`Apply complete: ${n} created`), ...LISTS, ...NONE, post: n },
        slow,
      );
      lat.push(row(n, `apply --parallelism ${p}`, m, n));
    }
    console.log(`\n### With ${LATENCY_MS} ms latency injected on every request\n`);
    console.log(table(HEAD, lat));
  }

  // Once with real synthesis: the generated cdktf app runs inside the measurement.
  if (!outOfTime()) {
    const n = SYNTH_N;
    const app = path.join(scratch, `cdktf-app-${n}`);
    writeCdktfApp(app, n);
    await reset();
    const createPlan = new RegExp(`Plan: ${n} to create, 0 to update, 0 to delete\\.`);
    const withSynth = await measure('plan with synth', ['plan', '-C', app, '--synth-timeout', '300'], env, 3, {
      code: 0,
      stdout: createPlan,
      ...LISTS,
      ...NONE,
    });
    const noSynth = await measure('plan --no-synth', ['plan', '-C', app, '--no-synth'], env, 3, {
      code: 0,
      stdout: createPlan,
      ...LISTS,
      ...NONE,
    });
    console.log(`\n### Real synthesis of a generated cdktf app (${n} alerts)\n`);
    console.log(
      table(HEAD, [row(n, 'plan (synthesizes the app)', withSynth), row(n, 'plan --no-synth (same output)', noSynth)]),
    );
    console.log(
      `\nSynthesis share: ${fmtMs(median(withSynth.runs.map((r) => r.ms)) - median(noSynth.runs.map((r) => r.ms)))} (peak RSS above is ncalc's own; the app runs in a child process).`,
    );
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
