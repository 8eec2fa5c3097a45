/**
 * Alert policies at scale: an account of 500 domains and a generate policy of 2 checks (1,000
 * alerts), planned and applied by the built CLI (`node dist/cli/main.js`, one process per
 * command) against an in-process emulator, read with --no-synth. Per command: wall time, peak
 * RSS and the emulator's request counts, checked against what the command must do (one alerts
 * list and one domains list per plan, writes = changes). For comparison, the same 1,000
 * alerts declared one by one.
 *
 *   npm run build && npx tsx bench/coverage.ts [domains, default 500]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../src/client';
import { startEmulator, type EmulatorSeed, type RunningEmulator } from '../src/emulator';
import {
  countRequests,
  fmtMs,
  killCurrent,
  median,
  runNcalc,
  table,
  writeFixtureApp,
  type RequestCounts,
  type RunResult,
  benchEnv,
} from './support';

const DOMAINS = Number(process.argv[2] ?? 500);
const REPS = 3;
const ADDED = 10;
const TIMEOUT_MS = 300_000;
const ACCOUNT = 'cov';
const TOKEN = 'cov-bench-token';
const STACK = 'bench';

const CHECKS = [
  { label: 'certificate expiry', type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' },
  { label: 'SPF validity', type: 'SPF Record', filter: 'validity' },
];

const host = (i: number) => `site-${String(i).padStart(4, '0')}.example`;

function seed(): EmulatorSeed {
  return {
    accounts: [
      {
        name: ACCOUNT,
        user_id: 50,
        tokens: [{ access_token: TOKEN }],
        domains: Array.from({ length: DOMAINS }, (_, i) => ({ id: i + 1, domain: host(i) })),
      },
    ],
  };
}

/**
 * The stack as AlertPolicy writes it, in `mode`. The require stack is additive: it declares no
 * alert, and in an exclusive scope its plan would delete the live ones (all gaps after apply).
 */
function policyStack(mode: 'generate' | 'require'): Record<string, unknown> {
  const ownership = mode === 'require' ? 'additive' : 'exclusive';
  return {
    '//': {
      metadata: { stackName: STACK },
      networkcalc_alert_policies: {
        Baseline_0A1B2C3D: {
          path: `${STACK}/Baseline`,
          mode,
          targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
          checks: CHECKS,
        },
      },
    },
    provider: {
      networkcalc: [
        {
          token_env: 'NETWORKCALC_TOKEN',
          client_id_env: 'NETWORKCALC_CLIENT_ID',
          client_secret_env: 'NETWORKCALC_CLIENT_SECRET',
          ownership,
        },
      ],
    },
  };
}

/** The same alerts declared one by one, as a loop over Alert constructs with id targets would. */
function explicitStack(): Record<string, unknown> {
  const alerts: Record<string, unknown> = {};
  for (let i = 0; i < DOMAINS; i++) {
    for (const { label, ...check } of CHECKS) {
      alerts[`A${i}_${label.replace(/\W/g, '')}`] = {
        name: `${label} · ${host(i)}`,
        ...check,
        target_type: 'domain',
        target_id: i + 1,
      };
    }
  }
  const json = policyStack('generate');
  delete json['//'];
  return { ...json, resource: { networkcalc_alert: alerts } };
}

function writeApp(dir: string, json: Record<string, unknown>): void {
  writeFixtureApp(dir, 0, STACK);
  writeFileSync(path.join(dir, 'cdktf.out', 'stacks', STACK, 'cdk.tf.json'), JSON.stringify(json, null, 2));
}

interface Expect {
  code: number;
  stdout: RegExp;
  counts: Partial<RequestCounts>;
}

let emu: RunningEmulator | undefined;
let scratch: string | undefined;
const problems: string[] = [];

async function measure(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  reps: number,
  e: Expect,
  before?: () => Promise<void>,
): Promise<string[]> {
  const runs: RunResult[] = [];
  let counts: RequestCounts | undefined;
  for (let i = 0; i < reps; i++) {
    await before?.();
    await emu!.control.clearRequests();
    const r = await runNcalc(args, env, scratch!, TIMEOUT_MS);
    counts = countRequests((await emu!.control.requests()).filter((x) => x.account === ACCOUNT));
    if (r.code !== e.code) problems.push(`${label}: exit ${r.code}, expected ${e.code}: ${r.stderr.slice(0, 300)}`);
    if (!e.stdout.test(r.stdout))
      problems.push(`${label}: output does not match ${e.stdout}: …${r.stdout.slice(-300)}`);
    for (const [k, v] of Object.entries({
      listAlerts: 1,
      listDomains: 1,
      post: 0,
      patch: 0,
      del: 0,
      other: 0,
      ...e.counts,
    })) {
      if (counts[k as keyof RequestCounts] !== v)
        problems.push(`${label}: ${k} ${counts[k as keyof RequestCounts]}, expected ${v}`);
    }
    runs.push(r);
  }
  const ms = runs.map((r) => r.ms);
  const c = counts!;
  return [
    label,
    `${fmtMs(median(ms))}${runs.length > 1 ? ` (${fmtMs(Math.min(...ms))}–${fmtMs(Math.max(...ms))})` : ''}`,
    String(runs.length),
    `${Math.max(...runs.map((r) => r.rssMb)).toFixed(0)} MiB`,
    String(c.listAlerts),
    String(c.listDomains),
    `${c.post} / ${c.patch} / ${c.del}`,
  ];
}

async function main(): Promise<void> {
  emu = await startEmulator({ host: '127.0.0.1', port: 0, seed: seed() });
  scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-coverage-'));
  const env = benchEnv({
    NETWORKCALC_BASE_URL: emu.url,
    NETWORKCALC_TOKEN: TOKEN,
    NO_COLOR: '1',
    CHECKPOINT_DISABLE: '1',
  });
  const n = DOMAINS * CHECKS.length;
  const generate = path.join(scratch, 'generate');
  const require = path.join(scratch, 'require');
  const explicit = path.join(scratch, 'explicit');
  writeApp(generate, policyStack('generate'));
  writeApp(require, policyStack('require'));
  writeApp(explicit, explicitStack());
  const at = (dir: string) => ['-C', dir, '--no-synth'];
  const reset = () => emu!.control.reset();
  console.log(
    `node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; ${DOMAINS} domains × ${CHECKS.length} checks; emulator in this process\n`,
  );

  const rows: string[][] = [];
  const creates = new RegExp(`Plan: ${n} to create, 0 to update, 0 to delete\\.`);
  rows.push(
    await measure(`plan, policy (${n} creates)`, ['plan', ...at(generate)], env, REPS, {
      code: 0,
      stdout: creates,
      counts: {},
    }),
  );
  rows.push(
    await measure(`plan, ${n} explicit alerts (comparison)`, ['plan', ...at(explicit)], env, REPS, {
      code: 0,
      stdout: creates,
      counts: { listDomains: 0 },
    }),
  );
  // apply lists the account once more after its writes (the check for concurrent writers).
  const applied = new RegExp(`Apply complete: ${n} created, 0 updated, 0 deleted, 0 failed\\.`);
  rows.push(
    await measure(
      `apply, policy (${n} creates)`,
      ['apply', ...at(generate), '--auto-approve'],
      env,
      REPS,
      { code: 0, stdout: applied, counts: { listAlerts: 2, post: n } },
      reset,
    ),
  );
  const inSync = new RegExp(`No changes\\. ${n} alerts in sync\\.`);
  rows.push(
    await measure('plan, policy (no changes)', ['plan', ...at(generate)], env, REPS, {
      code: 0,
      stdout: inSync,
      counts: {},
    }),
  );
  rows.push(
    await measure('drift, policy (in sync)', ['drift', ...at(generate)], env, REPS, {
      code: 0,
      stdout: /In sync/,
      counts: {},
    }),
  );
  const covered = new RegExp(`Coverage: ${n} covered, 0 made by apply, 0 gaps, of ${n} checks`);
  rows.push(
    await measure(`coverage, generate policy (${n} cells)`, ['coverage', ...at(generate)], env, REPS, {
      code: 0,
      stdout: covered,
      counts: {},
    }),
  );
  rows.push(
    await measure(`coverage, require policy (${n} cells)`, ['coverage', ...at(require)], env, REPS, {
      code: 0,
      stdout: covered,
      counts: {},
    }),
  );

  // Domains added in the console: the next apply creates exactly their alerts.
  const api = new NetworkCalcClient({ baseUrl: emu.url, token: TOKEN });
  for (let i = 0; i < ADDED; i++) await api.addDomain(`added-${i}.example`);
  const gaps = new RegExp(
    `Coverage: ${DOMAINS * CHECKS.length} covered, 0 made by apply, ${ADDED * CHECKS.length} gaps`,
  );
  rows.push(
    await measure(`coverage, require policy (${ADDED} domains added)`, ['coverage', ...at(require)], env, 1, {
      code: 2,
      stdout: gaps,
      counts: {},
    }),
  );
  const added = new RegExp(`Apply complete: ${ADDED * CHECKS.length} created, 0 updated, 0 deleted, 0 failed\\.`);
  rows.push(
    await measure(`apply, policy (${ADDED} domains added)`, ['apply', ...at(generate), '--auto-approve'], env, 1, {
      code: 0,
      stdout: added,
      counts: { listAlerts: 2, post: ADDED * CHECKS.length },
    }),
  );

  console.log(
    table(
      [
        'command',
        'wall, median (min–max)',
        'runs',
        'peak RSS',
        'GET /api/alerts/',
        'GET /api/domains/',
        'POST / PATCH / DELETE',
      ],
      rows,
    ),
  );
  if (problems.length) {
    console.error(`\n${problems.length} check(s) failed:\n${problems.join('\n')}`);
    process.exitCode = 1;
  } else console.log('\nEvery run exited as expected, printed what was expected and made exactly the requests listed.');
}

async function cleanup(): Promise<void> {
  killCurrent();
  await emu?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
