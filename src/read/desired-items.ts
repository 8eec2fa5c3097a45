/**
 * One `networkcalc_alert` or `networkcalc_report_trigger` resource read into a declaration.
 */
import { jsonKind, jsonPath } from '../support/describe';
import type { Problem } from '../model/problems';
import { parseAlert } from '../model';
import type { DeclaredAlert, DeclaredTrigger, TargetRef } from '../plan/types';
import { isObject, type Json } from '../support/json';
import { holdsTemplate, unescapeTemplate } from '../support/terraform-template';

import { at, constructPath, literalStrings } from './desired-fields';
import { type StackContext, referencedScope, readTarget } from './desired-targets';

/** What a message calls a reference: the data source or the resource it names. */
function refName(target: Exclude<TargetRef, { kind: 'id' }>): string {
  return target.kind === 'name' ? target.dataSource : target.resource;
}

export const ALERT_STRINGS = ['name', 'type', 'subtype', 'filter', 'filter_value', 'target_type'] as const;

/** One `networkcalc_alert` resource; null when it has a problem (recorded). */
export function readAlertItem(ctx: StackContext, logicalId: string, body: Json): DeclaredAlert | null {
  const { stack, problems } = ctx;
  const path = constructPath(body, stack, logicalId);
  const where = `stack ${stack}, alert ${path === `${stack}/${logicalId}` ? logicalId : path}`;
  const scopeKey = referencedScope(ctx, where, body.provider)?.key;
  const target = readTarget(ctx, where, body.target_id, 'target_id', scopeKey ?? null);
  const before = problems.length;
  const literal = literalStrings(body, ALERT_STRINGS, where, problems);
  if (problems.length > before) return null;
  // A name target validates with a stand-in id; the real one comes from the Domains API.
  const result = parseAlert({ ...literal, target_id: target?.kind === 'id' ? target.id : 1 });
  if (!result.ok) {
    for (const p of result.problems) problems.push({ ...p, path: where });
    return null;
  }
  if (target && target.kind !== 'id' && target.targetType !== result.alert.target_type) {
    problems.push(
      at(
        where,
        `target_type is "${result.alert.target_type}" but target_id refers to a ${target.targetType} (${refName(target)}); make them agree`,
      ),
    );
    return null;
  }
  if (!scopeKey || !target) return null;
  const spec = { ...result.alert, target_id: target.kind === 'id' ? target.id : 0 };
  return { stack, logicalId, path, scopeKey, spec, target };
}

/** The `triggers` map of a report trigger, shown only; absent means always. */
export function triggerValues(where: string, triggers: unknown, problems: Problem[]): Record<string, string> {
  const map = Object.create(null) as Record<string, string>;
  // Shown only: a template (such as the default `${timestamp()}`) is kept as written.
  if (isObject(triggers)) {
    for (const [k, v] of Object.entries(triggers)) {
      if (typeof v === 'string') map[k] = holdsTemplate(v) ? v : unescapeTemplate(v);
      else if (typeof v === 'number' || typeof v === 'boolean') map[k] = String(v);
      else problems.push(at(where, `${jsonPath('triggers', k)} is ${jsonKind(v)}; trigger values are strings`));
    }
  } else if (triggers === undefined || triggers === null) map.always = '${timestamp()}';
  else problems.push(at(where, `triggers is ${jsonKind(triggers)}; expected an object of strings`));
  return map;
}

/** One `networkcalc_report_trigger` resource; null when it has a problem (recorded). */
export function readTriggerItem(ctx: StackContext, logicalId: string, body: Json): DeclaredTrigger | null {
  const { stack, problems } = ctx;
  const path = constructPath(body, stack, logicalId);
  const where = `stack ${stack}, report trigger ${path === `${stack}/${logicalId}` ? logicalId : path}`;
  const scopeKey = referencedScope(ctx, where, body.provider)?.key;
  const hasDomain = body.domain_id !== undefined && body.domain_id !== null;
  const hasSub = body.subdomain_id !== undefined && body.subdomain_id !== null;
  if (hasDomain === hasSub) {
    problems.push(at(where, `give exactly one of domain_id and subdomain_id`));
    return null;
  }
  const targetType = hasDomain ? 'domain' : 'subdomain';
  const field = hasDomain ? 'domain_id' : 'subdomain_id';
  const target = readTarget(ctx, where, hasDomain ? body.domain_id : body.subdomain_id, field, scopeKey ?? null);
  if (target && target.kind !== 'id' && target.targetType !== targetType) {
    problems.push(
      at(where, `${field} refers to a ${target.targetType} (${refName(target)}); use ${target.targetType}_id instead`),
    );
    return null;
  }
  const map = triggerValues(where, body.triggers, problems);
  if (!scopeKey || !target) return null;
  return { stack, logicalId, path, scopeKey, targetType, target, triggers: map };
}
