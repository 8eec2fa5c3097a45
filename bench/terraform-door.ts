/**
 * Both front doors at scale, before and after the coalesced id look-ups: `terraform apply` /
 * `destroy` of N `networkcalc_alert` resources (count, -parallelism=10) through the provider,
 * and `ncalc apply` / `destroy` of the same N alerts, each with the provider and ncalc of this
 * working tree's build ("after") and of commit 7047ab5 ("before", built in a git worktree),
 * interleaved in one run against one emulator.
 *
 * The emulator runs as `ncalc emulator` in its own process and accepts one DELETE form only
 * (`--delete-form body`, like a real service that takes one form the interface does not
 * name), so probing for the form shows up in the DELETE count. Clients reach it through a
 * TCP proxy in this process that counts the bytes sent back to them. Per command: wall time,
 * `GET /api/alerts/` calls, bytes read by the client, POSTs, DELETEs per alert, the CPU of
 * the node processes (the provider processes terraform starts, or ncalc), terraform's own
 * CPU (its process tree from /usr/bin/time minus the providers'), and the emulator's CPU.
 *
 *   npm run build && npx tsx bench/terraform-door.ts [sizes, default 1000,2000] [latencies ms, default 0,50] [versions, default after,before]
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { cliConfigText, installProvider, PACKAGE_NAME } from '../src/cli/provider-command';
import { EmulatorControl } from '../src/emulator/control';
import {
  ACCOUNT,
  ROOT,
  TOKEN,
  benchSeed,
  fmtBytes,
  fmtMs,
  freshTerraformState,
  procCpuMs,
  readCpuFile,
  countHcl as hcl,
  startByteProxy,
  table,
  writeCpuPreload,
  writeFixtureApp,
  type ByteProxy,
  benchEnv,
} from './support';

const SIZES = (process.argv[2] ?? '1000,2000').split(',').map(Number);
const LATENCIES = (process.argv[3] ?? '0,50').split(',').map(Number);
const VERSIONS = (process.argv[4] ?? 'after,before').split(',');
const BEFORE_COMMIT = '7047ab5';
const BEFORE_DIR = path.join(tmpdir(), 'tfdoor-before');
const PARALLELISM = 10;
const COMMAND_TIMEOUT_MS = 10 * 60_000;
/**
 * No new cell (N, latency) starts after this: terraform's own destroy of 2,000 resources
 * alone takes 5–8 minutes on 2 shared cores, so the whole matrix is run in parts (RESULTS.md).
 */
const DEADLINE_MS = 20 * 60_000;
const INIT_TIMEOUT_MS = 120_000;

interface Version {
  name: 'before' | 'after';
  /** A package root: dist/, package.json, src/provider/proto, node_modules. */
  root: string;
  sandbox: string;
  workDir: string;
  env: NodeJS.ProcessEnv;
}

interface Measured {
  version: string;
  n: number;
  latencyMs: number;
  door: 'terraform' | 'ncalc';
  command: string;
  ok: boolean;
  note: string;
  wallMs: number;
  lists: number;
  posts: number;
  deletes: number;
  apiRequests: number;
  bytes: number;
  /** CPU of the node processes: the providers terraform started, or ncalc. */
  nodeCpuMs: number;
  nodeProcs: string;
  /** terraform's own CPU (terraform only): its process tree minus the node processes. */
  terraformCpuMs: number;
  emulatorCpuMs: number;
  load: number;
}

const started = Date.now();
let scratch: string | undefined;
let emulatorPid: number | undefined;
let proxy: ByteProxy | undefined;
let worktreeAdded = false;
let running: { pid: number } | undefined;

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function removeWorktree(): void {
  if (!worktreeAdded && !existsSync(BEFORE_DIR)) return;
  try {
    git(['worktree', 'remove', '--force', BEFORE_DIR]);
  } catch {
    rmSync(BEFORE_DIR, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
  worktreeAdded = false;
}

async function cleanup(): Promise<void> {
  if (running) killGroup(running.pid);
  if (emulatorPid) killGroup(emulatorPid, 'SIGTERM');
  emulatorPid = undefined;
  await proxy?.close();
  proxy = undefined;
  removeWorktree();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}

function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

process.on('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

/** "After": a copy of this working tree's build, so a rebuild during the run changes nothing. */
function snapshotAfter(dir: string): string {
  const dist = path.join(ROOT, 'dist');
  if (!existsSync(path.join(dist, 'provider', 'bin.js')) || !existsSync(path.join(dist, 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run npm run build first');
  }
  mkdirSync(path.join(dir, 'src', 'provider'), { recursive: true });
  cpSync(dist, path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'src', 'provider', 'proto'), path.join(dir, 'src', 'provider', 'proto'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** "Before": commit 7047ab5 in a git worktree, built with this checkout's node_modules. */
function buildBefore(): string {
  removeWorktree();
  git(['worktree', 'add', '--detach', BEFORE_DIR, BEFORE_COMMIT]);
  worktreeAdded = true;
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(BEFORE_DIR, 'node_modules'));
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: BEFORE_DIR, stdio: 'inherit' },
  );
  return BEFORE_DIR;
}

/** `ncalc emulator` of the "after" build in its own process group; resolves with its URL. */
function startEmulatorProcess(root: string, seedFile: string, controlToken: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'dist', 'cli', 'main.js'),
        'emulator',
        '--port',
        '0',
        '--seed',
        seedFile,
        '--control-token',
        controlToken,
        '--delete-form',
        'body',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    emulatorPid = child.pid;
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the emulator did not start within 30 s: ${out}${err}`)), 30_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      emulatorPid = undefined;
      reject(new Error(`the emulator exited (${code}): ${err}`));
    });
  });
}

function makeVersion(name: Version['name'], root: string, apiUrl: string, preload: string): Version {
  const sandbox = path.join(scratch!, `tf-${name}`);
  const mirror = path.join(sandbox, 'mirror');
  // The wrapper runs the package in the nearest node_modules above the mirror: this version's.
  mkdirSync(path.join(sandbox, 'node_modules'), { recursive: true });
  symlinkSync(root, path.join(sandbox, 'node_modules', PACKAGE_NAME), 'dir');
  installProvider({ dir: mirror });
  const rc = path.join(sandbox, 'terraform.rc');
  writeFileSync(rc, cliConfigText(mirror));
  const workDir = path.join(sandbox, 'work');
  mkdirSync(workDir, { recursive: true });
  writeFileSync(path.join(workDir, 'main.tf'), hcl());
  const env = {
    ...benchEnv(),
    TF_CLI_CONFIG_FILE: rc,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    CHECKPOINT_DISABLE: '1',
    NO_COLOR: '1',
    // The provider is node, terraform is not: only the providers load the preload.
    NODE_OPTIONS: `--require ${preload}`,
    NETWORKCALC_BASE_URL: apiUrl,
    NETWORKCALC_TOKEN: TOKEN,
  };
  return { name, root, sandbox, workDir, env };
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  wallMs: number;
}

/** Runs a command in its own process group; past the time limit the whole group is killed. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running = { pid: child.pid! };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid!);
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      running = undefined;
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      running = undefined;
      // Providers left behind by a killed terraform.
      if (timedOut) killGroup(child.pid!);
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      resolve({
        code,
        timedOut,
        wallMs,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** The first error of a command's output on one line, and how many errors there were. */
function firstError(output: string): string {
  const errors = output.split('\n').filter((l) => /^(│ )?Error: /.test(l));
  const first =
    output.split('\n').find((l) => /failed: |Error: /.test(l) && !/^(│ )?Error: Could not/.test(l)) ??
    errors[0] ??
    output.trim().split('\n').pop() ??
    '';
  return `${errors.length > 1 ? `${errors.length} errors, e.g. ` : ''}${first.replace(/^[│ ]+/, '').slice(0, 160)}`;
}

async function main(): Promise<void> {
  scratch = mkdtempSync(path.join(tmpdir(), 'tfdoor-'));
  const afterRoot = snapshotAfter(path.join(scratch, 'after'));
  const buildStart = Date.now();
  const beforeRoot = VERSIONS.includes('before') ? buildBefore() : undefined;
  if (beforeRoot) console.error(`built ${BEFORE_COMMIT} in ${fmtMs(Date.now() - buildStart)}`);

  const seedFile = path.join(scratch, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(benchSeed()));
  const controlToken = randomBytes(16).toString('hex');
  const emuUrl = await startEmulatorProcess(afterRoot, seedFile, controlToken);
  const control = new EmulatorControl(emuUrl, controlToken);
  proxy = await startByteProxy(emuUrl);
  const preload = writeCpuPreload(scratch);
  const cpuFile = path.join(scratch, 'cpu.txt');
  const timeFile = path.join(scratch, 'time.txt');

  const versions: Version[] = [];
  if (VERSIONS.includes('after')) versions.push(makeVersion('after', afterRoot, proxy.url, preload));
  if (beforeRoot) versions.push(makeVersion('before', beforeRoot, proxy.url, preload));
  if (!versions.length) throw new Error(`versions must name after, before or both; got ${VERSIONS.join(',')}`);
  for (const v of versions) {
    const init = await run('terraform', ['init', '-no-color'], v.workDir, v.env, INIT_TIMEOUT_MS);
    if (init.code !== 0) throw new Error(`terraform init (${v.name}) failed:\n${init.stdout}\n${init.stderr}`);
  }
  const versionLine = (await run('terraform', ['version'], scratch, benchEnv(), 30_000)).stdout.split('\n')[0];
  console.log(
    `node ${process.version}, ${versionLine}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ` +
      `${new Date().toISOString().slice(0, 16)}Z; emulator: ncalc emulator --delete-form body in its own process; after = this tree's dist, before = ${BEFORE_COMMIT}\n`,
  );

  const alertsInAccount = async () => (await control.state()).accounts.find((a) => a.name === ACCOUNT)!.alerts.length;

  const measure = async (
    v: Version,
    door: Measured['door'],
    command: string,
    n: number,
    latencyMs: number,
    cwd: string,
    cmd: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    expectAlerts: number,
  ): Promise<Measured> => {
    await control.clearRequests();
    proxy!.reset();
    rmSync(cpuFile, { force: true });
    rmSync(timeFile, { force: true });
    const emu0 = procCpuMs(emulatorPid!);
    const load = loadavg()[0]!;
    const r = await run(cmd, args, cwd, { ...env, BENCH_CPU_FILE: cpuFile }, COMMAND_TIMEOUT_MS);
    const emulatorCpuMs = procCpuMs(emulatorPid!) - emu0;
    const bytes = proxy!.bytesToClients();
    const count = (filter: Parameters<EmulatorControl['countRequests']>[0]) => control.countRequests(filter);
    const [lists, posts, deletes, apiRequests] = [
      await count({ method: 'GET', path: '/api/alerts/' }),
      await count({ method: 'POST', path: '/api/alerts/' }),
      await count({ method: 'DELETE', pathPrefix: '/api/alerts' }),
      await count({ pathPrefix: '/api/' }),
    ];
    const node = readCpuFile(cpuFile);
    let terraformCpuMs = NaN;
    if (door === 'terraform' && existsSync(timeFile)) {
      // "%U %S" of terraform's process tree: terraform plus every provider it waited for.
      const last = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
      terraformCpuMs = (last[0]! + last[1]!) * 1000 - node.cpuMs;
    }
    const problems: string[] = [];
    if (r.timedOut) problems.push(`timed out after ${fmtMs(COMMAND_TIMEOUT_MS)}`);
    else if (r.code !== 0) problems.push(`exit ${r.code}: ${firstError(r.stderr || r.stdout)}`);
    const have = await alertsInAccount();
    if (!r.timedOut && have !== expectAlerts) problems.push(`${have} alerts in the account, expected ${expectAlerts}`);
    if (node.reported !== node.started)
      problems.push(`${node.started - node.reported} of ${node.started} node processes did not report their CPU`);
    const m: Measured = {
      version: v.name,
      n,
      latencyMs,
      door,
      command,
      ok: problems.length === 0,
      note: problems.join('; '),
      wallMs: r.wallMs,
      lists,
      posts,
      deletes,
      apiRequests,
      bytes,
      nodeCpuMs: node.cpuMs,
      nodeProcs: `${node.reported}/${node.started}`,
      terraformCpuMs,
      emulatorCpuMs,
      load,
    };
    console.error(
      `${v.name} N=${n} ${latencyMs} ms ${door} ${command}: ${fmtMs(m.wallMs)}, lists ${lists}, ${fmtBytes(bytes)}, POST ${posts}, DELETE ${deletes}, ` +
        `node CPU ${fmtMs(m.nodeCpuMs)} (${m.nodeProcs}), terraform CPU ${Number.isNaN(terraformCpuMs) ? '—' : fmtMs(terraformCpuMs)}, ` +
        `emulator CPU ${fmtMs(emulatorCpuMs)}, load ${load.toFixed(1)}${m.ok ? '' : `  PROBLEM: ${m.note}`}`,
    );
    return m;
  };

  /** Back to the seed (no alerts) with the cell's latency; a fresh terraform state and no create journal. */
  const resetFor = async (v: Version, latencyMs: number) => {
    await control.reset();
    if (latencyMs > 0) await control.addFault({ kind: 'latency', latencyMs, match: { path: '/api/' } });
    freshTerraformState(v.workDir);
  };

  const results: Measured[] = [];
  const skipped: string[] = [];
  for (const n of SIZES) {
    for (const latencyMs of LATENCIES) {
      if (Date.now() - started > DEADLINE_MS) {
        skipped.push(`N=${n} at ${latencyMs} ms`);
        continue;
      }
      for (const v of versions) {
        const tfArgs = (sub: string) => [
          '-f',
          '%U %S',
          '-o',
          timeFile,
          'terraform',
          sub,
          '-auto-approve',
          `-parallelism=${PARALLELISM}`,
          '-no-color',
          '-var',
          `n=${n}`,
        ];
        await resetFor(v, latencyMs);
        const apply = await measure(
          v,
          'terraform',
          'apply',
          n,
          latencyMs,
          v.workDir,
          '/usr/bin/time',
          tfArgs('apply'),
          v.env,
          n,
        );
        results.push(apply);
        if (apply.ok)
          results.push(
            await measure(
              v,
              'terraform',
              'destroy',
              n,
              latencyMs,
              v.workDir,
              '/usr/bin/time',
              tfArgs('destroy'),
              v.env,
              0,
            ),
          );

        const app = path.join(scratch, `app-${v.name}-${n}`);
        if (!existsSync(app)) writeFixtureApp(app, n);
        const ncalc = (sub: string) => [
          '--require',
          preload,
          path.join(v.root, 'dist', 'cli', 'main.js'),
          sub,
          '-C',
          app,
          '--no-synth',
          '--auto-approve',
        ];
        const ncalcEnv = { ...benchEnv(), NETWORKCALC_BASE_URL: proxy.url, NETWORKCALC_TOKEN: TOKEN, NO_COLOR: '1' };
        await resetFor(v, latencyMs);
        const napply = await measure(
          v,
          'ncalc',
          'apply',
          n,
          latencyMs,
          app,
          process.execPath,
          ncalc('apply'),
          ncalcEnv,
          n,
        );
        results.push(napply);
        if (napply.ok)
          results.push(
            await measure(v, 'ncalc', 'destroy', n, latencyMs, app, process.execPath, ncalc('destroy'), ncalcEnv, 0),
          );
      }
    }
  }

  const head = [
    'N',
    'latency',
    'door',
    'command',
    'version',
    'wall',
    'GET /api/alerts/',
    'bytes read',
    'POST',
    'DELETE / N',
    'provider or ncalc CPU (procs)',
    'terraform CPU',
    'emulator CPU',
    'load',
    'check',
  ];
  const cpu = (ms: number) => (Number.isNaN(ms) ? '—' : fmtMs(ms));
  const rows = results.map((m) => [
    m.n.toLocaleString('en-US'),
    `${m.latencyMs} ms`,
    m.door,
    m.command,
    m.version,
    fmtMs(m.wallMs),
    String(m.lists),
    fmtBytes(m.bytes),
    String(m.posts),
    m.command === 'destroy' ? (m.deletes / m.n).toFixed(3) : String(m.deletes),
    `${cpu(m.nodeCpuMs)} (${m.nodeProcs})`,
    cpu(m.terraformCpuMs),
    cpu(m.emulatorCpuMs),
    m.load.toFixed(1),
    m.ok ? '✓' : `✗ ${m.note}`,
  ]);
  console.log(table(head, rows));
  if (skipped.length) console.log(`\nNot run (time bound): ${skipped.join(', ')}`);

  // How provider CPU grows with N: creates of 2N against creates of N.
  const ratios: string[][] = [];
  for (const version of ['after', 'before']) {
    for (const latencyMs of LATENCIES) {
      for (const [door, command] of [
        ['terraform', 'apply'],
        ['terraform', 'destroy'],
        ['ncalc', 'apply'],
      ] as const) {
        const at = (n: number) =>
          results.find(
            (m) =>
              m.version === version &&
              m.latencyMs === latencyMs &&
              m.door === door &&
              m.command === command &&
              m.n === n &&
              m.ok,
          );
        for (const n of SIZES) {
          const small = at(n);
          const big = at(2 * n);
          if (small && big) {
            ratios.push([
              version,
              `${latencyMs} ms`,
              `${door} ${command}`,
              `${2 * n} / ${n}`,
              `${cpu(big.nodeCpuMs)} / ${cpu(small.nodeCpuMs)}`,
              (big.nodeCpuMs / small.nodeCpuMs).toFixed(2),
            ]);
          }
        }
      }
    }
  }
  if (ratios.length) {
    console.log('\n' + table(['version', 'latency', 'command', 'N', 'provider or ncalc CPU', 'ratio'], ratios));
  }
  console.log(
    `\nload average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; whole run ${fmtMs(Date.now() - started)}`,
  );
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
