/**
 * Synthesis at scale: a cdktf app of N alerts declared with the constructs (the app of
 * bench/support.ts writeCdktfApp: one account, name targets, the four kinds of check), run
 * as its own process like `ncalc plan` and `cdktf synth` run it. The app measures itself:
 * CPU (user + system) and wall time from the first construct to the end of `app.synth()`
 * (module loading excluded), and the process's peak RSS. A second series writes the same JSON
 * with the generated L1 bindings alone: the part of the cost that is cdktf's, whatever the
 * constructs do. A third (`--batched`) writes it from one cdktf element holding every alert,
 * with a plain construct per alert and no L1 at all: the floor of a cdktf design.
 *
 *   npm run build && npx tsx bench/synth.ts [sizes, default 1000,10000] [--before <package dir>]
 *     [--node <node binary>]... [--no-l1] [--batched] [--reps 5]
 *
 * Runs are interleaved: each round runs every series once (for every Node given), so load
 * from other work on the machine falls on all of them alike. Each row is the median of the
 * rounds (min–max); "constructs / L1" is the median (min–max) of the ratio within each round.
 * `--before` adds the constructs of another checkout's build (its dist/, e.g. a clone of the
 * commit before a change) as "constructs, before". `--root` measures another checkout
 * instead of this one. `--node` (repeatable) runs the apps on that Node binary; default, the
 * Node running this script.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT, SUBDOMAINS, fmtMs, median, table } from './support';

const args = process.argv.slice(2);
/** Removes `--flag value` from the arguments and returns every value given. */
function takeAll(flag: string): string[] {
  const values: string[] = [];
  for (let at = args.indexOf(flag); at >= 0; at = args.indexOf(flag)) values.push(args.splice(at, 2)[1]!);
  return values;
}
const PACKAGE = path.resolve(takeAll('--root')[0] ?? ROOT);
const BEFORE = takeAll('--before').map((dir) => path.resolve(dir))[0];
const NODES = takeAll('--node');
const REPS = Number(takeAll('--reps')[0] ?? 5);
const SIZES = (args.find((a) => !a.startsWith('--')) ?? '1000,10000').split(',').map(Number);
/** `--no-l1`: only the constructs. */
const KINDS: AppKind[] = [
  'constructs',
  ...(BEFORE ? (['before'] as const) : []),
  ...(args.includes('--no-l1') ? [] : (['l1'] as const)),
  ...(args.includes('--batched') ? (['batched'] as const) : []),
];
const TIMEOUT_MS = 300_000;

interface Sample {
  cpuMs: number;
  wallMs: number;
  rssMb: number;
  alerts: number;
}

type AppKind = 'constructs' | 'before' | 'l1' | 'batched';

/** The alert of index i: the props the constructs take, and the wire fields the L1 takes. */
const ALERT_SHAPES = `
function target(i) {
  return i % 10 === 5 ? ['domain', i % 20 === 5 ? 'example.com' : 'example.org'] : ['subdomain', 'h' + String(i % ${SUBDOMAINS}).padStart(2, '0') + '.example.com'];
}
const alertName = (i) => 'bench alert ' + String(i).padStart(5, '0');
function checkProps(i) {
  const k = i % 4;
  return k === 0 ? { dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.' + ((i % 254) + 1) } }
    : k === 1 ? { dnsRecord: { record: 'TXT', filter: 'contains', value: 'v=spf1 include:_spf' + i + '.example.com' } }
    : k === 2 ? { spfRecord: { filter: 'validity' } }
    : { certificate: { expiresInDays: (i % 90) + 1 } };
}
function wireFields(i) {
  const k = i % 4;
  return k === 0 ? { type: 'DNS Record', subtype: 'A', filter: 'equals', filterValue: '192.0.2.' + ((i % 254) + 1) }
    : k === 1 ? { type: 'DNS Record', subtype: 'TXT', filter: 'contains', filterValue: 'v=spf1 include:_spf' + i + '.example.com' }
    : k === 2 ? { type: 'SPF Record', filter: 'validity' }
    : { type: 'Certificate (TLS)', filter: 'expires in (days)', filterValue: String((i % 90) + 1) };
}
`;

/**
 * The app: builds N alerts, synthesizes, and prints what it measured as one JSON line.
 * `constructs`: NetworkcalcAccount + Alert with name targets, as users write it. `l1`: the
 * same cdk.tf.json from the generated bindings alone (provider, one data source per target
 * name, one resource per alert), i.e. what cdktf itself costs for this output. `batched`: the
 * same resources, each under a plain construct of its own path, emitted by one element.
 */
function appSource(kind: AppKind, n: number, outdir: string): string {
  const pkg = kind === 'before' ? BEFORE! : PACKAGE;
  const cdktf = require.resolve('cdktf', { paths: [pkg] });
  const dist = path.join(pkg, 'dist');
  const l1Setup = `const { NetworkcalcProvider } = require(${JSON.stringify(path.join(dist, 'gen/providers/networkcalc/provider'))});
const { DataNetworkcalcDomain } = require(${JSON.stringify(path.join(dist, 'gen/providers/networkcalc/data-networkcalc-domain'))});
const { DataNetworkcalcSubdomain } = require(${JSON.stringify(path.join(dist, 'gen/providers/networkcalc/data-networkcalc-subdomain'))});
const ids = new Map();
const targetId = (kind, host) => {
  if (!ids.has(host)) ids.set(host, (kind === 'domain' ? new DataNetworkcalcDomain(stack, 'Domain ' + host, { name: host }) : new DataNetworkcalcSubdomain(stack, 'Subdomain ' + host, { name: host })).id);
  return ids.get(host);
};
const provider = () => new NetworkcalcProvider(stack, 'Account', { tokenEnv: 'NETWORKCALC_TOKEN', clientIdEnv: 'NETWORKCALC_CLIENT_ID', clientSecretEnv: 'NETWORKCALC_CLIENT_SECRET', ownership: 'exclusive' });`;
  const build =
    kind === 'constructs' || kind === 'before'
      ? `const { Alert, AlertTarget, NetworkcalcAccount } = require(${JSON.stringify(dist)});
const start = () => {
  new NetworkcalcAccount(stack, 'Account');
  for (let i = 0; i < ${n}; i++) {
    const [kind, host] = target(i);
    new Alert(stack, 'Alert' + i, { name: alertName(i), target: kind === 'domain' ? AlertTarget.domain(host) : AlertTarget.subdomain(host), ...checkProps(i) });
  }
};`
      : kind === 'l1'
        ? `const { Alert } = require(${JSON.stringify(path.join(dist, 'gen/providers/networkcalc/alert'))});
${l1Setup}
const start = () => {
  provider();
  for (let i = 0; i < ${n}; i++) {
    const [kind, host] = target(i);
    new Alert(stack, 'Alert' + i, { name: alertName(i), ...wireFields(i), targetType: kind, targetId: targetId(kind, host) });
  }
};`
        : `const { TerraformElement } = require(${JSON.stringify(cdktf)});
const { Construct } = require(${JSON.stringify(require.resolve('constructs', { paths: [pkg] }))});
${l1Setup}
class AllAlerts extends TerraformElement {
  blocks = {};
  toTerraform() { return { resource: { networkcalc_alert: this.blocks } }; }
}
const start = () => {
  provider();
  const all = new AllAlerts(stack, 'AllAlerts');
  for (let i = 0; i < ${n}; i++) {
    const [kind, host] = target(i);
    const w = wireFields(i);
    const node = new Construct(stack, 'Alert' + i).node;
    const uniqueId = 'Alert' + i + '_' + i.toString(16);
    all.blocks[uniqueId] = { name: alertName(i), type: w.type, subtype: w.subtype, filter: w.filter, filter_value: w.filterValue, target_type: kind, target_id: targetId(kind, host), '//': { metadata: { path: node.path + '/Resource', uniqueId } } };
  }
};`;
  return `const { App, TerraformStack } = require(${JSON.stringify(cdktf)});
${ALERT_SHAPES}
${build}
const cpu = process.cpuUsage();
const wall = process.hrtime.bigint();
const app = new App({ outdir: ${JSON.stringify(outdir)} });
const stack = new TerraformStack(app, 'bench');
start();
app.synth();
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({
  cpuMs: (used.user + used.system) / 1000,
  wallMs: Number(process.hrtime.bigint() - wall) / 1e6,
  rssMb: process.resourceUsage().maxRSS / 1024,
}));
`;
}

function runApp(scratch: string, node: string, kind: AppKind, n: number): Sample {
  const outdir = path.join(scratch, 'cdktf.out');
  rmSync(outdir, { recursive: true, force: true });
  const main = path.join(scratch, 'main.js');
  writeFileSync(main, appSource(kind, n, outdir));
  const r = spawnSync(node, [main], { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0)
    throw new Error(`the app of ${n} alerts failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  const line = r.stdout.trim().split('\n').pop()!;
  const measured = JSON.parse(line) as Omit<Sample, 'alerts'>;
  // The output must hold every alert: a fast synth that drops alerts is not a result.
  const json = JSON.parse(readFileSync(path.join(outdir, 'stacks', 'bench', 'cdk.tf.json'), 'utf8')) as {
    resource?: { networkcalc_alert?: object };
  };
  return { ...measured, alerts: Object.keys(json.resource?.networkcalc_alert ?? {}).length };
}

const LABELS: Record<AppKind, string> = {
  constructs: 'constructs',
  before: 'constructs, before',
  l1: 'L1 bindings only',
  batched: 'one element, no L1',
};

function main(): void {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-synth-'));
  try {
    const nodes = NODES.length ? NODES : [process.execPath];
    const version = (node: string) =>
      spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    console.log(
      `package: ${PACKAGE}${BEFORE ? `; before: ${BEFORE}` : ''}; ${REPS} interleaved rounds per size, median (min–max)\n`,
    );
    const rows: string[][] = [];
    const ratioRows: string[][] = [];
    const range = (values: number[], fmt: (v: number) => string) => {
      const v = [...values].sort((a, b) => a - b);
      return `${fmt(median(v))} (${fmt(v[0]!)}–${fmt(v[v.length - 1]!)})`;
    };
    for (const n of SIZES) {
      const samples = new Map<string, Sample[]>();
      const key = (node: string, kind: AppKind) => `${node}\0${kind}`;
      for (const node of nodes) for (const kind of KINDS) runApp(scratch, node, kind, Math.min(n, 100)); // warm the file cache
      for (let round = 0; round < REPS; round++) {
        for (const node of nodes) {
          for (const kind of KINDS) {
            const s = runApp(scratch, node, kind, n);
            if (s.alerts !== n) throw new Error(`${kind}: synthesized ${s.alerts} alerts, expected ${n}`);
            samples.set(key(node, kind), [...(samples.get(key(node, kind)) ?? []), s]);
          }
        }
      }
      for (const node of nodes) {
        const v = version(node);
        for (const kind of KINDS) {
          const got = samples.get(key(node, kind))!;
          rows.push([
            v,
            LABELS[kind],
            n.toLocaleString('en-US'),
            range(
              got.map((s) => s.cpuMs),
              fmtMs,
            ),
            range(
              got.map((s) => s.wallMs),
              fmtMs,
            ),
            range(
              got.map((s) => s.rssMb),
              (x) => `${Math.round(x)} MiB`,
            ),
          ]);
        }
        const l1 = samples.get(key(node, 'l1'));
        if (!l1) continue;
        for (const kind of KINDS.filter((k) => k !== 'l1')) {
          const got = samples.get(key(node, kind))!;
          const ratio = (pick: (s: Sample) => number) =>
            range(
              got.map((s, i) => pick(s) / pick(l1[i]!)),
              (x) => x.toFixed(2),
            );
          ratioRows.push([
            v,
            `${LABELS[kind]} / L1`,
            n.toLocaleString('en-US'),
            ratio((s) => s.cpuMs),
            ratio((s) => s.rssMb),
          ]);
        }
      }
    }
    console.log(table(['Node', 'app', 'alerts', 'CPU, construct + synth', 'wall', 'peak RSS (process)'], rows));
    if (ratioRows.length) {
      console.log('\nRatios within each round:\n');
      console.log(table(['Node', 'ratio', 'alerts', 'CPU', 'peak RSS'], ratioRows));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();
