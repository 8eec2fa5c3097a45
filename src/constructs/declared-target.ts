/**
 * Declared targets: a domain or subdomain the app makes (networkcalc_domain /
 * networkcalc_subdomain), so that an empty account is provisioned in one apply. An Alert,
 * AlertPolicy or ReportTrigger targets one by object (`target: shop`, `AlertTarget.of(shop)`)
 * or by name (`AlertTarget.domain('shop.example')` uses the declared Domain of its account
 * when there is one, the data source of an existing domain otherwise).
 */
import { Construct, type IConstruct } from 'constructs';
import { Token } from '../cdk';
import { Domain as DomainResource } from '../gen/providers/networkcalc/domain';
import { Subdomain as SubdomainResource } from '../gen/providers/networkcalc/subdomain';
import { hostNameProblem, normalizeHostName as targetKey, normalizePrefix, prefixProblem } from '../model/hostname';
import type { Problem } from '../model/problems';
import { resolveAccount, type NetworkcalcAccount } from './account';
import type { AlertTarget } from './target';
import { terraformLiteral } from './terraform-string';
import { addChecks, finding, propsObject } from './validation';

/** Props of a {@link Domain}. */
export interface DomainProps {
  /** The account it belongs to; default: the only account of the stack. */
  readonly account?: NetworkcalcAccount;
  /** Domain name, e.g. `example.com` (an internationalised name is sent as its A-label). */
  readonly name: string;
}

/** Props of a {@link Subdomain}. */
export interface SubdomainProps {
  /**
   * Its domain: a declared {@link Domain}, the name of a domain (the declared Domain of that
   * name in the account, else an existing one), or the id of an existing domain.
   */
  readonly domain: Domain | string | number;
  /** The part before the domain: `www`, or `my.demo` for my.demo.example.com. */
  readonly prefix: string;
  /** The account; default: the Domain's, else the only account of the stack. */
  readonly account?: NetworkcalcAccount;
}

type Declared = Domain | Subdomain;

/** The declared targets of each account: `domain:<name>` / `subdomain:<full name>` → the first declaration. */
const declared = new WeakMap<NetworkcalcAccount, Map<string, Declared>>();

function declare(account: NetworkcalcAccount, key: string, target: Declared, name: string): Problem[] {
  let map = declared.get(account);
  if (!map) declared.set(account, (map = new Map<string, Declared>()));
  const first = map.get(key);
  if (!first) {
    map.set(key, target);
    return [];
  }
  return [
    finding(
      `${key.split(':')[0]} ${JSON.stringify(name)} is declared twice in account ${account.node.path} (${first.node.path} and ${target.node.path}); a name identifies one ${key.split(':')[0]} within an account, so declare it once and pass that object where it is needed`,
      key.startsWith('domain:') ? 'name' : 'prefix',
      name,
    ),
  ];
}

/** The declared target of this kind and name in the account, if any. */
export function declaredTarget(
  account: NetworkcalcAccount,
  kind: 'domain' | 'subdomain',
  name: string,
): Declared | undefined {
  return declared.get(account)?.get(`${kind}:${targetKey(name)}`);
}

/**
 * The id an alert or report trigger of `account` writes for `target`: a declared object's
 * resource id, the declared target of its name, or the data source of an existing one.
 * @internal
 */
export function targetIdIn(account: NetworkcalcAccount, target: AlertTarget): number | undefined {
  const own = (target as { _declared?: Declared })._declared;
  if (own) return own._targetId;
  if (target.name === undefined) return target.id;
  const found = declaredTarget(account, target.targetType, target.name);
  if (found) return found._targetId;
  return target.targetType === 'subdomain'
    ? account.lookupSubdomain(target.name).subdomainId
    : account.lookupDomain(target.name).domainId;
}

/**
 * A problem when `target` is a declared object of another account than `account` (an
 * alert writes its target's id into the account it is made in).
 * @internal
 */
export function otherAccountProblem(account: NetworkcalcAccount | undefined, target: unknown): Problem[] {
  const own = (target as { _declared?: Declared } | undefined)?._declared;
  if (!own || !account || !own.account || own.account === account) return [];
  return [
    finding(
      `target ${own.node.path} belongs to account ${own.account.node.path}, not to ${account.node.path}; an alert or report targets a domain of its own account, so declare the target in ${account.node.path} too`,
      'target',
    ),
  ];
}

/** The account's provider when it has an alias (the default provider is written as no provider). */
const providerOf = (account: NetworkcalcAccount | undefined) => (account?.alias ? account._provider : undefined);

/** A lookup by name made before the declaration: what targeted it went to the data source. */
function declaredLate(account: NetworkcalcAccount, kind: 'domain' | 'subdomain', name: string): Problem[] {
  const lookupId = `${kind === 'domain' ? 'Domain' : 'Subdomain'} ${targetKey(name)}`;
  if (!account.node.tryFindChild(lookupId)) return [];
  return [
    finding(
      `${kind} ${JSON.stringify(name)} was named by a target before this declaration, so it was looked up as an existing ${kind}; declare the ${kind === 'domain' ? 'Domain' : 'Subdomain'} before the alerts, subdomains and reports that name it, or pass the object itself`,
      kind === 'domain' ? 'name' : 'prefix',
      name,
    ),
  ];
}

/**
 * A domain the app declares in its account: `networkcalc_domain`. Pass it as an alert's or a
 * report's target, or to a {@link Subdomain}.
 *
 * @example
 * const shop = new Domain(stack, 'Shop', { name: 'shop.example' });
 * new Alert(stack, 'Tls', { name: 'shop tls', target: shop, certificate: { expiresInDays: 14 } });
 */
export class Domain extends Construct {
  /** The domain name as given (trimmed). @attribute */
  public readonly domainName: string;
  /** What an alert's target_type says of it. */
  public readonly targetType = 'domain' as const;
  /** The name an alert target of it carries: its canonical form. */
  public readonly name: string;
  /** Its account; undefined when none could be resolved (reported as a problem). */
  public readonly account?: NetworkcalcAccount;
  /** @internal */
  public readonly _declared: Domain = this;
  private readonly resource: DomainResource;

  constructor(scope: Construct, id: string, props: DomainProps) {
    super(scope, id);
    const given = propsObject<DomainProps>(props, 'name');
    const p = given.props;
    const errors: Problem[] = given.problem ? [given.problem] : [];
    const { account, problem } = resolveAccount(this, p.account);
    if (problem) errors.push(finding(problem, 'account'));
    this.account = account;
    const raw = typeof p.name === 'string' ? p.name.trim() : '';
    const nameProblem =
      typeof p.name === 'string' ? hostNameProblem('domain', p.name) : 'give the domain name, e.g. example.com';
    if (nameProblem) errors.push(finding(nameProblem, 'name', p.name ?? null));
    this.domainName = raw;
    this.name = targetKey(raw) || raw;
    // Written in canonical form (lower case, the A-label), as ncalc and the provider compare it.
    this.resource = new DomainResource(this, 'Resource', {
      name: terraformLiteral(this.name),
      provider: providerOf(account),
    });
    if (account && !nameProblem) {
      errors.push(...declaredLate(account, 'domain', raw), ...declare(account, `domain:${this.name}`, this, raw));
    }
    addChecks(this, errors);
  }

  /** Id of the domain, known after it is created (a reference to the resource). @attribute */
  public get domainId(): number {
    return this._targetId;
  }

  /** @internal */
  public get _targetId(): number {
    return Token.asNumber(this.resource.id);
  }

  /** A subdomain of this domain, e.g. `shop.subdomain('www')`; one per prefix. */
  public subdomain(prefix: string): Subdomain {
    const id = `Subdomain ${typeof prefix === 'string' ? normalizePrefix(prefix) || prefix : String(prefix)}`;
    const known = this.node.tryFindChild(id);
    return known instanceof Subdomain ? known : new Subdomain(this, id, { domain: this, prefix });
  }
}

/**
 * A subdomain the app declares: `networkcalc_subdomain`, under a declared {@link Domain} or a
 * domain the account has.
 *
 * @example
 * const www = new Subdomain(stack, 'Www', { domain: shop, prefix: 'www' });
 */
export class Subdomain extends Construct {
  /** The prefix as given (trimmed). @attribute */
  public readonly prefix: string;
  public readonly targetType = 'subdomain' as const;
  /** Its full name when its domain is known by name (e.g. `www.shop.example`), else undefined. */
  public readonly name?: string;
  public readonly account?: NetworkcalcAccount;
  /** @internal */
  public readonly _declared: Subdomain = this;
  private readonly resource: SubdomainResource;

  constructor(scope: Construct, id: string, props: SubdomainProps) {
    super(scope, id);
    const given = propsObject<SubdomainProps>(props, 'domain and prefix');
    const p = given.props;
    const errors: Problem[] = given.problem ? [given.problem] : [];
    const parent = p.domain instanceof Domain ? p.domain : undefined;
    const { account, problem } = resolveAccount(this, p.account ?? parent?.account);
    if (problem) errors.push(finding(problem, 'account'));
    this.account = account;
    if (parent?.account && account && parent.account !== account) {
      errors.push(
        finding(
          `domain ${parent.node.path} belongs to account ${parent.account.node.path}, not to ${account.node.path}; a subdomain is made in the account of its domain, so leave account out or declare the domain in ${account.node.path}`,
          'domain',
        ),
      );
    }
    const raw = typeof p.prefix === 'string' ? p.prefix.trim() : '';
    this.prefix = raw;

    let domainId: number | undefined;
    let domainName: string | undefined;
    if (parent) {
      domainId = parent.domainId;
      domainName = parent.name;
    } else if (typeof p.domain === 'string') {
      domainName = targetKey(p.domain) || p.domain;
      const own = account && declaredTarget(account, 'domain', p.domain);
      domainId = own ? own._targetId : account?.lookupDomain(p.domain).domainId;
    } else if (typeof p.domain === 'number' && Number.isSafeInteger(p.domain) && p.domain > 0) {
      domainId = p.domain;
    } else {
      errors.push(
        finding(
          'domain must be a Domain, the name of a domain (e.g. example.com) or the id of one',
          'domain',
          p.domain ?? null,
        ),
      );
    }
    // Under a domain known by id only, the labels alone are checked (under a short stand-in).
    const prefixIssue = prefixProblem(p.prefix, domainName ?? 'example.com');
    if (prefixIssue) errors.push(finding(prefixIssue, 'prefix', p.prefix ?? null));
    this.name = domainName !== undefined && !prefixIssue ? `${normalizePrefix(raw)}.${domainName}` : undefined;
    this.resource = new SubdomainResource(this, 'Resource', {
      domainId: domainId ?? 0,
      prefix: terraformLiteral(normalizePrefix(raw) || raw),
      provider: providerOf(account),
    });
    if (account && this.name !== undefined) {
      errors.push(
        ...declaredLate(account, 'subdomain', this.name),
        ...declare(account, `subdomain:${this.name}`, this, this.name),
      );
    }
    addChecks(this, errors);
  }

  /** Id of the subdomain, known after it is created (a reference to the resource). @attribute */
  public get subdomainId(): number {
    return this._targetId;
  }

  /** @internal */
  public get _targetId(): number {
    return Token.asNumber(this.resource.id);
  }
}

/** True for a declared Domain or Subdomain, also from another copy of this package. @internal */
export function isDeclaredTarget(x: unknown): x is IConstruct & Declared {
  return typeof x === 'object' && x !== null && '_declared' in x && (x as { _declared: unknown })._declared === x;
}
