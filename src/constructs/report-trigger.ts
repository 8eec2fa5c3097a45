import { otherAccountProblem, targetIdIn } from './declared-target';
import { createHash } from 'node:crypto';
import { Fn, Lazy, TerraformStack, Token } from '../cdk';
import { normalizeHostName } from '../model/hostname';
import { Alert } from './alert';
import { Construct } from 'constructs';
import { ReportTrigger as ReportTriggerResource } from '../gen/providers/networkcalc/report-trigger';
import { type NetworkcalcAccount, resolveAccount } from './account';
import type { AccountOptions } from './alert';
import { isAlertTarget, type AlertTarget } from './target';
import { terraformLiteral } from './terraform-string';
import type { Problem } from '../model/problems';
import { addChecks, ensureValidateFirst, finding, propsObject, renderable, unknownProps } from './validation';
import { isObject } from '../support/json';

/** Props of a {@link ReportTrigger}. */
export interface ReportTriggerProps extends AccountOptions {
  /**
   * The domain or subdomain to report on.
   *
   * @example ReportTarget.domain('example.com')
   */
  readonly target: AlertTarget;

  /**
   * Arbitrary values; a new report is generated when the trigger is created and whenever
   * one of them changes. Give `{}` for one report at creation only.
   *
   * @default - a new report when the trigger is created and whenever the alerts this stack
   * declares for the same target (in the same account) change: `{ alerts: "<digest>" }`
   * @example { release: '2024-06' }
   */
  readonly triggers?: Readonly<Record<string, string>>;

  /**
   * A new report on every apply (`{ always: "${timestamp()}" }`): every plan then shows the
   * trigger as replaced, so `terraform plan -detailed-exitcode` never exits 0. Not with
   * `triggers`.
   *
   * @default false
   */
  readonly everyApply?: boolean;
}

const TRIGGER_PROPS: Record<keyof ReportTriggerProps, true> = {
  target: true,
  triggers: true,
  everyApply: true,
  account: true,
};

/** The trigger key of the default: a digest of the alerts of the target. */
export const ALERTS_TRIGGER_KEY = 'alerts';
/** The trigger key of `everyApply`; `ncalc` runs a trigger holding `${timestamp()}` on every apply. */
export const EVERY_APPLY_TRIGGER_KEY = 'always';

/**
 * Triggers an on-demand report for a domain or subdomain (`networkcalc_report_trigger`,
 * child id `Resource`). `ncalc apply` runs it after the alerts of its account converge and
 * prints the report URL.
 *
 * @example
 * const report = new ReportTrigger(this, 'Report', { target: ReportTarget.domain('example.com') });
 * new TerraformOutput(this, 'ReportUrl', { value: report.reportUrl });
 */
export class ReportTrigger extends Construct {
  /** The account the trigger belongs to, if one could be found. */
  public readonly account?: NetworkcalcAccount;
  private readonly resource: ReportTriggerResource;

  /** Link to the generated report (a token resolved at apply; read when asked for, like every attribute). @attribute */
  public get reportUrl(): string {
    return this.resource.reportUrl;
  }

  constructor(scope: Construct, id: string, props: ReportTriggerProps) {
    super(scope, id);
    ensureValidateFirst(this);

    const given = propsObject<ReportTriggerProps>(props, 'target, and optionally triggers and account');
    const p = given.props;
    // A subclass may pass props of its own.
    const unknown = new.target === ReportTrigger && !given.problem ? unknownProps(p, TRIGGER_PROPS) : [];
    const { account, problem } = resolveAccount(this, p.account);
    this.account = account;
    const target = isAlertTarget(p.target) ? p.target : undefined;
    const triggers = p.triggers;
    const triggersObject = isObject(triggers);

    const targetId = target && account ? targetIdIn(account, target) : target?.id;
    const isSubdomain = target?.targetType === 'subdomain';

    this.resource = new ReportTriggerResource(this, 'Resource', {
      domainId: isSubdomain ? undefined : renderable(targetId),
      subdomainId: isSubdomain ? renderable(targetId) : undefined,
      triggers: triggersObject
        ? mapValues(triggers, (v) => renderable(terraformLiteral(v))!)
        : p.everyApply === true
          ? { [EVERY_APPLY_TRIGGER_KEY]: Fn.timestamp() }
          : // Read at synthesis: alerts declared after the trigger count too.
            { [ALERTS_TRIGGER_KEY]: Lazy.stringValue({ produce: () => alertsDigest(this, target) }) },
      provider: account?.alias ? account._provider : undefined,
    });
    // Written after the alerts of its target, so the report reflects them (terraform would
    // otherwise create or replace it alongside their writes). Read at synthesis, as the digest.
    this.resource.dependsOn = Lazy.listValue(
      { produce: () => targetAlerts(this, target).map((a) => a._terraformAddress()) },
      { omitEmpty: true },
    );

    // Found now: they depend only on the props and the account, both fixed from here on.
    addChecks(
      this,
      given.problem
        ? [given.problem]
        : [
            ...unknown,
            ...(problem ? [finding(problem, 'account')] : []),
            ...otherAccountProblem(account, p.target),
            ...targetProblems(p.target, target, targetId),
            ...triggerProblems(p),
          ],
    );
  }
}

/** The target: missing, not an AlertTarget, or an id that is not one. */
function targetProblems(given: unknown, target: AlertTarget | undefined, targetId: number | undefined): Problem[] {
  if (!target) {
    const got =
      given === undefined || given === null
        ? 'is missing'
        : `${JSON.stringify(given) ?? String(given)} is not an AlertTarget`;
    return [
      finding(
        `target ${got}; give AlertTarget.domain(name), AlertTarget.subdomain(name), AlertTarget.domainId(id) or AlertTarget.subdomainId(id)`,
        'target',
        given ?? null,
      ),
    ];
  }
  if (target.name !== undefined || Token.isUnresolved(targetId)) return [];
  if (typeof targetId === 'number' && Number.isSafeInteger(targetId) && targetId >= 1) return [];
  const field = target.targetType === 'subdomain' ? 'subdomain_id' : 'domain_id';
  return [
    finding(
      `${field} ${JSON.stringify(targetId ?? null)} is not valid; give the positive whole-number id of the ${target.targetType} (from target)`,
      'target',
      targetId ?? null,
    ),
  ];
}

/** `everyApply` and `triggers`: their types, and not both. */
function triggerProblems(p: Partial<ReportTriggerProps>): Problem[] {
  const errors: Problem[] = [];
  const triggers = p.triggers;
  const triggersObject = isObject(triggers);
  if (p.everyApply !== undefined && typeof p.everyApply !== 'boolean') {
    errors.push(
      finding(
        `everyApply ${JSON.stringify(p.everyApply)} is not valid; give true or false`,
        'everyApply',
        p.everyApply,
      ),
    );
  } else if (p.everyApply === true && triggers !== undefined && triggers !== null) {
    errors.push(
      finding(
        'everyApply and triggers cannot both be given; everyApply already makes a new report on every apply',
        'everyApply',
        true,
      ),
    );
  }
  if (triggers !== undefined && triggers !== null && !triggersObject) {
    errors.push(
      finding(
        `triggers ${JSON.stringify(triggers)} is not valid; give an object of strings, e.g. { release: '2024-06' }`,
        'triggers',
        triggers,
      ),
    );
  }
  for (const [key, value] of Object.entries(triggersObject ? triggers : {})) {
    if (typeof value !== 'string') {
      errors.push(
        finding(
          `triggers.${key} ${JSON.stringify(value)} is not valid; trigger values are strings`,
          `triggers.${key}`,
          value,
        ),
      );
    }
  }
  return errors;
}

/** A target as written, so that two ways of writing one name compare equal. */
function targetKey(target: AlertTarget): string {
  return `${target.targetType}:${target.name !== undefined ? normalizeHostName(target.name) : `#${String(target.id)}`}`;
}

/** The alerts this trigger's stack declares for its target in its account, in declaration order. */
function targetAlerts(trigger: ReportTrigger, target: AlertTarget | undefined): Alert[] {
  if (!target) return [];
  const key = targetKey(target);
  const found: Alert[] = [];
  for (const c of TerraformStack.of(trigger).node.findAll()) {
    if (!(c instanceof Alert) || c.account !== trigger.account || !c._declared) continue;
    if (targetKey(c._declared.target) === key) found.push(c);
  }
  return found;
}

/**
 * The digest of the alerts this trigger's stack declares for its target in its account:
 * their names and canonical values, sorted. Equal declarations give an equal digest in every
 * synthesis, so a plan with nothing changed leaves the trigger alone.
 */
function alertsDigest(trigger: ReportTrigger, target: AlertTarget | undefined): string {
  const declared = targetAlerts(trigger, target).map((c) => {
    const v = c._declared!.values;
    return JSON.stringify([v.name, v.type, v.subtype, v.filter, v.filter_value]);
  });
  return createHash('sha256').update(declared.sort().join('\n')).digest('hex').slice(0, 32);
}

function mapValues<T>(record: Readonly<Record<string, T>>, f: (v: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
