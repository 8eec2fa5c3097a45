/**
 * The write path against its physical limit, before vs after, interleaved in one run: the
 * built `ncalc` and provider of this tree ("after") and of a package root given in
 * BENCH_BEFORE ("before": a build of an earlier commit with its own node_modules), against
 * one in-process emulator on 127.0.0.1 in its strict mode (creates answered without an id;
 * one DELETE form where stated).
 *
 * BENCH_APPLY_CELLS=20:64,50:16 runs only those cells of `apply`; BENCH_NODE_FLAGS adds Node flags to the ncalc processes (e.g. `--cpu-prof --cpu-prof-dir=DIR`).
 *
 * Sections (first argument, comma-separated; default all):
 * - `apply`: `ncalc apply` of 1,000 creates at 20 and 50 ms of latency, --parallelism 16 and
 *   64. The write phase runs from the first write reaching the emulator to the last answer
 *   of the run (a list after the writes included); the limit is latency × ⌈N/P⌉.
 * - `destroy`: `ncalc destroy` of 1,000 alerts (default parallelism) under each DELETE form:
 *   wall, ncalc CPU, connections accepted by the emulator's server.
 * - `terraform`: `terraform apply -parallelism=P` of N creates (fresh state each time):
 *   `GET /api/alerts/`, the CPU of the provider processes, wall; the growth exponent of the
 *   provider's CPU from N to 2N. Sizes, latencies and parallelisms from the arguments.
 *
 *   npm run build && BENCH_BEFORE=/path/to/old/root npx tsx bench/writes.ts [sections] [tf sizes] [tf latencies] [tf parallelisms] [reps]
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { cliConfigText, installProvider } from '../src/cli/provider-command';
import { startEmulator, type RunningEmulator } from '../src/emulator';
import {
  ACCOUNT,
  ROOT,
  TOKEN,
  benchSeed,
  countHcl,
  fmtMs,
  freshTerraformState,
  median,
  readCpuFile,
  table,
  writeCpuPreload,
  writeFixtureApp,
} from './support';

const SECTIONS = (process.argv[2] ?? 'apply,destroy,terraform').split(',');
const TF_SIZES = (process.argv[3] ?? '1000,2000').split(',').map(Number);
const TF_LATENCIES = (process.argv[4] ?? '0').split(',').map(Number);
const TF_PARALLELISM = (process.argv[5] ?? '10').split(',').map(Number);
const REPS = Number(process.argv[6] ?? 3);
const N = 1000;
const COMMAND_TIMEOUT_MS = 15 * 60_000;
/** Only these `latency:parallelism` cells of the apply section, e.g. BENCH_APPLY_CELLS=20:64. */
const applyCells = process.env.BENCH_APPLY_CELLS?.split(',');
/** Extra Node flags for the ncalc processes, e.g. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/somewhere". */
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

interface Version {
  name: 'before' | 'after' | 'bare undici loop (POSTs only)';
  root: string;
}

const versions: Version[] = [];

/** "After": a copy of this tree's build, so that a rebuild during the run changes nothing. */
function snapshotAfter(dir: string): string {
  mkdirSync(path.join(dir, 'src', 'provider'), { recursive: true });
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'src', 'provider', 'proto'), path.join(dir, 'src', 'provider', 'proto'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

let emu: RunningEmulator | undefined;
let scratch: string | undefined;
let running: number | undefined;

async function cleanup(): Promise<void> {
  if (running) {
    try {
      process.kill(-running, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await emu?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

/** What the emulator's server saw during one command. */
class ServerWatch {
  connections = 0;
  firstWriteAt = Infinity;
  lastAnswerAt = 0;
  lastWriteAnswerAt = 0;
  #on = false;

  constructor(server: RunningEmulator['app']['server']) {
    server.on('connection', () => {
      if (this.#on) this.connections++;
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.#on || !req.url?.startsWith('/api/')) return;
      if (req.method !== 'GET') this.firstWriteAt = Math.min(this.firstWriteAt, performance.now());
      const write = req.method !== 'GET';
      res.on('finish', () => {
        this.lastAnswerAt = Math.max(this.lastAnswerAt, performance.now());
        if (write) this.lastWriteAnswerAt = Math.max(this.lastWriteAnswerAt, performance.now());
      });
    });
  }

  start(): void {
    this.connections = 0;
    this.firstWriteAt = Infinity;
    this.lastAnswerAt = 0;
    this.lastWriteAnswerAt = 0;
    this.#on = true;
  }

  stop(): void {
    this.#on = false;
  }

  get writePhaseMs(): number {
    return this.lastAnswerAt - this.firstWriteAt;
  }

  /** From the last write's answer to the last answer of all (the lists after the writes). */
  get tailMs(): number {
    return Math.max(0, this.lastAnswerAt - this.lastWriteAnswerAt);
  }
}

interface Exit {
  code: number | null;
  out: string;
  wallMs: number;
}

/**
 * Runs a command in its own process group, killed past the time limit. Its output goes to a
 * file, as when redirected: through a pipe to this process, whose event loop also serves the
 * emulator, ncalc's line per change blocked on the full pipe (0.5 s of a 3 s profile).
 */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Exit> {
  const outFile = path.join(scratch!, 'output.txt');
  const fd = openSync(outFile, 'w');
  return new Promise<Exit>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
    running = child.pid;
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      running = undefined;
      resolve({ code, out: readFileSync(outFile, 'utf8'), wallMs: performance.now() - t0 });
    });
  }).finally(() => closeSync(fd));
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('TF_') || k.startsWith('NETWORKCALC_') || k === 'NODE_OPTIONS' || k.startsWith('BENCH_')) continue;
    env[k] = v;
  }
  return env;
}

const alertsInAccount = async () =>
  (await emu!.control.state()).accounts.find((a) => a.name === ACCOUNT)!.alerts.length;

/** The floor, measured beside the versions in the apply section. */
const BARE: Version = { name: 'bare undici loop (POSTs only)', root: '' };

/** Versions in turn, the first one alternating per cell so neither always runs first. */
let turn = 0;
const interleaved = () => (turn++ % 2 === 0 ? versions : [...versions].reverse());

async function main(): Promise<void> {
  scratch = mkdtempSync(path.join(tmpdir(), 'writes-bench-'));
  versions.push({ name: 'after', root: snapshotAfter(path.join(scratch, 'after')) });
  if (process.env.BENCH_BEFORE) versions.push({ name: 'before', root: path.resolve(process.env.BENCH_BEFORE) });
  emu = await startEmulator({ host: '127.0.0.1', port: 0, seed: benchSeed() });
  const watch = new ServerWatch(emu.app.server);
  const preload = writeCpuPreload(scratch);
  const cpuFile = path.join(scratch, 'cpu.txt');
  const app = path.join(scratch, 'app');
  writeFixtureApp(app, N);
  const ncalcEnv = { ...cleanEnv(), NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: TOKEN, NO_COLOR: '1' };
  const ncalc = (v: Version, args: string[]) =>
    run(
      process.execPath,
      [
        ...nodeFlags,
        '--require',
        preload,
        path.join(v.root, 'dist', 'cli', 'main.js'),
        ...args,
        '-C',
        app,
        '--no-synth',
      ],
      app,
      { ...ncalcEnv, BENCH_CPU_FILE: cpuFile },
    );
  const lists = () => emu!.control.countRequests({ method: 'GET', path: '/api/alerts/' });
  // The floor: the same POSTs over the same lanes from a bare undici loop (bench/bare-posts.ts).
  const barePosts = async (p: number) => {
    const account = (await emu!.control.state()).accounts.find((a) => a.name === ACCOUNT)!;
    const domain = account.domains[0]!;
    const body = { name: 'NAME', type: 'SPF Record', filter: 'validity', target_type: 'domain', target_id: domain.id };
    return run(
      process.execPath,
      ['--require', preload, '--import', 'tsx', path.join(__dirname, 'bare-posts.ts')],
      ROOT,
      {
        ...cleanEnv(),
        BARE_URL: emu!.url,
        BARE_TOKEN: TOKEN,
        BARE_BODY: JSON.stringify(body),
        BARE_N: String(N),
        BARE_P: String(p),
        BENCH_CPU_FILE: cpuFile,
      },
    );
  };
  const setLatency = async (ms: number) => {
    await emu!.control.clearFaults();
    if (ms > 0) await emu!.control.addFault({ kind: 'latency', latencyMs: ms, match: { path: '/api/' } });
  };
  const measured = async (v: Version, go: () => Promise<Exit>, expectAlerts: number) => {
    await emu!.control.clearRequests();
    rmSync(cpuFile, { force: true });
    watch.start();
    const emuCpu = process.cpuUsage();
    const r = await go();
    const emuUsed = process.cpuUsage(emuCpu);
    watch.stop();
    const problems: string[] = [];
    if (r.code !== 0) problems.push(`exit ${r.code}: ${r.out.trim().split('\n').slice(-3).join(' / ').slice(0, 300)}`);
    const have = await alertsInAccount();
    if (have !== expectAlerts) problems.push(`${have} alerts, expected ${expectAlerts}`);
    const cpu = readCpuFile(cpuFile);
    if (problems.length) console.error(`${v.name}: ${problems.join('; ')}`);
    return {
      ok: problems.length === 0,
      wallMs: r.wallMs,
      writeMs: watch.writePhaseMs,
      tailMs: watch.tailMs,
      connections: watch.connections,
      lists: await lists(),
      /** Every /api request of the run (token, lists, creates, reads). */
      requests: (await emu!.control.requests()).length,
      cpuMs: cpu.cpuMs,
      /** This process during the command: the emulator, and this bench's own small part. */
      emulatorCpuMs: (emuUsed.user + emuUsed.system) / 1000,
    };
  };
  console.log(
    `node ${process.version}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}, ${new Date().toISOString().slice(0, 16)}Z; versions: ${versions.map((v) => v.name).join(', ')}; ${REPS} runs per cell, medians\n`,
  );

  if (SECTIONS.includes('apply')) {
    const rows: string[][] = [];
    for (const latencyMs of [20, 50]) {
      for (const p of [16, 64]) {
        if (applyCells && !applyCells.includes(`${latencyMs}:${p}`)) continue;
        const cell = new Map<string, Array<Awaited<ReturnType<typeof measured>>>>();
        for (let rep = 0; rep < REPS; rep++) {
          for (const v of [...interleaved(), BARE]) {
            await emu.control.reset();
            await setLatency(latencyMs);
            const m = await measured(
              v,
              () => (v === BARE ? barePosts(p) : ncalc(v, ['apply', '--auto-approve', '--parallelism', String(p)])),
              N,
            );
            cell.set(v.name, [...(cell.get(v.name) ?? []), m]);
          }
        }
        const limit = latencyMs * Math.ceil(N / p);
        for (const v of [...versions, BARE]) {
          const ms = cell.get(v.name)!;
          const write = median(ms.map((m) => m.writeMs));
          rows.push([
            `${latencyMs} ms`,
            String(p),
            v.name,
            fmtMs(median(ms.map((m) => m.wallMs))),
            `${fmtMs(write)} (${fmtMs(Math.min(...ms.map((m) => m.writeMs)))}–${fmtMs(Math.max(...ms.map((m) => m.writeMs)))})`,
            fmtMs(limit),
            `**${(write / limit).toFixed(2)}×**`,
            String(median(ms.map((m) => m.lists))),
            fmtMs(median(ms.map((m) => m.cpuMs))),
            fmtMs(median(ms.map((m) => m.emulatorCpuMs))),
            ms.every((m) => m.ok) ? '✓' : '✗',
          ]);
        }
      }
    }
    console.log(`### ncalc apply of ${N.toLocaleString('en-US')} creates against the limit\n`);
    console.log(
      table(
        [
          'latency',
          '--parallelism',
          'version',
          'wall',
          'write phase (min–max)',
          'limit RTT × ⌈N/P⌉',
          'write / limit',
          'GET /api/alerts/',
          'ncalc CPU',
          'emulator CPU',
          'checks',
        ],
        rows,
      ),
    );
  }

  if (SECTIONS.includes('destroy')) {
    const rows: string[][] = [];
    for (const form of ['path', 'query', 'body'] as const) {
      const cell = new Map<string, Array<Awaited<ReturnType<typeof measured>>>>();
      for (let rep = 0; rep < REPS; rep++) {
        for (const v of interleaved()) {
          await emu.control.reset();
          await setLatency(0);
          await emu.control.updateSettings({ deleteForm: form });
          const seeded = await ncalc(versions[0]!, ['apply', '--auto-approve', '--parallelism', '64']);
          if (seeded.code !== 0) throw new Error(`seeding apply failed: ${seeded.out.slice(-500)}`);
          const m = await measured(v, () => ncalc(v, ['destroy', '--auto-approve']), 0);
          cell.set(v.name, [...(cell.get(v.name) ?? []), m]);
        }
      }
      for (const v of versions) {
        const ms = cell.get(v.name)!;
        rows.push([
          form,
          v.name,
          fmtMs(median(ms.map((m) => m.wallMs))),
          fmtMs(median(ms.map((m) => m.cpuMs))),
          String(median(ms.map((m) => m.connections))),
          ms.every((m) => m.ok) ? '✓' : '✗',
        ]);
      }
    }
    await emu.control.updateSettings({ deleteForm: null });
    console.log(`\n### ncalc destroy of ${N.toLocaleString('en-US')} alerts per DELETE form (parallelism 8)\n`);
    console.log(table(['DELETE form', 'version', 'wall', 'ncalc CPU', 'connections', 'checks'], rows));
  }

  if (SECTIONS.includes('terraform')) {
    const sandboxes = new Map<string, { workDir: string; env: NodeJS.ProcessEnv }>();
    for (const v of versions) {
      const sandbox = path.join(scratch, `tf-${v.name}`);
      const mirror = path.join(sandbox, 'mirror');
      // The wrapper names no path: it runs the package in the nearest node_modules above the
      // mirror, so each version's sandbox holds a link to that version's build.
      mkdirSync(path.join(sandbox, 'node_modules'), { recursive: true });
      symlinkSync(v.root, path.join(sandbox, 'node_modules', 'cdktf-provider-networkcalc'));
      installProvider({ dir: mirror });
      writeFileSync(path.join(sandbox, 'terraform.rc'), cliConfigText(mirror));
      const workDir = path.join(sandbox, 'work');
      mkdirSync(workDir, { recursive: true });
      writeFileSync(path.join(workDir, 'main.tf'), countHcl());
      const env = {
        ...cleanEnv(),
        TF_CLI_CONFIG_FILE: path.join(sandbox, 'terraform.rc'),
        TF_IN_AUTOMATION: '1',
        TF_INPUT: '0',
        CHECKPOINT_DISABLE: '1',
        NO_COLOR: '1',
        NODE_OPTIONS: `--require ${preload}`,
        NETWORKCALC_BASE_URL: emu.url,
        NETWORKCALC_TOKEN: TOKEN,
        BENCH_CPU_FILE: cpuFile,
      };
      const init = await run('terraform', ['init', '-no-color'], workDir, env);
      if (init.code !== 0) throw new Error(`terraform init (${v.name}): ${init.out}`);
      sandboxes.set(v.name, { workDir, env });
    }
    const version = execFileSync('terraform', ['version'], { encoding: 'utf8' }).split('\n')[0];
    const rows: string[][] = [];
    const cpuAt = new Map<string, number>();
    for (const p of TF_PARALLELISM) {
      for (const latencyMs of TF_LATENCIES) {
        for (const n of TF_SIZES) {
          for (const v of interleaved()) {
            const sb = sandboxes.get(v.name)!;
            await emu.control.reset();
            await setLatency(latencyMs);
            freshTerraformState(sb.workDir);
            const load = loadavg()[0]!;
            const m = await measured(
              v,
              () =>
                run(
                  'terraform',
                  ['apply', '-auto-approve', `-parallelism=${p}`, '-no-color', '-var', `n=${n}`],
                  sb.workDir,
                  sb.env,
                ),
              n,
            );
            cpuAt.set(`${v.name} ${p} ${latencyMs} ${n}`, m.cpuMs);
            const bound = Math.floor((2 * n) / p) + 2;
            rows.push([
              n.toLocaleString('en-US'),
              `${latencyMs} ms`,
              String(p),
              v.name,
              fmtMs(m.wallMs),
              `${(m.wallMs / n).toFixed(1)} ms`,
              (m.requests / n).toFixed(3),
              `${m.lists}${m.lists <= bound ? '' : ' (over)'}`,
              String(bound),
              fmtMs(m.tailMs),
              fmtMs(m.cpuMs),
              load.toFixed(1),
              m.ok ? '✓' : '✗',
            ]);
            console.error(rows[rows.length - 1]!.join(' | '));
          }
        }
      }
    }
    console.log(`\n### terraform apply through the provider (${version})\n`);
    console.log(
      table(
        [
          'N',
          'latency',
          '-parallelism',
          'version',
          'wall',
          'wall / create',
          'requests / create',
          'GET /api/alerts/',
          'bound 2N/P + 2',
          'last create → last list',
          'provider CPU',
          'load',
          'checks',
        ],
        rows,
      ),
    );
    const growth: string[][] = [];
    for (const [key, big] of cpuAt) {
      const [name, p, latency, n] = key.split(' ');
      const small = cpuAt.get(`${name} ${p} ${latency} ${Number(n) / 2}`);
      if (small === undefined) continue;
      growth.push([
        name!,
        `${latency} ms`,
        p!,
        `${Number(n) / 2} → ${n}`,
        `${fmtMs(small)} → ${fmtMs(big)}`,
        `**${Math.log2(big / small).toFixed(2)}**`,
      ]);
    }
    if (growth.length)
      console.log(
        '\n' +
          table(['version', 'latency', '-parallelism', 'N', 'provider CPU', 'growth exponent log2(CPU ratio)'], growth),
      );
  }
  if (!existsSync(scratch)) return;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
