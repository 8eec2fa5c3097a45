/**
 * The data of `ncalc report`: one document for every account, read from the same plan value
 * (and preview) as the text, JSON and markdown renderers, with their JSON pieces (drift kinds,
 * triggered alerts, coverage gaps, preview verdicts). `ncalc report --json` prints it; the HTML
 * page embeds it and draws itself from it. Its format is in docs/cli.md.
 */
import type { AccountPlan } from '../../plan/account-plan';
import type { Change } from '../../plan/types';
import { coverageGaps, coverageTotals } from '../../plan/coverage';
import { DAY_MS, lifetimeDays, renewalDaysLeft } from '../../model/renewal';
import { ALERT_TYPE_MODULES } from '../../model/types';
import { previewTotals, type AlertPreview, type PreviewReport } from '../../preview/preview';
import { FORMAT_VERSION } from '../json';
import { gapsJson } from '../coverage';
import { DRIFT_WORDS } from '../text';
import { accountRows, driftKind, totals, type AccountRow } from '../totals';
import { triggeredAlerts, triggeredJson } from '../triggered';

/** The certificate windows the summary counts: certificates expiring within this many days. */
export const EXPIRY_WINDOWS = [14, 30] as const;

export type ReportStatus = 'in_sync' | 'drift' | 'failed';

export interface ReportOptions {
  /** When the report was made (the preview's time when there is one). */
  now: Date;
  /** Top-level fields added as they are (the shard of a sharded run). */
  extra?: Record<string, unknown>;
}

/** A certificate read by the preview, with the alerts on its host. */
interface CertificateEntry {
  host: string;
  subject: unknown;
  not_before: string;
  not_after: string;
  lifetime_days: number;
  /** Days from the report's time to notAfter (negative: expired). */
  days_left: number;
  /** Days from the report's time to the renewal at a third of the lifetime left. */
  renewal_in_days: number;
  alerts: Array<{ account: number; name: string; threshold: number | null; state: string }>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function changeJson(c: Change): Record<string, unknown> {
  const kind = driftKind(c);
  return {
    action: c.action,
    reason: c.reason,
    drift: kind,
    explain: DRIFT_WORDS[kind],
    name: c.name,
    id: c.id,
    stack: c.stack,
    path: c.path,
    fields: c.fields.map((f) => ({ field: f.field, before: f.before, after: f.after })),
  };
}

/**
 * One verdict, as the page shows it: what was observed, or why it could not be evaluated, and
 * the renewal warning only where there is one. (The alert's settings are in `preview --json`;
 * at 100,000 alerts they would be a third of the report.)
 */
function previewJson(a: AlertPreview): Record<string, unknown> {
  return {
    name: a.name,
    plan: a.plan,
    host: a.host,
    state: a.state,
    ...(a.state === 'unknown' ? { reason: a.reason } : { observed: a.observed }),
    ...(a.warning ? { warning: a.warning } : {}),
  };
}

/** The certificates the preview read, each host once, soonest expiry first. */
function certificates(preview: PreviewReport, indexOf: Map<AccountPlan, number>): CertificateEntry[] {
  const byHost = new Map<string, CertificateEntry>();
  const now = preview.at.getTime();
  for (const { plan, alerts } of preview.accounts) {
    for (const a of alerts) {
      const d = a.data;
      if (
        !ALERT_TYPE_MODULES[a.alert.type].servesCertificate ||
        typeof d.not_after !== 'string' ||
        typeof d.not_before !== 'string'
      )
        continue;
      const host = a.host!;
      let entry = byHost.get(host);
      if (!entry) {
        const notBefore = new Date(d.not_before);
        const notAfter = new Date(d.not_after);
        const lifetime = lifetimeDays(notBefore, notAfter);
        const left = (notAfter.getTime() - now) / DAY_MS;
        entry = {
          host,
          subject: d.subject,
          not_before: d.not_before,
          not_after: d.not_after,
          lifetime_days: round2(lifetime),
          days_left: round2(left),
          renewal_in_days: round2(left - renewalDaysLeft(lifetime)),
          alerts: [],
        };
        byHost.set(host, entry);
      }
      entry.alerts.push({
        account: indexOf.get(plan)!,
        name: a.name,
        threshold: a.alert.filter === 'expires in (days)' ? Number(a.alert.filter_value) : null,
        state: a.state,
      });
    }
  }
  return [...byHost.values()].sort((x, y) => x.days_left - y.days_left || (x.host < y.host ? -1 : 1));
}

/** Firing alerts of one account by type (`Certificate (TLS)`, `DNS Record`, …), each alert once. */
function firingByKind(p: AccountPlan, alerts: readonly AlertPreview[] | undefined): Record<string, number> {
  const kinds = new Map<string, string>();
  for (const a of triggeredAlerts(p)) kinds.set(a.name, a.type);
  for (const a of alerts ?? []) if (a.state === 'fires') kinds.set(a.name, a.alert.type);
  const out: Record<string, number> = {};
  for (const kind of kinds.values()) out[kind] = (out[kind] ?? 0) + 1;
  return out;
}

/** Each account's soonest certificate expiry among the hosts its alerts watch (null: none read). */
function soonestByAccount(certs: readonly CertificateEntry[] | null): Map<number, { host: string; days_left: number }> {
  const soonest = new Map<number, { host: string; days_left: number }>();
  // Soonest first: the first host seen for an account is its soonest.
  for (const c of certs ?? [])
    for (const a of c.alerts)
      if (!soonest.has(a.account)) soonest.set(a.account, { host: c.host, days_left: c.days_left });
  return soonest;
}

/** What a failed account shows: nothing was planned or evaluated, so every figure is null, never 0. */
const NOT_EVALUATED = {
  create: null,
  update: null,
  delete: null,
  unchanged: null,
  firing: null,
  fires: null,
  unknown: null,
  coverage_gaps: null,
  soonest_expiry: null,
  firing_by_kind: null,
} as const;

function accountJson(
  p: AccountPlan,
  row: AccountRow,
  alerts: readonly AlertPreview[] | undefined,
  soonest: { host: string; days_left: number } | null,
): Record<string, unknown> {
  const status: ReportStatus = row.status === 'failed' ? 'failed' : row.status === 'drift' ? 'drift' : 'in_sync';
  const head = {
    label: p.account.label,
    key: p.account.key,
    base_url: p.account.baseUrl,
    identity: p.account.identity,
    stacks: row.stacks,
    status,
    error: row.reason,
  };
  if (status === 'failed')
    return {
      ...head,
      summary: NOT_EVALUATED,
      warnings: p.warnings.map((w) => w.message),
      changes: null,
      triggered: triggeredJson(p),
      coverage_gaps: null,
      preview: null,
    };
  const byKind = firingByKind(p, alerts);
  return {
    ...head,
    summary: {
      create: row.create,
      update: row.update,
      delete: row.delete,
      unchanged: p.unchanged,
      // Firing now: live alerts the service says are triggered, and alerts the preview finds
      // firing; an alert in both is counted once.
      firing: Object.values(byKind).reduce((a, b) => a + b, 0),
      fires: alerts ? alerts.filter((a) => a.state === 'fires').length : null,
      unknown: alerts ? alerts.filter((a) => a.state === 'unknown').length : null,
      coverage_gaps: coverageGaps(p.coverage).length,
      soonest_expiry: soonest,
      firing_by_kind: byKind,
    },
    warnings: p.warnings.map((w) => w.message),
    changes: p.changes.map(changeJson),
    triggered: triggeredJson(p),
    coverage_gaps: gapsJson(p.coverage),
    preview: alerts ? alerts.map(previewJson) : null,
  };
}

/**
 * The certificate figures of the summary. A window's count is null ("unknown") when certificate
 * alerts were asked about but none could be evaluated: a 0 would say no certificate runs out.
 * `notEvaluated`: the certificate alerts whose verdict is unknown.
 */
export function certificateFigures(
  certs: ReadonlyArray<{ days_left: number }>,
  notEvaluated: number,
): Record<string, unknown> {
  const unknown = certs.length === 0 && notEvaluated > 0;
  return {
    hosts: certs.length,
    ...Object.fromEntries(
      EXPIRY_WINDOWS.map((d) => [`expiring_${d}`, unknown ? null : certs.filter((c) => c.days_left <= d).length]),
    ),
    not_evaluated: notEvaluated,
  };
}

function certificateSummary(preview: PreviewReport, certs: readonly CertificateEntry[]): Record<string, unknown> {
  let notEvaluated = 0;
  for (const { alerts } of preview.accounts)
    for (const a of alerts) if (a.alert.type === 'Certificate (TLS)' && a.state === 'unknown') notEvaluated++;
  return certificateFigures(certs, notEvaluated);
}

/**
 * The report document. `preview`: the preview of the same plans (null with `--no-preview`):
 * verdicts, certificates and what fires now come from it. A failed account's figures are null
 * (not evaluated), and the run's figures say how many accounts and alerts they leave out.
 */
export function reportDocument(
  plans: readonly AccountPlan[],
  preview: PreviewReport | null,
  options: ReportOptions,
): Record<string, unknown> {
  const rows = accountRows('drift', plans);
  const indexOf = new Map(plans.map((p, i) => [p, i]));
  const previewOf = new Map(preview?.accounts.map((a) => [a.plan, a.alerts]) ?? []);
  const t = totals(plans);
  const certs = preview ? certificates(preview, indexOf) : null;
  const soonest = soonestByAccount(certs);
  const accounts = plans.map((p, i) => accountJson(p, rows[i]!, previewOf.get(p), soonest.get(i) ?? null));
  const count = (s: ReportStatus) => accounts.filter((a) => a.status === s).length;
  const pt = preview ? previewTotals(preview) : null;
  const firingByKindAll: Record<string, number> = {};
  let firing = 0;
  for (const a of accounts) {
    const summary = a.summary as { firing: number | null; firing_by_kind: Record<string, number> | null };
    firing += summary.firing ?? 0;
    for (const [k, n] of Object.entries(summary.firing_by_kind ?? {}))
      firingByKindAll[k] = (firingByKindAll[k] ?? 0) + n;
  }
  // Nothing evaluated (every verdict unknown) and nothing the service says is triggered: unknown, not 0.
  const firingUnknown = pt !== null && pt.alerts > 0 && pt.unknown === pt.alerts && firing === 0;
  return {
    format_version: FORMAT_VERSION,
    command: 'report',
    generated_at: options.now.toISOString(),
    ...options.extra,
    preview: preview ? { resolver: preview.resolver, evaluated_at: preview.at.toISOString() } : null,
    summary: {
      accounts: plans.length,
      in_sync: count('in_sync'),
      drift: count('drift'),
      failed: count('failed'),
      create: t.create,
      update: t.update,
      delete: t.delete,
      unchanged: t.unchanged,
      firing: firingUnknown ? null : firing,
      firing_by_kind: firingByKindAll,
      // Alerts whose state now is not known: verdicts that could not be evaluated.
      firing_not_evaluated: pt?.unknown ?? 0,
      preview: pt
        ? {
            alerts: pt.alerts,
            fires: pt.fires,
            quiet: pt.quiet,
            unknown: pt.unknown,
            renewal_warnings: pt.warnings,
            // Failed accounts: their alerts were not evaluated and are not among `alerts`.
            accounts_not_evaluated: count('failed'),
          }
        : null,
      certificates: preview && certs ? certificateSummary(preview, certs) : null,
      coverage_gaps: coverageTotals(plans.map((p) => p.coverage)).gaps,
    },
    accounts,
    certificates: certs,
  };
}
