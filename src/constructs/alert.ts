import { TerraformStack, Token } from '../cdk';
import type { IResolvable } from '../public-types';
import { Construct, type IConstruct } from 'constructs';
import { canonicalizeAlert } from '../model/canonical';
import { validateAlert } from '../model/validate';
import { filterValueKind } from '../model/matrix';
import { CHECK_PROPS_TEXT } from '../model/types';
import { type NetworkcalcAccount, resolveAccount } from './account';
import {
  ALERT_CHECK_SPEC_KEYS,
  alertBody,
  CERTIFICATE_CHECK_KEYS,
  unknownCheckProps,
  type AlertCheckSpec,
} from './alert-body';
import { DeferredAlertResource } from './alert-blocks';
import type { AlertConfig } from '../gen/providers/networkcalc/alert';
import { isAlertTarget, type AlertTarget } from './target';
import { otherAccountProblem, targetIdIn } from './declared-target';
import { isPlainText, terraformLiteral } from './terraform-string';
import type { Problem } from '../model/problems';
import { addChecks, ensureValidateFirst, finding, propsObject, renderable } from './validation';
import { describeValue } from '../support/describe';
import { isObject } from '../support/json';
import { unknownKeyMessages } from '../support/unknown-keys';

/** An alert, declared here or imported by id. */
export interface IAlert extends IConstruct {
  /** Id of the alert at the service (a token for alerts declared in this app). @attribute */
  readonly alertId: number;
}

/** Shared by declared and imported alerts. */
abstract class AlertBase extends Construct implements IAlert {
  public abstract readonly alertId: number;
}

class ImportedAlert extends AlertBase {
  public readonly alertId: number;
  constructor(scope: Construct, id: string, alertId: number) {
    super(scope, id);
    this.alertId = alertId;
  }
}

/** Which account an alert or report trigger belongs to. */
export interface AccountOptions {
  /**
   * The account the construct belongs to; it must be declared in the same stack.
   *
   * @default - the only NetworkcalcAccount of the stack (an error at synth when it has none or several)
   */
  readonly account?: NetworkcalcAccount;
}

/**
 * Props of an {@link Alert}: a name, a target, and exactly one of `dnsRecord`, `spfRecord`
 * or `certificate`. Record types and filters are typed; the combinations the service allows
 * (and exactly one check) are checked at synth by the alert model. An L3 construct can extend
 * this interface with props of its own.
 */
export interface AlertProps extends AlertCheckSpec, AccountOptions {}

/**
 * An alert of a NetworkCalc account (`networkcalc_alert`, child id `Resource`): watches a
 * domain or subdomain for a DNS record, an SPF record or a TLS certificate condition, and
 * sends an e-mail when it triggers. Validated at synth by the same function the CLI, the
 * provider and the emulator use; every problem is reported with the construct path.
 *
 * @example
 * new Alert(this, 'WwwCertificate', {
 *   name: 'www.example.com certificate',
 *   target: AlertTarget.subdomain('www.example.com'),
 *   certificate: { expiresInDays: 21 },
 * });
 *
 * new Alert(this, 'ExampleMx', {
 *   name: 'example.com MX',
 *   target: AlertTarget.domain('example.com'),
 *   dnsRecord: { record: 'MX', filter: 'contains', value: 'mail.example.com' },
 * });
 */
export class Alert extends AlertBase {
  /**
   * An existing alert by its id, for reference only: synthesizes nothing, and `ncalc`
   * does not manage it.
   */
  public static fromAlertId(scope: Construct, id: string, alertId: number): IAlert {
    return new ImportedAlert(scope, id, alertId);
  }

  /** The alert's name as synthesized (trimmed). @attribute */
  public readonly alertName: string;
  /** The account the alert belongs to, if one could be found. */
  public readonly account?: NetworkcalcAccount;

  // The L1 (child `Resource`) is made when something reaches for it (alert-blocks.ts); until
  // then the stack's shared element writes the alert. Attributes are read from the L1 when
  // asked for: each read makes a cdktf token, and cdktf captures a stack trace per token.
  private readonly resource: DeferredAlertResource;

  /**
   * What a ReportTrigger of the same target re-runs on: the target and the declared values.
   * @internal
   */
  public readonly _declared?: { readonly target: AlertTarget; readonly values: Readonly<Record<string, unknown>> };

  /**
   * The alert's Terraform address in its stack (`networkcalc_alert.<logical id>`), for the
   * `depends_on` of a ReportTrigger of its target. Read at synthesis.
   * @internal
   */
  public _terraformAddress(): string {
    return `networkcalc_alert.${this.resource.logicalId(TerraformStack.of(this))}`;
  }

  /** Id assigned by the service (a token resolved at apply). @attribute */
  public get alertId(): number {
    // Terraform holds the id as a string of its digits.
    return Token.asNumber(this.resource.get().id);
  }

  /** Current status, e.g. healthy or triggered (a token). @attribute */
  public get currentStatus(): string {
    return this.resource.get().currentStatus;
  }

  /** When the alert last triggered; empty if never (a token). @attribute */
  public get lastTriggeredAt(): string {
    return this.resource.get().lastTriggeredAt;
  }

  /** Whether the alert is being checked (a boolean token). @attribute */
  public get isActive(): IResolvable {
    return this.resource.get().isActive;
  }

  constructor(scope: Construct, id: string, props: AlertProps) {
    super(scope, id);
    const stack = ensureValidateFirst(this);

    // Runs once per alert, most often in code V8 has not optimized yet (an app declares each
    // alert once): plain statements, no closures or copies, and nothing built for a problem
    // that is not there.
    const given = propsObject<AlertProps>(props, `name, target and one of ${CHECK_PROPS_TEXT}`);
    const p = given.props as AlertProps;
    const { account, problem: accountProblem } = resolveAccount(this, p.account, stack);
    this.account = account;
    const { body, sources, problems: shapeProblems } = alertBody(p);
    // A subclass (an L3) may pass props of its own: only the checks' props are known to be ours.
    const propProblems = given.problem ? [] : unknownAlertProps(p, new.target === Alert);

    const target = isAlertTarget(p.target) ? p.target : undefined;
    // A target name without an account cannot be looked up: the missing account is the error to report.
    const targetIdDeferred = target?.name !== undefined && !account;
    body.target_id = targetId(target, account); // the body is alertBody's own object
    const canonical = canonicalizeAlert(body);
    const name = canonical.name;
    this.alertName = name as string;
    if (target) this._declared = { target, values: canonical };

    this.resource = new DeferredAlertResource(this, resourceConfig(canonical, targetIdDeferred, account), stack);

    // A name known only at apply (a token) cannot be compared with the others.
    if (account && typeof name === 'string' && (isPlainText(name) || !Token.isUnresolved(name))) {
      account._registerAlert(this, name);
    }

    // Found now: they depend only on the props and the account, both fixed from here on.
    // Props that are not an object say all there is to say.
    if (given.problem) {
      addChecks(this, [given.problem]);
      return;
    }
    const errors: Problem[] = [];
    if (accountProblem) errors.push(finding(accountProblem, 'account'));
    errors.push(...otherAccountProblem(account, p.target));
    // What else is wrong follows from a mistyped prop (a check "not given"): it alone is said.
    if (propProblems.length) {
      addChecks(this, [...errors, ...propProblems]);
      return;
    }
    for (const m of shapeProblems) errors.push(finding(m, null));
    if (p.target !== undefined && p.target !== null && !target) {
      errors.push(notATargetProblem(p.target));
    } else {
      addModelProblems(errors, canonical, sources, targetIdDeferred);
    }
    addChecks(this, errors);
  }
}

/** The props of an Alert. */
const ALERT_PROPS: readonly string[] = [...ALERT_CHECK_SPEC_KEYS, 'account' satisfies keyof AccountOptions];

/**
 * Props an Alert does not have, each named with the one meant (`all`: the top-level props too,
 * for an Alert made as it is). A policy's renewal option on an alert's certificate says where it belongs.
 */
function unknownAlertProps(props: Partial<AlertProps>, all: boolean): Problem[] {
  const messages = all ? unknownKeyMessages(props, ALERT_PROPS) : [];
  const cert = props.certificate;
  if (isObject(cert) && 'expiresBeforeRenewalFails' in cert) {
    const { expiresBeforeRenewalFails: _renewal, ...rest } = cert;
    messages.push(
      'certificate.expiresBeforeRenewalFails is a check of an AlertPolicy, not of an Alert; give certificate.expiresInDays here, or declare an AlertPolicy with checks: [{ certificate: { expiresBeforeRenewalFails: true } }] and targets: { include: [<host>] } for days ncalc chooses when it plans',
      ...unknownKeyMessages(rest, CERTIFICATE_CHECK_KEYS, 'certificate'),
    );
    messages.push(...unknownCheckProps({ ...props, certificate: undefined }));
  } else {
    messages.push(...unknownCheckProps(props));
  }
  return messages.map((m) => finding(m, null));
}

/** The target's id: as given, or looked up by name in the account (a token until apply). */
function targetId(target: AlertTarget | undefined, account: NetworkcalcAccount | undefined): unknown {
  if (!target || !account) return target?.id;
  return targetIdIn(account, target);
}

/**
 * The L1's config from the canonical alert: values Terraform cannot hold are left out (the
 * checks report them), and a filter that takes no value gets none.
 */
function resourceConfig(
  canonical: Readonly<Record<string, unknown>>,
  targetIdDeferred: boolean,
  account: NetworkcalcAccount | undefined,
): AlertConfig {
  const filter = canonical.filter;
  const filterValue = canonical.filter_value;
  const dropValue = typeof filter === 'string' && filterValueKind(filter) === 'none' && filterValue === '';
  // Name and value are literal text; Terraform would read `${` / `%{` in them as templates.
  return {
    name: renderable(terraformLiteral(canonical.name as string))!,
    type: renderable(canonical.type as string)!,
    subtype: renderable(canonical.subtype as string | null),
    filter: renderable(filter as string)!,
    filterValue: dropValue ? undefined : renderable(terraformLiteral(filterValue as string)),
    targetType: renderable(canonical.target_type as string)!,
    targetId: renderable((targetIdDeferred ? 0 : canonical.target_id) as number)!,
    provider: account?.alias ? account._provider : undefined,
  };
}

/** `target` given, but not made by AlertTarget. */
function notATargetProblem(given: unknown): Problem {
  return finding(
    `target is not an AlertTarget (got ${describeValue(given)}); give AlertTarget.domain('example.com'), AlertTarget.subdomain('www.example.com'), AlertTarget.domainId(id) or AlertTarget.subdomainId(id)`,
    'target',
    given,
  );
}

/**
 * The model's one rule (what parseAlert does after canonicalizing), each problem named after the
 * prop its field came from. Appended to `errors`: no list of its own to copy.
 */
function addModelProblems(
  errors: Problem[],
  canonical: Readonly<Record<string, unknown>>,
  sources: Readonly<Record<string, string>>,
  targetIdDeferred: boolean,
): void {
  for (const problem of validateAlert(canonical)) {
    const field = problem.field;
    // Unresolved values (e.g. a target id from a data source) are Terraform's to check.
    if (field === 'target_id' && targetIdDeferred) continue;
    if (Token.isUnresolved(canonical[field])) continue;
    const from = sources[field];
    errors.push({
      field: from ?? field,
      value: problem.value,
      allowed: problem.allowed,
      message: from ? `${problem.message} (from ${from})` : problem.message,
    });
  }
}
