/**
 * Alert policies ("every domain has these alerts"): which hosts a policy selects, the names of
 * the alerts it generates, when an alert satisfies one of its checks, and what is wrong with a
 * policy. In one place, free of cdktf and of the network: the `AlertPolicy` construct checks
 * and writes policies with it, `ncalc` reads and expands them with it.
 */
import type { AlertSpec, CanonicalAlert } from './alert';
import { canonicalAlert, canonicalizeAlert, parseAlert } from './canonical';
import { isValidHostName, normalizeHostName } from './hostname';
import { isAlertType, type AlertType } from './matrix';
import { ALERT_TYPE_MODULES } from './types';
import type { Problem } from './problems';
import { jsonKind } from '../support/describe';
import { isObject } from '../support/json';

/** `generate`: one alert per selected target and check. `require`: only report targets without one. */
export const POLICY_MODES = ['generate', 'require'] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

/** Key of the policies in a stack's `//` (comment) object, which Terraform ignores and ncalc reads. */
export const POLICY_DOCUMENT_KEY = 'networkcalc_alert_policies';

/** Between a check's label and the host in a generated alert's name: `SPF validity · example.com`. */
export const GENERATED_NAME_SEPARATOR = ' · ';

/** The name of the alert a policy generates for one check and host: `<label> · <host>`. */
export function generatedAlertName(label: string, host: string): string {
  return `${label}${GENERATED_NAME_SEPARATOR}${host}`;
}

/**
 * The label and host of a name shaped like a generated one (split at the last separator), or
 * null. The host is not checked here.
 */
export function splitGeneratedName(name: string): { label: string; host: string } | null {
  const at = name.lastIndexOf(GENERATED_NAME_SEPARATOR);
  if (at <= 0) return null;
  return { label: name.slice(0, at), host: name.slice(at + GENERATED_NAME_SEPARATOR.length) };
}

/** Which domains and subdomains of the account a policy covers. Patterns are host names in which `*` stands for any run of characters. */
export interface PolicyTargets {
  readonly domains: boolean;
  readonly subdomains: boolean;
  /** A host is selected when it matches one of these... */
  readonly include: readonly string[];
  /** ...and none of these. */
  readonly exclude: readonly string[];
}

const PATTERN = /^[a-z0-9*.-]+$/;
const compiled = new Map<string, RegExp>();

/** Why a target pattern is not usable, as a sentence naming `field`; null when it is. */
export function hostPatternProblem(pattern: unknown, field: string): string | null {
  if (typeof pattern !== 'string' || pattern.trim() === '') {
    return `${field} ${JSON.stringify(pattern ?? null)} is not a pattern; give a host name in which * stands for any run of characters, e.g. "*.example.com"`;
  }
  if (!PATTERN.test(normalizeHostName(pattern))) {
    return `${field} ${JSON.stringify(pattern)} is not a valid pattern; use letters, digits, hyphens, dots and *, e.g. "*.example.com" or "example.*"`;
  }
  return null;
}

/** True when `host` (canonical) matches `pattern`: case is ignored, `*` matches any run of characters, dots included. */
export function matchesHostPattern(pattern: string, host: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    const body = normalizeHostName(pattern)
      .split('*')
      .map((part) => part.replace(/[.-]/g, (c) => `\\${c}`))
      .join('.*');
    re = new RegExp(`^${body}$`);
    compiled.set(pattern, re);
  }
  return re.test(host);
}

const matchesAny = (patterns: readonly string[], host: string) => patterns.some((p) => matchesHostPattern(p, host));

/** True when the policy covers this domain or subdomain (`host` canonical). */
export function selectsHost(targets: PolicyTargets, kind: 'domain' | 'subdomain', host: string): boolean {
  if (kind === 'domain' ? !targets.domains : !targets.subdomains) return false;
  return matchesAny(targets.include, host) && !matchesAny(targets.exclude, host);
}

/** True when the policy would cover `host` if the account had it, as a domain or a subdomain (known before any call). */
export function couldSelectHost(targets: PolicyTargets, host: string): boolean {
  return (
    (targets.domains || targets.subdomains) && matchesAny(targets.include, host) && !matchesAny(targets.exclude, host)
  );
}

/** `domains and subdomains matching *.example.com, except legacy.*`: a selection in words. */
export function describeTargets(t: PolicyTargets): string {
  const kinds = t.domains && t.subdomains ? 'domains and subdomains' : t.domains ? 'domains' : 'subdomains';
  const include = t.include.length === 1 && t.include[0] === '*' ? '' : ` matching ${t.include.join(', ')}`;
  const exclude = t.exclude.length ? `, except ${t.exclude.join(', ')}` : '';
  return `${kinds}${include}${exclude}`;
}

/**
 * The `threshold` of a certificate-expiry check that asks for the largest number of days that
 * fires only when renewal has failed, chosen per target when `ncalc` plans (src/model/renewal).
 */
export const BEFORE_RENEWAL_FAILS = 'before renewal fails';

/** One check of a policy: its label and the wire fields of the alerts it stands for (canonical). */
export interface PolicyCheckSpec {
  readonly label: string;
  readonly type: AlertType;
  readonly subtype: string | null;
  readonly filter: string;
  /** `""` for filters that take no value, and for a `threshold` chosen at plan time. */
  readonly filter_value: string;
  /** Set for an `expires in (days)` check whose days are chosen per target at plan time. */
  readonly threshold?: typeof BEFORE_RENEWAL_FAILS;
}

/**
 * The label a check gets when none is given, from what it checks and not from its value, so
 * that changing a value updates the generated alerts instead of replacing them:
 * `certificate expiry`, `certificate subject`, `SPF validity`, `SPF contains`, `DNS MX contains`.
 */
export function defaultCheckLabel(check: Readonly<Record<string, unknown>>): string {
  // A type the model does not know is named as given (validation then says what is wrong with it).
  if (!isAlertType(check.type)) return `${String(check.type)} ${String(check.filter)}`;
  return ALERT_TYPE_MODULES[check.type].defaultLabel(check);
}

/** A host that makes a valid name, to validate labels and checks before the real hosts are known. */
const SAMPLE_HOST = 'example.com';

/**
 * A policy check as given (a label plus wire fields), canonical and valid, or its problems:
 * the check through the model's `parseAlert`, the label through the alert-name rule. A
 * problem's `field` is the wire field, or `label`.
 */
export function parsePolicyCheck(
  input: Readonly<Record<string, unknown>>,
): { ok: true; check: PolicyCheckSpec } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const label = input.label;
  if (typeof label !== 'string' || label.trim() === '') {
    problems.push({
      field: 'label',
      value: label,
      kind: 'missing',
      message: `label ${JSON.stringify(label ?? null)} is not valid; give the check a non-empty label, the first part of its alerts' names`,
    });
  }
  const name = typeof label === 'string' && label.trim() !== '' ? generatedAlertName(label.trim(), SAMPLE_HOST) : 'x';
  const threshold = input.threshold;
  if (threshold !== undefined) {
    if (threshold !== BEFORE_RENEWAL_FAILS)
      problems.push({
        field: 'threshold',
        value: threshold,
        kind: 'invalid',
        allowed: [BEFORE_RENEWAL_FAILS],
        message: `threshold ${JSON.stringify(threshold)} is not valid; the only threshold is ${JSON.stringify(BEFORE_RENEWAL_FAILS)}`,
      });
    else if (input.filter_value !== undefined && input.filter_value !== null && input.filter_value !== '')
      problems.push({
        field: 'filter_value',
        value: input.filter_value,
        kind: 'invalid',
        message: `filter_value and threshold ${JSON.stringify(BEFORE_RENEWAL_FAILS)} are both given; the threshold chooses the days per target, so leave filter_value out`,
      });
  }
  // A threshold chosen at plan time stands in for a number of days: validate the rest with one.
  const isExpiry = canonicalizeAlert(input).filter === 'expires in (days)';
  const result = parseAlert({
    ...input,
    ...(threshold !== undefined && isExpiry ? { filter_value: 1 } : {}),
    threshold: undefined,
    name,
    target_type: 'domain',
    target_id: 1,
  });
  if (result.ok && threshold === BEFORE_RENEWAL_FAILS && result.alert.filter !== 'expires in (days)')
    problems.push({
      field: 'threshold',
      value: threshold,
      kind: 'invalid',
      message: `threshold ${JSON.stringify(BEFORE_RENEWAL_FAILS)} is for Certificate (TLS) checks with filter "expires in (days)", not ${result.alert.type} ${JSON.stringify(result.alert.filter)}`,
    });
  if (!result.ok) {
    for (const p of result.problems) {
      problems.push(
        p.field === 'name'
          ? {
              ...p,
              field: 'label',
              value: label,
              message: `label ${JSON.stringify(label)} cannot begin an alert name: ${p.message}`,
            }
          : p,
      );
    }
  }
  if (problems.length || !result.ok) return { ok: false, problems };
  const { type, subtype, filter, filter_value } = result.alert;
  const base = { label: (label as string).trim(), type, subtype, filter };
  return {
    ok: true,
    check:
      threshold === BEFORE_RENEWAL_FAILS
        ? { ...base, filter_value: '', threshold: BEFORE_RENEWAL_FAILS }
        : { ...base, filter_value },
  };
}

/** The part of an alert that makes it "the same check on the same target": everything but its name, canonical. */
export function checkKey(alert: Omit<AlertSpec, 'name'>): string {
  const c = canonicalizeAlert(alert);
  return `${String(c.target_type)}:${String(c.target_id)}\u0000${String(c.type)}\u0000${String(c.subtype)}\u0000${String(c.filter)}\u0000${String(c.filter_value)}`;
}

/**
 * The alert a check stands for on one target. `days`: the threshold chosen for this target,
 * for a check with `threshold` (see `thresholdFor`).
 */
export function checkAlert(
  check: PolicyCheckSpec,
  targetType: 'domain' | 'subdomain',
  targetId: number,
  host: string,
  days?: number,
): CanonicalAlert {
  // Made of canonical, valid parts: the check (parsePolicyCheck), a listed host, a whole number of days.
  return canonicalAlert({
    name: generatedAlertName(check.label, host),
    type: check.type,
    subtype: check.subtype,
    filter: check.filter,
    filter_value: check.threshold && days !== undefined ? String(days) : check.filter_value,
    target_type: targetType,
    target_id: targetId,
  });
}

/** A policy as far as the checks that span policies and alerts need it. */
export interface PolicyOutline {
  /** Construct path, for messages. */
  readonly path: string;
  readonly mode: PolicyMode;
  readonly targets: PolicyTargets;
  readonly labels: readonly string[];
}

/**
 * Problems of the policies of one account (one provider configuration) together with its
 * declared alerts, each with the path of the policy it belongs to: a label used twice among its generate policies, and a declared alert named
 * like an alert a generate policy would make (`<label> · <host>` for a host it may select).
 * The constructs run this at synth and `ncalc` on the JSON, so both say the same.
 */
export function policyNameProblems(
  policies: readonly PolicyOutline[],
  alerts: ReadonlyArray<{ path: string; name: string }>,
): Array<{ policy: string; message: string }> {
  const problems: Array<{ policy: string; message: string }> = [];
  const owner = new Map<string, string>();
  for (const p of policies) {
    if (p.mode !== 'generate') continue;
    for (const label of new Set(p.labels)) {
      const prior = owner.get(label);
      if (prior) {
        problems.push({
          policy: p.path,
          message: `policies ${prior} and ${p.path} both generate alerts labelled ${JSON.stringify(label)}, so their names would collide; give the checks of one of them other labels`,
        });
      } else owner.set(label, p.path);
    }
  }
  for (const a of alerts) {
    const split = splitGeneratedName(a.name);
    if (!split) continue;
    const host = normalizeHostName(split.host);
    const path = owner.get(split.label);
    const policy = path !== undefined ? policies.find((p) => p.path === path && p.mode === 'generate') : undefined;
    if (!policy || !isValidHostName(host) || !couldSelectHost(policy.targets, host)) continue;
    problems.push({
      policy: policy.path,
      message:
        `alert ${a.path} is named ${JSON.stringify(a.name)}, the name policy ${policy.path} gives its ${JSON.stringify(split.label)} alert for ${host}; ` +
        `rename the alert (an explicit alert for the same target and check wins over the generated one under any name), or exclude ${host} from the policy`,
    });
  }
  return problems;
}

/** What `targets` means when the document leaves it out (or gives null): every domain and subdomain. */
export const ALL_TARGETS: PolicyTargets = { domains: true, subdomains: true, include: ['*'], exclude: [] };

/** The attributes of a policy document, of its `targets` and of each of its checks (wire names). */
const DOCUMENT_KEYS = ['checks', 'mode', 'path', 'provider', 'targets'] as const;
const TARGET_KEYS = ['domains', 'exclude', 'include', 'subdomains'] as const;
const CHECK_KEYS = ['filter', 'filter_value', 'label', 'subtype', 'threshold', 'type'] as const;

/** A policy, read: what `ncalc` expands and the construct writes. */
export interface ParsedPolicy {
  readonly mode: PolicyMode;
  readonly targets: PolicyTargets;
  /** Canonical and valid, labels unique. */
  readonly checks: readonly PolicyCheckSpec[];
}

/** What the document does not say about its policy: the account it belongs to. */
export interface PolicyDocumentContext {
  /**
   * The ownership prefix of the account, when its ownership is `prefix`: the labels of a
   * generate policy start with it (the default labels get it; a label given without it is a
   * problem that says what to write).
   */
  readonly ownershipPrefix?: string | null;
  /** The account in the door's words, for messages: `provider networkcalc.team`, `account main/Team`. */
  readonly account?: string;
}

const problem = (at: { path?: string; field: string }, value: unknown, message: string): Problem => ({
  ...(at.path ? { path: at.path } : {}),
  field: at.field,
  value,
  kind: value === undefined ? 'missing' : 'invalid',
  message,
});

function unknownKeys(body: Readonly<Record<string, unknown>>, allowed: readonly string[], path?: string): Problem[] {
  return Object.keys(body)
    .filter((key) => !allowed.includes(key))
    .map((key) =>
      problem({ path, field: key }, body[key], `unknown attribute "${key}"; allowed: ${allowed.join(', ')}`),
    );
}

/** Absent and null mean the same in a policy document: "not given, take the default". */
const given = (v: unknown): boolean => v !== undefined && v !== null;

function readTargets(raw: unknown, problems: Problem[]): PolicyTargets {
  if (!given(raw)) return ALL_TARGETS;
  if (!isObject(raw)) {
    problems.push(
      problem(
        { field: 'targets' },
        raw,
        `targets is ${jsonKind(raw)}; expected an object (domains, subdomains, include, exclude)`,
      ),
    );
    return ALL_TARGETS;
  }
  problems.push(...unknownKeys(raw, TARGET_KEYS, 'targets'));
  const flag = (key: 'domains' | 'subdomains'): boolean => {
    const v = raw[key];
    if (!given(v)) return true;
    if (typeof v === 'boolean') return v;
    problems.push(problem({ field: `targets.${key}` }, v, `targets.${key} is ${jsonKind(v)}; expected true or false`));
    return true;
  };
  const patterns = (key: 'include' | 'exclude', fallback: readonly string[]): readonly string[] => {
    const v = raw[key];
    if (!given(v)) return fallback;
    if (!Array.isArray(v)) {
      problems.push(
        problem({ field: `targets.${key}` }, v, `targets.${key} is ${jsonKind(v)}; expected an array of name patterns`),
      );
      return fallback;
    }
    const out: string[] = [];
    v.forEach((pattern: unknown, i) => {
      const field = `targets.${key}[${i}]`;
      const wrong = hostPatternProblem(pattern, field);
      if (wrong) problems.push(problem({ field }, pattern, wrong));
      else out.push(normalizeHostName(pattern as string));
    });
    return out;
  };
  const targets: PolicyTargets = {
    domains: flag('domains'),
    subdomains: flag('subdomains'),
    include: patterns('include', ALL_TARGETS.include),
    exclude: patterns('exclude', ALL_TARGETS.exclude),
  };
  if (!targets.domains && !targets.subdomains)
    problems.push(
      problem(
        { field: 'targets' },
        raw,
        'targets.domains and targets.subdomains are both false, so the policy covers nothing; leave one of them out',
      ),
    );
  if (Array.isArray(raw.include) && raw.include.length === 0)
    problems.push(
      problem(
        { field: 'targets.include' },
        raw.include,
        'targets.include is empty, so the policy covers nothing; leave it out to cover every name',
      ),
    );
  return targets;
}

function readChecks(raw: unknown, prefix: string, account: string, problems: Problem[]): PolicyCheckSpec[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(
      problem(
        { field: 'checks' },
        raw,
        `checks is ${jsonKind(raw)}${Array.isArray(raw) ? ' (empty)' : ''}; expected a non-empty array of checks`,
      ),
    );
    return [];
  }
  const checks: PolicyCheckSpec[] = [];
  const labelAt = new Map<string, number>();
  const checkAt = new Map<string, number>();
  raw.forEach((c: unknown, i) => {
    const path = `checks[${i}]`;
    if (!isObject(c)) {
      problems.push(
        problem(
          { field: path },
          c,
          `${path} is ${jsonKind(c)}; expected an object (label, type, subtype, filter, filter_value)`,
        ),
      );
      return;
    }
    const before = problems.length;
    problems.push(...unknownKeys(c, CHECK_KEYS, path));
    // No label: the default one, which names what is checked (and starts with the prefix).
    const label = given(c.label) ? c.label : prefix + defaultCheckLabel(canonicalizeAlert(c));
    const parsed = parsePolicyCheck({ ...c, label });
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push({ ...p, path });
      return;
    }
    const check = parsed.check;
    if (prefix && !check.label.startsWith(prefix)) {
      const fix = prefix + check.label;
      problems.push({
        ...problem(
          { path, field: 'label' },
          c.label,
          `label ${JSON.stringify(check.label)} does not start with the ownership prefix ${JSON.stringify(prefix)} of ${account}, so its alerts would be outside the scope; write label ${JSON.stringify(fix)}`,
        ),
        fix,
      });
    }
    const sameLabel = labelAt.get(check.label);
    if (sameLabel !== undefined)
      problems.push(
        problem(
          { field: `${path}.label` },
          check.label,
          `checks[${sameLabel}] and ${path} are both labelled ${JSON.stringify(check.label)}; give each check its own label`,
        ),
      );
    const key = checkKey({ ...check, target_type: 'domain', target_id: 1 });
    const sameCheck = checkAt.get(key);
    if (sameCheck !== undefined)
      problems.push(problem({ field: path }, c, `checks[${sameCheck}] and ${path} check the same thing; remove one`));
    labelAt.set(check.label, i);
    checkAt.set(key, i);
    if (problems.length === before) checks.push(check);
  });
  return checks;
}

/**
 * A policy document (the object the `AlertPolicy` construct writes under
 * `//.networkcalc_alert_policies.<id>`, wire names) read strictly, with every problem: the one
 * reader of policies, for the construct at synth and for `ncalc` on cdk.tf.json. Absent and null
 * mean "take the default" alike: every domain and subdomain for `targets`, the default label for a
 * check's `label`. `path` and `provider` are the caller's to read. `policy` is null when there
 * are problems.
 */
export function parsePolicyDocument(
  document: unknown,
  context: PolicyDocumentContext = {},
): { policy: ParsedPolicy | null; problems: Problem[] } {
  if (!isObject(document))
    return {
      policy: null,
      problems: [problem({ field: '' }, document, `the policy is ${jsonKind(document)}; expected an object`)],
    };
  const problems = unknownKeys(document, DOCUMENT_KEYS);
  const mode = document.mode;
  const modeValid = typeof mode === 'string' && (POLICY_MODES as readonly string[]).includes(mode);
  if (!modeValid)
    problems.push(
      problem(
        { field: 'mode' },
        mode,
        `mode ${JSON.stringify(mode ?? null)} is not valid; use one of ${POLICY_MODES.join(', ')}`,
      ),
    );
  const targets = readTargets(document.targets, problems);
  // Only the names a generate policy makes are in the account's scope; require labels are columns.
  const prefix = mode === 'generate' ? (context.ownershipPrefix ?? '') : '';
  const checks = readChecks(document.checks, prefix, context.account ?? 'the account', problems);
  if (problems.length) return { policy: null, problems };
  return { policy: { mode: mode as PolicyMode, targets, checks }, problems };
}
