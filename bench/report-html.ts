/**
 * `ncalc report --html` at fleet scale: 1,000 accounts × 100 alerts (20 domains each: A, A,
 * MX, TXT comparisons and SPF validity, certificate expiry on 2 of them instead of the second
 * A), every 10th account drifted (an alert edited, one added by hand), every 25th with a
 * triggered alert, every 100th with its token refused. The built CLI against an in-process
 * emulator, a local DNS server and local TLS servers (test/helpers), --no-synth.
 *
 * Side by side, in rotating order per round: `drift --json` (the plan alone) beside
 * `report --html --no-preview`, and `preview --json` beside `report --html`: wall time, CPU,
 * peak RSS and the API requests of each. Then the page: its size, the time to build it from the
 * document in-process, and in headless Chromium (Debian's, through playwright-core) the time
 * from navigation to drawn (the page's `ncalc-ready` mark) and the part of it its own script takes (from
 * `ncalc-start`), and to sort and filter the table and open the first account.
 *
 *   npm run build && npx tsx bench/report-html.ts [--accounts 1000] [--rounds 3]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startEmulator, type EmulatorSeed, type RunningEmulator } from '../src/emulator';
import { TLS_PORT_ENV } from '../src/preview';
import { INLINE_JSON_LIMIT, reportHtml } from '../src/render/html/page';
import { startDnsServer, type RunningDns, type Zone } from '../test/helpers/dns-server';
import { SERVES, lifetimeCertificate, startTlsServers, type RunningTls } from '../test/helpers/tls-servers';
import { countRequests, fmtMs, median, runNcalc, table, type RunResult } from './support';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const ACCOUNTS = Number(flag('--accounts') ?? 1000);
const ROUNDS = Number(flag('--rounds') ?? 3);
const HOSTS = 20;
const CERT_HOSTS = 2;
const GROUPS = 10;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const acct = (i: number) => `a${String(i).padStart(4, '0')}`;
const tokenEnv = (i: number) => `${acct(i).toUpperCase()}_TOKEN`;
const token = (i: number) => `bench-${acct(i)}-secret-token`;
/** Host h of account i, under the wildcard certificate of its group. */
const host = (i: number, h: number) => `h${String(h).padStart(2, '0')}-${acct(i)}.g${i % GROUPS}.bench.test`;
const drifted = (i: number) => i % 10 === 3;
const triggered = (i: number) => i % 25 === 7;
const refused = (i: number) => i % 100 === 42;

/** The 100 alerts of account i (name → body with its host). */
function alertsOf(i: number): Array<{ name: string; host: string; body: Record<string, unknown> }> {
  const out: Array<{ name: string; host: string; body: Record<string, unknown> }> = [];
  for (let h = 0; h < HOSTS; h++) {
    const at = host(i, h);
    const add = (key: string, body: Record<string, unknown>) => out.push({ name: `${key} ${at}`, host: at, body });
    add('a', { type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: SERVES });
    if (h < CERT_HOSTS)
      add('cert', {
        type: 'Certificate (TLS)',
        subtype: null,
        filter: 'expires in (days)',
        filter_value: h ? '14' : '30',
      });
    else add('not-a', { type: 'DNS Record', subtype: 'A', filter: 'does not equal', filter_value: '192.0.2.99' });
    add('mx', { type: 'DNS Record', subtype: 'MX', filter: 'contains', filter_value: 'mx.' });
    add('txt', { type: 'DNS Record', subtype: 'TXT', filter: 'contains', filter_value: 'site-verification' });
    add('spf', { type: 'SPF Record', subtype: null, filter: 'validity', filter_value: null });
  }
  return out;
}

function seed(): EmulatorSeed {
  return {
    accounts: Array.from({ length: ACCOUNTS }, (_, i) => ({
      name: acct(i),
      user_id: i + 1,
      tokens: [{ access_token: token(i) }],
      domains: Array.from({ length: HOSTS }, (_, h) => ({ id: i * 100 + h + 1, domain: host(i, h) })),
      alerts: [
        ...alertsOf(i).map((a, k) => ({
          name: a.name,
          // The seed leaves out what an alert lacks (no subtype, no value) rather than null.
          ...Object.fromEntries(Object.entries(a.body).filter(([, v]) => v !== null)),
          // Drift: the first alert's value edited by hand.
          ...(drifted(i) && k === 0 ? { filter_value: '192.0.2.77' } : {}),
          ...(triggered(i) && k === 2
            ? { current_status: 'triggered', last_triggered_at: '2026-11-20T08:00:00Z' }
            : {}),
          target: a.host,
        })),
        ...(drifted(i)
          ? [
              {
                name: 'made by hand',
                type: 'DNS Record',
                subtype: 'A',
                filter: 'equals',
                filter_value: '192.0.2.5',
                target: host(i, 0),
              },
            ]
          : []),
      ],
    })) as EmulatorSeed['accounts'],
  };
}

function zone(): Zone {
  const z: Zone = {};
  for (let i = 0; i < ACCOUNTS; i++)
    for (let h = 0; h < HOSTS; h++)
      z[host(i, h)] = {
        A: [SERVES],
        MX: [{ exchange: `mx.${host(i, h)}`, priority: 10 }],
        TXT: ['v=spf1 ip4:192.0.2.0/24 -all', `site-verification=${i}-${h}`],
      };
  return z;
}

/** cdktf.out with one stack per account, each target named through a data source. */
function writeApp(dir: string): void {
  const manifest: Record<string, unknown> = {};
  for (let i = 0; i < ACCOUNTS; i++) {
    const name = acct(i);
    const data: Record<string, unknown> = {};
    for (let h = 0; h < HOSTS; h++) data[`d${h}`] = { name: host(i, h) };
    const alerts: Record<string, unknown> = {};
    alertsOf(i).forEach((a, k) => {
      const h = Number(/^h(\d+)/.exec(a.host)![1]);
      alerts[`Alert${k}`] = {
        name: a.name,
        ...a.body,
        target_type: 'domain',
        target_id: `\${data.networkcalc_domain.d${h}.id}`,
      };
    });
    const json = {
      provider: { networkcalc: [{ token_env: tokenEnv(i), ownership: 'exclusive' }] },
      resource: { networkcalc_alert: alerts },
      data: { networkcalc_domain: data },
      terraform: { required_providers: { networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' } } },
    };
    mkdirSync(path.join(dir, 'cdktf.out', 'stacks', name), { recursive: true });
    writeFileSync(path.join(dir, 'cdktf.out', 'stacks', name, 'cdk.tf.json'), JSON.stringify(json));
    manifest[name] = {
      name,
      constructPath: name,
      annotations: [],
      dependencies: [],
      synthesizedStackPath: `stacks/${name}/cdk.tf.json`,
      workingDirectory: `stacks/${name}`,
    };
  }
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: 'node main.js', output: 'cdktf.out' }),
  );
  writeFileSync(path.join(dir, 'cdktf.out', 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks: manifest }));
}

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;

async function browser(file: string, rounds: number): Promise<string[][]> {
  if (!existsSync(CHROMIUM)) return [[`(no ${CHROMIUM}: apt-get install chromium)`, '', '', '']];
  const profile = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const rows: string[][] = [];
  try {
    const ready: number[] = [];
    const own: number[] = [];
    const sort: number[] = [];
    const filter: number[] = [];
    const open: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      const mark = (name: string) =>
        page.evaluate(`performance.getEntriesByName('${name}')[0].startTime`) as Promise<number>;
      ready.push(await mark('ncalc-ready'));
      own.push((await mark('ncalc-ready')) - (await mark('ncalc-start')));
      // Each handler draws synchronously: the time of the click is the time to redraw.
      const timed = (code: string) =>
        page.evaluate(
          `(() => { const t = performance.now(); ${code}; return performance.now() - t; })()`,
        ) as Promise<number>;
      sort.push(await timed(`document.querySelector('th button[data-sort="firing"]').click()`));
      filter.push(
        await timed(
          `const f = document.getElementById('filter'); f.value = 'a09'; f.dispatchEvent(new Event('input'))`,
        ),
      );
      // The first account opened also reads every verdict of the fleet (parsed only then).
      open.push(
        (await page.evaluate(`new Promise((done) => {
          const t = performance.now();
          location.hash = '#account-3';
          const drawn = () => (document.querySelector('#details tr[data-state]') ? done(performance.now() - t) : requestAnimationFrame(drawn));
          drawn();
        })`)) as number,
      );
      await page.close();
    }
    rows.push(['navigation → drawn (ncalc-ready)', fmtMs(median(ready)), fmtMs(Math.max(...ready)), '≤ 1 s']);
    rows.push(['its script: start → drawn', fmtMs(median(own)), fmtMs(Math.max(...own)), '']);
    rows.push(['sort by firing (1,000 rows)', fmtMs(median(sort)), fmtMs(Math.max(...sort)), '']);
    rows.push(['filter "a09"', fmtMs(median(filter)), fmtMs(Math.max(...filter)), '']);
    rows.push(['open the first account (reads all verdicts)', fmtMs(median(open)), fmtMs(Math.max(...open)), '']);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return rows;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-report-'));
  let emu: RunningEmulator | undefined;
  let dns: RunningDns | undefined;
  let tls: RunningTls | undefined;
  const problems: string[] = [];
  try {
    emu = await startEmulator({ seed: seed() });
    dns = await startDnsServer(zone());
    // One wildcard certificate per group: lifetimes and ages so that expiries spread from expired to months.
    const certs: Record<string, ReturnType<typeof lifetimeCertificate>> = {};
    const shapes: Array<[number, number]> = [
      [47, 40],
      [90, 80],
      [90, 45],
      [200, 150],
      [398, 100],
      [47, 10],
      [90, 92],
      [30, 20],
      [60, 55],
      [100, 20],
    ];
    shapes.forEach(
      ([life, ago], j) => (certs[`*.g${j}.bench.test`] = lifetimeCertificate(`*.g${j}.bench.test`, life, ago)),
    );
    tls = await startTlsServers(certs);
    const dir = path.join(scratch, 'app');
    writeApp(dir);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NO_COLOR: '1',
      NETWORKCALC_BASE_URL: emu.url,
      [TLS_PORT_ENV]: String(tls.port),
      ...Object.fromEntries(
        Array.from({ length: ACCOUNTS }, (_, i) => [tokenEnv(i), refused(i) ? `refused-${acct(i)}` : token(i)]),
      ),
    };
    const lookupFlags = ['--resolver', dns.address, '--lookup-concurrency', '64', '--lookup-timeout', '5000'];
    const commands: Record<string, string[]> = {
      'drift --json': ['drift', '--json'],
      'report --html --no-preview': ['report', '--html', path.join(scratch, 'plain.html'), '--no-preview'],
      'preview --json': ['preview', '--json', ...lookupFlags],
      'report --html': ['report', '--html', path.join(scratch, 'report.html'), ...lookupFlags],
    };
    const runs: Record<string, RunResult[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    const requests: Record<string, string> = {};
    const names = Object.keys(commands);
    for (let r = 0; r < ROUNDS; r++) {
      // Rotating order: no command always runs first (cold) or last.
      for (let k = 0; k < names.length; k++) {
        const label = names[(k + r) % names.length]!;
        await emu.control.clearRequests();
        const res = await runNcalc([...commands[label]!, '-C', dir, '--no-synth'], env, scratch, 900_000);
        const c = countRequests(await emu.control.requests());
        requests[label] = `${c.listAlerts} / ${c.listDomains} / ${c.post + c.patch + c.del + c.other}`;
        // Exit 1: the refused accounts; anything else is a failure of the run.
        if (res.code !== 1) problems.push(`${label}: exit ${res.code}: ${res.stderr.slice(0, 300)}`);
        if (!c.listAlerts) throw new Error(`${label} listed nothing (exit ${res.code}): ${res.stderr.slice(0, 500)}`);
        runs[label]!.push(res);
        console.error(`round ${r + 1}: ${label} ${fmtMs(res.ms)}`);
      }
    }
    const med = (label: string, f: (x: RunResult) => number) => median(runs[label]!.map(f));
    const rows = names.map((label) => [
      `\`ncalc ${label}\``,
      fmtMs(med(label, (x) => x.ms)),
      fmtMs(med(label, (x) => x.cpuMs)),
      `${med(label, (x) => x.rssMb).toFixed(0)} MiB`,
      requests[label]!,
    ]);
    const extra = (a: string, b: string) => `${((med(a, (x) => x.ms) / med(b, (x) => x.ms) - 1) * 100).toFixed(1)} %`;
    console.log(`\n${ACCOUNTS} accounts × 100 alerts, ${ROUNDS} rounds, medians:\n`);
    console.log(table(['command', 'wall', 'CPU', 'peak RSS', 'API: alerts lists / domains lists / other'], rows));
    console.log(
      `\nreport --html --no-preview against drift --json: ${extra('report --html --no-preview', 'drift --json')} wall`,
    );
    console.log(`report --html against preview --json: ${extra('report --html', 'preview --json')} wall`);

    // The page: its size, and the time to build it from the document.
    const file = path.join(scratch, 'report.html');
    const html = readFileSync(file, 'utf8');
    const docRun = await runNcalc(['report', '--json', '-C', dir, '--no-synth', ...lookupFlags], env, scratch, 900_000);
    const doc = JSON.parse(docRun.stdout) as Record<string, unknown>;
    const builds: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = process.hrtime.bigint();
      reportHtml(doc);
      builds.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    console.log(
      `\npage: ${mb(statSync(file).size)} (limit 2 MB), ${html.includes('data-encoding="gzip-base64"') ? 'gzip+base64' : 'inline JSON'}; document ${mb(JSON.stringify(doc).length)} of JSON (inlined up to ${mb(INLINE_JSON_LIMIT)}); reportHtml(doc) in-process ${fmtMs(median(builds))}`,
    );
    console.log('\nChromium (median, max of 3 loads):\n');
    console.log(table(['in the browser', 'median', 'max', 'goal'], await browser(file, 3)));
    if (statSync(file).size > 2_000_000) problems.push(`the page is ${mb(statSync(file).size)}, over 2 MB`);
  } finally {
    await Promise.all([emu?.close(), dns?.close(), tls?.close()]);
    rmSync(scratch, { recursive: true, force: true });
  }
  if (problems.length) {
    console.log(`\nProblems:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    process.exitCode = 1;
  }
}

void main();
