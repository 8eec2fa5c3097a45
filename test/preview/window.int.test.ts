/**
 * A fleet's preview evaluates its alerts through a window, not all at once: at 1,000 × 100 the
 * state of 100,000 pending evaluations was about 100 MiB of the report's peak. Real lookups
 * against a local DNS server; the count of lookups begun and not yet answered is read off the
 * real `Lookups` of the run.
 */
import { canonicalAlert, type AlertSpec } from '../../src/model';
import { EVALUATION_WINDOW, Lookups, previewPlans, type DnsKind } from '../../src/preview';
import type { AccountPlan } from '../../src/plan/account-plan';
import type { DeclaredAlert } from '../../src/plan/types';
import { startDnsServer, type RunningDns } from '../helpers/dns-server';

let dns: RunningDns;
beforeAll(async () => {
  // Every name NXDOMAIN but one, answered a little late so that evaluations wait on it.
  dns = await startDnsServer({ 'www.ok.test': { A: ['192.0.2.10'] } }, { delayMs: 5 });
});
afterAll(() => dns?.close());

/** The run's lookups, counting DNS lookups asked for and not yet answered. */
class CountingLookups extends Lookups {
  pending = 0;
  most = 0;
  override async dns(name: string, kind: DnsKind) {
    this.pending++;
    this.most = Math.max(this.most, this.pending);
    try {
      return await super.dns(name, kind);
    } finally {
      this.pending--;
    }
  }
}

function accountPlan(label: string, hosts: number, status: 'ok' | 'error' = 'ok'): AccountPlan {
  const declared: DeclaredAlert[] = Array.from({ length: hosts }, (_, i) => {
    const spec: AlertSpec = canonicalAlert({
      name: `${label} a ${i}`,
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '192.0.2.10',
      target_type: 'domain',
      target_id: i + 1,
    });
    return { stack: label, logicalId: `a${i}`, path: `${label}/a${i}`, scopeKey: label, spec, target: { kind: 'id' } };
  }) as unknown as DeclaredAlert[];
  const domains = Array.from({ length: hosts }, (_, i) => ({
    id: i + 1,
    domain: i === 0 ? 'www.ok.test' : `h${i}.${label}.test`,
    subdomains: [],
  }));
  return {
    account: { label } as AccountPlan['account'],
    status,
    error: status === 'ok' ? null : { code: 'NOT_AUTHORIZED', message: 'no', retryable: false },
    changes: [],
    unchanged: hosts,
    warnings: [],
    triggers: [],
    live: [],
    domains,
    declared,
  } as unknown as AccountPlan;
}

test('at most EVALUATION_WINDOW alerts wait at once; every verdict in its account, in declared order', async () => {
  const per = Math.ceil((EVALUATION_WINDOW * 1.5) / 2);
  const plans = [accountPlan('one', per), accountPlan('down', 10, 'error'), accountPlan('two', per)];
  const lookups = new CountingLookups({ resolver: dns.address, timeoutMs: 5000, concurrency: 256 });
  const report = await previewPlans(plans, lookups);
  // Each evaluation asks for one lookup at once and waits on it: the lookups asked for and not
  // answered are the evaluations in flight. Without the window all 3,072 began together.
  expect(lookups.most).toBeLessThanOrEqual(EVALUATION_WINDOW);
  expect(lookups.most).toBeGreaterThan(256);
  expect(report.accounts.map((a) => [a.plan.account.label, a.alerts.length])).toEqual([
    ['one', per],
    ['down', 0],
    ['two', per],
  ]);
  for (const a of [report.accounts[0]!, report.accounts[2]!]) {
    expect(a.alerts.map((v) => v.name)).toEqual(a.plan.declared!.map((d) => d.spec.name));
    expect(a.alerts[0]).toMatchObject({ state: 'fires', host: 'www.ok.test', plan: 'unchanged' });
    expect(a.alerts[1]).toMatchObject({ state: 'unknown', reason: expect.stringMatching(/NXDOMAIN/) });
  }
});
