/**
 * The `networkcalc_domain` and `networkcalc_subdomain` resources of one stack, read into
 * declared targets; and references to them (`${networkcalc_domain.<id>.id}`) from alerts,
 * report triggers and subdomains.
 */
import { hostNameProblem, normalizeHostName, normalizePrefix, prefixProblem } from '../model';
import type { Problem } from '../model/problems';
import type { DeclaredTarget, DeclaredTargetRef, TargetRef } from '../plan/types';
import type { Json } from '../support/json';
import { holdsTemplate, unescapeTemplate } from '../support/terraform-template';

import { at, constructPath, str, templateProblem } from './desired-fields';

/** `${networkcalc_domain.<id>.id}` / `${networkcalc_subdomain.<id>.id}`: a declared target's id. */
export const RESOURCE_REF = /^\$\{\s*(networkcalc_domain|networkcalc_subdomain)\.([A-Za-z0-9_-]+)\.id\s*\}$/;

/** A literal string attribute, unescaped; a problem (recorded) for a template or a non-string. */
function literal(where: string, field: string, value: unknown, problems: Problem[]): string | null {
  const raw = str(value);
  if (raw !== null && holdsTemplate(raw)) {
    problems.push(templateProblem(where, field, raw));
    return null;
  }
  return raw === null ? null : unescapeTemplate(raw);
}

/** One `networkcalc_domain` resource; null when it has a problem (recorded). */
export function readDomainResource(
  stack: string,
  scopeKey: string | null,
  logicalId: string,
  body: Json,
  problems: Problem[],
): DeclaredTarget | null {
  const path = constructPath(body, stack, logicalId);
  const where = `stack ${stack}, domain ${path === `${stack}/${logicalId}` ? logicalId : path}`;
  const name = literal(where, 'name', body.name, problems);
  const problem = hostNameProblem('domain', name ?? body.name);
  if (problem) problems.push(at(where, problem, 'name', body.name));
  if (problem || name === null || scopeKey === null) return null;
  return {
    stack,
    logicalId,
    path,
    scopeKey,
    targetType: 'domain',
    resource: `networkcalc_domain.${logicalId}`,
    name: normalizeHostName(name),
    prefix: null,
    domain: null,
  };
}

/**
 * One `networkcalc_subdomain` resource, once the stack's domains are read (`domainOf` reads its
 * `domain_id`); null when it has a problem (recorded).
 */
export function readSubdomainResource(
  stack: string,
  scopeKey: string | null,
  logicalId: string,
  body: Json,
  domainOf: (where: string, value: unknown) => TargetRef | null,
  domainName: (ref: TargetRef) => string | null,
  problems: Problem[],
): DeclaredTarget | null {
  const path = constructPath(body, stack, logicalId);
  const where = `stack ${stack}, subdomain ${path === `${stack}/${logicalId}` ? logicalId : path}`;
  const domain = domainOf(where, body.domain_id);
  if (domain && domain.kind !== 'id' && domain.targetType !== 'domain') {
    problems.push(at(where, `domain_id refers to a subdomain; give a networkcalc_domain's id`, 'domain_id'));
    return null;
  }
  const prefix = literal(where, 'prefix', body.prefix, problems);
  const parent = domain ? domainName(domain) : null;
  // Under a domain given by id, the name is not known before the plan: the label rules only.
  const problem = prefixProblem(prefix ?? body.prefix, parent ?? 'example.com');
  if (problem) problems.push(at(where, problem, 'prefix', body.prefix));
  if (problem || prefix === null || !domain || scopeKey === null) return null;
  const canonical = normalizePrefix(prefix);
  return {
    stack,
    logicalId,
    path,
    scopeKey,
    targetType: 'subdomain',
    resource: `networkcalc_subdomain.${logicalId}`,
    name: parent === null ? null : `${canonical}.${parent}`,
    prefix: canonical,
    domain,
  };
}

/**
 * A reference to a declared target of the stack, checked: declared, of the same provider
 * (account) as the referrer. Null with a problem recorded otherwise.
 */
export function declaredRef(
  declared: ReadonlyMap<string, DeclaredTarget>,
  where: string,
  field: string,
  resource: string,
  referrerScope: string | null,
  problems: Problem[],
): DeclaredTargetRef | null {
  const target = declared.get(resource);
  if (!target) {
    problems.push(
      at(where, `${field} refers to ${resource}, which this stack does not declare (or which has a problem above)`),
    );
    return null;
  }
  if (referrerScope !== null && target.scopeKey !== referrerScope) {
    problems.push(
      at(
        where,
        `${field} refers to ${resource} of provider ${target.scopeKey.slice(target.stack.length + 1)}, another account than this one's; declare the target with the same provider`,
      ),
    );
    return null;
  }
  const under =
    target.name === null && target.domain?.kind === 'id' && target.prefix !== null
      ? { under: { domainId: target.domain.id, prefix: target.prefix } }
      : {};
  return { kind: 'declared', targetType: target.targetType, name: target.name, resource, ...under };
}

/** Two declarations of one domain or subdomain name in one account cannot both be honoured. */
export function duplicateTargetProblems(targets: readonly DeclaredTarget[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, DeclaredTarget>();
  for (const t of targets) {
    if (t.name === null) continue;
    const k = `${t.scopeKey}\u0000${t.targetType}\u0000${t.name}`;
    const prior = seen.get(k);
    if (prior) {
      problems.push(
        at(
          `stack ${t.stack}, ${t.targetType} ${t.path}`,
          `${prior.targetType} ${JSON.stringify(t.name)} is declared twice for provider ${t.scopeKey.slice(t.stack.length + 1)} (${prior.path} and ${t.path}); declare it once and refer to it`,
        ),
      );
    } else seen.set(k, t);
  }
  return problems;
}
