/**
 * What an alert or a report trigger targets: an id, or a data source's domain or subdomain by
 * name, and the provider configuration (scope) a resource names.
 */
import type { Problem } from '../model/problems';
import { hostNameProblem, normalizeHostName } from '../model';
import type { DeclaredTarget, Scope, TargetRef } from '../plan/types';
import { declaredRef, RESOURCE_REF } from './desired-declared';
import { type Json } from '../support/json';
import { holdsTemplate, unescapeTemplate } from '../support/terraform-template';

import { at, DATA_REF, templateProblem, str } from './desired-fields';

/** What the items of one stack are read against: its scopes and its data sources. */
export interface StackContext {
  stack: string;
  scopes: Scope[];
  domains: Record<string, Json>;
  subdomains: Record<string, Json>;
  /** The stack's declared domains and subdomains, by `networkcalc_domain.<id>`. */
  declared: Map<string, DeclaredTarget>;
  /** Where every problem found goes, in the order found. */
  problems: Problem[];
}

/** The scope a resource's `provider` names (the default provider when it names none). */
export function referencedScope(ctx: StackContext, where: string, provider: unknown): Scope | null {
  const key = provider === undefined || provider === null ? 'networkcalc' : String(provider);
  const scope = ctx.scopes.find((s) => s.providerKey === key);
  if (!scope) {
    const known = ctx.scopes.map((s) => s.providerKey).join(', ') || 'none';
    ctx.problems.push(
      at(
        where,
        `provider ${JSON.stringify(key)} is not configured in this stack (configured: ${known}); add a NetworkcalcAccount with that alias or fix the reference`,
      ),
    );
    return null;
  }
  return scope;
}

/** A target given as a reference to a domain or subdomain data source of the stack, by its name. */
export function dataSourceTarget(
  ctx: StackContext,
  where: string,
  field: string,
  source: string,
  id: string,
): TargetRef | null {
  const targetType = source === 'networkcalc_domain' ? 'domain' : 'subdomain';
  const data = (targetType === 'domain' ? ctx.domains : ctx.subdomains)[id];
  if (!data) {
    ctx.problems.push(at(where, `${field} refers to data.${source}.${id}, which this stack does not declare`));
    return null;
  }
  const rawName = str(data.name);
  if (rawName && holdsTemplate(rawName)) {
    ctx.problems.push(templateProblem(where, `the name of data.${source}.${id}`, rawName));
    return null;
  }
  const name = rawName && unescapeTemplate(rawName);
  if (!name) {
    ctx.problems.push(
      at(
        where,
        `data.${source}.${id} has no name; give the ${targetType} name, e.g. ${targetType === 'domain' ? 'example.com' : 'www.example.com'}`,
      ),
    );
    return null;
  }
  const nameProblem = hostNameProblem(targetType, name);
  if (nameProblem) {
    ctx.problems.push(at(where, `data.${source}.${id}: ${nameProblem}`));
    return null;
  }
  return { kind: 'name', targetType, name: normalizeHostName(name), dataSource: `data.${source}.${id}` };
}

/**
 * A target: a positive id (number or digits), a reference to a data source, or to a declared
 * domain or subdomain of the referrer's provider (`scopeKey`).
 */
export function readTarget(
  ctx: StackContext,
  where: string,
  value: unknown,
  field: string,
  scopeKey: string | null = null,
): TargetRef | null {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return { kind: 'id', id: value };
  if (typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) && Number(value) > 0)
    return { kind: 'id', id: Number(value) };
  if (typeof value === 'string') {
    const m = DATA_REF.exec(value.trim());
    if (m) return dataSourceTarget(ctx, where, field, m[1], m[2]);
    const r = RESOURCE_REF.exec(value.trim());
    if (r) return declaredRef(ctx.declared, where, field, `${r[1]}.${r[2]}`, scopeKey, ctx.problems);
  }
  ctx.problems.push(
    at(
      where,
      `${field} ${JSON.stringify(value)} is neither a positive id nor a reference to a networkcalc_domain / networkcalc_subdomain resource or data source`,
    ),
  );
  return null;
}
