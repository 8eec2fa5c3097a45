/**
 * Shared pieces of the benchmarks: a seed with enough subdomains, a synthesized-app fixture
 * in the shape of docs/constructs.md, running the built `ncalc` as a user would (one
 * process per command) with its peak RSS, request counting and markdown tables.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import * as path from 'node:path';
import type { EmulatorSeed, RequestLogEntry } from '../src/emulator';
import { JOURNAL_PREFIX } from '../src/provider/create-journal';

export const ROOT = path.join(__dirname, '..');
export const NCALC = path.join(ROOT, 'dist', 'cli', 'main.js');
export const TOKEN = 'demo-token';
export const ACCOUNT = 'demo';
export const SUBDOMAINS = 48;

/** The demo account with 48 more subdomains, so targets spread like a real account's. */
export function benchSeed(): EmulatorSeed {
  const extra = Array.from({ length: SUBDOMAINS }, (_, i) => ({ prefix: `h${String(i).padStart(2, '0')}` }));
  return {
    accounts: [
      {
        name: ACCOUNT,
        user_id: 1,
        credentials: [{ client_id: 'demo-client', client_secret: 'demo-secret' }],
        tokens: [{ access_token: TOKEN }],
        domains: [
          { id: 1, domain: 'example.com', subdomains: [{ id: 2, prefix: 'www' }, { id: 3, prefix: 'mail' }, ...extra] },
          { id: 4, domain: 'example.org' },
        ],
        alerts: [],
      },
    ],
  };
}

export const alertName = (i: number) => `bench alert ${String(i).padStart(5, '0')}`;

/** Every 100th alert is a DNS A record: the one drift edits out of band. */
export const isDriftVictim = (i: number) => i % 100 === 0;

const logicalId = (prefix: string, key: string) =>
  `${prefix.replace(/[^A-Za-z0-9]/g, '')}_${createHash('md5').update(key).digest('hex').slice(0, 8).toUpperCase()}`;

/** One cdk.tf.json with N alerts, targets by name through data sources, as the constructs emit. */
export function stackJson(stack: string, n: number): Record<string, unknown> {
  const domains: Record<string, unknown> = {};
  const subdomains: Record<string, unknown> = {};
  const alerts: Record<string, unknown> = {};
  const ref = (kind: 'domain' | 'subdomain', name: string): string => {
    const id = logicalId(`Account_${kind === 'domain' ? 'Domain' : 'Subdomain'}${name}`, name);
    const table = kind === 'domain' ? domains : subdomains;
    table[id] ??= {
      '//': {
        metadata: {
          path: `${stack}/Account/${kind === 'domain' ? 'Domain' : 'Subdomain'} ${name}/Resource`,
          uniqueId: id,
        },
      },
      name,
    };
    return `\${data.networkcalc_${kind}.${id}.id}`;
  };
  for (let i = 0; i < n; i++) {
    const target: ['domain' | 'subdomain', string] =
      i % 10 === 5
        ? ['domain', i % 20 === 5 ? 'example.com' : 'example.org']
        : ['subdomain', `h${String(i % SUBDOMAINS).padStart(2, '0')}.example.com`];
    const kind = i % 4;
    const body: Record<string, unknown> =
      kind === 0
        ? { type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: `192.0.2.${(i % 254) + 1}` }
        : kind === 1
          ? {
              type: 'DNS Record',
              subtype: 'TXT',
              filter: 'contains',
              filter_value: `v=spf1 include:_spf${i}.example.com`,
            }
          : kind === 2
            ? { type: 'SPF Record', filter: 'validity' }
            : { type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: String((i % 90) + 1) };
    const id = `Alert${i}_${i.toString(16).padStart(8, '0').toUpperCase()}`;
    alerts[id] = {
      '//': { metadata: { path: `${stack}/Alert${i}/Resource`, uniqueId: id } },
      name: alertName(i),
      ...body,
      target_type: target[0],
      target_id: ref(target[0], target[1]),
    };
  }
  return {
    '//': { metadata: { backend: 'local', stackName: stack, version: '0.21.0' }, outputs: {} },
    data: { networkcalc_domain: domains, networkcalc_subdomain: subdomains },
    provider: {
      networkcalc: [
        {
          client_id_env: 'NETWORKCALC_CLIENT_ID',
          client_secret_env: 'NETWORKCALC_CLIENT_SECRET',
          ownership: 'exclusive',
          token_env: 'NETWORKCALC_TOKEN',
        },
      ],
    },
    resource: { networkcalc_alert: alerts },
    terraform: { required_providers: { networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' } } },
  };
}

/** An app directory holding cdktf.json and an already synthesized cdktf.out (for --no-synth). */
export function writeFixtureApp(dir: string, n: number, stack = 'bench'): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'cdktf.out', 'stacks', stack), { recursive: true });
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: 'node main.js', output: 'cdktf.out' }),
  );
  writeFileSync(
    path.join(dir, 'cdktf.out', 'stacks', stack, 'cdk.tf.json'),
    JSON.stringify(stackJson(stack, n), null, 2),
  );
  const manifest = {
    version: '0.21.0',
    stacks: {
      [stack]: {
        name: stack,
        constructPath: stack,
        annotations: [],
        dependencies: [],
        stackMetadataPath: `stacks/${stack}/metadata.json`,
        synthesizedStackPath: `stacks/${stack}/cdk.tf.json`,
        workingDirectory: `stacks/${stack}`,
      },
    },
  };
  writeFileSync(path.join(dir, 'cdktf.out', 'manifest.json'), JSON.stringify(manifest, null, 2));
}

/**
 * A real cdktf app declaring the same N alerts with the constructs (compiled package), for
 * one measurement with synthesis. Plain JS so no TypeScript compiler runs inside the timing.
 */
export function writeCdktfApp(dir: string, n: number, stack = 'bench'): void {
  rmSync(dir, { recursive: true, force: true });
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
const stack = new TerraformStack(app, ${JSON.stringify(stack)});
new NetworkcalcAccount(stack, 'Account');
for (let i = 0; i < ${n}; i++) {
  const target = i % 10 === 5 ? AlertTarget.domain(i % 20 === 5 ? 'example.com' : 'example.org') : AlertTarget.subdomain('h' + String(i % ${SUBDOMAINS}).padStart(2, '0') + '.example.com');
  const name = 'bench alert ' + String(i).padStart(5, '0');
  const k = i % 4;
  const props = k === 0 ? { dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.' + ((i % 254) + 1) } }
    : k === 1 ? { dnsRecord: { record: 'TXT', filter: 'contains', value: 'v=spf1 include:_spf' + i + '.example.com' } }
    : k === 2 ? { spfRecord: { filter: 'validity' } }
    : { certificate: { expiresInDays: (i % 90) + 1 } };
  new Alert(stack, 'Alert' + i, { name, target, ...props });
}
app.synth();
`,
  );
}

/**
 * The environment of the processes a benchmark starts: this one's, without what would steer them
 * elsewhere (NETWORKCALC_*, TF_* such as TF_VAR_* or TF_CLI_CONFIG_FILE, NODE_OPTIONS, a CI step
 * summary), plus `extra`.
 */
export function benchEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('TF_') && !k.startsWith('NETWORKCALC_') && k !== 'NODE_OPTIONS' && k !== 'GITHUB_STEP_SUMMARY')
      env[k] = v;
  return { ...env, ...extra };
}

export interface RunResult {
  code: number;
  ms: number;
  /** Peak RSS of the ncalc process in MiB (getrusage of the process itself, read at exit). */
  rssMb: number;
  /** CPU time (user + system) of the ncalc process in ms, read at exit. */
  cpuMs: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/cli/main.js <args>` with a preload that records process.resourceUsage().maxRSS
 * on exit: the peak RSS of ncalc alone, not of a synth child or this harness.
 */
export function runNcalc(
  args: string[],
  env: NodeJS.ProcessEnv,
  scratch: string,
  timeoutMs: number,
): Promise<RunResult> {
  const preload = path.join(scratch, 'rss-preload.js');
  const rssFile = path.join(scratch, 'rss.txt');
  writeFileSync(
    preload,
    "process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(process.env.BENCH_RSS_FILE, u.maxRSS + ' ' + (u.userCPUTime + u.systemCPUTime)); });\n",
  );
  rmSync(rssFile, { force: true });
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', preload, NCALC, ...args], {
      env: { ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = null;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (signal) return reject(new Error(`ncalc ${args[0]} killed by ${signal} (time limit ${timeoutMs} ms)`));
      let rssKb = NaN;
      let cpuUs = NaN;
      try {
        [rssKb, cpuUs] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
      } catch {
        /* reported as NaN */
      }
      resolve({
        code: code ?? 1,
        ms,
        rssMb: rssKb / 1024,
        cpuMs: cpuUs / 1000,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

let current: ReturnType<typeof spawn> | null = null;

/** Kills the ncalc process in flight, if any (on Ctrl+C). */
export function killCurrent(): void {
  current?.kill('SIGKILL');
}

export interface RequestCounts {
  listAlerts: number;
  listDomains: number;
  post: number;
  patch: number;
  del: number;
  other: number;
}

export function countRequests(log: RequestLogEntry[]): RequestCounts {
  const c: RequestCounts = { listAlerts: 0, listDomains: 0, post: 0, patch: 0, del: 0, other: 0 };
  for (const r of log) {
    const p = r.path.replace(/\/+$/, '');
    if (r.method === 'GET' && p === '/api/alerts') c.listAlerts++;
    else if (r.method === 'GET' && p === '/api/domains') c.listDomains++;
    else if (r.method === 'POST' && p === '/api/alerts') c.post++;
    else if (r.method === 'PATCH' && p.startsWith('/api/alerts/')) c.patch++;
    else if (r.method === 'DELETE' && p.startsWith('/api/alerts')) c.del++;
    else c.other++;
  }
  return c;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmtMs = (ms: number) =>
  ms >= 10_000
    ? `${(ms / 1000).toFixed(1)} s`
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : ms >= 10
        ? `${ms.toFixed(0)} ms`
        : `${ms.toFixed(1)} ms`;

// ---- front-door benchmark (bench/terraform-door.ts) -------------------------------------

/** N alerts in HCL with count (`-var n=N`): the same names, kinds and targets as stackJson. */
export function countHcl(): string {
  return `terraform {
  required_providers {
    networkcalc = { source = "networkcalc/networkcalc", version = "0.1.0" }
  }
}

variable "n" {
  type = number
}

provider "networkcalc" {}

locals {
  kinds = [
    { type = "DNS Record", subtype = "A", filter = "equals" },
    { type = "DNS Record", subtype = "TXT", filter = "contains" },
    { type = "SPF Record", subtype = null, filter = "validity" },
    { type = "Certificate (TLS)", subtype = null, filter = "expires in (days)" },
  ]
}

data "networkcalc_domain" "d" {
  for_each = toset(["example.com", "example.org"])
  name     = each.key
}

data "networkcalc_subdomain" "s" {
  for_each = toset([for i in range(${SUBDOMAINS}) : format("h%02d.example.com", i)])
  name     = each.key
}

resource "networkcalc_alert" "a" {
  count   = var.n
  name    = format("bench alert %05d", count.index)
  type    = local.kinds[count.index % 4].type
  subtype = local.kinds[count.index % 4].subtype
  filter  = local.kinds[count.index % 4].filter
  filter_value = [
    format("192.0.2.%d", count.index % 254 + 1),
    format("v=spf1 include:_spf%d.example.com", count.index),
    null,
    tostring(count.index % 90 + 1),
  ][count.index % 4]
  target_type = count.index % 10 == 5 ? "domain" : "subdomain"
  target_id = (count.index % 10 == 5
    ? data.networkcalc_domain.d[count.index % 20 == 5 ? "example.com" : "example.org"].id
    : data.networkcalc_subdomain.s[format("h%02d.example.com", count.index % ${SUBDOMAINS})].id)
}
`;
}

/**
 * A fresh apply in a terraform working directory: no state, and no create journal of an
 * earlier run in its data directory (the provider would adopt from it, with extra lists).
 */
export function freshTerraformState(workDir: string): void {
  const dataDir = path.join(workDir, '.terraform');
  const journals = existsSync(dataDir)
    ? readdirSync(dataDir)
        .filter((f) => f.startsWith(JOURNAL_PREFIX) || f === 'networkcalc-creates.jsonl')
        .map((f) => path.join(dataDir, f))
    : [];
  for (const f of [
    path.join(workDir, 'terraform.tfstate'),
    path.join(workDir, 'terraform.tfstate.backup'),
    ...journals,
  ])
    rmSync(f, { force: true });
}

/** A TCP proxy in front of the API that counts the bytes flowing back to the clients. */
export interface ByteProxy {
  /** Base URL to give the clients instead of the API's. */
  url: string;
  /** Bytes the upstream sent to clients since start or the last reset. */
  bytesToClients(): number;
  /** Client connections accepted since start or the last reset. */
  connections(): number;
  reset(): void;
  /** Stops accepting and destroys every open connection. */
  close(): Promise<void>;
}

/**
 * Starts the proxy on 127.0.0.1 (a free port). Half-open connections are allowed so a client
 * that ends its side still gets the whole answer. At most `maxConnections` at a time.
 */
export function startByteProxy(target: string, maxConnections = 512): Promise<ByteProxy> {
  const upstreamUrl = new URL(target);
  const open = new Set<Socket>();
  let bytes = 0;
  let accepted = 0;
  const server = createServer({ allowHalfOpen: true }, (client) => {
    accepted++;
    const upstream = connect({ host: upstreamUrl.hostname, port: Number(upstreamUrl.port), allowHalfOpen: true });
    open.add(client);
    open.add(upstream);
    upstream.on('data', (d: Buffer) => (bytes += d.length));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  server.maxConnections = maxConnections;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        bytesToClients: () => bytes,
        connections: () => accepted,
        reset: () => {
          bytes = 0;
          accepted = 0;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const s of open) s.destroy();
            open.clear();
            server.close(() => done());
          }),
      });
    });
  });
}

/**
 * A `--require` preload (for node directly or through NODE_OPTIONS) that appends one line per
 * node process to $BENCH_CPU_FILE: `S <pid>` when it starts and `E <pid> <script> <user µs>
 * <system µs>` when it exits, so processes that ended without an exit event show up as well.
 */
export function writeCpuPreload(dir: string): string {
  const file = path.join(dir, 'cpu-preload.js');
  writeFileSync(
    file,
    `const fs = require('fs');
const out = process.env.BENCH_CPU_FILE;
if (out) {
  const script = require('path').basename(process.argv[1] || '-');
  fs.appendFileSync(out, 'S ' + process.pid + '\\n');
  process.on('exit', () => {
    const u = process.cpuUsage();
    fs.appendFileSync(out, 'E ' + process.pid + ' ' + script + ' ' + u.user + ' ' + u.system + '\\n');
  });
}
`,
  );
  return file;
}

export interface NodeCpu {
  /** Node processes that started. */
  started: number;
  /** Of them, those that reported at exit. */
  reported: number;
  /** user + system of the reported ones, in ms. */
  cpuMs: number;
}

/** Sums a file written by the preload of writeCpuPreload (missing file: no process). */
export function readCpuFile(file: string): NodeCpu {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    /* nothing started */
  }
  const r: NodeCpu = { started: 0, reported: 0, cpuMs: 0 };
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f[0] === 'S') r.started++;
    if (f[0] === 'E' && f.length === 5) {
      r.reported++;
      r.cpuMs += (Number(f[3]) + Number(f[4])) / 1000;
    }
  }
  return r;
}

let clockTicks: number | undefined;

/** user + system CPU of a running process so far, in ms (Linux /proc), NaN when unreadable. */
export function procCpuMs(pid: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
}

export const fmtBytes = (b: number) =>
  b >= 1024 ** 2 ? `${(b / 1024 ** 2).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(0)} KiB` : `${b} B`;
