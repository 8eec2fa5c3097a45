import { TerraformElement, TerraformStack, Token } from '../cdk';
import { Construct } from 'constructs';
import { canonicalizeAlert } from '../model/canonical';
import { normalizeHostName } from '../model/hostname';
import {
  BEFORE_RENEWAL_FAILS,
  POLICY_DOCUMENT_KEY,
  POLICY_MODES,
  checkKey,
  defaultCheckLabel,
  hostPatternProblem,
  parsePolicyCheck,
  policyNameProblems,
  type PolicyCheckSpec,
  type PolicyMode as ModeValue,
  type PolicyOutline,
  type PolicyTargets,
} from '../model/policy';
import type { NetworkcalcAccount } from './account';
import { resolveAccount } from './account';
import { Alert, type AccountOptions } from './alert';
import {
  alertBody,
  type AlertCheckSpec,
  type CertificateCheck,
  type DnsRecordCheck,
  type SpfRecordCheck,
} from './alert-body';
import { addChecks, ensureValidateFirst, finding, propsObject, type Finding } from './validation';

/**
 * What a policy does with its checks. The values are the strings written for `ncalc`.
 */
export enum PolicyMode {
  /** `ncalc` declares one alert per selected target and check when it plans. */
  GENERATE = 'generate',
  /** Nothing is created; targets without a live or declared alert are reported as coverage gaps. */
  REQUIRE = 'require',
}

/**
 * One check of a policy: exactly one of `dnsRecord`, `spfRecord`, `certificate` (typed as
 * for an {@link Alert}; two, or none, is an error at synth), and an optional label.
 *
 * @example { certificate: { expiresInDays: 21 } }
 * @example { label: 'mail', dnsRecord: { record: 'MX', filter: 'contains', value: 'mx.example.com' } }
 */
export interface PolicyCheck {
  /**
   * The first part of the names of the alerts the check generates (`<label> · <host>`), and its
   * column in `ncalc coverage`. Labels are unique within a policy, and among the generate
   * policies of an account. In an account with `Ownership.prefix(p)`, a generate policy puts `p`
   * before a label that does not start with it.
   *
   * @default - from what is checked, not its value: 'certificate expiry', 'certificate subject', 'SPF validity', 'SPF contains', 'DNS MX contains', ...
   * @example 'cert 21d'
   */
  readonly label?: string;
  /**
   * A DNS record condition.
   *
   * @default - not a DNS record check
   */
  readonly dnsRecord?: DnsRecordCheck;
  /**
   * An SPF record condition.
   *
   * @default - not an SPF record check
   */
  readonly spfRecord?: SpfRecordCheck;
  /**
   * A TLS certificate condition; for an expiry check, `expiresBeforeRenewalFails` can choose the
   * days per target.
   *
   * @default - not a certificate check
   */
  readonly certificate?: PolicyCertificateCheck;
}

/**
 * A certificate condition of a policy check: as for an {@link Alert}, or an expiry check whose
 * days `ncalc` chooses per target when it plans.
 *
 * @example { expiresBeforeRenewalFails: true }
 */
export interface PolicyCertificateCheck extends CertificateCheck {
  /**
   * Instead of `expiresInDays`: for each target, the largest number of days that fires only when
   * renewal has failed, from the certificate the target serves when `ncalc` plans. ACME clients
   * renew at about a third of the lifetime left (notAfter − notBefore), so a 47-day certificate
   * gets 15, a 100-day one 33, a 200-day one 66, a 398-day one 132. A certificate that cannot be
   * read gets the value for the longest lifetime allowed that day (CA/Browser Forum SC-081v3:
   * 200 days from 2026-03-15, 100 from 2027-03-15, 47 from 2029-03-15). The alerts are written
   * with that number, and a certificate of another lifetime changes it on the next apply.
   *
   * @default false
   */
  readonly expiresBeforeRenewalFails?: boolean;
}

/** Which domains and subdomains of the account a policy covers, as the Domains API lists them when ncalc plans. */
export interface AlertPolicyTargets {
  /**
   * Cover the account's domains (`example.com`).
   *
   * @default true
   */
  readonly domains?: boolean;
  /**
   * Cover the account's subdomains (`www.example.com`).
   *
   * @default true
   */
  readonly subdomains?: boolean;
  /**
   * Only names matching one of these patterns: host names in which `*` stands for any run of
   * characters, dots included (`*.example.com` is every subdomain of example.com, not
   * example.com itself). Case is ignored.
   *
   * @default - every name
   * @example ['*.example.com', 'example.com']
   */
  readonly include?: string[];
  /**
   * Leave out names matching one of these patterns (same syntax as `include`).
   *
   * @default - none
   * @example ['legacy.*']
   */
  readonly exclude?: string[];
}

/** Props of an {@link AlertPolicy}. */
export interface AlertPolicyProps extends AccountOptions {
  /**
   * `PolicyMode.GENERATE`: `ncalc` declares one alert per selected target and check when it
   * plans, named `<label> · <host>`; new domains get theirs on the next apply, removed ones lose
   * them. `PolicyMode.REQUIRE`: nothing is created; `ncalc plan`, `drift` and `coverage` report
   * every selected target that no live or declared alert covers.
   */
  readonly mode: PolicyMode;
  /** What every selected target must be watched for; at least one. */
  readonly checks: PolicyCheck[];
  /**
   * The targets covered.
   *
   * @default - every domain and subdomain of the account
   */
  readonly targets?: AlertPolicyTargets;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Writes the policy into the stack's `//` object: Terraform ignores it, ncalc reads it. */
class PolicyDocument extends TerraformElement {
  constructor(
    scope: Construct,
    id: string,
    private readonly document: Record<string, unknown>,
  ) {
    super(scope, id);
  }

  public override toTerraform(): Record<string, unknown> {
    return { '//': { [POLICY_DOCUMENT_KEY]: { [this.friendlyUniqueId]: this.document } } };
  }

  // ncalc reads only the JSON output.
  public override toHclTerraform(): Record<string, unknown> {
    return {};
  }
}

const POLICY_SYMBOL = Symbol.for('cdktf-provider-networkcalc.AlertPolicy');

/**
 * A rule over the domains and subdomains of an account: "every domain has a certificate-expiry
 * alert at 21 days and an SPF validity alert", kept true as domains are added. `ncalc` expands
 * it when it plans, from the account's domains list (fetched once per account and plan).
 *
 * The policy is for `ncalc` only: it is written into the stack's `//` object, which Terraform
 * ignores, so `cdktf deploy` creates nothing for it (Terraform users iterate over the
 * `networkcalc_domains` data source instead; see docs/terraform.md).
 *
 * @example
 * new AlertPolicy(this, 'Baseline', {
 *   mode: PolicyMode.GENERATE,
 *   checks: [{ certificate: { expiresInDays: 21 } }, { spfRecord: { filter: 'validity' } }],
 *   targets: { exclude: ['legacy.*'] },
 * });
 */
export class AlertPolicy extends Construct {
  /** True for an AlertPolicy, also across copies of this package. */
  public static isAlertPolicy(x: unknown): x is AlertPolicy {
    return typeof x === 'object' && x !== null && POLICY_SYMBOL in x;
  }

  /** `PolicyMode.GENERATE` or `PolicyMode.REQUIRE`. */
  public readonly mode: PolicyMode;
  /** The label of each check, in order (with the ownership prefix, for a generate policy of a prefix account). */
  public readonly labels: string[];
  /** The account the policy belongs to, if one could be found. */
  public readonly account?: NetworkcalcAccount;
  private readonly outline: PolicyOutline;

  constructor(scope: Construct, id: string, props: AlertPolicyProps) {
    super(scope, id);
    Object.defineProperty(this, POLICY_SYMBOL, { value: true });
    ensureValidateFirst(this);

    const given = propsObject<AlertPolicyProps>(props, 'mode, checks and optionally targets, account');
    const p = given.props;
    const { account, problem: accountProblem } = resolveAccount(this, p.account);
    this.account = account;
    const errors: Finding[] = [];
    if (accountProblem) errors.push(finding(accountProblem, 'account'));

    const modeValid = typeof p.mode === 'string' && (POLICY_MODES as readonly string[]).includes(p.mode);
    if (!modeValid) {
      errors.push({
        field: 'mode',
        value: p.mode ?? null,
        allowed: POLICY_MODES,
        message:
          p.mode === undefined
            ? 'mode is missing; give PolicyMode.GENERATE (ncalc creates the alerts) or PolicyMode.REQUIRE (ncalc reports targets without them)'
            : `mode ${JSON.stringify(p.mode)} is not valid; give PolicyMode.GENERATE ('generate') or PolicyMode.REQUIRE ('require')`,
      });
    }
    this.mode = modeValid ? (p.mode as PolicyMode) : PolicyMode.GENERATE;
    const prefix =
      this.mode === PolicyMode.GENERATE &&
      account?.ownership.mode === 'prefix' &&
      typeof account.ownership.namePrefix === 'string'
        ? account.ownership.namePrefix
        : '';

    const checks = readChecks(p.checks, prefix, errors);
    const targets = readTargets(p.targets, errors);
    this.labels = checks.map((c) => c.label);
    this.outline = { path: this.node.path, mode: this.mode as ModeValue, targets, labels: this.labels };

    new PolicyDocument(this, 'Resource', {
      path: this.node.path,
      ...(account?.alias ? { provider: `networkcalc.${account.alias}` } : {}),
      mode: this.mode,
      targets: {
        domains: targets.domains,
        subdomains: targets.subdomains,
        include: [...targets.include],
        exclude: [...targets.exclude],
      },
      // Wire names, as in networkcalc_alert: subtype and filter_value only where the check has them.
      checks: checks.map((c) => ({
        label: c.label,
        type: c.type,
        ...(c.subtype !== null ? { subtype: c.subtype } : {}),
        filter: c.filter,
        ...(c.filter_value !== '' ? { filter_value: c.filter_value } : {}),
        ...(c.threshold ? { threshold: c.threshold } : {}),
      })),
    });

    addChecks(this, () => {
      if (given.problem) return [given.problem];
      if (!account) return errors;
      // Checks that span the account: labels among its policies, names of its alerts.
      const stack = TerraformStack.of(this);
      const members = stack.node.findAll();
      const policies = members
        .filter((c): c is AlertPolicy => AlertPolicy.isAlertPolicy(c) && c.account === account)
        .map((c) => c.outline);
      const alerts = members
        .filter(
          (c): c is Alert =>
            c instanceof Alert &&
            c.account === account &&
            typeof c.alertName === 'string' &&
            !Token.isUnresolved(c.alertName),
        )
        .map((c) => ({ path: c.node.path, name: c.alertName }));
      const own = policyNameProblems(policies, alerts)
        .filter((x) => x.policy === this.node.path)
        .map((x) => finding(x.message, 'checks'));
      return [...errors, ...own];
    });
  }
}

/** The checks as canonical specs with their labels; every problem goes to `errors`, naming the prop. */
function readChecks(raw: unknown, prefix: string, errors: Finding[]): PolicyCheckSpec[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.push(
      finding(
        `checks must be a non-empty array of checks such as { certificate: { expiresInDays: 21 } } or { spfRecord: { filter: 'validity' } }; got ${describe(raw)}`,
        'checks',
        raw ?? null,
      ),
    );
    return [];
  }
  const out: PolicyCheckSpec[] = [];
  const labelAt = new Map<string, number>();
  const checkAt = new Map<string, number>();
  raw.forEach((c: unknown, i) => {
    const at = `checks[${i}]`;
    if (!isRecord(c)) {
      errors.push(
        finding(`${at} is ${describe(c)}; give an object with one of dnsRecord, spfRecord, certificate`, at, c ?? null),
      );
      return;
    }
    // "Before renewal fails" is an expiry check whose days come at plan time: map it with a stand-in.
    const cert = isRecord(c.certificate) ? c.certificate : null;
    const renewal = cert?.expiresBeforeRenewalFails;
    if (renewal !== undefined && typeof renewal !== 'boolean') {
      errors.push(
        finding(
          `${at}.certificate.expiresBeforeRenewalFails is ${describe(renewal)}; give true or false`,
          `${at}.certificate.expiresBeforeRenewalFails`,
          renewal,
        ),
      );
      return;
    }
    if (renewal && (cert!.expiresInDays !== undefined || cert!.subject !== undefined)) {
      errors.push(
        finding(
          `${at}.certificate has expiresBeforeRenewalFails with ${cert!.subject !== undefined ? 'subject' : 'expiresInDays'}; give expiresBeforeRenewalFails alone (it chooses the days per target)`,
          `${at}.certificate`,
        ),
      );
      return;
    }
    const checkProps = renewal ? { ...c, certificate: { expiresInDays: 1 } } : c;
    // The alert's own mapping of typed props to wire fields; the name comes from the label.
    const { body, sources, problems } = alertBody({
      ...checkProps,
      name: '',
      target: undefined,
    } as unknown as AlertCheckSpec);
    if (renewal) {
      delete body.filter_value;
      body.threshold = BEFORE_RENEWAL_FAILS;
    }
    if (problems.length) {
      for (const m of problems) errors.push(finding(`${at}: ${m}`, at));
      return;
    }
    const canonical = canonicalizeAlert(body);
    const given = c.label;
    let label = given === undefined ? defaultCheckLabel(canonical) : given;
    if (typeof label === 'string' && prefix && !label.trim().startsWith(prefix)) label = prefix + label.trim();
    const parsed = parsePolicyCheck({ ...body, label });
    if (!parsed.ok) {
      for (const problem of parsed.problems) {
        const from = problem.field === 'label' ? `${at}.label` : `${at}.${sources[problem.field] ?? problem.field}`;
        errors.push({
          field: from,
          value: problem.value,
          allowed: problem.allowed,
          message: `${problem.message} (from ${from})`,
        });
      }
      return;
    }
    const check = parsed.check;
    const sameLabel = labelAt.get(check.label);
    if (sameLabel !== undefined) {
      errors.push(
        finding(
          `checks[${sameLabel}] and ${at} are both labelled ${JSON.stringify(check.label)}; give each check its own label`,
          `${at}.label`,
          check.label,
        ),
      );
    }
    const key = checkKey({ ...check, target_type: 'domain', target_id: 1 });
    const sameCheck = checkAt.get(key);
    if (sameCheck !== undefined)
      errors.push(finding(`checks[${sameCheck}] and ${at} check the same thing; remove one`, at));
    labelAt.set(check.label, i);
    checkAt.set(key, i);
    out.push(check);
  });
  return out;
}

/** The selection with its defaults; every problem goes to `errors`. */
function readTargets(raw: unknown, errors: Finding[]): PolicyTargets {
  const all: PolicyTargets = { domains: true, subdomains: true, include: ['*'], exclude: [] };
  if (raw === undefined || raw === null) return all;
  if (!isRecord(raw)) {
    errors.push(
      finding(
        `targets is ${describe(raw)}; give an object such as { subdomains: false, exclude: ['legacy.*'] }, or leave it out for every domain and subdomain`,
        'targets',
        raw,
      ),
    );
    return all;
  }
  const flag = (key: 'domains' | 'subdomains'): boolean => {
    const v = raw[key];
    if (v === undefined) return true;
    if (typeof v === 'boolean') return v;
    errors.push(finding(`targets.${key} is ${describe(v)}; give true or false`, `targets.${key}`, v));
    return true;
  };
  const patterns = (key: 'include' | 'exclude', fallback: string[]): string[] => {
    const v = raw[key];
    if (v === undefined) return fallback;
    if (!Array.isArray(v)) {
      errors.push(
        finding(
          `targets.${key} is ${describe(v)}; give an array of name patterns such as ['*.example.com']`,
          `targets.${key}`,
          v,
        ),
      );
      return fallback;
    }
    const out: string[] = [];
    v.forEach((pattern: unknown, i) => {
      const problem = hostPatternProblem(pattern, `targets.${key}[${i}]`);
      if (problem) errors.push(finding(problem, `targets.${key}[${i}]`, pattern ?? null));
      else out.push(normalizeHostName(pattern as string));
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
    errors.push(
      finding(
        'targets.domains and targets.subdomains are both false, so the policy covers nothing; leave one of them out',
        'targets',
      ),
    );
  if (Array.isArray(raw.include) && raw.include.length === 0)
    errors.push(
      finding(
        'targets.include is empty, so the policy covers nothing; leave it out to cover every name',
        'targets.include',
        [],
      ),
    );
  return targets;
}

/** A value as a user would recognise it in a message. */
function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length ? 'an array' : 'an empty array';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'string' ? JSON.stringify(v) : `${typeof v} ${String(v)}`;
}
