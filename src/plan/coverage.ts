/**
 * Alert policies in `ncalc`: read strictly from the synthesized JSON, expanded when an account
 * is planned (from the domains list the plan fetches anyway), and the coverage they report.
 * The rules themselves (selection, generated names, "the same check") are in src/model/policy.
 */
import { normalizeHostName, type AlertSpec, type LiveAlert } from '../model';
import {
  POLICY_DOCUMENT_KEY,
  POLICY_MODES,
  checkAlert as alertOfCheck,
  checkKey,
  hostPatternProblem,
  parsePolicyCheck,
  policyNameProblems,
  selectsHost,
  type PolicyCheckSpec,
  type PolicyMode,
  type PolicyTargets,
} from '../model/policy';
import { jsonKind, jsonPath } from '../support/describe';
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const POLICY_KEYS = new Set(['path', 'provider', 'mode', 'targets', 'checks']);
const TARGET_KEYS = new Set(['domains', 'subdomains', 'include', 'exclude']);
const CHECK_KEYS = new Set(['label', 'type', 'subtype', 'filter', 'filter_value', 'threshold']);

function unknownKeys(where: string, body: Json, allowed: ReadonlySet<string>, problems: string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.has(key))
      problems.push(`${where}: unknown attribute "${key}"; allowed: ${[...allowed].sort().join(', ')}`);
  }
}

function readTargets(where: string, raw: unknown, problems: string[]): PolicyTargets | null {
  if (raw === undefined) return { domains: true, subdomains: true, include: ['*'], exclude: [] };
  if (!isObject(raw)) {
    problems.push(`${where}: targets is ${jsonKind(raw)}; expected an object (domains, subdomains, include, exclude)`);
    return null;
  }
  const before = problems.length;
  unknownKeys(`${where}: targets`, raw, TARGET_KEYS, problems);
  const flag = (key: 'domains' | 'subdomains'): boolean => {
    if (raw[key] === undefined) return true;
    if (typeof raw[key] === 'boolean') return raw[key] as boolean;
    problems.push(`${where}: targets.${key} is ${jsonKind(raw[key])}; expected true or false`);
    return true;
  };
  const patterns = (key: 'include' | 'exclude', fallback: string[]): string[] => {
    const v = raw[key];
    if (v === undefined) return fallback;
    if (!Array.isArray(v)) {
      problems.push(`${where}: targets.${key} is ${jsonKind(v)}; expected an array of name patterns`);
      return [];
    }
    const out: string[] = [];
    v.forEach((p: unknown, i) => {
      const problem = hostPatternProblem(p, `targets.${key}[${i}]`);
      if (problem) problems.push(`${where}: ${problem}`);
      else out.push(normalizeHostName(p as string));
    });
    return out;
  };
  const targets: PolicyTargets = {
    domains: flag('domains'),
    subdomains: flag('subdomains'),
    include: patterns('include', ['*']),
    exclude: patterns('exclude', []),
  };
  if (!targets.domains && !targets.subdomains)
    problems.push(`${where}: targets.domains and targets.subdomains are both false, so the policy covers nothing`);
  if (Array.isArray(raw.include) && raw.include.length === 0)
    problems.push(`${where}: targets.include is empty, so the policy covers nothing; leave it out to cover every name`);
  return problems.length > before ? null : targets;
}

function readChecks(where: string, raw: unknown, problems: string[]): PolicyCheckSpec[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(
      `${where}: checks is ${jsonKind(raw)}${Array.isArray(raw) ? ' (empty)' : ''}; expected a non-empty array of checks`,
    );
    return null;
  }
  const before = problems.length;
  const checks: PolicyCheckSpec[] = [];
  const labels = new Map<string, number>();
  const keys = new Map<string, number>();
  raw.forEach((c: unknown, i) => {
    const at = `${where}: ${jsonPath('checks', i)}`;
    if (!isObject(c)) {
      problems.push(`${at} is ${jsonKind(c)}; expected an object (label, type, subtype, filter, filter_value)`);
      return;
    }
    unknownKeys(at, c, CHECK_KEYS, problems);
    const parsed = parsePolicyCheck(c);
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push(`${at}: ${p.message}`);
      return;
    }
    const check = parsed.check;
    const key = checkKey({ ...check, target_type: 'domain', target_id: 1 });
    if (labels.has(check.label))
      problems.push(
        `${at}: label ${JSON.stringify(check.label)} is also the label of checks[${labels.get(check.label)}]; labels of a policy are unique`,
      );
    if (keys.has(key)) problems.push(`${at} checks the same as checks[${keys.get(key)}]; remove one`);
    labels.set(check.label, i);
    keys.set(key, i);
    checks.push(check);
  });
  return problems.length > before ? null : checks;
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
  scopeOf: (where: string, provider: unknown) => string | null,
  problems: string[],
): DeclaredPolicy[] {
  const comment = json['//'];
  if (!isObject(comment) || comment[POLICY_DOCUMENT_KEY] === undefined) return [];
  const group = comment[POLICY_DOCUMENT_KEY];
  if (!isObject(group)) {
    problems.push(
      `stack ${stack}: //.${jsonPath(POLICY_DOCUMENT_KEY)} is ${jsonKind(group)}; expected an object of policies keyed by logical id`,
    );
    return [];
  }
  const out: DeclaredPolicy[] = [];
  for (const [logicalId, body] of Object.entries(group)) {
    const fallback = `${stack}/${logicalId}`;
    if (!isObject(body)) {
      problems.push(
        `stack ${stack}: //.${jsonPath(POLICY_DOCUMENT_KEY, logicalId)} is ${jsonKind(body)}; expected an object (a policy)`,
      );
      continue;
    }
    const path = typeof body.path === 'string' && body.path.trim() !== '' ? body.path : fallback;
    const where = `stack ${stack}, policy ${path === fallback ? logicalId : path}`;
    const before = problems.length;
    unknownKeys(where, body, POLICY_KEYS, problems);
    if (body.path !== undefined && typeof body.path !== 'string')
      problems.push(`${where}: path is ${jsonKind(body.path)}; expected a string`);
    if (body.provider !== undefined && typeof body.provider !== 'string')
      problems.push(`${where}: provider is ${jsonKind(body.provider)}; expected a string such as "networkcalc.prod"`);
    const scopeKey = scopeOf(where, body.provider);
    const mode = body.mode;
    if (typeof mode !== 'string' || !(POLICY_MODES as readonly string[]).includes(mode)) {
      problems.push(
        `${where}: mode ${JSON.stringify(mode ?? null)} is not valid; use one of ${POLICY_MODES.join(', ')}`,
      );
    }
    const targets = readTargets(where, body.targets, problems);
    const checks = readChecks(where, body.checks, problems);
    if (problems.length > before || !scopeKey || !targets || !checks) continue;
    out.push({ stack, logicalId, path, scopeKey, mode: mode as PolicyMode, targets, checks });
  }
  return out;
}

/**
 * The checks that span policies, alerts and scopes, once everything is read: a generate
 * policy of a prefix scope labels its checks with the prefix (its alerts are named
 * `<label> · <host>`); labels of generate policies are unique per scope; no declared alert
 * is named like an alert a policy generates.
 */
export function policyProblems(
  policies: readonly DeclaredPolicy[],
  alerts: readonly DeclaredAlert[],
  scopes: readonly Scope[],
): string[] {
  const problems: string[] = [];
  for (const p of policies) {
    const scope = scopes.find((s) => s.key === p.scopeKey);
    if (p.mode !== 'generate' || scope?.ownership !== 'prefix' || !scope.prefix) continue;
    for (const c of p.checks) {
      if (!c.label.startsWith(scope.prefix)) {
        problems.push(
          `policy ${p.path}: label ${JSON.stringify(c.label)} does not start with the ownership prefix ${JSON.stringify(scope.prefix)} of provider ${scope.providerKey}, so its alerts would be outside the scope; start the label with the prefix`,
        );
      }
    }
  }
  for (const scopeKey of new Set(policies.map((p) => p.scopeKey))) {
    const outlines = policies
      .filter((p) => p.scopeKey === scopeKey)
      .map((p) => ({ path: p.path, mode: p.mode, targets: p.targets, labels: p.checks.map((c) => c.label) }));
    const named = alerts.filter((a) => a.scopeKey === scopeKey).map((a) => ({ path: a.path, name: a.spec.name }));
    for (const x of policyNameProblems(outlines, named)) problems.push(x.message);
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
