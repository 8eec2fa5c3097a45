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
 * A domain of the account, looked up by name through the `networkcalc_domain` data source.
 * Created by {@link NetworkcalcAccount.lookupDomain}, once per account and name.
 */
export class DomainLookup extends Construct {
  /** The domain name as looked up. @attribute */
  public readonly domainName: string;
  private readonly resource: DataNetworkcalcDomain;
  private id?: number;

  /** @internal */
  constructor(scope: Construct, id: string, name: string, provider: TerraformProvider | undefined) {
    super(scope, id);
    this.domainName = name;
    this.resource = new DataNetworkcalcDomain(this, 'Resource', { name: terraformLiteral(name), provider });
  }

  /** Id of the domain, resolved at plan time (a token, made once when first asked for). @attribute */
  public get domainId(): number {
    // Every alert of this target reads it: one token, not one per alert.
    return (this.id ??= this.resource.id);
  }
}

/**
 * A subdomain of the account, looked up by its full name through the
 * `networkcalc_subdomain` data source. Created by {@link NetworkcalcAccount.lookupSubdomain}.
 */
export class SubdomainLookup extends Construct {
  /** The full subdomain name as looked up. @attribute */
  public readonly subdomainName: string;
  private readonly resource: DataNetworkcalcSubdomain;
  private id?: number;

  /** @internal */
  constructor(scope: Construct, id: string, name: string, provider: TerraformProvider | undefined) {
    super(scope, id);
    this.subdomainName = name;
    this.resource = new DataNetworkcalcSubdomain(this, 'Resource', { name: terraformLiteral(name), provider });
  }

  /** Id of the subdomain, resolved at plan time (a token, made once when first asked for). @attribute */
  public get subdomainId(): number {
    // Every alert of this target reads it: one token, not one per alert.
    return (this.id ??= this.resource.id);
  }
}
