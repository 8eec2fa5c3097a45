import { TerraformElement, TerraformStack, Token } from '../cdk';
import { describeValue } from '../support/describe';
import { Construct } from 'constructs';
import {
  ALL_TARGETS,
  BEFORE_RENEWAL_FAILS,
  POLICY_DOCUMENT_KEY,
  POLICY_MODES,
  parsePolicyDocument,
  policyNameProblems,
  type PolicyMode as ModeValue,
  type PolicyOutline,
} from '../model/policy';
import type { Problem } from '../model/problems';
import { isObject } from '../support/json';
import { ALERT_TYPE_LIST, type CheckProp } from '../model/types';
import type { NetworkcalcAccount } from './account';
import { resolveAccount } from './account';
import { Alert, type AccountOptions } from './alert';
import {
  alertBody,
  type AlertCheckSpec,
  type CertificateCheck,
  type DnsRecordCheck,
  type SpfRecordCheck,
  CERTIFICATE_CHECK_KEYS,
  unknownCheckProps,
} from './alert-body';
import { addChecks, ensureValidateFirst, finding, propsObject } from './validation';
import { unknownKeyMessages } from '../support/unknown-keys';

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
   * policies of an account. In an account with `Ownership.prefix(p)`, the labels of a generate
   * policy start with `p`: the default label gets it, and a label given without it is an error
   * that says what to write (labels are never rewritten).
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

/** Each type's check prop (src/model/types); one that `PolicyCheck` does not declare does not compile. */
const POLICY_CHECK_PROPS: readonly (keyof PolicyCheck & CheckProp)[] = ALERT_TYPE_LIST.map((m) => m.prop);

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
  /** The label of each check, in order: as given, or the default label (with the ownership prefix, for a generate policy of a prefix account). */
  public readonly labels: string[];
  /** The account the policy belongs to, if one could be found. */
  public readonly account?: NetworkcalcAccount;
  /** @internal The policy as its account's checks see it. */
  public readonly _outline: PolicyOutline;

  constructor(scope: Construct, id: string, props: AlertPolicyProps) {
    super(scope, id);
    Object.defineProperty(this, POLICY_SYMBOL, { value: true });
    ensureValidateFirst(this);

    const given = propsObject<AlertPolicyProps>(props, 'mode, checks and optionally targets, account');
    const p = given.props;
    const { account, problem: accountProblem } = resolveAccount(this, p.account);
    this.account = account;
    const errors: Problem[] = [];
    if (accountProblem) errors.push(finding(accountProblem, 'account'));

    // A subclass (an L3) may pass props of its own. The targets' props are the policy reader's to check.
    if (new.target === AlertPolicy && !given.problem)
      for (const m of unknownKeyMessages(p, POLICY_PROPS)) errors.push(finding(m, null));

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

    const read = readPolicy(p, this.mode, account);
    errors.push(...read.problems);
    const policy = read.policy;
    const targets = policy?.targets ?? ALL_TARGETS;
    const checks = policy?.checks ?? [];
    this.labels = checks.map((c) => c.label);
    this._outline = { path: this.node.path, mode: this.mode as ModeValue, targets, labels: this.labels };

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
      return [...errors, ...accountWideProblems(this, account)];
    });
  }
}

/**
 * The typed props as the document ncalc reads, then that document through the one reader:
 * the policy, and its problems check by check, in order, whichever reader found them.
 */
function readPolicy(p: Partial<AlertPolicyProps>, mode: PolicyMode, account: NetworkcalcAccount | undefined) {
  const found: Problem[] = [];
  const mapped = documentChecks(p.checks, found);
  const read = parsePolicyDocument(
    { mode, targets: p.targets, checks: mapped.checks },
    {
      // A prefix that is not a string is the account's problem to report.
      ownershipPrefix:
        account?.ownership.mode === 'prefix' && typeof account.ownership.namePrefix === 'string'
          ? account.ownership.namePrefix
          : null,
      account: `account ${account?.node.path ?? ''}`.trim(),
    },
  );
  for (const problem of read.problems) {
    const at = problem.path ? `${problem.path}.${problem.field}` : (problem.field ?? '');
    // A prop whose shape the construct already reported is not reported again.
    if (mapped.reported.some((r) => at === r || at.startsWith(`${r}.`) || at.startsWith(`${r}[`))) continue;
    found.push(propProblem(problem, mapped.sources));
  }
  const checkIndex = (f: Problem) => Number(/^checks\[(\d+)\]/.exec(f.field ?? '')?.[1] ?? -1);
  const problems = found
    .map((f, i) => ({ f, i }))
    .sort((a, b) => checkIndex(a.f) - checkIndex(b.f) || a.i - b.i)
    .map((x) => x.f);
  return { policy: read.policy, problems };
}

/** Checks that span the account: labels among its policies, names of its alerts. */
function accountWideProblems(policy: AlertPolicy, account: NetworkcalcAccount): Problem[] {
  const members = TerraformStack.of(policy).node.findAll();
  const policies = members
    .filter((c): c is AlertPolicy => AlertPolicy.isAlertPolicy(c) && c.account === account)
    .map((c) => c._outline);
  const alerts = members
    .filter(
      (c): c is Alert =>
        c instanceof Alert &&
        c.account === account &&
        typeof c.alertName === 'string' &&
        !Token.isUnresolved(c.alertName),
    )
    .map((c) => ({ path: c.node.path, name: c.alertName }));
  return policyNameProblems(policies, alerts)
    .filter((x) => x.policy === policy.node.path)
    .map((x) => finding(x.message, 'checks'));
}

const POLICY_PROPS: readonly string[] = ['mode', 'checks', 'targets', 'account'] satisfies Array<
  keyof AlertPolicyProps
>;
const CHECK_PROPS: readonly string[] = ['label', 'dnsRecord', 'spfRecord', 'certificate'] satisfies Array<
  keyof PolicyCheck
>;
const CERTIFICATE_PROPS: readonly string[] = [
  ...CERTIFICATE_CHECK_KEYS,
  'expiresBeforeRenewalFails' satisfies keyof PolicyCertificateCheck,
];

/**
 * The typed checks as the document's checks (wire names, the label as given), index for index.
 * What only the props can get wrong (not an array, no or two variants, a mistyped field) goes
 * to `errors`, naming the prop; such a check is null in the document and its path `reported`.
 * `sources`: for each check, the prop each wire field comes from.
 */
function documentChecks(
  raw: unknown,
  errors: Problem[],
): { checks: unknown[]; sources: Array<Readonly<Record<string, string>>>; reported: string[] } {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.push(
      finding(
        `checks must be a non-empty array of checks such as { certificate: { expiresInDays: 21 } } or { spfRecord: { filter: 'validity' } }; got ${describeValue(raw)}`,
        'checks',
        raw ?? null,
      ),
    );
    return { checks: [], sources: [], reported: ['checks'] };
  }
  const reported: string[] = [];
  const sources: Array<Readonly<Record<string, string>>> = [];
  const checks = raw.map((c: unknown, i): unknown => {
    const at = `checks[${i}]`;
    const refuse = (f: Problem) => {
      errors.push(f);
      reported.push(at);
      return null;
    };
    if (!isObject(c))
      return refuse(
        finding(
          `${at} is ${describeValue(c)}; give an object with one of ${POLICY_CHECK_PROPS.join(', ')}`,
          at,
          c ?? null,
        ),
      );
    const unknown = [...unknownKeyMessages(c, CHECK_PROPS, at), ...unknownCheckProps(c, at, CERTIFICATE_PROPS)];
    if (unknown.length) {
      for (const m of unknown) errors.push(finding(m, at));
      reported.push(at);
      return null;
    }
    // "Before renewal fails" is an expiry check whose days come at plan time: map it with a stand-in.
    const cert = isObject(c.certificate) ? c.certificate : null;
    const renewal = cert?.expiresBeforeRenewalFails;
    if (renewal !== undefined && typeof renewal !== 'boolean')
      return refuse(
        finding(
          `${at}.certificate.expiresBeforeRenewalFails is ${describeValue(renewal)}; give true or false`,
          `${at}.certificate.expiresBeforeRenewalFails`,
          renewal,
        ),
      );
    if (renewal && (cert!.expiresInDays !== undefined || cert!.subject !== undefined))
      return refuse(
        finding(
          `${at}.certificate has expiresBeforeRenewalFails with ${cert!.subject !== undefined ? 'subject' : 'expiresInDays'}; give expiresBeforeRenewalFails alone (it chooses the days per target)`,
          `${at}.certificate`,
        ),
      );
    const checkProps = renewal ? { ...c, certificate: { expiresInDays: 1 } } : c;
    // The alert's own mapping of typed props to wire fields; the name comes from the label.
    const {
      body,
      sources: from,
      problems,
    } = alertBody({
      ...checkProps,
      name: '',
      target: undefined,
    } as unknown as AlertCheckSpec);
    if (problems.length) {
      for (const m of problems) errors.push(finding(`${at}: ${m}`, at));
      reported.push(at);
      return null;
    }
    sources[i] = from;
    // The check's fields only: a policy's checks have no name or target of their own.
    const { name: _name, target_type: _type, target_id: _id, ...fields } = body;
    if (renewal) {
      delete fields.filter_value;
      fields.threshold = BEFORE_RENEWAL_FAILS;
    }
    return { ...(c.label !== undefined ? { label: c.label } : {}), ...fields };
  });
  return { checks, sources, reported };
}

/** A problem of the document as one of the props: a check's field names the prop it comes from. */
function propProblem(problem: Problem, sources: ReadonlyArray<Readonly<Record<string, string>>>): Problem {
  const { path, kind: _kind, ...rest } = problem;
  const index = /^checks\[(\d+)\]$/.exec(path ?? '');
  if (!index || problem.field == null) return rest;
  const prop = problem.field === 'label' ? 'label' : (sources[Number(index[1])]?.[problem.field] ?? problem.field);
  const from = `${path}.${prop}`;
  return { ...rest, field: from, message: `${problem.message} (from ${from})` };
}
