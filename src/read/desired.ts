/**
 * `cdk.tf.json` read strictly into what the app declares: each stack's provider blocks
 * (desired-providers.ts), alerts and report triggers (desired-items.ts) with their targets
 * (desired-targets.ts), checked field by field (desired-fields.ts); here, the stacks read in
 * order and the rules over names across them (one name per alert, ownership prefixes).
 */
import { jsonKind } from '../support/describe';
import type { Problem } from '../model/problems';
import { claims } from '../accounts/account-rules';
import type { DeclaredAlert, DeclaredTarget, DeclaredTrigger, Scope } from '../plan/types';
import { duplicateTargetProblems, readDomainResource, readSubdomainResource } from './desired-declared';
import { readTarget } from './desired-targets';
import { policyProblems, readPolicies, type DeclaredPolicy } from '../plan/coverage';
import { isObject, type Json } from '../support/json';

import { type StackDocument, at } from './desired-fields';
import { sections, scopesOfStack } from './desired-providers';
import { type StackContext, referencedScope } from './desired-targets';
import { readAlertItem, readTriggerItem } from './desired-items';

export { declaredScopes } from './desired-providers';
export type { StackDocument } from './desired-fields';

export interface Desired {
  scopes: Scope[];
  alerts: DeclaredAlert[];
  triggers: DeclaredTrigger[];
  /** Declared domains and subdomains (`networkcalc_domain` / `networkcalc_subdomain` resources). */
  targets: DeclaredTarget[];
  /** Alert policies, from each stack's `//.networkcalc_alert_policies` (src/plan/coverage). */
  policies: DeclaredPolicy[];
  /** Everything wrong with the configuration, each saying what to fix, at its place (`stack main, alert Www`). */
  problems: Problem[];
}
/** Everything one stack declares: scopes, alerts, report triggers and alert policies. */
function readStack(
  stack: string,
  json: Json,
  problems: Problem[],
): {
  scopes: Scope[];
  alerts: DeclaredAlert[];
  triggers: DeclaredTrigger[];
  targets: DeclaredTarget[];
  policies: DeclaredPolicy[];
} {
  const { scopes, resources } = scopesOfStack(stack, json, problems);
  const data = sections(stack, json, 'data', problems);
  const ctx: StackContext = {
    stack,
    scopes,
    domains: data.networkcalc_domain,
    subdomains: data.networkcalc_subdomain,
    declared: new Map(),
    problems,
  };
  const targets = readTargets(ctx, resources);
  const alerts: DeclaredAlert[] = [];
  for (const [logicalId, body] of Object.entries(resources.networkcalc_alert)) {
    const alert = readAlertItem(ctx, logicalId, body);
    if (alert) alerts.push(alert);
  }
  const triggers: DeclaredTrigger[] = [];
  for (const [logicalId, body] of Object.entries(resources.networkcalc_report_trigger)) {
    const trigger = readTriggerItem(ctx, logicalId, body);
    if (trigger) triggers.push(trigger);
  }
  const policies = readPolicies(stack, json, (where, provider) => referencedScope(ctx, where, provider), problems);
  return { scopes, alerts, triggers, targets, policies };
}

/** The stack's domains, then its subdomains (which may refer to them), into `ctx.declared`. */
function readTargets(ctx: StackContext, resources: Record<string, Record<string, Json>>): DeclaredTarget[] {
  const { stack, problems } = ctx;
  const scopeOf = (where: string, body: Json) => referencedScope(ctx, where, body.provider)?.key ?? null;
  for (const [logicalId, body] of Object.entries(resources.networkcalc_domain ?? {})) {
    const d = readDomainResource(
      stack,
      scopeOf(`stack ${stack}, domain ${logicalId}`, body),
      logicalId,
      body,
      problems,
    );
    if (d) ctx.declared.set(d.resource, d);
  }
  const subdomains: DeclaredTarget[] = [];
  for (const [logicalId, body] of Object.entries(resources.networkcalc_subdomain ?? {})) {
    const scopeKey = scopeOf(`stack ${stack}, subdomain ${logicalId}`, body);
    const s = readSubdomainResource(
      stack,
      scopeKey,
      logicalId,
      body,
      (where, value) => readTarget(ctx, where, value, 'domain_id', scopeKey),
      (ref) => (ref.kind === 'id' ? null : ref.name),
      problems,
    );
    if (s) subdomains.push(s);
  }
  for (const s of subdomains) ctx.declared.set(s.resource, s);
  return [...ctx.declared.values()];
}

/** Names identify alerts: two declarations of one name in a scope cannot both be honoured. */
function duplicateNameProblems(alerts: readonly DeclaredAlert[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, DeclaredAlert>();
  for (const a of alerts) {
    const k = `${a.scopeKey}\u0000${a.spec.name}`;
    const prior = seen.get(k);
    if (prior) {
      problems.push({
        field: 'name',
        value: a.spec.name,
        message: `alerts ${prior.path} and ${a.path} are both named ${JSON.stringify(a.spec.name)} for provider ${a.scopeKey.slice(a.stack.length + 1)}; alert names must be unique within an account`,
      });
    } else seen.set(k, a);
  }
  return problems;
}

/** An alert of a scope with an ownership prefix must carry the prefix in its name. */
function ownershipPrefixProblems(scopes: readonly Scope[], alerts: readonly DeclaredAlert[]): Problem[] {
  const problems: Problem[] = [];
  const byKey = new Map(scopes.map((s) => [s.key, s]));
  for (const a of alerts) {
    const scope = byKey.get(a.scopeKey);
    if (scope?.ownership === 'prefix' && scope.prefix && !claims(scope, a.spec.name)) {
      problems.push(
        at(
          `alert ${a.path}`,
          `name ${JSON.stringify(a.spec.name)} does not start with the ownership prefix ${JSON.stringify(scope.prefix)} of provider ${scope.providerKey}; rename the alert or change the prefix`,
          'name',
          a.spec.name,
        ),
      );
    }
  }
  return problems;
}

/**
 * Reads what the synthesized stacks declare, stack by stack, then checks across them: alert
 * names unique per scope, ownership prefixes, alert policies.
 */
export function readDesired(stacks: StackDocument[]): Desired {
  const problems: Problem[] = [];
  const scopes: Scope[] = [];
  const alerts: DeclaredAlert[] = [];
  const triggers: DeclaredTrigger[] = [];
  const policies: DeclaredPolicy[] = [];
  const targets: DeclaredTarget[] = [];

  for (const { name: stack, json } of stacks) {
    if (!isObject(json)) {
      problems.push(
        at(`stack ${stack}`, `its cdk.tf.json holds ${jsonKind(json)}; expected an object (synthesize again)`),
      );
      continue;
    }
    const read = readStack(stack, json, problems);
    scopes.push(...read.scopes);
    alerts.push(...read.alerts);
    triggers.push(...read.triggers);
    policies.push(...read.policies);
    targets.push(...read.targets);
  }

  problems.push(...duplicateNameProblems(alerts));
  problems.push(...duplicateTargetProblems(targets));
  problems.push(...ownershipPrefixProblems(scopes, alerts));
  problems.push(...policyProblems(policies, alerts));
  return { scopes, alerts, triggers, targets, policies, problems };
}
