import { Construct } from 'constructs';
import { DataNetworkcalcDomain } from '../gen/providers/networkcalc/data-networkcalc-domain';
import { DataNetworkcalcSubdomain } from '../gen/providers/networkcalc/data-networkcalc-subdomain';
import type { TerraformProvider } from '../cdk';
import { hostNameProblem, normalizeHostName } from '../model/hostname';
import { terraformLiteral } from './terraform-string';

/** Problems with a domain or subdomain name, as sentences; empty when it is usable. */
export function domainNameProblems(what: 'domain' | 'subdomain', name: unknown): string[] {
  const problem = hostNameProblem(what, name);
  return problem ? [problem] : [];
}

/** The key under which a name is looked up once per account: its canonical form. */
export function lookupKey(name: string): string {
  return normalizeHostName(name);
}

/**
 * What the two look-ups share: a data source read by name under the id `Resource`, and its id
 * made a token once (every alert of the target reads it: one token, not one per alert).
 */
abstract class TargetLookup extends Construct {
  private readonly resource: { readonly id: number };
  private id?: number;

  /** @internal Its parameters name generated and cdktf types: kept out of the published types, as the subclasses' are. */
  protected constructor(
    scope: Construct,
    id: string,
    source: typeof DataNetworkcalcDomain | typeof DataNetworkcalcSubdomain,
    name: string,
    provider: TerraformProvider | undefined,
  ) {
    super(scope, id);
    this.resource = new source(this, 'Resource', { name: terraformLiteral(name), provider });
  }

  /**
   * The target's id, resolved at plan time.
   * @internal
   */
  protected get _targetId(): number {
    return (this.id ??= this.resource.id);
  }
}

/**
 * A domain of the account, looked up by name through the `networkcalc_domain` data source.
 * Created by {@link NetworkcalcAccount.lookupDomain}, once per account and name.
 */
export class DomainLookup extends TargetLookup {
  /** The domain name as looked up. @attribute */
  public readonly domainName: string;

  /** @internal */
  constructor(scope: Construct, id: string, name: string, provider: TerraformProvider | undefined) {
    super(scope, id, DataNetworkcalcDomain, name, provider);
    this.domainName = name;
  }

  /** Id of the domain, resolved at plan time (a token, made once when first asked for). @attribute */
  public get domainId(): number {
    return this._targetId;
  }
}

/**
 * A subdomain of the account, looked up by its full name through the
 * `networkcalc_subdomain` data source. Created by {@link NetworkcalcAccount.lookupSubdomain}.
 */
export class SubdomainLookup extends TargetLookup {
  /** The full subdomain name as looked up. @attribute */
  public readonly subdomainName: string;

  /** @internal */
  constructor(scope: Construct, id: string, name: string, provider: TerraformProvider | undefined) {
    super(scope, id, DataNetworkcalcSubdomain, name, provider);
    this.subdomainName = name;
  }

  /** Id of the subdomain, resolved at plan time (a token, made once when first asked for). @attribute */
  public get subdomainId(): number {
    return this._targetId;
  }
}
