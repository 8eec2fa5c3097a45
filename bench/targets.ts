/**
 * Declared targets from zero: ACCOUNTS empty accounts, each declaring DOMAINS domains with
 * SUBDOMAINS subdomains each (and one alert on each domain), planned and applied in process
 * (planAll and applyAll of this checkout, the emulator over HTTP on 127.0.0.1) with the
 * emulator strict for targets: creates answer without the id, and RATE of the target creates
 * lose their answer after the write (seeded). Measured: wall and CPU of plan and apply, and the
 * requests by kind against the bound derived per account:
 *
 *   plan:  1 alerts list + 1 domains list;
 *   apply: 1 POST per target (D + D·S; a lost answer is proven by a list, never re-sent, since
 *          the emulator's drop commits first), at most 1 domains list per target create (no
 *          answer carries an id; the creates of an account share them, so far fewer are made),
 *          D alert POSTs, 1 alerts list after the writes.
 *
 *   ACCOUNTS=1000 DOMAINS=10 SUBDOMAINS=3 npx tsx bench/targets.ts
 */
import { NetworkCalcClient } from '../src/client';
import { startEmulator } from '../src/emulator';
import { applyAll } from '../src/engine/apply';
import { planAll, prepare } from '../src/engine/plan-all';
import type { Credentials } from '../src/plan/types';
import type { Json } from '../src/support/json';
import { fmtMs, table } from './support';

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 1000);
const DOMAINS = Number(process.env.DOMAINS ?? 10);
const SUBDOMAINS = Number(process.env.SUBDOMAINS ?? 3);
const RATE = Number(process.env.RATE ?? 0.1);
/** OMIT=0: creates answer with the id (lists then only prove the lost ones). */
const OMIT = process.env.OMIT !== '0';
const name = (i: number) => `acct${String(i).padStart(4, '0')}`;
const tokenEnv = (i: number) => `${name(i).toUpperCase()}_TOKEN`;

function stackOf(i: number): { name: string; json: Json } {
  const domains: Record<string, Json> = {};
  const subdomains: Record<string, Json> = {};
  const alerts: Record<string, Json> = {};
  for (let d = 0; d < DOMAINS; d++) {
    domains[`d${d}`] = { name: `site${d}.example` };
    for (let s = 0; s < SUBDOMAINS; s++)
      subdomains[`d${d}s${s}`] = { domain_id: `\${networkcalc_domain.d${d}.id}`, prefix: `p${s}` };
    alerts[`a${d}`] = {
      name: `site${d} spf`,
      type: 'SPF Record',
      filter: 'validity',
      target_type: 'domain',
      target_id: `\${networkcalc_domain.d${d}.id}`,
    };
  }
  return {
    name: name(i),
    json: {
      provider: { networkcalc: [{ token_env: tokenEnv(i) }] },
      resource: { networkcalc_domain: domains, networkcalc_subdomain: subdomains, networkcalc_alert: alerts },
    },
  };
}

async function main(): Promise<void> {
  const emu = await startEmulator({ targetCreateOmitsId: OMIT, randomSeed: 7, requestLogLimit: 1000 });
  try {
    const ids = Array.from({ length: ACCOUNTS }, (_, i) => i + 1);
    await emu.control.seed({
      accounts: ids.map((i) => ({ name: name(i), user_id: i, tokens: [{ access_token: `t-${name(i)}` }] })),
    });
    if (RATE > 0)
      await emu.control.addFault({
        kind: 'drop',
        phase: 'after',
        rate: RATE,
        match: { method: 'POST', path: '/api/domains' },
      });
    const env = { NETWORKCALC_BASE_URL: emu.url, ...Object.fromEntries(ids.map((i) => [tokenEnv(i), `t-${name(i)}`])) };
    const factory = (c: Credentials) => new NetworkCalcClient({ baseUrl: c.baseUrl, token: c.token });

    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const plans = await planAll(prepare(ids.map(stackOf), env), factory, { triggers: false });
    const t1 = performance.now();
    const cpu1 = process.cpuUsage(cpu0);
    const counts = async (method: string, path: string, prefix = false) =>
      emu.control.countRequests(prefix ? { method, pathPrefix: path } : { method, path });
    const planLists = (await counts('GET', '/api/domains')) + (await counts('GET', '/api/alerts', true));
    await emu.control.clearRequests();

    const report = await applyAll(plans, factory, { parallelism: 64 });
    const t2 = performance.now();
    const cpu2 = process.cpuUsage(cpu0);

    const targets = DOMAINS + DOMAINS * SUBDOMAINS;
    // Target creates whose answer the drop fault took (status 0 in the log).
    const lost = async () =>
      (await emu.control.requestCounts({ method: 'POST', pathPrefix: '/api/domains' })).statuses['0'] ?? 0;
    const measured = {
      targetPosts: await counts('POST', '/api/domains', true),
      domainLists: await counts('GET', '/api/domains'),
      alertPosts: await counts('POST', '/api/alerts', true),
      alertLists: await counts('GET', '/api/alerts', true),
    };
    const bound = {
      targetPosts: targets * ACCOUNTS,
      // Without ids every create lists; with them, only those whose answer was lost.
      domainLists: OMIT ? targets * ACCOUNTS : await lost(),
      alertPosts: DOMAINS * ACCOUNTS,
      alertLists: ACCOUNTS,
    };
    const state = await emu.control.state();
    const wrong = state.accounts.filter(
      (a) =>
        a.domains.length !== DOMAINS || a.subdomains.length !== DOMAINS * SUBDOMAINS || a.alerts.length !== DOMAINS,
    ).length;
    const failed = [...report.values()].filter(
      (o) => o.results.some((r) => r.status !== 'ok') || o.targetResults?.some((r) => r.status !== 'ok'),
    ).length;
    const ms = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

    console.log(
      `${ACCOUNTS} accounts × ${DOMAINS} domains × ${SUBDOMAINS} subdomains (+${DOMAINS} alerts each), ${RATE * 100}% of target creates lost after the write, creates answer ${OMIT ? 'without' : 'with'} the id\n`,
    );
    console.log(
      table(
        ['step', 'wall', 'CPU (this process, emulator included)'],
        [
          ['plan', fmtMs(t1 - t0), fmtMs(ms(cpu1))],
          ['apply', fmtMs(t2 - t1), fmtMs(ms(cpu2) - ms(cpu1))],
        ],
      ),
    );
    console.log();
    console.log(
      table(
        ['requests', 'measured', 'bound'],
        [
          ['plan: lists (alerts + domains)', String(planLists), String(2 * ACCOUNTS)],
          ...Object.entries(measured).map(([k, v]) => [
            `apply: ${k}`,
            String(v),
            String(bound[k as keyof typeof bound]),
          ]),
        ],
      ),
    );
    console.log(`\naccounts not as declared: ${wrong}; accounts with a failed change: ${failed}`);
    if (
      wrong ||
      failed ||
      planLists > 2 * ACCOUNTS ||
      Object.entries(measured).some(([k, v]) => v > bound[k as keyof typeof bound])
    )
      process.exitCode = 1;
  } finally {
    await emu.close();
  }
}

void main();
