import { Fn, Token } from '../cdk';
import { Construct } from 'constructs';
import { ReportTrigger as ReportTriggerResource } from '../gen/providers/networkcalc/report-trigger';
import { type NetworkcalcAccount, resolveAccount } from './account';
import type { AccountOptions } from './alert';
import { isAlertTarget, type AlertTarget } from './target';
import { terraformLiteral } from './terraform-string';
import { addChecks, ensureValidateFirst, finding, propsObject, renderable, type Finding } from './validation';

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
   * @default - a new report on every apply (`{ always: "${timestamp()}" }`)
   * @example { release: '2024-06' }
   */
  readonly triggers?: Readonly<Record<string, string>>;
}

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
    const { account, problem } = resolveAccount(this, p.account);
    this.account = account;
    const target = isAlertTarget(p.target) ? p.target : undefined;
    const triggers = p.triggers;
    const triggersObject = typeof triggers === 'object' && triggers !== null && !Array.isArray(triggers);

    let targetId: number | undefined = target?.id;
    if (target?.name !== undefined && account) {
      targetId =
        target.targetType === 'subdomain'
          ? account.lookupSubdomain(target.name).subdomainId
          : account.lookupDomain(target.name).domainId;
    }
    const isSubdomain = target?.targetType === 'subdomain';

    this.resource = new ReportTriggerResource(this, 'Resource', {
      domainId: isSubdomain ? undefined : renderable(targetId),
      subdomainId: isSubdomain ? renderable(targetId) : undefined,
      triggers: triggersObject
        ? mapValues(triggers, (v) => renderable(terraformLiteral(v))!)
        : { always: Fn.timestamp() },
      provider: account?.alias ? account._provider : undefined,
    });

    // Found now: they depend only on the props and the account, both fixed from here on.
    addChecks(
      this,
      (() => {
        if (given.problem) return [given.problem];
        const errors: Finding[] = [];
        if (problem) errors.push(finding(problem, 'account'));
        if (!target) {
          const got =
            p.target === undefined || p.target === null
              ? 'is missing'
              : `${JSON.stringify(p.target) ?? String(p.target)} is not an AlertTarget`;
          errors.push(
            finding(
              `target ${got}; give AlertTarget.domain(name), AlertTarget.subdomain(name), AlertTarget.domainId(id) or AlertTarget.subdomainId(id)`,
              'target',
              p.target ?? null,
            ),
          );
        } else if (target.name === undefined && !Token.isUnresolved(targetId)) {
          if (typeof targetId !== 'number' || !Number.isSafeInteger(targetId) || targetId < 1) {
            const field = isSubdomain ? 'subdomain_id' : 'domain_id';
            errors.push(
              finding(
                `${field} ${JSON.stringify(targetId ?? null)} is not valid; give the positive whole-number id of the ${target.targetType} (from target)`,
                'target',
                targetId ?? null,
              ),
            );
          }
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
      })(),
    );
  }
}

function mapValues<T>(record: Readonly<Record<string, T>>, f: (v: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
