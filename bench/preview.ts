/**
 * `ncalc preview` at scale: 1,000 alerts over 200 domains (per domain: A, MX and TXT
 * comparisons, SPF validity, certificate expiry), every DNS answer and every TLS handshake 20 ms
 * late (a local DNS server and local TLS servers from test/helpers), the built CLI against an
 * in-process emulator. Per run: wall time against the floor the lookup concurrency sets
 * (lookups × latency ÷ concurrency, on top of `plan`'s own time), peak RSS, DNS queries and
 * TLS handshakes received, and the API requests, which must be `plan`'s exactly.
 *
 * Then the bad inputs, in-process: 10,000 alerts on one host, a resolver that never answers,
 * a TLS server that stalls every handshake: wall time, heap growth and lookups sent.
 *
 *   npm run build && npx tsx bench/preview.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type EmulatorSeed, type RunningEmulator } from '../src/emulator';
import { canonicalAlert } from '../src/model';
import { Lookups, TLS_PORT_ENV, evaluateAlert } from '../src/preview';
import { startDnsServer, type RunningDns, type Zone } from '../test/helpers/dns-server';
import { SERVES, STALLS, lifetimeCertificate, startTlsServers, type RunningTls } from '../test/helpers/tls-servers';
import { countRequests, fmtMs, median, runNcalc, table, writeFixtureApp, type RunResult } from './support';

const HOSTS = 200;
const LATENCY_MS = 20;
const REPS = 3;
const ACCOUNT = 'pv';
const TOKEN = 'preview-bench-token';
const STACK = 'bench';
const host = (i: number) => `site-${String(i).padStart(3, '0')}.bench.test`;

function seed(): EmulatorSeed {
  return {
    accounts: [
      {
        name: ACCOUNT,
        user_id: 60,
        tokens: [{ access_token: TOKEN }],
        domains: Array.from({ length: HOSTS }, (_, i) => ({ id: i + 1, domain: host(i) })),
      },
    ],
  };
}

function zone(): Zone {
  const z: Zone = {};
  for (let i = 0; i < HOSTS; i++) {
    z[host(i)] = {
      A: [SERVES],
      MX: [{ exchange: `mx.${host(i)}`, priority: 10 }],
      TXT: ['v=spf1 ip4:192.0.2.0/24 -all', `site-verification=${i}`],
    };
  }
  return z;
}

/** Five alerts per domain, each target named through a networkcalc_domain data source. */
function stackJson(): Record<string, unknown> {
  const alerts: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (let i = 0; i < HOSTS; i++) {
    const target = { target_type: 'domain', target_id: `\${data.networkcalc_domain.d${i}.id}` };
    data[`d${i}`] = { name: host(i) };
    const add = (key: string, fields: Record<string, unknown>) =>
      (alerts[`${key}${i}`] = { name: `${key} ${host(i)}`, ...fields, ...target });
    add('a', { type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: SERVES });
    add('mx', { type: 'DNS Record', subtype: 'MX', filter: 'contains', filter_value: 'mx.' });
    add('txt', { type: 'DNS Record', subtype: 'TXT', filter: 'contains', filter_value: 'site-verification' });
    add('spf', { type: 'SPF Record', filter: 'validity' });
    add('cert', { type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' });
  }
  return {
    provider: {
      networkcalc: [
        {
          token_env: 'NETWORKCALC_TOKEN',
          client_id_env: 'NETWORKCALC_CLIENT_ID',
          client_secret_env: 'NETWORKCALC_CLIENT_SECRET',
          ownership: 'exclusive',
        },
      ],
    },
    resource: { networkcalc_alert: alerts },
    data: { networkcalc_domain: data },
  };
}

/** Lookups a preview of these alerts must make: per host A, CNAME, MX, TXT and one handshake. */
const LOOKUPS = HOSTS * 5;

interface Row {
  label: string;
  runs: RunResult[];
  floorMs: number | null;
  api: string;
  dns: number;
  tls: number;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-preview-'));
  let emu: RunningEmulator | undefined;
  let dns: RunningDns | undefined;
  let tls: RunningTls | undefined;
  const problems: string[] = [];
  try {
    emu = await startEmulator({ seed: seed() });
    // Read at every answer: set to 0 for the run that measures the lookups' own CPU.
    const dnsLatency = { delayMs: LATENCY_MS };
    const tlsLatency = { delayMs: LATENCY_MS };
    dns = await startDnsServer(zone(), dnsLatency);
    tls = await startTlsServers({ '*.bench.test': lifetimeCertificate('*.bench.test', 90, 10.5) }, tlsLatency);
    const dir = path.join(scratch, 'app');
    writeFixtureApp(dir, 0, STACK);
    writeFileSync(path.join(dir, 'cdktf.out', 'stacks', STACK, 'cdk.tf.json'), JSON.stringify(stackJson()));
    const env = {
      PATH: process.env.PATH,
      NO_COLOR: '1',
      NETWORKCALC_TOKEN: TOKEN,
      NETWORKCALC_BASE_URL: emu.url,
      [TLS_PORT_ENV]: String(tls.port),
    };
    const rows: Row[] = [];
    const measure = async (label: string, args: string[], floorMs: number | null, expect: RegExp) => {
      const runs: RunResult[] = [];
      let api = '';
      let dnsQueries = 0;
      let handshakes = 0;
      for (let i = 0; i < REPS; i++) {
        await emu!.control.clearRequests();
        const q0 = dns!.queries.length;
        const t0 = tls!.handshakes.length;
        const r = await runNcalc([...args, '-C', dir, '--no-synth'], env, scratch, 300_000);
        const c = countRequests((await emu!.control.requests()).filter((x) => x.account === ACCOUNT));
        api = `${c.listAlerts} / ${c.listDomains} / ${c.post + c.patch + c.del + c.other}`;
        dnsQueries = dns!.queries.length - q0;
        handshakes = tls!.handshakes.length - t0;
        if (r.code !== 0) problems.push(`${label}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
        if (!expect.test(r.stdout))
          problems.push(`${label}: output does not match ${expect}: …${r.stdout.slice(-300)}`);
        if (api !== '1 / 1 / 0') problems.push(`${label}: API requests ${api}, expected 1 / 1 / 0`);
        runs.push(r);
      }
      rows.push({ label, runs, floorMs, api, dns: dnsQueries, tls: handshakes });
    };
    await measure('plan (for comparison)', ['plan'], null, /Plan: 1000 to create/);
    for (const c of [16, 64]) {
      await measure(
        `preview, --lookup-concurrency ${c}`,
        ['preview', '--resolver', dns.address, '--lookup-concurrency', String(c)],
        Math.ceil(LOOKUPS / c) * LATENCY_MS,
        /Preview of 1000 alerts: 600 fire now, 400 quiet\./,
      );
    }
    dnsLatency.delayMs = 0;
    tlsLatency.delayMs = 0;
    await measure(
      'preview, --lookup-concurrency 16, no latency',
      ['preview', '--resolver', dns.address, '--lookup-concurrency', '16'],
      0,
      /Preview of 1000 alerts: 600 fire now, 400 quiet\./,
    );
    const planMs = median(rows[0].runs.map((r) => r.ms));
    console.log(
      `\n${HOSTS} domains, 1,000 alerts, ${LATENCY_MS} ms per DNS answer and per TLS handshake; ${REPS} runs each; Node ${process.version}\n`,
    );
    console.log(
      table(
        [
          'command',
          'wall, median (min–max)',
          'over plan',
          'floor: lookups × latency ÷ concurrency',
          'CPU of ncalc, median',
          'peak RSS',
          'DNS queries',
          'TLS handshakes',
          'API: alerts / domains / other',
        ],
        rows.map((r) => {
          const ms = r.runs.map((x) => x.ms);
          const m = median(ms);
          return [
            r.label,
            `${fmtMs(m)} (${fmtMs(Math.min(...ms))}–${fmtMs(Math.max(...ms))})`,
            r.floorMs === null ? '—' : fmtMs(m - planMs),
            r.floorMs === null
              ? '—'
              : r.floorMs === 0
                ? '0 (no latency)'
                : `${LOOKUPS} × ${LATENCY_MS} ms ÷ ${r.label.split(' ').pop()} = ${fmtMs(r.floorMs)}`,
            fmtMs(median(r.runs.map((x) => x.cpuMs))),
            `${Math.round(median(r.runs.map((x) => x.rssMb)))} MiB`,
            String(r.dns),
            String(r.tls),
            r.api,
          ];
        }),
      ),
    );

    // ---- bad inputs, in-process ----
    const bad: string[][] = [];
    const timed = async (label: string, work: () => Promise<string>) => {
      global.gc?.();
      const heap0 = process.memoryUsage().heapUsed;
      const t0 = performance.now();
      const note = await work();
      const ms = performance.now() - t0;
      const heap = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024;
      bad.push([label, fmtMs(ms), `${heap.toFixed(1)} MiB`, note]);
    };
    const alertOn = (i: number, fields: Record<string, unknown>) =>
      canonicalAlert({
        name: `x${i}`,
        type: 'DNS Record',
        subtype: 'MX',
        filter: 'contains',
        filter_value: `mx${i}`,
        target_type: 'domain',
        target_id: 1,
        ...fields,
      } as never);
    await timed('10,000 alerts on one host (2,000 each of A, MX, TXT, SPF, certificate)', async () => {
      const l = new Lookups({ resolver: dns!.address, tlsPort: tls!.port });
      const kinds = [
        { subtype: 'A', filter: 'equals', filter_value: SERVES },
        { subtype: 'MX' },
        { subtype: 'TXT' },
        { type: 'SPF Record', subtype: null, filter: 'validity', filter_value: '' },
        { type: 'Certificate (TLS)', subtype: null, filter: 'expires in (days)', filter_value: '21' },
      ];
      const results = await Promise.all(
        Array.from({ length: 10_000 }, (_, i) => evaluateAlert(alertOn(i, kinds[i % 5]), host(0), l, new Date())),
      );
      const unknown = results.filter((r) => r.state === 'unknown').length;
      return `${l.sent.dns} DNS queries, ${l.sent.tls} handshake; ${unknown} cannot evaluate`;
    });
    const silent = await startDnsServer({}, { silent: true });
    try {
      await timed('200 hosts, a resolver that never answers (3 s per lookup)', async () => {
        const l = new Lookups({ resolver: silent.address });
        const results = await Promise.all(
          Array.from({ length: HOSTS }, (_, i) => evaluateAlert(alertOn(i, {}), host(i), l, new Date())),
        );
        const first = results[results.length - 1].reason;
        return `${l.sent.dns} DNS queries sent; last reason: "${first}"`;
      });
    } finally {
      await silent.close();
    }
    const stallZone: Zone = Object.fromEntries(Array.from({ length: HOSTS }, (_, i) => [host(i), { A: [STALLS] }]));
    const stallDns = await startDnsServer(stallZone);
    try {
      await timed('200 hosts whose TLS server stalls every handshake (3 s limit, concurrency 16)', async () => {
        const l = new Lookups({ resolver: stallDns.address, tlsPort: tls!.port });
        const results = await Promise.all(
          Array.from({ length: HOSTS }, (_, i) =>
            evaluateAlert(
              alertOn(i, { type: 'Certificate (TLS)', subtype: null, filter: 'expires in (days)', filter_value: '21' }),
              host(i),
              l,
              new Date(),
            ),
          ),
        );
        const reasons = new Map<string, number>();
        for (const r of results) {
          const key = (r.reason ?? r.observed).replace(/^\S+ \(\S+\) /, '');
          reasons.set(key, (reasons.get(key) ?? 0) + 1);
        }
        const list = [...reasons].map(([k, n]) => `${n} × "${k}"`).join('; ');
        return `${l.sent.tls} handshakes; ${list}`;
      });
    } finally {
      await stallDns.close();
    }
    console.log('\nBad input (in-process):\n');
    console.log(table(['case', 'wall', 'heap growth', 'lookups, reasons'], bad));
    if (problems.length) {
      console.error(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all([emu?.close(), dns?.close(), tls?.close()]);
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
