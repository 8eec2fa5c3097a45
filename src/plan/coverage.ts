/**
 * Alert policies in `ncalc`: read strictly from the synthesized JSON, expanded when an account
 * is planned (from the domains list the plan fetches anyway), and the coverage they report.
 * The rules themselves (selection, generated names, "the same check") are in src/model/policy.
 */
import { normalizeHostName, type AlertSpec, type LiveAlert } from '../model';
import { problemText, type Problem } from '../model/problems';
import {
  POLICY_DOCUMENT_KEY,
  checkAlert as alertOfCheck,
  checkKey,
  parsePolicyDocument,
  policyNameProblems,
  selectsHost,
  type PolicyCheckSpec,
  type PolicyMode,
  type PolicyTargets,
} from '../model/policy';
import { jsonKind, jsonPath } from '../support/describe';
import { isObject, type Json } from '../support/json';
import type { ApiDomain, Change, DeclaredAlert, Scope } from './types';

/** A policy of the app, read from a stack's `//.networkcalc_alert_policies`. */
export interface DeclaredPolicy {
  stack: string;
  logicalId: string;
  /** Construct path (`main/Baseline`), or `<stack>/<logicalId>` when the JSON carries none. */
  path: string;
  scopeKey: string;
  mode: PolicyMode;
  targets: PolicyTargets;
  /** Canonical and valid, labels unique. */
  checks: PolicyCheckSpec[];
}

/**
 * The policies of one stack, read as strictly as its blocks: a part of the wrong shape, an
 * unknown attribute, an invalid check or pattern is a problem naming the JSON path, never
 * read as "no policy". `scopeOf` resolves the `provider` of a policy (and reports one that
 * is not configured). Strings here are not Terraform templates: Terraform ignores `//`.
 */
export function readPolicies(
  stack: string,
  json: Json,
  scopeOf: (where: string, provider: unknown) => Scope | null,
  problems: Problem[],
): DeclaredPolicy[] {
  const at = (where: string, message: string, field: string | null = null, value?: unknown): Problem => ({
    path: where,
    field,
    ...(value !== undefined ? { value } : {}),
    message,
  });
  const comment = json['//'];
  if (!isObject(comment) || comment[POLICY_DOCUMENT_KEY] === undefined) return [];
  const group = comment[POLICY_DOCUMENT_KEY];
  if (!isObject(group)) {
    problems.push(
      at(
        `stack ${stack}`,
        `//.${jsonPath(POLICY_DOCUMENT_KEY)} is ${jsonKind(group)}; expected an object of policies keyed by logical id`,
      ),
    );
    return [];
  }
  const out: DeclaredPolicy[] = [];
  for (const [logicalId, body] of Object.entries(group)) {
    const fallback = `${stack}/${logicalId}`;
    if (!isObject(body)) {
      problems.push(
        at(
          `stack ${stack}`,
          `//.${jsonPath(POLICY_DOCUMENT_KEY, logicalId)} is ${jsonKind(body)}; expected an object (a policy)`,
        ),
      );
      continue;
    }
    const path = typeof body.path === 'string' && body.path.trim() !== '' ? body.path : fallback;
    const where = `stack ${stack}, policy ${path === fallback ? logicalId : path}`;
    const before = problems.length;
    if (body.path !== undefined && typeof body.path !== 'string')
      problems.push(at(where, `path is ${jsonKind(body.path)}; expected a string`, 'path', body.path));
    if (body.provider !== undefined && typeof body.provider !== 'string')
      problems.push(
        at(
          where,
          `provider is ${jsonKind(body.provider)}; expected a string such as "networkcalc.prod"`,
          'provider',
          body.provider,
        ),
      );
    const scope = scopeOf(where, body.provider);
    const read = parsePolicyDocument(body, {
      ownershipPrefix: scope?.ownership === 'prefix' ? scope.prefix : null,
      account: `provider ${scope?.providerKey ?? 'networkcalc'}`,
    });
    // The place in the policy (`checks[0]`) stays in the line; the field names it in full.
    for (const p of read.problems)
      problems.push({ ...p, path: where, field: p.path ? `${p.path}.${p.field}` : p.field, message: problemText(p) });
    if (problems.length > before || !scope || !read.policy) continue;
    const { mode, targets, checks } = read.policy;
    out.push({ stack, logicalId, path, scopeKey: scope.key, mode, targets, checks: [...checks] });
  }
  return out;
}

/**
 * The checks that span policies and alerts, once everything is read: labels of generate
 * policies are unique per scope; no declared alert is named like an alert a policy generates.
 */
export function policyProblems(policies: readonly DeclaredPolicy[], alerts: readonly DeclaredAlert[]): Problem[] {
  const problems: Problem[] = [];
  for (const scopeKey of new Set(policies.map((p) => p.scopeKey))) {
    const outlines = policies
      .filter((p) => p.scopeKey === scopeKey)
      .map((p) => ({ path: p.path, mode: p.mode, targets: p.targets, labels: p.checks.map((c) => c.label) }));
    const named = alerts.filter((a) => a.scopeKey === scopeKey).map((a) => ({ path: a.path, name: a.spec.name }));
    for (const x of policyNameProblems(outlines, named)) problems.push({ field: null, message: x.message });
  }
  return problems;
}

// ---- expansion at plan time ----

/** A domain or subdomain of the account, as the Domains API listed it. */
export interface CoverageTarget {
  targetType: 'domain' | 'subdomain';
  targetId: number;
  /** Canonical host name. */
  host: string;
}

/** Every domain of the list followed by its subdomains. */
function targetsOf(domains: readonly ApiDomain[]): CoverageTarget[] {
  const out: CoverageTarget[] = [];
  for (const d of domains) {
    out.push({ targetType: 'domain', targetId: d.id, host: normalizeHostName(d.domain) });
    for (const s of d.subdomains)
      out.push({ targetType: 'subdomain', targetId: s.id, host: normalizeHostName(s.subdomain) });
  }
  return out;
}

/** `covered`: a live alert satisfies the check and still will after apply. `pending`: apply makes one. `gap`: none will. */
export type CoverageStatus = 'covered' | 'pending' | 'gap';

export interface CoverageCell {
  status: CoverageStatus;
  /** Name of an alert that satisfies the check (after apply, else now); null for a gap. */
  alert: string | null;
}

export interface CoverageRow extends CoverageTarget {
  /** Index-aligned with the policy's checks. */
  cells: CoverageCell[];
}

export interface PolicyCoverage {
  path: string;
  stack: string;
  /** `networkcalc` or `networkcalc.<alias>`. */
  provider: string;
  mode: PolicyMode;
  targets: PolicyTargets;
  checks: PolicyCheckSpec[];
  rows: CoverageRow[];
}

/** What an account's policies cover, as planned. */
export interface CoverageReport {
  policies: PolicyCoverage[];
}

export interface Expansion {
  /** The alerts generate policies add to the declared ones (target ids resolved). */
  alerts: DeclaredAlert[];
  /** The coverage once the account's changes are planned; undefined for destroy. */
  report(
    live: readonly LiveAlert[],
    changes: readonly Change[],
    mode?: 'converge' | 'destroy',
  ): CoverageReport | undefined;
}

/**
 * Expands an account's policies against its domains list: every generate policy declares one
 * alert per selected target and check, named `<label> · <host>`, unless a declared alert
 * already makes that check on that target (explicit alerts win; among policies, the first by
 * construct path). `declared` must have resolved target ids.
 */
export function expandPolicies(
  policies: readonly DeclaredPolicy[],
  declared: readonly DeclaredAlert[],
  domains: readonly ApiDomain[],
  thresholds: ReadonlyMap<string, number> = new Map(),
): Expansion {
  const ordered = [...policies].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const targets = targetsOf(domains);
  const selected = new Map(
    ordered.map((p) => [p, targets.filter((t) => selectsHost(p.targets, t.targetType, t.host))]),
  );
  // A check whose days are chosen per target takes them from `thresholds` (see thresholdHosts).
  const checkAlert = (check: PolicyCheckSpec, t: CoverageTarget) =>
    alertOfCheck(check, t.targetType, t.targetId, t.host, thresholds.get(t.host));
  const taken = new Set(declared.map((a) => checkKey(a.spec)));
  const names = new Set(declared.map((a) => `${a.scopeKey}\u0000${a.spec.name}`));
  const alerts: DeclaredAlert[] = [];
  for (const p of ordered) {
    if (p.mode !== 'generate') continue;
    for (const t of selected.get(p)!) {
      for (const check of p.checks) {
        const spec = checkAlert(check, t);
        const key = checkKey(spec);
        // The reader refuses declared names a policy generates; this only keeps a plan sane.
        if (taken.has(key) || names.has(`${p.scopeKey}\u0000${spec.name}`)) continue;
        taken.add(key);
        alerts.push({
          stack: p.stack,
          logicalId: p.logicalId,
          path: p.path,
          scopeKey: p.scopeKey,
          spec,
          target: { kind: 'id', id: t.targetId },
        });
      }
    }
  }
  return {
    alerts,
    report(live, changes, mode = 'converge') {
      if (mode === 'destroy') return undefined;
      const now = satisfiedBy(live);
      const after = afterApply(live, changes);
      return {
        policies: ordered.map((p) => ({
          path: p.path,
          stack: p.stack,
          provider: p.scopeKey.slice(p.stack.length + 1),
          mode: p.mode,
          targets: p.targets,
          checks: p.checks,
          rows: selected.get(p)!.map((t) => ({
            ...t,
            cells: p.checks.map((check): CoverageCell => {
              const key = checkKey(checkAlert(check, t));
              const isNow = now.get(key);
              const isAfter = after.get(key);
              if (isAfter === undefined) return { status: 'gap', alert: null };
              return { status: isNow !== undefined ? 'covered' : 'pending', alert: isAfter };
            }),
          })),
        })),
      };
    },
  };
}

/**
 * The hosts whose certificate sets a check's days (`threshold: before renewal fails`): the
 * targets that policies with such a check select, in list order, each once.
 */
export function thresholdHosts(policies: readonly DeclaredPolicy[], domains: readonly ApiDomain[]): string[] {
  const wanted = policies.filter((p) => p.checks.some((c) => c.threshold));
  if (!wanted.length) return [];
  const hosts = new Set<string>();
  for (const t of targetsOf(domains)) {
    if (wanted.some((p) => selectsHost(p.targets, t.targetType, t.host))) hosts.add(t.host);
  }
  return [...hosts];
}

/** Check key → the name of an alert making that check (the lowest id). */
function satisfiedBy(alerts: readonly LiveAlert[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of [...alerts].sort((x, y) => x.id - y.id)) {
    const key = checkKey(a);
    if (!out.has(key)) out.set(key, a.name);
  }
  return out;
}

/** Check key → alert name, for the account as the changes leave it. */
function afterApply(live: readonly LiveAlert[], changes: readonly Change[]): Map<string, string> {
  const gone = new Set<number>();
  const made: AlertSpec[] = [];
  for (const c of changes) {
    if (c.id !== null && c.action !== 'create') gone.add(c.id);
    if (c.after) made.push(c.after);
  }
  const out = satisfiedBy(live.filter((a) => !gone.has(a.id)));
  for (const spec of made) {
    const key = checkKey(spec);
    if (!out.has(key)) out.set(key, spec.name);
  }
  return out;
}

// ---- totals and rendering ----

export interface CoverageTotals {
  cells: number;
  covered: number;
  pending: number;
  gaps: number;
}

export function coverageTotals(reports: ReadonlyArray<CoverageReport | undefined>): CoverageTotals {
  const t: CoverageTotals = { cells: 0, covered: 0, pending: 0, gaps: 0 };
  for (const r of reports) {
    for (const p of r?.policies ?? []) {
      for (const row of p.rows) {
        for (const c of row.cells) {
          t.cells++;
          if (c.status === 'covered') t.covered++;
          else if (c.status === 'pending') t.pending++;
          else t.gaps++;
        }
      }
    }
  }
  return t;
}

/** A target that no alert covers, even after apply. */
export interface CoverageGap {
  policy: string;
  mode: PolicyMode;
  targetType: 'domain' | 'subdomain';
  targetId: number;
  host: string;
  check: string;
}

export function coverageGaps(report: CoverageReport | undefined): CoverageGap[] {
  const out: CoverageGap[] = [];
  for (const p of report?.policies ?? []) {
    for (const row of p.rows) {
      row.cells.forEach((c, i) => {
        if (c.status === 'gap')
          out.push({
            policy: p.path,
            mode: p.mode,
            targetType: row.targetType,
            targetId: row.targetId,
            host: row.host,
            check: p.checks[i].label,
          });
      });
    }
  }
  return out;
}
