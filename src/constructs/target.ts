import type { TargetType } from '../model/matrix';

/**
 * What an alert or a report trigger points at: a domain or a subdomain of the account,
 * given by its numeric id or by its name. A name is resolved through the
 * `networkcalc_domain` / `networkcalc_subdomain` data source (by Terraform at plan time, by
 * `ncalc` through the Domains API), created once per account and name.
 *
 * @example
 * AlertTarget.domain('example.com')
 * AlertTarget.subdomain('www.example.com')
 * AlertTarget.domainId(42)
 */
/** A target the app declares (a Domain or a Subdomain construct). */
export interface IDeclaredTarget {
  /** `domain` or `subdomain`. */
  readonly targetType: TargetType;
  /** Its canonical full name, when known. */
  readonly name?: string;
}

export class AlertTarget {
  /** A declared Domain or Subdomain of the account (the object itself works as a target too). */
  public static of(target: IDeclaredTarget): AlertTarget {
    const t = new AlertTarget(target.targetType, undefined, target.name);
    (t as { _declared?: IDeclaredTarget })._declared = target;
    return t;
  }

  /** A domain by its id, e.g. 42. */
  public static domainId(id: number): AlertTarget {
    return new AlertTarget('domain', id, undefined);
  }

  /** A subdomain by its id. */
  public static subdomainId(id: number): AlertTarget {
    return new AlertTarget('subdomain', id, undefined);
  }

  /** A domain of the account by name, e.g. `example.com`. */
  public static domain(name: string): AlertTarget {
    return new AlertTarget('domain', undefined, name);
  }

  /** A subdomain of the account by its full name, e.g. `www.example.com`. */
  public static subdomain(name: string): AlertTarget {
    return new AlertTarget('subdomain', undefined, name);
  }

  /** The wire value of `target_type`. */
  public readonly targetType: TargetType;
  /** The id, when the target was given by id. */
  public readonly id?: number;
  /** The name, when the target was given by name. */
  public readonly name?: string;

  private constructor(targetType: TargetType, id: number | undefined, name: string | undefined) {
    this.targetType = targetType;
    this.id = id;
    this.name = name;
  }

  /** For messages: `domain example.com`, `subdomain id 7`. */
  public toString(): string {
    return this.name !== undefined ? `${this.targetType} ${this.name}` : `${this.targetType} id ${this.id}`;
  }
}

/** Report triggers take the same targets as alerts. */
export { AlertTarget as ReportTarget };

/**
 * True for an {@link AlertTarget}, also from another copy of this package: an object with a
 * target type and an id or a name.
 * @internal
 */
export function isAlertTarget(x: unknown): x is AlertTarget {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Partial<AlertTarget>;
  return (t.targetType === 'domain' || t.targetType === 'subdomain') && ('id' in t || 'name' in t);
}
