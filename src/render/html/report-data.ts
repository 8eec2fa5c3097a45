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
import { accountRows, driftKind, totals } from '../totals';
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

/**
 * The report document. `preview`: the preview of the same plans (null with `--no-preview`):
 * verdicts, certificates and what fires now come from it.
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
  let firing = 0;
  const accounts = plans.map((p, i) => {
    const row = rows[i]!;
    const alerts = previewOf.get(p);
    const gaps = coverageGaps(p.coverage).length;
    // Firing now: live alerts the service says are triggered, and alerts the preview finds
    // firing; an alert in both is counted once.
    const names = new Set(triggeredAlerts(p).map((a) => a.name));
    for (const a of alerts ?? []) if (a.state === 'fires') names.add(a.name);
    firing += names.size;
    const status: ReportStatus = row.status === 'failed' ? 'failed' : row.status === 'drift' ? 'drift' : 'in_sync';
    return {
      label: p.account.label,
      base_url: p.account.baseUrl,
      identity: p.account.identity,
      stacks: row.stacks,
      status,
      error: row.reason,
      summary: {
        create: row.create,
        update: row.update,
        delete: row.delete,
        unchanged: p.unchanged,
        firing: names.size,
        fires: alerts ? alerts.filter((a) => a.state === 'fires').length : null,
        unknown: alerts ? alerts.filter((a) => a.state === 'unknown').length : null,
        coverage_gaps: gaps,
      },
      warnings: p.warnings.map((w) => w.message),
      changes: p.changes.map(changeJson),
      triggered: triggeredJson(p),
      coverage_gaps: gapsJson(p.coverage),
      preview: alerts ? alerts.map(previewJson) : null,
    };
  });
  const count = (s: ReportStatus) => accounts.filter((a) => a.status === s).length;
  const pt = preview ? previewTotals(preview) : null;
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
      firing,
      preview: pt
        ? { alerts: pt.alerts, fires: pt.fires, quiet: pt.quiet, unknown: pt.unknown, renewal_warnings: pt.warnings }
        : null,
      certificates: certs
        ? {
            hosts: certs.length,
            ...Object.fromEntries(
              EXPIRY_WINDOWS.map((d) => [`expiring_${d}`, certs.filter((c) => c.days_left <= d).length]),
            ),
          }
        : null,
      coverage_gaps: coverageTotals(plans.map((p) => p.coverage)).gaps,
    },
    accounts,
    certificates: certs,
  };
}
