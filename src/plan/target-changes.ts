/**
 * Declared domains and subdomains against an account's one domains list: which the plan
 * creates. A target the plan creates has no id yet; until apply learns it, it stands in the
 * plan under a negative placeholder id (-1, -2, ...), which alert and trigger changes carry as
 * their target id and apply replaces by the real one.
 */
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { targetRefName, type DomainIndex } from './targets';
import type { LiveAlert } from '../model';
import { holderText } from './terraform-held';
import type { ApiDomain, Change, DeclaredTarget, HeldAlert, Scope } from './types';

/** A domain or subdomain the plan creates or deletes. */
export type TargetChange = TargetCreate | TargetDelete;

/** A domain or subdomain the plan creates. */
export interface TargetCreate {
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

/**
 * A live domain or subdomain an exclusive scope does not declare, or a declared one destroy
 * --include-targets deletes: apply deletes it after the alert changes, subdomains before domains. The service's answer for the alerts on a deleted
 * target is not documented; we assume it deletes them with it (`takes`), which is why a
 * delete is planned only when the plan deletes every live alert on it.
 */
export interface TargetDelete {
  action: 'delete';
  targetType: 'domain' | 'subdomain';
  name: string;
  /** The live id; for a subdomain, `domainId` is its domain's. */
  id: number;
  domainId: number | null;
  /** What we assume goes with it: the alerts on it (on its subdomains too) and, for a domain, its subdomains. */
  takes: { alerts: number; subdomains: number };
  /** The exclusive scope that owns the account's targets (destroy: the scope declaring it). */
  scopeKey: string;
  stack: string;
}

/** The flag that lets destroy delete the domains and subdomains the app declares. */
export const INCLUDE_TARGETS_FLAG = '--include-targets';

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
export function planTargetCreates(targets: readonly DeclaredTarget[], index: DomainIndex): TargetCreate[] {
  const changes: TargetCreate[] = [];
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

function where(t: DeclaredTarget): Pick<TargetCreate, 'scopeKey' | 'stack' | 'resource' | 'path'> {
  return { scopeKey: t.scopeKey, stack: t.stack, resource: t.resource, path: t.path };
}

/**
 * The account's live domains and subdomains that no declared target names, when the account
 * declares any: only an exclusive scope deletes them (planTargetDeletes); under prefix and
 * additive ownership the plan says they stay.
 */
export function undeclaredTargetsNote(
  targets: readonly DeclaredTarget[],
  domains: readonly ApiDomain[],
  index: DomainIndex,
): string | null {
  const left = undeclaredTargets(targets, domains, index).map((t) => t.name);
  if (!left.length) return null;
  const shown = left.slice(0, 5).join(', ') + (left.length > 5 ? ` and ${left.length - 5} more` : '');
  return `${left.length} domain${left.length === 1 ? '' : 's'} or subdomain${left.length === 1 ? '' : 's'} of the account the app does not declare (${shown}) ${left.length === 1 ? 'is' : 'are'} left in place: ncalc deletes targets under exclusive ownership only`;
}

/** A live domain or subdomain a delete may be planned for, with the scope it is deleted for. */
interface LiveTarget {
  targetType: 'domain' | 'subdomain';
  name: string;
  id: number;
  domainId: number | null;
  /** The domain (for a subdomain, its domain) as listed. */
  of: ApiDomain;
  scopeKey: string;
  stack: string;
}

/**
 * The live targets no declared target names (none when the account declares none), domains
 * in list order, each followed by its subdomains; `scope`: the exclusive scope that owns them.
 */
function undeclaredTargets(
  targets: readonly DeclaredTarget[],
  domains: readonly ApiDomain[],
  index: DomainIndex,
  scope: Pick<Scope, 'key' | 'stack'> = { key: '', stack: '' },
): LiveTarget[] {
  if (!targets.length) return [];
  const declared = new Set(targets.map((t) => fullNameOrNull(t, index)).filter((n) => n !== null));
  const where = { scopeKey: scope.key, stack: scope.stack };
  const out: LiveTarget[] = [];
  for (const d of domains) {
    if (d.id < 0) continue;
    if (!declared.has(d.domain.toLowerCase()))
      out.push({ targetType: 'domain', name: d.domain, id: d.id, domainId: null, of: d, ...where });
    for (const s of d.subdomains)
      if (!declared.has(s.subdomain.toLowerCase()))
        out.push({ targetType: 'subdomain', name: s.subdomain, id: s.id, domainId: d.id, of: d, ...where });
  }
  return out;
}

/** The declared targets the account has (destroy --include-targets deletes them), each for its own scope. */
function declaredLiveTargets(
  targets: readonly DeclaredTarget[],
  domains: readonly ApiDomain[],
  index: DomainIndex,
): LiveTarget[] {
  const byName = new Map<string, DeclaredTarget>();
  for (const t of targets) {
    const name = fullNameOrNull(t, index);
    if (name !== null) byName.set(`${t.targetType}:${name}`, t);
  }
  const out: LiveTarget[] = [];
  const where = (t: DeclaredTarget) => ({ scopeKey: t.scopeKey, stack: t.stack });
  for (const d of domains) {
    if (d.id < 0) continue;
    const td = byName.get(`domain:${d.domain.toLowerCase()}`);
    if (td) out.push({ targetType: 'domain', name: d.domain, id: d.id, domainId: null, of: d, ...where(td) });
    for (const s of d.subdomains) {
      const ts = byName.get(`subdomain:${s.subdomain.toLowerCase()}`);
      if (ts && s.id > 0)
        out.push({ targetType: 'subdomain', name: s.subdomain, id: s.id, domainId: d.id, of: d, ...where(ts) });
    }
  }
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `deletes domain example.com and, we assume, its 3 alerts and 2 subdomains`: what a planned delete takes. */
export function targetDeleteText(c: TargetDelete): string {
  const parts = [plural(c.takes.alerts, 'alert')];
  if (c.targetType === 'domain') parts.push(plural(c.takes.subdomains, 'subdomain'));
  if (!c.takes.alerts && !c.takes.subdomains) return `deletes ${c.targetType} ${c.name}`;
  return `deletes ${c.targetType} ${c.name} and, we assume, its ${parts.join(' and ')}`;
}

/**
 * The target deletes of a plan: an exclusive scope's undeclared live targets (`scope` given),
 * or, for destroy --include-targets (`scope` null), the declared targets the account has.
 * A domain's subdomains go before it, every subdomain before any domain. A delete is refused
 * (one sentence each; the account's plan then fails before any write) when an alert the plan
 * does not delete targets it, or one of a domain's subdomains; when a domain would take a
 * subdomain not deleted with it; or when a local Terraform state holds it.
 */
export function planTargetDeletes(
  scope: Scope | null,
  targets: readonly DeclaredTarget[],
  domains: readonly ApiDomain[],
  index: DomainIndex,
  live: readonly LiveAlert[],
  changes: readonly Change[],
  held: readonly HeldAlert[],
): { deletes: TargetDelete[]; refusals: string[] } {
  const undeclared = scope
    ? undeclaredTargets(targets, domains, index, scope)
    : declaredLiveTargets(targets, domains, index);
  const said = scope ? 'is not declared' : 'is declared (destroy --include-targets)';
  if (!undeclared.length) return { deletes: [], refusals: [] };
  // The alerts that stay after the plan: live ones it does not touch, and those it creates or edits (as edited).
  const deleted = new Set<number>();
  for (const c of changes) if (c.action !== 'create' && c.id !== null) deleted.add(c.id);
  const staying: Array<{ name: string; target_type: string; target_id: number }> = live.filter(
    (a) => !deleted.has(a.id),
  );
  for (const c of changes) if (c.after) staying.push({ ...c.after, name: c.name });
  const on = (type: string, ids: ReadonlySet<number>) =>
    live.filter((a) => a.target_type === type && ids.has(a.target_id));
  const deletes: TargetDelete[] = [];
  const refusals: string[] = [];
  const gone = new Set(undeclared.filter((t) => t.targetType === 'subdomain').map((t) => t.id));
  for (const t of undeclared) {
    const subIds = new Set(t.targetType === 'domain' ? t.of.subdomains.map((s) => s.id) : [t.id]);
    const domainIds = new Set(t.targetType === 'domain' ? [t.id] : []);
    const holds = (a: { target_type: string; target_id: number }) =>
      (a.target_type === 'domain' ? domainIds : subIds).has(a.target_id);
    const kept = staying.filter(holds);
    const holder = held.find(
      (h) =>
        h.kind === t.targetType && (h.id === t.id || (h.id === null && h.name?.toLowerCase() === t.name.toLowerCase())),
    );
    const what = `${t.targetType} ${t.name} (id ${t.id})`;
    const declaredSub =
      t.targetType === 'domain'
        ? (t.of.subdomains.find((s) => !gone.has(s.id)) ??
          // A declared subdomain this plan creates under it (by the domain's literal id).
          (scope ? newSubdomainOf(t.name, targets, index) : undefined))
        : undefined;
    if (declaredSub) {
      refusals.push(
        scope
          ? `${what} is not declared, but its subdomain ${declaredSub.subdomain} is, and deleting the domain would delete it; declare the domain`
          : `${what} is declared, but its subdomain ${declaredSub.subdomain} is not, and destroying the domain would delete it; declare the subdomain or delete it in NetworkCalc first`,
      );
      continue;
    }
    if (kept.length) {
      const names =
        kept
          .slice(0, 5)
          .map((a) => JSON.stringify(a.name))
          .join(', ') + (kept.length > 5 ? ` and ${kept.length - 5} more` : '');
      refusals.push(
        `${what} ${said}, but ${plural(kept.length, 'alert')} the plan keeps ${kept.length === 1 ? 'targets' : 'target'} it: ${names}; ${scope ? `declare the ${t.targetType}, or remove those alerts from the app first` : 'delete those alerts first (--all-in-scope deletes the undeclared ones of exclusive and prefix scopes)'}`,
      );
      continue;
    }
    if (holder) {
      refusals.push(
        `${what} ${said}, but ${holderText(holder)} holds it (${holder.address}); use one door for it: declare it in the app, or remove it with terraform`,
      );
      continue;
    }
    deletes.push({
      action: 'delete',
      targetType: t.targetType,
      name: t.name,
      id: t.id,
      domainId: t.domainId,
      takes: {
        alerts: on('domain', domainIds).length + on('subdomain', subIds).length,
        subdomains: t.targetType === 'domain' ? t.of.subdomains.length : 0,
      },
      scopeKey: t.scopeKey,
      stack: t.stack,
    });
  }
  deletes.sort((a, b) => (a.targetType === b.targetType ? 0 : a.targetType === 'subdomain' ? -1 : 1));
  return { deletes, refusals };
}

/** A declared subdomain of this domain that is not in the account's list yet (created by the plan). */
function newSubdomainOf(
  domain: string,
  targets: readonly DeclaredTarget[],
  index: DomainIndex,
): { subdomain: string } | undefined {
  const lower = domain.toLowerCase();
  for (const t of targets) {
    if (t.targetType !== 'subdomain') continue;
    const name = fullNameOrNull(t, index);
    if (name !== null && name.slice(t.prefix!.length + 1) === lower && (index.subdomains.get(name) ?? 0) < 0)
      return { subdomain: name };
  }
  return undefined;
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
export function withPlannedTargets(domains: readonly ApiDomain[], changes: readonly TargetCreate[]): ApiDomain[] {
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
