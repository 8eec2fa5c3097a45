/**
 * A fleet at any size: one app with one stack per account (a `NetworkcalcAccount` and ALERTS
 * alerts with name targets, as a platform team writes it), run as its own process the way
 * `ncalc plan` runs it, then `ncalc plan --no-synth` of its output against an in-process
 * emulator seeded with every account. Measured per build (this checkout's, and with
 * `--before <package dir>` another checkout's build, e.g. of the commit before a change),
 * interleaved round by round so load from other work falls on both alike:
 *
 * - synth: CPU of the app from its first construct to the end of `app.synth()` (module loading
 *   excluded), and its peak RSS; the output of both builds is compared byte for byte;
 * - plan: wall time, CPU and peak RSS of `ncalc plan --no-synth` (from empty: every alert is
 *   a create), and the list requests per account it sent.
 *
 * The growth exponent is the slope of log(CPU) over log(alerts) across the sizes: 1 is
 * linear. The default is a fixture quick on 2 cores; the issue's scenario is
 * `ACCOUNTS=1000 ALERTS=100`.
 *
 * `--synth-workers 1,2,4,8`: at the largest size, `ncalc synth --out` of this build with
 * NCALC_SYNTH_WORKERS set to each (one synth spread over that many runs of the app): wall time,
 * CPU of ncalc and every run of the app, the largest peak RSS; the outputs compared byte for byte.
 *
 * `--e2e` (at the largest size, one synth by this checkout's build, then per build and round):
 * `plan --no-synth` from empty (JSON, then text), `apply --no-synth --parallelism 64` (every
 * alert a create; `--apply-output text,json` for both outputs, each from empty), `plan` again
 * (no change), `drift`, and 8 shards of `plan` at once; wall, CPU and peak RSS of ncalc alone
 * (the emulator runs in this process), the requests per account, lines of text output, and
 * after each apply: every account holds its ALERTS alerts once, none in another account.
 * `--app-dir <dir>` keeps the synthesized app there and reuses it in later runs.
 *
 * `SPLITS=250x400,2000x50,10000x10`: the same alerts split over more and more accounts, every split
 * synthesized and planned with every build in each round; plan and synth CPU of each split
 * beside the first's (the plan must stay linear in alerts, synth grow no faster than stacks).
 *
 * `--as-users` (at the largest size): `ncalc plan` from empty as users run it, ncalc synthesizing
 * the app, once per `--synth-workers` count (default 1): wall, CPU of ncalc and the app, peak RSS.
 *
 *   npm run build && ACCOUNTS=10,40,160 ALERTS=25 npx tsx bench/fleet-scale.ts \
 *     [--before <package dir>] [--rounds 3] [--no-plan] [--cdk cdktn|cdktf] [--shards 1,2,4,8] \
 *     [--synth-workers 1,2,4,8] [--e2e [--apply-output text,json] [--app-dir <dir>]] [--as-users]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type EmulatorSeed, type RunningEmulator } from '../src/emulator';
import { ROOT, countRequests, fmtMs, median, table, type RequestCounts } from './support';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const SIZES = (process.env.ACCOUNTS ?? '10,40,160').split(',').map(Number);
const ALERTS = Number(process.env.ALERTS ?? 25);
const ROUNDS = Number(flag('--rounds') ?? 3);
const PLAN = !args.includes('--no-plan');
const CDK = flag('--cdk') ?? 'cdktn';
const BUILDS: Array<{ label: string; dir: string }> = [
  { label: 'after', dir: ROOT },
  ...(flag('--before') ? [{ label: 'before', dir: path.resolve(flag('--before')!) }] : []),
];
const TIMEOUT_MS = 1_800_000;
/** `--shards 1,2,4,8`: at the largest size, n shards of `plan --no-synth` run at once, after one synth. */
const SHARDS = flag('--shards')?.split(',').map(Number) ?? [];
/** `--synth-workers 1,2,4,8`: at the largest size, `ncalc synth` spread over that many runs of the app. */
const SYNTH_WORKERS = flag('--synth-workers')?.split(',').map(Number) ?? [];
const name = (i: number) => `acct${String(i).padStart(4, '0')}`;
/**
 * Account i's token. Not `acct3060-token`: its sha256 and acct8735-token's begin alike, which
 * builds before the whole digest told accounts apart took for one account.
 */
const token = (i: number) => `token-${name(i)}`;
const SUBDOMAINS = 8;

/** The app: ACCOUNTS stacks of ALERTS alerts, measuring itself. */
function appSource(pkg: string, accounts: number, outdir: string, alerts = ALERTS): string {
  const cdk = require.resolve(CDK, { paths: [pkg] });
  return `const { App, TerraformStack } = require(${JSON.stringify(cdk)});
const { Alert, AlertTarget, NetworkcalcAccount } = require(${JSON.stringify(path.join(pkg, 'dist'))});
const cpu = process.cpuUsage();
const app = new App({ outdir: ${JSON.stringify(outdir)} });
for (let a = 0; a < ${accounts}; a++) {
  const name = 'acct' + String(a).padStart(4, '0');
  const stack = new TerraformStack(app, name);
  new NetworkcalcAccount(stack, 'Account', { tokenEnv: name.toUpperCase() + '_TOKEN' });
  for (let i = 0; i < ${alerts}; i++) {
    const target = i % 5 === 0 ? AlertTarget.domain('example.com') : AlertTarget.subdomain('h' + (i % ${SUBDOMAINS}) + '.example.com');
    const props = i % 2 === 0
      ? { dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.' + ((i % 250) + 1) } }
      : { certificate: { expiresInDays: (i % 60) + 1 } };
    new Alert(stack, 'Alert' + i, { name: name + ' check ' + String(i).padStart(4, '0'), target, ...props });
  }
}
app.synth();
const u = process.cpuUsage(cpu);
console.log(JSON.stringify({ cpuMs: (u.user + u.system) / 1000, rssMb: process.resourceUsage().maxRSS / 1024 }));
`;
}

function seed(accounts: number): EmulatorSeed {
  return {
    accounts: Array.from({ length: accounts }, (_, i) => ({
      name: name(i),
      user_id: i + 1,
      tokens: [{ access_token: token(i) }],
      domains: [
        {
          id: 1000 * (i + 1),
          domain: 'example.com',
          subdomains: Array.from({ length: SUBDOMAINS }, (_, k) => ({ id: 1000 * (i + 1) + k + 1, prefix: `h${k}` })),
        },
      ],
      alerts: [],
    })),
  };
}

interface Measured {
  cpuMs: number;
  wallMs: number;
  rssMb: number;
}

/**
 * Runs the app in a process of its own. Not with spawnSync: the emulators live in this process,
 * and spawnSync froze them and their connections for the length of a synth (over a minute at
 * 10,000 stacks); two runs of SPLITS ended with read ECONNRESET on the control call right after
 * such a synth (a frozen loop of 75 s alone did not reproduce it).
 */
async function synth(pkg: string, accounts: number, dir: string, alerts = ALERTS): Promise<Measured> {
  const outdir = path.join(dir, 'cdktf.out');
  rmSync(outdir, { recursive: true, force: true });
  const main = path.join(dir, 'main.js');
  writeFileSync(main, appSource(pkg, accounts, outdir, alerts));
  const started = Date.now();
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [main], {
      cwd: dir,
      env: { ...process.env, NCALC_CDK: CDK },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  if (r.status !== 0) throw new Error(`the app of ${accounts} accounts failed: ${r.stderr.slice(-2000)}`);
  const got = JSON.parse(r.stdout.trim().split('\n').pop()!) as { cpuMs: number; rssMb: number };
  return { ...got, wallMs: Date.now() - started };
}

/** Every file of a synthesized output, by relative path (the app's directory, which the local backend names, as `<app>`). */
function outputFiles(outdir: string, appDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(outdir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const file = path.join(e.parentPath, e.name);
      files.set(path.relative(outdir, file), readFileSync(file, 'utf8').split(appDir).join('<app>'));
    }
  return files;
}

interface Run extends Measured {
  code: number;
  /** Lines written to stdout. */
  lines: number;
}

/** One ncalc command of build `pkg` on the app in `dir`, with its own peak RSS and CPU (not the emulator's). */
function ncalc(pkg: string, dir: string, url: string, accounts: number, argv: string[], tag: string): Promise<Run> {
  const rssFile = path.join(dir, `usage-${tag}.txt`);
  const preload = path.join(dir, 'usage-preload.js');
  // Once: shards start at once, and one must not read it while another rewrites it.
  if (!existsSync(preload))
    writeFileSync(
      preload,
      "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(process.env.BENCH_USAGE_FILE, u.maxRSS + ' ' + (u.userCPUTime + u.systemCPUTime)); });\n",
    );
  const tokens = Object.fromEntries(
    Array.from({ length: accounts }, (_, i) => [`${name(i).toUpperCase()}_TOKEN`, token(i)]),
  );
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--require', preload, path.join(pkg, 'dist', 'cli', 'main.js'), ...argv], {
      cwd: dir,
      env: { PATH: process.env.PATH, NETWORKCALC_BASE_URL: url, BENCH_USAGE_FILE: rssFile, ...tokens },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    child.stdout.on('data', (d: Buffer) => {
      for (const byte of d) if (byte === 10) lines++;
    });
    let err = '';
    child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let usage: string;
      try {
        usage = readFileSync(rssFile, 'utf8');
      } catch {
        return reject(new Error(`${argv.join(' ')} exited ${code} without its usage line: ${err}`));
      }
      const [rssKb, cpuUs] = usage.split(' ').map(Number);
      resolve({ code: code ?? 1, lines, wallMs: Date.now() - started, cpuMs: cpuUs! / 1000, rssMb: rssKb! / 1024 });
    });
  });
}

async function plan(
  pkg: string,
  dir: string,
  url: string,
  accounts: number,
  shard?: string,
): Promise<Measured & { code: number }> {
  const argv = ['plan', '--no-synth', '--json', '--detailed-exitcode', ...(shard ? ['--shard', shard] : [])];
  const run = await ncalc(pkg, dir, url, accounts, argv, shard ? shard.replace('/', 'of') : 'plan');
  // A shard may hold no account with changes (exit 0).
  if (run.code !== 2 && !(shard && run.code === 0)) throw new Error(`plan ${shard ?? ''} exited ${run.code}`);
  return run;
}

/** Least-squares slope of log(y) over log(x). */
function exponent(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i]! - mx) * (ly[i]! - my);
    den += (lx[i]! - mx) ** 2;
  }
  return num / den;
}

/** n shards at once reading one synthesized output: wall time of the slowest, CPU of all. */
async function shardRuns(scratch: string, accounts: number): Promise<void> {
  const dir = path.join(scratch, 'shards');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js', output: 'cdktf.out' }));
  const s = await synth(ROOT, accounts, dir);
  const emulator = await startEmulator({ seed: seed(accounts) });
  const rows: string[][] = [];
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const n of SHARDS) {
        await emulator.control.reset();
        const started = Date.now();
        const runs = await Promise.all(
          Array.from({ length: n }, (_, i) => plan(ROOT, dir, emulator.url, accounts, `${i + 1}/${n}`)),
        );
        const counts = countRequests(await emulator.control.requests());
        if (counts.listAlerts !== accounts) throw new Error(`${n} shards: ${counts.listAlerts} alert lists`);
        rows.push([
          String(n),
          fmtMs(Date.now() - started),
          fmtMs(runs.reduce((a, r) => a + r.cpuMs, 0)),
          `${Math.round(Math.max(...runs.map((r) => r.rssMb)))} MiB`,
        ]);
      }
  } finally {
    await emulator.close();
  }
  console.log(
    `\nShards at ${accounts} × ${ALERTS}, after one synth (${fmtMs(s.cpuMs)} of CPU), all shards at once, each round:\n`,
  );
  console.log(table(['shards', 'wall, all shards', 'CPU, all shards', 'peak RSS, largest shard'], rows));
}

/**
 * The usage of a tree of node processes (ncalc and each run of the app it starts): every node
 * process started with `env` loads a preload (NODE_OPTIONS, which the app's runs inherit) that
 * appends its peak RSS and CPU to `file` as it exits. `read()`: the CPU of all of them
 * together and the largest peak RSS.
 */
function treeUsage(dir: string, file: string): { env: NodeJS.ProcessEnv; read(): Omit<Measured, 'wallMs'> } {
  const preload = path.join(dir, 'usage-append.js');
  writeFileSync(
    preload,
    "process.on('exit', () => { const u = process.resourceUsage(); require('fs').appendFileSync(process.env.BENCH_USAGE_FILE, u.maxRSS + ' ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });\n",
  );
  rmSync(file, { force: true });
  return {
    env: { BENCH_USAGE_FILE: file, NODE_OPTIONS: `--require ${preload}` },
    read() {
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' ').map(Number));
      return {
        cpuMs: lines.reduce((a, [, cpu]) => a + cpu! / 1000, 0),
        rssMb: Math.max(...lines.map(([rss]) => rss! / 1024)),
      };
    },
  };
}

/** `ncalc synth --out` with NCALC_SYNTH_WORKERS=k: every node process (ncalc, each run of the app) adds its usage. */
function synthCommand(dir: string, workers: number, out: string): Measured {
  const usage = treeUsage(dir, path.join(dir, `usage-synth-${workers}.txt`));
  rmSync(path.join(dir, out), { recursive: true, force: true });
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli', 'main.js'), 'synth', '--out', out], {
    cwd: dir,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    env: {
      ...process.env,
      NCALC_CDK: CDK,
      NCALC_SYNTH_WORKERS: String(workers),
      ...usage.env,
    },
  });
  if (r.status !== 0) throw new Error(`ncalc synth with ${workers} workers failed: ${r.stderr.slice(-2000)}`);
  return { wallMs: Date.now() - started, ...usage.read() };
}

/**
 * An app of `accounts` accounts for ncalc to run (`cdktf.json`, `main.js`): its output directory
 * is the one ncalc names (CDKTF_OUTDIR), not one of its own.
 */
function writeNcalcApp(dir: string, accounts: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js', output: 'cdktf.out' }));
  writeFileSync(
    path.join(dir, 'main.js'),
    appSource(ROOT, accounts, path.join(dir, 'unused')).replace(/\{ outdir: [^}]*\}/, '{}'),
  );
}

/** One synth spread over k runs of the app, for each k, interleaved round by round. */
function synthWorkerRuns(scratch: string, accounts: number): void {
  const dir = path.join(scratch, 'synth-workers');
  writeNcalcApp(dir, accounts);
  const samples = new Map<number, Measured[]>(SYNTH_WORKERS.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const k of SYNTH_WORKERS) {
      samples.get(k)!.push(synthCommand(dir, k, `out-${k}`));
      if (round === 0 && k !== SYNTH_WORKERS[0]) {
        const [a, b] = [
          outputFiles(path.join(dir, `out-${SYNTH_WORKERS[0]}`), dir),
          outputFiles(path.join(dir, `out-${k}`), dir),
        ];
        const differ = [...new Set([...a.keys(), ...b.keys()])].filter((f) => a.get(f) !== b.get(f));
        if (differ.length) throw new Error(`${k} workers: output differs in ${differ.slice(0, 5).join(', ')}`);
      }
    }
  console.log(
    `\n\`ncalc synth\` at ${accounts} × ${ALERTS}, spread over k runs of the app (NCALC_SYNTH_WORKERS), median of ${ROUNDS}:\n`,
  );
  console.log(
    table(
      ['workers', 'wall', 'CPU, ncalc and the app', 'CPU / 1,000 alerts', 'peak RSS, largest process'],
      [...samples].map(([k, xs]) => {
        const cpu = median(xs.map((x) => x.cpuMs));
        return [
          String(k),
          fmtMs(median(xs.map((x) => x.wallMs))),
          fmtMs(cpu),
          `${((cpu / (accounts * ALERTS)) * 1000).toFixed(0)} ms`,
          `${Math.round(median(xs.map((x) => x.rssMb)))} MiB`,
        ];
      }),
    ),
  );
}

const AS_USERS = args.includes('--as-users');

/**
 * `ncalc plan` as users run it (the app synthesized by ncalc, NCALC_SYNTH_WORKERS=k), from empty:
 * wall, the CPU of ncalc and every run of the app, the largest peak RSS, the lists per account.
 */
async function usersPlan(scratch: string, accounts: number): Promise<void> {
  const dir = path.join(scratch, 'as-users');
  writeNcalcApp(dir, accounts);
  const tokens = Object.fromEntries(
    Array.from({ length: accounts }, (_, i) => [`${name(i).toUpperCase()}_TOKEN`, token(i)]),
  );
  const workers = SYNTH_WORKERS.length ? SYNTH_WORKERS : [1];
  const emulator = await startEmulator({ seed: seed(accounts) });
  const rows: string[][] = [];
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const k of workers) {
        const usage = treeUsage(dir, path.join(dir, `usage-plan-${k}.txt`));
        await emulator.control.clearRequests();
        const started = Date.now();
        const code = await new Promise<number>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [path.join(ROOT, 'dist', 'cli', 'main.js'), 'plan', '--json', '--detailed-exitcode'],
            {
              cwd: dir,
              stdio: ['ignore', 'ignore', 'pipe'],
              env: {
                PATH: process.env.PATH,
                NETWORKCALC_BASE_URL: emulator.url,
                NCALC_CDK: CDK,
                NCALC_SYNTH_WORKERS: String(k),
                ...usage.env,
                ...tokens,
              },
            },
          );
          let err = '';
          child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
          const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
          child.on('error', reject);
          child.on('close', (c) => {
            clearTimeout(timer);
            if (c !== 2) reject(new Error(`plan with ${k} synth workers exited ${c}: ${err}`));
            else resolve(c);
          });
        });
        const wallMs = Date.now() - started;
        const counts = countRequests(await emulator.control.requests());
        if (counts.listAlerts !== accounts || counts.listDomains !== accounts)
          throw new Error(
            `${counts.listAlerts} alert lists, ${counts.listDomains} domain lists for ${accounts} accounts`,
          );
        const { cpuMs, rssMb } = usage.read();
        rows.push([
          String(round + 1),
          String(k),
          fmtMs(wallMs),
          fmtMs(cpuMs),
          `${Math.round(rssMb)} MiB`,
          `exit ${code}; 1 + 1 lists per account`,
        ]);
      }
  } finally {
    await emulator.close();
  }
  console.log(`\n\`ncalc plan\` (synthesizing) at ${accounts} × ${ALERTS}, from empty:\n`);
  console.log(
    table(['round', 'synth workers', 'wall', 'CPU, ncalc and the app', 'peak RSS, largest process', 'check'], rows),
  );
}

const E2E = args.includes('--e2e');
const APPLY_OUTPUTS = (flag('--apply-output') ?? 'text').split(',');
const APP_DIR = flag('--app-dir');
const E2E_SHARDS = 8;

/** After an apply: every account holds its ALERTS alerts, each name once, none of another account's. */
async function checkAccounts(emulator: RunningEmulator, accounts: number): Promise<string> {
  const state = await emulator.control.state();
  let duplicates = 0;
  let elsewhere = 0;
  let wrongCount = 0;
  for (const a of state.accounts) {
    const names = new Set(a.alerts.map((x) => x.name));
    duplicates += a.alerts.length - names.size;
    elsewhere += a.alerts.filter((x) => !x.name.startsWith(`${a.name} `)).length;
    if (a.alerts.length !== ALERTS) wrongCount++;
  }
  if (state.accounts.length !== accounts || duplicates || elsewhere || wrongCount)
    throw new Error(
      `after apply: ${duplicates} duplicates, ${elsewhere} alerts in the wrong account, ${wrongCount} accounts without ${ALERTS} alerts`,
    );
  return `${accounts * ALERTS} alerts, 0 duplicates, 0 in the wrong account`;
}

/** Requests since the last clear: alert lists, domain lists, creates, anything else. */
async function requestsSeen(emulator: RunningEmulator): Promise<RequestCounts> {
  const count = (filter: Parameters<RunningEmulator['control']['countRequests']>[0]) =>
    emulator.control.countRequests(filter);
  const [all, listAlerts, listDomains, post] = await Promise.all([
    count({}),
    count({ method: 'GET', path: '/api/alerts/' }),
    count({ method: 'GET', path: '/api/domains/' }),
    count({ method: 'POST', path: '/api/alerts/' }),
  ]);
  await emulator.control.clearRequests();
  return { listAlerts, listDomains, post, patch: 0, del: 0, other: all - listAlerts - listDomains - post };
}

/**
 * The issue's scenario end to end on one synthesized app, per build: plan from empty, apply,
 * plan again, drift, 8 shards at once. Every run's exit code and requests are checked.
 */
async function endToEnd(scratch: string, accounts: number): Promise<void> {
  const dir = APP_DIR ? path.resolve(APP_DIR) : path.join(scratch, 'e2e');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js', output: 'cdktf.out' }));
  const reuse = APP_DIR && existsSync(path.join(dir, 'cdktf.out', 'manifest.json'));
  const s = reuse ? null : await synth(ROOT, accounts, dir);
  const emulator = await startEmulator({ seed: seed(accounts) });
  const rows: string[][] = [];
  const n = accounts;
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const b of BUILDS) {
        const step = async (
          label: string,
          argv: string[],
          expect: { code: number; lists: number; posts?: number },
          check?: () => Promise<string>,
        ) => {
          const r = await ncalc(b.dir, dir, emulator.url, accounts, argv, label.replace(/\W+/g, '-'));
          const c = await requestsSeen(emulator);
          const want = { alerts: expect.lists, domains: n, posts: expect.posts ?? 0 };
          if (
            r.code !== expect.code ||
            c.listAlerts !== want.alerts ||
            c.listDomains !== want.domains ||
            c.post !== want.posts
          )
            throw new Error(
              `${b.label} ${label}: exit ${r.code} (expected ${expect.code}), ${c.listAlerts} alert lists, ${c.listDomains} domain lists, ${c.post} creates (expected ${want.alerts}, ${want.domains}, ${want.posts})`,
            );
          rows.push([
            b.label,
            label,
            fmtMs(r.wallMs),
            fmtMs(r.cpuMs),
            `${Math.round(r.rssMb)} MiB`,
            `${c.listAlerts / n} + ${c.listDomains / n}${c.post ? `, ${c.post} creates` : ''}${c.other ? `, ${c.other} other` : ''}`,
            argv.includes('--json') ? 'JSON' : String(r.lines),
            check ? await check() : 'exit ' + r.code,
          ]);
        };
        await emulator.control.reset();
        await emulator.control.clearRequests();
        await step('plan from empty, --json', ['plan', '--no-synth', '--json', '--detailed-exitcode'], {
          code: 2,
          lists: n,
        });
        await step('plan from empty, text', ['plan', '--no-synth', '--detailed-exitcode'], { code: 2, lists: n });
        for (const [i, output] of APPLY_OUTPUTS.entries()) {
          if (i > 0) {
            await emulator.control.reset();
            await emulator.control.clearRequests();
          }
          const json = output === 'json' ? ['--json'] : [];
          // The plan's list, and the list after the writes.
          await step(
            `apply, ${n * ALERTS} creates, ${output}`,
            ['apply', '--no-synth', '--auto-approve', '--parallelism', '64', ...json],
            { code: 0, lists: 2 * n, posts: n * ALERTS },
            () => checkAccounts(emulator, accounts),
          );
        }
        await step('plan again (no change)', ['plan', '--no-synth', '--detailed-exitcode'], { code: 0, lists: n });
        await step('drift', ['drift', '--no-synth'], { code: 0, lists: n });
        const started = Date.now();
        const shards = await Promise.all(
          Array.from({ length: E2E_SHARDS }, (_, i) =>
            ncalc(
              b.dir,
              dir,
              emulator.url,
              accounts,
              ['plan', '--no-synth', '--detailed-exitcode', '--shard', `${i + 1}/${E2E_SHARDS}`],
              `shard-${i}`,
            ),
          ),
        );
        const c = await requestsSeen(emulator);
        if (shards.some((r) => r.code !== 0) || c.listAlerts !== n || c.listDomains !== n)
          throw new Error(
            `${b.label} shards: exits ${shards.map((r) => r.code).join(',')}, ${c.listAlerts} alert lists, ${c.listDomains} domain lists`,
          );
        rows.push([
          b.label,
          `${E2E_SHARDS} shards of plan at once`,
          fmtMs(Date.now() - started),
          fmtMs(shards.reduce((a, r) => a + r.cpuMs, 0)),
          `${Math.round(Math.max(...shards.map((r) => r.rssMb)))} MiB (largest)`,
          `${c.listAlerts / n} + ${c.listDomains / n}`,
          String(shards.reduce((a, r) => a + r.lines, 0)),
          'exit 0 each',
        ]);
      }
  } finally {
    await emulator.close();
  }
  console.log(
    `\n${accounts} accounts × ${ALERTS} alerts end to end, --no-synth${s ? ` (synth once: ${fmtMs(s.cpuMs)} of CPU, ${Math.round(s.rssMb)} MiB)` : ''}; requests per account: alert lists + domain lists:\n`,
  );
  console.log(
    table(['build', 'run', 'wall', 'CPU', 'peak RSS', 'requests per account', 'lines of output', 'check'], rows),
  );
}

/** `SPLITS=250x400,2000x50,10000x10`: one number of alerts split over more and more accounts. */
const SPLITS = (process.env.SPLITS ?? '')
  .split(',')
  .filter(Boolean)
  .map((s) => s.split('x').map(Number) as [number, number]);

/**
 * The same alerts split several ways, interleaved: each round synthesizes and plans every split
 * with every build, so load from other work falls on all alike. Plan CPU and synth CPU of each
 * split against the first split's, per build.
 */
async function splitRuns(scratch: string): Promise<void> {
  const emulators = new Map<string, RunningEmulator>();
  const samples = new Map<string, { synth: Measured[]; plan: Measured[] }>();
  const key = (b: string, [accounts, alerts]: [number, number]) => `${b} ${accounts}x${alerts}`;
  try {
    for (const [accounts, alerts] of SPLITS)
      // The log holds every request of the plan (two lists per account).
      emulators.set(
        `${accounts}x${alerts}`,
        await startEmulator({ seed: seed(accounts), requestLogLimit: 2 * accounts + 16 }),
      );
    for (let round = 0; round < ROUNDS; round++)
      for (const split of SPLITS)
        for (const b of BUILDS) {
          const [accounts, alerts] = split;
          const dir = path.join(scratch, `${b.label}-${accounts}x${alerts}`);
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir, { recursive: true });
          writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js', output: 'cdktf.out' }));
          const got = samples.get(key(b.label, split)) ?? { synth: [], plan: [] };
          got.synth.push(await synth(b.dir, accounts, dir, alerts));
          const emulator = emulators.get(`${accounts}x${alerts}`)!;
          await emulator.control.reset();
          got.plan.push(await plan(b.dir, dir, emulator.url, accounts));
          const counts = countRequests(await emulator.control.requests());
          if (counts.listAlerts !== accounts || counts.listDomains !== accounts)
            throw new Error(`${b.label}: ${counts.listAlerts} alert lists, ${counts.listDomains} domain lists`);
          samples.set(key(b.label, split), got);
          console.error(
            `round ${round + 1}, ${b.label}, ${accounts} × ${alerts}: plan ${fmtMs(got.plan.at(-1)!.cpuMs)}`,
          );
        }
  } finally {
    for (const e of emulators.values()) await e.close();
  }
  const rows: string[][] = [];
  for (const b of BUILDS) {
    const m = (split: [number, number], pick: 'synth' | 'plan') =>
      median(samples.get(key(b.label, split))![pick].map((x) => x.cpuMs));
    const first = SPLITS[0]!;
    for (const split of SPLITS) {
      const plan = m(split, 'plan');
      const synthCpu = m(split, 'synth');
      const rss = median(samples.get(key(b.label, split))!.plan.map((x) => x.rssMb));
      rows.push([
        b.label,
        `${split[0].toLocaleString('en')} × ${split[1]}`,
        `${fmtMs(plan)} (${(plan / m(first, 'plan')).toFixed(2)}×)`,
        `${Math.round(rss)} MiB`,
        `${fmtMs(synthCpu)} (${(synthCpu / m(first, 'synth')).toFixed(2)}× for ${(split[0] / first[0]).toFixed(0)}× the stacks)`,
      ]);
    }
  }
  console.log(`${CDK}; the same alerts split over more accounts; ${ROUNDS} interleaved rounds, median\n`);
  console.log(table(['build', 'accounts × alerts', 'plan --no-synth CPU', 'plan peak RSS', 'synth CPU'], rows));
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-fleet-scale-'));
  const rows: string[][] = [];
  const series = new Map<string, { alerts: number[]; synth: number[]; plan: number[] }>();
  try {
    if (E2E) return await endToEnd(scratch, Math.max(...SIZES));
    if (AS_USERS) return await usersPlan(scratch, Math.max(...SIZES));
    if (SPLITS.length) return await splitRuns(scratch);
    console.log(`${CDK}; ${ALERTS} alerts per account; ${ROUNDS} interleaved rounds, median\n`);
    for (const accounts of SIZES) {
      const emulator = PLAN ? await startEmulator({ seed: seed(accounts) }) : null;
      const samples = new Map<string, { synth: Measured[]; plan: Measured[] }>();
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const outputs: Array<Map<string, string>> = [];
          for (const b of BUILDS) {
            const dir = path.join(scratch, b.label);
            rmSync(dir, { recursive: true, force: true });
            mkdirSync(dir, { recursive: true });
            writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ app: 'node main.js', output: 'cdktf.out' }));
            const s = await synth(b.dir, accounts, dir);
            if (round === 0) outputs.push(outputFiles(path.join(dir, 'cdktf.out'), dir));
            const got = samples.get(b.label) ?? { synth: [], plan: [] };
            got.synth.push(s);
            if (emulator) {
              await emulator.control.reset();
              got.plan.push(await plan(b.dir, dir, emulator.url, accounts));
              const counts = countRequests(await emulator.control.requests());
              if (counts.listAlerts !== accounts || counts.listDomains !== accounts)
                throw new Error(`${b.label}: ${counts.listAlerts} alert lists, ${counts.listDomains} domain lists`);
            }
            samples.set(b.label, got);
          }
          // The same app must give the same bytes, whichever build synthesized it.
          if (outputs.length === 2) {
            const [a, b] = outputs as [Map<string, string>, Map<string, string>];
            const differ = [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
            if (differ.length) throw new Error(`outputs differ in ${differ.slice(0, 5).join(', ')}`);
          }
        }
      } finally {
        await emulator?.close();
      }
      for (const b of BUILDS) {
        const got = samples.get(b.label)!;
        const m = (xs: Measured[], pick: (s: Measured) => number) => median(xs.map(pick));
        const synthCpu = m(got.synth, (s) => s.cpuMs);
        const planCpu = got.plan.length ? m(got.plan, (s) => s.cpuMs) : NaN;
        const s = series.get(b.label) ?? { alerts: [], synth: [], plan: [] };
        s.alerts.push(accounts * ALERTS);
        s.synth.push(synthCpu);
        s.plan.push(planCpu);
        series.set(b.label, s);
        rows.push([
          b.label,
          `${accounts} × ${ALERTS}`,
          fmtMs(synthCpu),
          `${((synthCpu / (accounts * ALERTS)) * 1000).toFixed(0)} ms`,
          `${Math.round(m(got.synth, (x) => x.rssMb))} MiB`,
          got.plan.length ? fmtMs(m(got.plan, (x) => x.wallMs)) : '–',
          got.plan.length ? fmtMs(planCpu) : '–',
          got.plan.length ? `${Math.round(m(got.plan, (x) => x.rssMb))} MiB` : '–',
        ]);
      }
    }
    console.log(
      table(
        [
          'build',
          'accounts × alerts',
          'synth CPU',
          'synth CPU / 1,000 alerts',
          'synth peak RSS',
          'plan --no-synth wall',
          'plan CPU',
          'plan peak RSS',
        ],
        rows,
      ),
    );
    if (SHARDS.length) await shardRuns(scratch, Math.max(...SIZES));
    if (SYNTH_WORKERS.length) synthWorkerRuns(scratch, Math.max(...SIZES));
    if (SIZES.length > 1) {
      console.log('\nGrowth exponent (slope of log CPU over log alerts; 1 is linear):\n');
      console.log(
        table(
          ['build', 'synth', 'plan'],
          [...series].map(([label, s]) => [
            label,
            exponent(s.alerts, s.synth).toFixed(2),
            PLAN ? exponent(s.alerts, s.plan).toFixed(2) : '–',
          ]),
        ),
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
