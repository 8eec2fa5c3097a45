/**
 * Fifty accounts as a platform team runs them: a real cdktf app (the compiled constructs),
 * one stack per account, `new NetworkcalcAccount(stack, 'Account', { tokenEnv: 'ACCTnn_TOKEN' })`
 * and 40 alerts each, against an in-process emulator on 127.0.0.1. Among them:
 *
 * - acct51: its secret is not set (a 51st stack whose ACCT51_TOKEN is missing);
 * - acct07: its token is refused;
 * - acct21: every request answered 429 (emulator fault matched by account);
 * - acct33: every request answered 500 (emulator fault matched by account);
 * - NETWORKCALC_CLIENT_ID / _SECRET set, belonging to acct50 (the shared variables of the
 *   issue's scenario; `--no-shared-client` leaves them unset).
 *
 * Measured per ncalc build (this checkout's, and with `--before <dist/cli/main.js>` another
 * one, e.g. a build of the commit before a change): plan, apply and drift (synthesizing, as a
 * user runs them), then 4 shards run in parallel from one checkout, each synthesizing, and
 * the synth-once path (`ncalc synth`, then 4 shards reading it with --no-synth). Per run:
 * wall time, CPU of every node process (ncalc and the app it runs), exit code, lines of
 * output, requests per healthy account, requests with another account's identity, and
 * whether the summary (JSON `account_summary`, or `accounts[].status` before it existed)
 * says what happened to each account. After apply: every healthy account holds its 40
 * alerts once (no duplicate, nothing in another account).
 *
 *   npm run build && npx tsx bench/fleet.ts [--before <main.js>] [--rounds 3] [--no-shared-client]
 *     [--no-missing-secret]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../src/client';
import { startEmulator, type EmulatorSeed, type RequestLogEntry, type RunningEmulator } from '../src/emulator';
import { NCALC, ROOT, fmtMs, median, readCpuFile, table, writeCpuPreload } from './support';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const BEFORE = flag('--before');
const ROUNDS = Number(flag('--rounds') ?? 3);
const SHARED_CLIENT = !args.includes('--no-shared-client');
/** `--no-missing-secret`: acct51's token is set (for a build that fails the whole run over one missing secret). */
const MISSING_SECRET = !args.includes('--no-missing-secret');

const ACCOUNTS = 50;
const ALERTS = 40;
const SHARDS = 4;
const name = (i: number) => `acct${String(i).padStart(2, '0')}`;
const MISSING = name(51);
const REFUSED = name(7);
const AT_429 = name(21);
const AT_500 = name(33);
const FAILING = [REFUSED, AT_429, AT_500, ...(MISSING_SECRET ? [MISSING] : [])];
const all = [...Array.from({ length: ACCOUNTS }, (_, i) => name(i + 1)), MISSING];
const TIMEOUT_MS = 600_000;

function seed(): EmulatorSeed {
  return {
    accounts: all.map((n, i) => ({
      name: n,
      user_id: i + 1,
      tokens: [{ access_token: `${n}-token` }],
      credentials: [{ client_id: `${n}-client`, client_secret: `${n}-secret` }],
      domains: [
        {
          id: 1000 * (i + 1),
          domain: 'example.com',
          subdomains: Array.from({ length: 8 }, (_, k) => ({ id: 1000 * (i + 1) + k + 1, prefix: `h${k}` })),
        },
      ],
      alerts: [],
    })),
  };
}

/** The app: one stack per account, its token from ACCTnn_TOKEN, 40 alerts with name targets. */
function writeApp(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const cdktf = require.resolve('cdktf', { paths: [ROOT] });
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: 'node main.js', output: 'cdktf.out' }),
  );
  writeFileSync(
    path.join(dir, 'main.js'),
    `const { App, TerraformStack } = require(${JSON.stringify(cdktf)});
const { Alert, AlertTarget, NetworkcalcAccount } = require(${JSON.stringify(path.join(ROOT, 'dist'))});
const app = new App();
for (const name of ${JSON.stringify(all)}) {
  const stack = new TerraformStack(app, name);
  new NetworkcalcAccount(stack, 'Account', { tokenEnv: name.toUpperCase() + '_TOKEN' });
  for (let i = 0; i < ${ALERTS}; i++) {
    const target = i % 5 === 0 ? AlertTarget.domain('example.com') : AlertTarget.subdomain('h' + (i % 8) + '.example.com');
    const props = i % 2 === 0
      ? { dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.' + (i + 1) } }
      : { certificate: { expiresInDays: (i % 60) + 1 } };
    new Alert(stack, 'Alert' + i, { name: name + ' check ' + String(i).padStart(2, '0'), target, ...props });
  }
}
app.synth();
`,
  );
}

function env(url: string, cpuFile: string, preload: string): NodeJS.ProcessEnv {
  const tokens = Object.fromEntries(
    all
      .filter((n) => n !== MISSING || !MISSING_SECRET)
      .map((n) => [`${n.toUpperCase()}_TOKEN`, n === REFUSED ? `${n}-revoked` : `${n}-token`]),
  );
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    NETWORKCALC_BASE_URL: url,
    ...(SHARED_CLIENT
      ? { NETWORKCALC_CLIENT_ID: `${name(50)}-client`, NETWORKCALC_CLIENT_SECRET: `${name(50)}-secret` }
      : {}),
    ...tokens,
    BENCH_CPU_FILE: cpuFile,
    NODE_OPTIONS: `--require ${preload}`,
  };
}

interface Run {
  code: number;
  ms: number;
  stdout: string;
  stderr: string;
}

function ncalc(cli: string, argv: string[], cwd: string, e: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...argv], { cwd, env: e, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code: code ?? -1,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

const lineCount = (s: string) => (s ? s.replace(/\n$/, '').split('\n').length : 0);

/** Requests per account as the emulator logged them (the account the token belongs to). */
function perAccount(log: RequestLogEntry[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of log) if (r.account) m.set(r.account, (m.get(r.account) ?? 0) + 1);
  return m;
}

/** The parts of a `--json` document the checks read. */
interface JsonDoc {
  error?: { code: string };
  account_summary?: Array<{ account: string; status: string }>;
  accounts?: Array<{ label: string; status: string }>;
}

interface Row {
  build: string;
  step: string;
  code: string;
  wall: string;
  cpu: string;
  lines: string;
  requests: string;
  across: string;
  healthyDone: string;
  summary: string;
}

const rows: Row[] = [];
const notes: string[] = [];
let emu: RunningEmulator | undefined;
let scratch: string | undefined;

async function main(): Promise<void> {
  scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-fleet-'));
  const app = path.join(scratch, 'app');
  writeApp(app);
  const preload = writeCpuPreload(scratch);
  emu = await startEmulator({ seed: seed(), requestLogLimit: 200_000 });
  const control = emu.control;
  const url = emu.url;

  /** Faults by account; "pending" when this emulator cannot match faults by account. */
  let faultsByAccount = true;
  const addFaults = async () => {
    if (!faultsByAccount) return;
    try {
      await control.addFault({ kind: 'rate_limit', retryAfterSeconds: 1, match: { account: AT_429 } } as never);
      await control.addFault({ kind: 'status', status: 500, match: { account: AT_500 } } as never);
    } catch (e) {
      faultsByAccount = false;
      notes.push(
        `Faults matched by account are not available in this emulator (${(e as Error).message.split('\n')[0]}): ${AT_429} (429) and ${AT_500} (500) run healthy; their rows are pending.`,
      );
    }
  };
  const failing = () => (faultsByAccount ? FAILING : FAILING.filter((n) => n !== AT_429 && n !== AT_500));
  const healthyNow = () => all.filter((n) => !failing().includes(n));

  const builds: Array<[string, string]> = [
    ['after', NCALC],
    ...(BEFORE ? [['before', path.resolve(BEFORE)] as [string, string]] : []),
  ];
  for (const [build, cli] of builds) {
    await control.reset();
    await addFaults();
    let cpuN = 0;
    const cpuFile = () => path.join(scratch!, `cpu-${build}-${++cpuN}.txt`);

    /** One command (or several at once): timing, CPU, requests, and the checks of `check`. */
    const measure = async (
      step: string,
      argvs: string[][],
      check?: (runs: Run[], log: RequestLogEntry[]) => Promise<{ healthyDone: string; summary: string }>,
    ) => {
      await control.clearRequests();
      const file = cpuFile();
      const e = env(url, file, preload);
      const started = Date.now();
      const runs = await Promise.all(argvs.map((a) => ncalc(cli, a, app, e)));
      const wall = Date.now() - started;
      const log = await control.requests();
      const per = perAccount(log);
      const counts = healthyNow().map((n) => per.get(n) ?? 0);
      // Requests with acct50's identity beyond what acct50's own stack makes: another
      // account's stack used its credentials (the shared client variables).
      const across = Math.max(0, (per.get(name(50)) ?? 0) - median(counts));
      const checked = check ? await check(runs, log) : { healthyDone: '', summary: '' };
      rows.push({
        build,
        step,
        code: runs.map((r) => r.code).join(' '),
        wall: fmtMs(wall),
        cpu:
          argvs.length > 1
            ? `${fmtMs(readCpuFile(file).cpuMs)} (${fmtMs(readCpuFile(file).cpuMs / argvs.length)} each)`
            : fmtMs(readCpuFile(file).cpuMs),
        lines: runs.map((r) => lineCount(r.stdout)).join(' + '),
        requests: `${Math.min(...counts)}–${Math.max(...counts)} (median ${median(counts)})`,
        across: String(across),
        ...checked,
      });
      return runs;
    };

    /** The summary says failed for exactly the failing accounts, and ok for the others. */
    const summaryOk = (doc: JsonDoc | null): string => {
      if (!doc) return 'no document';
      if (doc.error) return `run failed: ${doc.error.code}`;
      if (doc.account_summary) {
        const rows = doc.account_summary;
        const failed = rows.filter((r) => r.status === 'failed').map((r) => r.account);
        const wrong = rows.filter((r) => (r.status === 'failed') !== failing().includes(r.account)).length;
        return `${rows.length} rows, failed: ${failed.join(', ') || 'none'}${wrong ? `, ${wrong} wrong` : ''}`;
      }
      const failed = (doc.accounts ?? []).filter((a) => a.status === 'error').map((a) => a.label);
      return `no table; ${doc.accounts?.length ?? 0} accounts, failed: ${failed.join(', ') || 'none'}`;
    };
    const parse = (s: string) => {
      try {
        return JSON.parse(s) as JsonDoc;
      } catch {
        return null;
      }
    };
    const planned = (doc: JsonDoc | null) =>
      (doc?.accounts ?? []).filter((a) => a.status === 'ok' && healthyNow().includes(a.label)).length;

    const lastLines = (step: string) => async (runs: Run[]) => {
      const out = runs[0]!.stdout.trimEnd().split('\n');
      notes.push(`${build} ${step}, last lines:\n\n\`\`\`\n${out.slice(-8).join('\n')}\n\`\`\``);
      return { healthyDone: '', summary: '' };
    };
    await measure('plan', [['plan']], lastLines('plan'));
    await measure('plan --json', [['plan', '--json']], async (runs) => {
      const doc = parse(runs[0]!.stdout);
      return { healthyDone: `${planned(doc)}/${healthyNow().length} planned`, summary: summaryOk(doc) };
    });
    await measure('apply', [['apply', '--auto-approve']], async (runs) => {
      // Each healthy account holds its 40 alerts once.
      let complete = 0;
      let duplicates = 0;
      for (const n of healthyNow()) {
        const alerts = await new NetworkCalcClient({ baseUrl: url, token: `${n}-token` }).listAlerts();
        const names = alerts.map((a) => a.name);
        duplicates += names.length - new Set(names).size;
        if (new Set(names).size === ALERTS && names.every((x) => x.startsWith(`${n} `))) complete++;
      }
      await lastLines('apply')(runs);
      return { healthyDone: `${complete}/${healthyNow().length} complete, ${duplicates} duplicates`, summary: '' };
    });
    await measure('apply again --json', [['apply', '--auto-approve', '--json']], async (runs) => {
      const doc = parse(runs[0]!.stdout);
      return { healthyDone: '', summary: summaryOk(doc) };
    });
    await measure('drift', [['drift']], lastLines('drift'));
    await measure('drift --format markdown', [['drift', '--format', 'markdown']], async (runs) => {
      const md = runs[0]!.stdout;
      const named = all.filter((n) => md.includes(`\`${n}\``)).length;
      return { healthyDone: '', summary: `${md.length} chars, names ${named}/${all.length} accounts` };
    });
    await measure('drift --json', [['drift', '--json']], async (runs) => {
      const doc = parse(runs[0]!.stdout);
      return { healthyDone: `${planned(doc)}/${healthyNow().length} checked`, summary: summaryOk(doc) };
    });

    const shardArgs = (extra: string[]) =>
      Array.from({ length: SHARDS }, (_, i) => ['drift', '--json', '--shard', `${i + 1}/${SHARDS}`, ...extra]);
    const shardCheck = async (runs: Run[]) => {
      const broken = runs.filter((r) => /is not valid JSON|does not exist/.test(r.stderr)).length;
      const checked = runs.reduce((k, r) => k + planned(parse(r.stdout)), 0);
      return {
        healthyDone: `${checked}/${healthyNow().length} checked`,
        summary: `${broken} of ${SHARDS} shards read a broken synth`,
      };
    };
    for (let round = 1; round <= ROUNDS; round++) {
      await measure(`${SHARDS} shards in parallel, each synthesizing (round ${round})`, shardArgs([]), shardCheck);
      if (build === 'after') {
        await measure(`ncalc synth (round ${round})`, [['synth', '--out', 'shared']]);
        await measure(
          `${SHARDS} shards in parallel, --no-synth --out shared (round ${round})`,
          shardArgs(['--no-synth', '--out', 'shared']),
          shardCheck,
        );
      }
    }
  }
}

main()
  .then(() => {
    console.log(
      `## Fifty accounts (${ACCOUNTS} + 1 × ${ALERTS} alerts; ${SHARED_CLIENT ? 'shared client variables of acct50 set' : 'no shared client variables'}; ${MISSING_SECRET ? `${MISSING}'s secret missing` : `${MISSING}'s secret set`})\n`,
    );
    console.log(
      table(
        [
          'build',
          'step',
          'exit',
          'wall',
          'CPU (all node)',
          'output lines',
          'requests per healthy account',
          'acct50 requests beyond its own',
          'healthy accounts',
          'summary',
        ],
        rows.map((r) => [
          r.build,
          r.step,
          r.code,
          r.wall,
          r.cpu,
          r.lines,
          r.requests,
          r.across,
          r.healthyDone,
          r.summary,
        ]),
      ),
    );
    for (const n of notes) console.log(`\n${n}`);
  })
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await emu?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
