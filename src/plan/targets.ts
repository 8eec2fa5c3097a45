import type { AlertSpec, LiveAlert } from '../model';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import type { ApiDomain, TargetRef } from './types';

/** An account's domains and subdomains by name, and their names by `domain:1` / `subdomain:2`. */
export interface DomainIndex {
  domains: Map<string, number>;
  subdomains: Map<string, number>;
  names: Map<string, string>;
}

export function indexDomains(domains: readonly ApiDomain[]): DomainIndex {
  const index: DomainIndex = { domains: new Map(), subdomains: new Map(), names: new Map() };
  for (const d of domains) {
    index.domains.set(d.domain.toLowerCase(), d.id);
    index.names.set(`domain:${d.id}`, d.domain);
    for (const s of d.subdomains) {
      index.subdomains.set(s.subdomain.toLowerCase(), s.id);
      index.names.set(`subdomain:${s.id}`, s.subdomain);
    }
  }
  return index;
}

/** The target id of a reference: given, or looked up by name (`index` is set whenever a name is used). */
export function resolveTarget(ref: TargetRef, index: DomainIndex | null, where: string): number {
  if (ref.kind === 'id') return ref.id;
  const map = ref.targetType === 'domain' ? index!.domains : index!.subdomains;
  const name = targetRefName(ref, index);
  const id = name === null ? undefined : map.get(name);
  if (id === undefined) {
    const known = [...map.keys()].sort().join(', ') || 'none';
    const source = ref.kind === 'name' ? ref.dataSource : ref.resource;
    const fix =
      ref.kind === 'name'
        ? 'add it in NetworkCalc or fix the name'
        : 'it is declared but not in the account yet: run ncalc apply to create it first';
    throw new ConfigError({
      problems: [
        sentence(
          `${where}: ${ref.targetType} ${JSON.stringify(name ?? source)} (${source}) is not in this account (its ${ref.targetType}s: ${known}); ${fix}`,
        ),
      ],
    });
  }
  return id;
}

/**
 * The full name a name or declared reference stands for; a subdomain declared under a domain
 * given by id takes the domain's name from the account's list (null while it has none).
 */
export function targetRefName(ref: Exclude<TargetRef, { kind: 'id' }>, index: DomainIndex | null): string | null {
  if (ref.name !== null) return ref.name;
  if (ref.kind !== 'declared' || !ref.under) return null;
  const parent = index?.names.get(`domain:${ref.under.domainId}`);
  return parent === undefined ? null : `${ref.under.prefix}.${parent.toLowerCase()}`;
}

export type TargetNames = ReadonlyMap<string, string>;

/**
 * Names of the domains and subdomains an account's plan knows, keyed `domain:1`: from the
 * domains list (when names were resolved) and from the live alerts' target details. Used
 * only to annotate target ids; no call is made for it.
 */
export function targetNames(p: { domains: readonly ApiDomain[] | null; live: readonly LiveAlert[] }): TargetNames {
  const names = new Map<string, string>();
  for (const d of p.domains ?? []) {
    names.set(`domain:${d.id}`, d.domain);
    for (const sub of d.subdomains) names.set(`subdomain:${sub.id}`, sub.subdomain);
  }
  for (const a of p.live) {
    const detail = a.target_subdomain ?? a.target_domain;
    const name =
      detail &&
      [detail.subdomain, detail.domain, detail.name].find((n): n is string => typeof n === 'string' && n !== '');
    if (name && !names.has(`${a.target_type}:${a.target_id}`)) names.set(`${a.target_type}:${a.target_id}`, name);
  }
  return names;
}

/** `www.example.com` for a spec's target, when its name is known. */
export function targetNameOf(spec: AlertSpec | null, names: TargetNames | undefined): string | undefined {
  return spec ? names?.get(`${spec.target_type}:${spec.target_id}`) : undefined;
}
