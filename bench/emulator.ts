/**
 * Emulator throughput: requests/second of GET /api/alerts/ (1,000 and 5,000 alerts), of
 * create and of PATCH, through undici with bounded concurrency, each series bounded by a
 * request count and a time limit. The emulator runs as `ncalc emulator` in its own process
 * on 127.0.0.1, so the load generator does not share its event loop.
 *
 *   npm run build && npx tsx bench/emulator.ts
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

interface Series {
  label: string;
  alerts: number;
  concurrency: number;
  maxRequests: number;
  request: (i: number) => { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: string };
}

function seedWith(n: number): EmulatorSeed {
  const seed = benchSeed();
  seed.accounts[0]!.alerts = Array.from({ length: n }, (_, i) => ({
    name: alertName(i), type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: `192.0.2.${(i % 254) + 1}`,
    target: `h${String(i % SUBDOMAINS).padStart(2, '0')}.example.com`,
  }));
  return seed;
}

const createBody = (i: number) =>
  JSON.stringify({ name: `load ${i}`, type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: String((i % 90) + 1), target_type: 'subdomain', target_id: 2 });

/** Starts `ncalc emulator --port 0` and waits for the URL it prints. */
function startEmulatorProcess(seedFile: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NCALC, 'emulator', '--host', '127.0.0.1', '--port', '0', '--seed', seedFile, '--control-token', CONTROL_TOKEN], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the emulator did not start: ${out}`));
    }, 15_000);
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

async function run(pool: Pool, s: Series): Promise<string[]> {
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
        method, path: p, body,
        headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      });
      const text = await res.body.text();
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      bytes += text.length;
      if (res.statusCode !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: s.concurrency }, worker));
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
  return [
    s.label,
    s.alerts.toLocaleString('en-US'),
    String(s.concurrency),
    String(latencies.length),
    `${secs.toFixed(2)} s`,
    Math.round(latencies.length / secs).toLocaleString('en-US'),
    `${fmtMs(median(latencies))} / ${fmtMs(p95)}`,
    bytes / latencies.length >= 1024 ? `${(bytes / latencies.length / 1024).toFixed(0)} KiB` : `${Math.round(bytes / latencies.length)} B`,
    String(errors),
  ];
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-emu-bench-'));
  let emu: { child: ChildProcess; url: string } | undefined;
  let pool: Pool | undefined;
  const stop = () => {
    emu?.child.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    const seedFile = path.join(scratch, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(seedWith(1000)));
    emu = await startEmulatorProcess(seedFile);
    const control = new EmulatorControl(emu.url, CONTROL_TOKEN);
    pool = new Pool(emu.url, { connections: 32 });
    const list = () => ({ method: 'GET' as const, path: '/api/alerts/' });
    const create = (i: number) => ({ method: 'POST' as const, path: '/api/alerts/', body: createBody(i) });
    console.log(`node ${process.version}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; emulator: ncalc emulator in its own process; load: undici Pool\n`);

    const rows: string[][] = [];
    // Warm-up: JIT and connections, not counted.
    await run(pool, { label: 'warm-up', alerts: 1000, concurrency: 4, maxRequests: 50, request: list });
    for (const c of [1, 8]) rows.push(await run(pool, { label: 'GET /api/alerts/', alerts: 1000, concurrency: c, maxRequests: 1000, request: list }));

    // Creates from an empty account, up to 5,000 alerts.
    for (const c of [1, 8]) {
      await control.seed(seedWith(0));
      rows.push(await run(pool, { label: 'POST /api/alerts/ (create)', alerts: 0, concurrency: c, maxRequests: 5000, request: create }));
    }

    await control.seed(seedWith(1000));
    const ids = (await control.state()).accounts[0]!.alerts.map((a) => a.id);
    const patch = (i: number) => ({
      method: 'PATCH' as const, path: `/api/alerts/${ids[i % ids.length]}`, body: JSON.stringify({ filter_value: `198.51.100.${(i % 254) + 1}` }),
    });
    rows.push(await run(pool, { label: 'PATCH /api/alerts/{id}', alerts: 1000, concurrency: 8, maxRequests: 5000, request: patch }));

    // How the list scales with the account's size.
    await control.seed(seedWith(5000));
    rows.push(await run(pool, { label: 'GET /api/alerts/', alerts: 5000, concurrency: 8, maxRequests: 300, request: list }));

    console.log(table(['request', 'alerts in account', 'concurrency', 'requests', 'time', 'req/s', 'latency median / p95', 'response', 'non-200'], rows));
  } finally {
    await pool?.close();
    stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
