import { Fn, Token } from '../cdk';
import { Construct } from 'constructs';
import { ReportTrigger as ReportTriggerResource } from '../gen/providers/networkcalc/report-trigger';
import { NetworkcalcAccount, resolveAccount } from './account';
import type { AccountOptions } from './alert';
import type { AlertTarget } from './target';
import { terraformLiteral } from './terraform-string';
import { ensureValidateFirst } from './validation';

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
  /** Link to the generated report (a token resolved at apply). @attribute */
  public readonly reportUrl: string;
  /** The account the trigger belongs to, if one could be found. */
  public readonly account?: NetworkcalcAccount;

  constructor(scope: Construct, id: string, props: ReportTriggerProps) {
    super(scope, id);
    ensureValidateFirst(this);

    const { account, problem } = resolveAccount(this, props.account);
    this.account = account;
    const target = props.target;

    let targetId: number | undefined = target?.id;
    if (target?.name !== undefined && account) {
      targetId = target.targetType === 'subdomain'
        ? account.lookupSubdomain(target.name).subdomainId
        : account.lookupDomain(target.name).domainId;
    }
    const isSubdomain = target?.targetType === 'subdomain';

    const resource = new ReportTriggerResource(this, 'Resource', {
      domainId: isSubdomain ? undefined : targetId,
      subdomainId: isSubdomain ? targetId : undefined,
      triggers: props.triggers ? mapValues(props.triggers, terraformLiteral) : { always: Fn.timestamp() },
      provider: account?.alias ? account._provider : undefined,
    });
    this.reportUrl = resource.reportUrl;

    this.node.addValidation({
      validate: () => {
        const errors: string[] = [];
        if (problem) errors.push(problem);
        if (!target || (target.targetType !== 'domain' && target.targetType !== 'subdomain')) {
          errors.push('target is missing; give AlertTarget.domain(name), AlertTarget.subdomain(name), AlertTarget.domainId(id) or AlertTarget.subdomainId(id)');
        } else if (target.name === undefined && !Token.isUnresolved(targetId)) {
          if (typeof targetId !== 'number' || !Number.isSafeInteger(targetId) || targetId < 1) {
            const field = isSubdomain ? 'subdomain_id' : 'domain_id';
            errors.push(`${field} ${JSON.stringify(targetId ?? null)} is not valid; give the positive whole-number id of the ${target.targetType} (from target)`);
          }
        }
        for (const [key, value] of Object.entries(props.triggers ?? {})) {
          if (typeof value !== 'string') {
            errors.push(`triggers.${key} ${JSON.stringify(value)} is not valid; trigger values are strings`);
          }
        }
        return errors;
      },
    });
  }
}

function mapValues<T>(record: Readonly<Record<string, T>>, f: (v: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}
