/**
 * Declared domains and subdomains against an account's one domains list: which the plan
 * creates. A target the plan creates has no id yet; until apply learns it, it stands in the
 * plan under a negative placeholder id (-1, -2, ...), which alert and trigger changes carry as
 * their target id and apply replaces by the real one.
 */
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { targetRefName, type DomainIndex } from './targets';
import type { ApiDomain, DeclaredTarget } from './types';

/** A domain or subdomain the plan creates (deletes of targets are not planned yet). */
export interface TargetChange {
  action: 'create';
  targetType: 'domain' | 'subdomain';
  /** Its full canonical name (`www.example.com`). */
  name: string;
  /** The placeholder id alert and trigger changes of this plan carry for it (negative). */
  placeholderId: number;
  /** A subdomain's prefix and its domain: the live id, or the placeholder of a domain this plan creates. */
  prefix: string | null;
  domainId: number | null;
  scopeKey: string;
  stack: string;
  /** `networkcalc_domain.<id>` and its construct path. */
  resource: string;
  path: string;
}

/** True for an id standing for a target the plan creates. */
export const isPlaceholderId = (id: number): boolean => id < 0;

/** The name of a declared target, its domain's name taken from the list for a subdomain under a literal id. */
function fullName(t: DeclaredTarget, index: DomainIndex): string {
  if (t.name !== null) return t.name;
  const name = targetRefName(
    {
      kind: 'declared',
      targetType: 'subdomain',
      name: null,
      resource: t.resource,
      under: { domainId: t.domain?.kind === 'id' ? t.domain.id : 0, prefix: t.prefix ?? '' },
    },
    index,
  );
  if (name === null) {
    const id = t.domain?.kind === 'id' ? t.domain.id : 0;
    throw new ConfigError({
      problems: [
        sentence(
          `subdomain ${t.path}: its domain_id ${id} is not a domain of this account; give the id of one of its domains or declare the domain`,
        ),
      ],
    });
  }
  return name;
}

/**
 * The creates of the declared targets the account lacks, domains before subdomains, and the
 * index extended by their placeholder ids (so alert and trigger targets resolve as usual).
 * `index` is the account's domains list, indexed; it is changed in place.
 */
export function planTargetCreates(targets: readonly DeclaredTarget[], index: DomainIndex): TargetChange[] {
  const changes: TargetChange[] = [];
  const base = { action: 'create' as const };
  for (const t of targets.filter((x) => x.targetType === 'domain')) {
    const name = fullName(t, index);
    if (index.domains.has(name)) continue;
    const placeholderId = -(changes.length + 1);
    changes.push({ ...base, ...where(t), targetType: 'domain', name, placeholderId, prefix: null, domainId: null });
    index.domains.set(name, placeholderId);
    index.names.set(`domain:${placeholderId}`, name);
  }
  for (const t of targets.filter((x) => x.targetType === 'subdomain')) {
    const name = fullName(t, index);
    if (index.subdomains.has(name)) continue;
    const domainName = name.slice(t.prefix!.length + 1);
    const domainId = index.domains.get(domainName);
    if (domainId === undefined) {
      throw new ConfigError({
        problems: [
          sentence(
            `subdomain ${t.path}: its domain ${JSON.stringify(domainName)} is not in this account and not declared; declare it or add it in NetworkCalc`,
          ),
        ],
      });
    }
    const placeholderId = -(changes.length + 1);
    changes.push({ ...base, ...where(t), targetType: 'subdomain', name, placeholderId, prefix: t.prefix, domainId });
    index.subdomains.set(name, placeholderId);
    index.names.set(`subdomain:${placeholderId}`, name);
  }
  return changes;
}

function where(t: DeclaredTarget): Pick<TargetChange, 'scopeKey' | 'stack' | 'resource' | 'path'> {
  return { scopeKey: t.scopeKey, stack: t.stack, resource: t.resource, path: t.path };
}

/**
 * The account's live domains and subdomains that no declared target names, when the account
 * declares any: ncalc deletes no target, in any ownership mode, so the plan says they stay.
 */
export function undeclaredTargetsNote(
  targets: readonly DeclaredTarget[],
  domains: readonly ApiDomain[],
  index: DomainIndex,
): string | null {
  if (!targets.length) return null;
  const declared = new Set(targets.map((t) => fullNameOrNull(t, index)).filter((n) => n !== null));
  const left: string[] = [];
  for (const d of domains) {
    if (!declared.has(d.domain.toLowerCase())) left.push(d.domain);
    for (const s of d.subdomains) if (!declared.has(s.subdomain.toLowerCase())) left.push(s.subdomain);
  }
  if (!left.length) return null;
  const shown = left.slice(0, 5).join(', ') + (left.length > 5 ? ` and ${left.length - 5} more` : '');
  return `${left.length} domain${left.length === 1 ? '' : 's'} or subdomain${left.length === 1 ? '' : 's'} of the account the app does not declare (${shown}) ${left.length === 1 ? 'is' : 'are'} left in place: ncalc does not delete targets`;
}

export function fullNameOrNull(t: DeclaredTarget, index: DomainIndex): string | null {
  try {
    return fullName(t, index);
  } catch {
    return null;
  }
}

/**
 * The account's domains list with the targets the plan creates added under their placeholder
 * ids: what alert policies expand over, so a policy over a declared domain plans its alerts.
 */
export function withPlannedTargets(domains: readonly ApiDomain[], changes: readonly TargetChange[]): ApiDomain[] {
  if (!changes.length) return [...domains];
  const out = domains.map((d) => ({ ...d, subdomains: [...d.subdomains] }));
  for (const c of changes)
    if (c.targetType === 'domain') out.push({ id: c.placeholderId, domain: c.name, subdomains: [] });
  for (const c of changes) {
    if (c.targetType !== 'subdomain') continue;
    out
      .find((d) => d.id === c.domainId)
      ?.subdomains.push({ id: c.placeholderId, domain_id: c.domainId!, prefix: c.prefix!, subdomain: c.name });
  }
  return out;
}
