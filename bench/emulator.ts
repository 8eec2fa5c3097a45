/**
 * Emulator throughput and list latency. The emulator runs as `ncalc emulator` in its own
 * process on 127.0.0.1 (so the load generator does not share its event loop); load comes
 * through an undici Pool, every series bounded by a request count and a time limit.
 *
 * - GET /api/alerts/ with 1,000 and 10,000 alerts, one request at a time: list latency.
 * - 50 clients of mixed writes (2 creates, 2 PATCHes, 1 DELETE in 5) on an account of 1,000
 *   and of 10,000 alerts, in memory and with `--data` (every answer durable on disk).
 *
 *   npm run build && npx tsx bench/emulator.ts
 *
 * BENCH_NCALC=<path of dist/cli/main.js> measures another build, e.g. a worktree of an
 * older commit, with this same load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Pool } from 'undici';
import { EmulatorControl, type EmulatorSeed } from '../src/emulator';
import { NCALC, SUBDOMAINS, TOKEN, alertName, benchSeed, fmtMs, median, table } from './support';

const SERIES_TIME_MS = 10_000;
const CONTROL_TOKEN = 'bench-control';
const CLIENTS = 50;
const ncalc = process.env.BENCH_NCALC ?? NCALC;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Series {
  label: string;
  alerts: number;
  concurrency: number;
  maxRequests: number;
  request: (i: number) => { method: Method; path: string; body?: string };
}

function seedWith(n: number): EmulatorSeed {
  const seed = benchSeed();
  seed.accounts[0]!.alerts = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: alertName(i),
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: `192.0.2.${(i % 254) + 1}`,
    target: `h${String(i % SUBDOMAINS).padStart(2, '0')}.example.com`,
  }));
  return seed;
}

const createBody = (i: number) =>
  JSON.stringify({
    name: `load ${i}`,
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: String((i % 90) + 1),
    target_type: 'subdomain',
    target_id: 2,
  });

/**
 * Of every 5 requests: 2 creates, 2 PATCHes of seeded alerts, 1 DELETE of a seeded alert
 * (each deleted once, from the top of the id range; PATCHes stay in the lower half, so at
 * most alerts × 2.5 requests).
 */
function mixedWrites(alerts: number): Series['request'] {
  return (i) => {
    const k = i % 5;
    if (k < 2) return { method: 'POST', path: '/api/alerts/', body: createBody(i) };
    if (k < 4) {
      const id = ((i * 7919) % Math.floor(alerts / 2)) + 1;
      return {
        method: 'PATCH',
        path: `/api/alerts/${id}`,
        body: JSON.stringify({ filter_value: `198.51.100.${(i % 254) + 1}` }),
      };
    }
    return { method: 'DELETE', path: `/api/alerts/${alerts - Math.floor(i / 5)}` };
  };
}

/** Starts `ncalc emulator --port 0` and waits for the URL it prints. */
function startEmulatorProcess(seedFile: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ncalc,
        'emulator',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--seed',
        seedFile,
        '--control-token',
        CONTROL_TOKEN,
        ...extra,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the emulator did not start: ${out}`));
    }, 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited with ${code}: ${out}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function run(pool: Pool, s: Series, store = ''): Promise<string[]> {
  let next = 0;
  let errors = 0;
  let bytes = 0;
  const latencies: number[] = [];
  const deadline = Date.now() + SERIES_TIME_MS;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < s.maxRequests && Date.now() < deadline) {
      const { method, path: p, body } = s.request(next++);
      const t = process.hrtime.bigint();
      const res = await pool.request({
        method,
        path: p,
        body,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      });
      const text = await res.body.text();
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      bytes += Buffer.byteLength(text);
      if (res.statusCode !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: s.concurrency }, worker));
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
  const size = bytes / latencies.length;
  return [
    s.label,
    store,
    s.alerts.toLocaleString('en-US'),
    String(s.concurrency),
    String(latencies.length),
    `${secs.toFixed(2)} s`,
    Math.round(latencies.length / secs).toLocaleString('en-US'),
    `${fmtMs(median(latencies))} / ${fmtMs(p95)}`,
    size >= 1024 * 1024
      ? `${(size / 1024 / 1024).toFixed(1)} MiB`
      : size >= 1024
        ? `${(size / 1024).toFixed(0)} KiB`
        : `${Math.round(size)} B`,
    String(errors),
  ];
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-emu-bench-'));
  const children = new Set<ChildProcess>();
  const stopAll = () => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    stopAll();
    process.exit(130);
  });

  /** One emulator process with `alerts` seeded alerts, in memory or on a fresh data file. */
  async function withEmulator<T>(
    alerts: number,
    data: boolean,
    fn: (pool: Pool, control: EmulatorControl) => Promise<T>,
  ): Promise<T> {
    const seedFile = path.join(scratch, `seed-${alerts}.json`);
    writeFileSync(seedFile, JSON.stringify(seedWith(alerts)));
    const dir = mkdtempSync(path.join(scratch, 'data-'));
    const emu = await startEmulatorProcess(seedFile, data ? ['--data', path.join(dir, 'state.json')] : []);
    children.add(emu.child);
    const pool = new Pool(emu.url, { connections: CLIENTS });
    try {
      return await fn(pool, new EmulatorControl(emu.url, CONTROL_TOKEN));
    } finally {
      await pool.close();
      await stopProcess(emu.child);
      children.delete(emu.child);
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const list = () => ({ method: 'GET' as const, path: '/api/alerts/' });
  const rows: string[][] = [];
  try {
    console.log(
      `node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; ` +
        `emulator: ${path.relative(process.cwd(), ncalc) || ncalc} in its own process; load: undici Pool\n`,
    );

    for (const n of [1000, 10_000]) {
      await withEmulator(n, false, async (pool) => {
        // Warm-up: JIT and connections, not counted.
        await run(pool, { label: 'warm-up', alerts: n, concurrency: 1, maxRequests: 20, request: list });
        rows.push(
          await run(
            pool,
            { label: 'GET /api/alerts/', alerts: n, concurrency: 1, maxRequests: n > 1000 ? 100 : 500, request: list },
            'memory',
          ),
        );
      });
    }

    for (const n of [1000, 10_000]) {
      for (const data of [false, true]) {
        await withEmulator(n, data, async (pool, control) => {
          await run(pool, {
            label: 'warm-up',
            alerts: n,
            concurrency: 4,
            maxRequests: 20,
            request: () => ({ method: 'GET', path: '/api/domains/' }),
          });
          rows.push(
            await run(
              pool,
              {
                label: 'mixed writes (2 POST, 2 PATCH, 1 DELETE)',
                alerts: n,
                concurrency: CLIENTS,
                maxRequests: Math.min(5000, n * 2.5),
                request: mixedWrites(n),
              },
              data ? '--data' : 'memory',
            ),
          );
          const left = (await control.state()).accounts[0]!.alerts.length;
          if (left < n / 2) throw new Error(`the mixed series left ${left} alerts of ${n}`);
        });
      }
    }

    console.log(
      table(
        [
          'request',
          'state',
          'alerts in account',
          'clients',
          'requests',
          'time',
          'req/s',
          'latency median / p95',
          'response',
          'non-200',
        ],
        rows,
      ),
    );
  } finally {
    stopAll();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
