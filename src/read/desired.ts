import { jsonKind, jsonPath } from '../support/describe';
import type { Problem } from '../model/problems';
import { hostNameProblem, normalizeHostName, parseAlert } from '../model';
import { claims, parseProviderBlock, type ProviderBlock } from '../accounts/account-rules';
import { PROVIDER_SCHEMA } from '../schema/provider-schema';
import type { BlockSchema } from '../schema/types';
import type { DeclaredAlert, DeclaredTrigger, Scope, TargetRef } from '../plan/types';
import { policyProblems, readPolicies, type DeclaredPolicy } from '../plan/coverage';
import { isObject, type Json } from '../support/json';
import { holdsTemplate, unescapeTemplate } from '../support/terraform-template';

/** A synthesized stack: its name and parsed `cdk.tf.json`. */
export interface StackDocument {
  name: string;
  json: Record<string, unknown>;
}

export interface Desired {
  scopes: Scope[];
  alerts: DeclaredAlert[];
  triggers: DeclaredTrigger[];
  /** Alert policies, from each stack's `//.networkcalc_alert_policies` (src/plan/coverage). */
  policies: DeclaredPolicy[];
  /** Everything wrong with the configuration, each saying what to fix, at its place (`stack main, alert Www`). */
  problems: Problem[];
}

/**
 * Meta-arguments Terraform accepts in any block. `ncalc` honours `provider`; `depends_on` and
 * `lifecycle` do not change what an alert is; cdktf writes its metadata under `//`.
 */
const META_ARGUMENTS = new Set(['//', 'provider', 'depends_on', 'lifecycle']);
/** Meta-arguments that would make one block stand for zero or several alerts: ncalc cannot evaluate them. */
const UNSUPPORTED_META = new Set(['count', 'for_each', 'provisioner', 'connection']);

/** Attributes a configuration may set: those of the schema that are not read-only. */
function settable(schema: BlockSchema): Set<string> {
  return new Set(
    Object.entries(schema.attributes)
      .filter(([, a]) => !(a.computed && !a.optional && !a.required))
      .map(([k]) => k),
  );
}
const SETTABLE: Record<string, Set<string>> = Object.fromEntries([
  ...Object.entries(PROVIDER_SCHEMA.resources).map(([k, v]) => [`resource ${k}`, settable(v)] as const),
  ...Object.entries(PROVIDER_SCHEMA.dataSources).map(([k, v]) => [`data ${k}`, settable(v)] as const),
  ['provider', new Set([...settable(PROVIDER_SCHEMA.provider), 'alias'])] as const,
]);

/** A problem found at `where` in the stacks (`stack main, alert Www`). */
function at(where: string, message: string, field: string | null = null, value?: unknown): Problem {
  return { path: where, field, ...(value !== undefined ? { value } : {}), message };
}

/** Problems with the keys of one block: unknown attributes, read-only ones, count / for_each. */
function keyProblems(where: string, body: Json, kind: string): Problem[] {
  const allowed = SETTABLE[kind];
  const out: Problem[] = [];
  for (const key of Object.keys(body)) {
    if (META_ARGUMENTS.has(key) || allowed.has(key)) continue;
    if (UNSUPPORTED_META.has(key)) {
      out.push(
        at(
          where,
          `"${key}" is not supported: ncalc reads one block as one ${kind.startsWith('provider') ? 'provider configuration' : 'object'} and cannot evaluate ${key}; declare each one in the app (a loop in TypeScript) instead`,
          key,
        ),
      );
    } else {
      out.push(at(where, `unknown attribute "${key}"; allowed: ${[...allowed].sort().join(', ')}`, key));
    }
  }
  return out;
}

/** `${data.networkcalc_domain.<id>.id}` / `${data.networkcalc_subdomain.<id>.id}` */
const DATA_REF = /^\$\{\s*data\.(networkcalc_domain|networkcalc_subdomain)\.([A-Za-z0-9_-]+)\.id\s*\}$/;

/** The construct path cdktf records in `//.metadata.path`, without the trailing `/Resource`. */
function constructPath(body: Json, stack: string, logicalId: string): string {
  const meta = isObject(body['//']) && isObject(body['//'].metadata) ? body['//'].metadata : null;
  const p = meta && typeof meta.path === 'string' ? meta.path : null;
  return p ? p.replace(/\/Resource$/, '') : `${stack}/${logicalId}`;
}

/** A string holding a template (references are recognised before this): ncalc cannot evaluate it. */
const templateProblem = (where: string, field: string, v: string): Problem =>
  at(
    where,
    `${field} ${JSON.stringify(v)} holds a Terraform template ("\${" or "%{"), which ncalc cannot evaluate; give a literal value, writing a literal "\${" as "$\${" and "%{" as "%%{"`,
    field,
    v,
  );

/**
 * The string attributes of a body as Terraform reads them: literal strings unescaped; a
 * string holding a template is reported and left as it is.
 */
function literalStrings(body: Json, fields: readonly string[], where: string, problems: Problem[]): Json {
  const out: Json = { ...body };
  for (const f of fields) {
    const v = body[f];
    if (typeof v !== 'string') continue;
    if (holdsTemplate(v)) problems.push(templateProblem(where, f, v));
    else out[f] = unescapeTemplate(v);
  }
  return out;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

const PROVIDER_STRINGS = [
  'base_url',
  'token_env',
  'client_id_env',
  'client_secret_env',
  'ownership',
  'ownership_prefix',
] as const;
const ALERT_STRINGS = ['name', 'type', 'subtype', 'filter', 'filter_value', 'target_type'] as const;

function parseProviders(stack: string, json: Json, problems: Problem[]): Scope[] {
  const group = json.provider;
  if (group !== undefined && !isObject(group)) {
    problems.push(
      at(
        `stack ${stack}`,
        `provider is ${jsonKind(group)}; expected an object of provider configurations by provider name`,
      ),
    );
    return [];
  }
  const raw = group?.networkcalc;
  if (raw !== undefined && !isObject(raw) && !Array.isArray(raw)) {
    problems.push(
      at(
        `stack ${stack}`,
        `provider.networkcalc is ${jsonKind(raw)}; expected a list of provider configurations (objects)`,
      ),
    );
    return [];
  }
  const list: unknown[] = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const scopes: Scope[] = [];
  for (const [index, item] of list.entries()) {
    if (!isObject(item)) {
      problems.push(
        at(
          `stack ${stack}`,
          `${jsonPath('provider', 'networkcalc', ...(Array.isArray(raw) ? [index] : []))} is ${jsonKind(item)}; expected an object (a provider configuration)`,
        ),
      );
      continue;
    }
    // The alias names the scope in every message, so it is read before the rules run.
    const alias = str(item.alias);
    const providerKey = alias ? `networkcalc.${alias}` : 'networkcalc';
    const where = `stack ${stack}, provider ${providerKey}`;
    problems.push(...keyProblems(where, item, 'provider'));
    const entry = literalStrings(item, PROVIDER_STRINGS, where, problems);
    // The rules every front door shares (src/accounts/account-rules), Terraform's included. A
    // template was reported above: the rules see it as unset rather than report it again.
    const templated = new Set<string>(
      PROVIDER_STRINGS.filter((f) => typeof item[f] === 'string' && holdsTemplate(item[f] as string)),
    );
    const { config, problems: blockProblems } = parseProviderBlock(
      Object.fromEntries(Object.entries(entry).filter(([k]) => !templated.has(k))),
    );
    for (const p of blockProblems) problems.push({ ...p, path: where });
    for (const secret of ['token', 'client_secret'] as const) {
      if (entry[secret] !== undefined) {
        problems.push(
          at(
            where,
            `"${secret}" is written into the synthesized configuration; remove it and set ${secret}_env (a variable name) instead`,
          ),
        );
      }
    }
    // Terraform would use it; ncalc reads credentials from variables only, so it must not be ignored.
    if (entry.client_id !== undefined) {
      problems.push(
        at(
          where,
          `"client_id" is written into the configuration, but ncalc reads the client id from the variable client_id_env names; remove it and set client_id_env instead`,
        ),
      );
    }
    if (scopes.some((s) => s.providerKey === providerKey)) {
      problems.push(at(where, `declared twice; give each provider configuration its own alias`));
      continue;
    }
    scopes.push(scopeOf(stack, providerKey, alias, config));
  }
  return scopes;
}

function scopeOf(stack: string, providerKey: string, alias: string | null, config: ProviderBlock): Scope {
  return {
    key: `${stack}/${providerKey}`,
    stack,
    providerKey,
    alias,
    baseUrl: config.baseUrl,
    tokenEnv: config.tokenEnv,
    clientIdEnv: config.clientIdEnv,
    clientSecretEnv: config.clientSecretEnv,
    ownership: config.ownership,
    prefix: config.prefix,
    maxRetries: config.maxRetries,
    timeoutSeconds: config.timeoutSeconds,
  };
}

/** The unnamed provider Terraform configures when no block is given: an empty block, by the account rules. */
function defaultScope(stack: string): Scope {
  return scopeOf(stack, 'networkcalc', null, parseProviderBlock({}).config);
}

/** The block types ncalc reads, from the provider schema; any other `networkcalc_*` type is an error. */
const KNOWN_TYPES = {
  resource: Object.keys(PROVIDER_SCHEMA.resources),
  data: Object.keys(PROVIDER_SCHEMA.dataSources),
} as const;

/**
 * The `resource` / `data` blocks of one kind, read strictly: a group that is not an object,
 * a `networkcalc_*` type that is not one, or an entry that is not an object is a problem,
 * never read as "nothing declared" (an empty declaration deletes live alerts).
 */
function sections(
  stack: string,
  json: Json,
  kind: 'resource' | 'data',
  problems: Problem[],
): Record<string, Record<string, Json>> {
  const out: Record<string, Record<string, Json>> = {};
  // Without a prototype, so that an id such as `__proto__` is an entry, not lost in an assignment.
  for (const type of KNOWN_TYPES[kind]) out[type] = Object.create(null) as Record<string, Json>;
  const group = json[kind];
  if (group === undefined) return out;
  if (!isObject(group)) {
    problems.push(
      at(
        `stack ${stack}`,
        `${kind} is ${jsonKind(group)}; expected an object of ${kind === 'resource' ? 'resource' : 'data source'} types`,
      ),
    );
    return out;
  }
  for (const [type, items] of Object.entries(group)) {
    if (!type.startsWith('networkcalc_')) continue;
    if (!(KNOWN_TYPES[kind] as readonly string[]).includes(type)) {
      problems.push(
        at(
          `stack ${stack}`,
          `${jsonPath(kind, type)} is not a NetworkCalc ${kind === 'resource' ? 'resource' : 'data source'} type; known: ${KNOWN_TYPES[kind].join(', ')}`,
        ),
      );
      continue;
    }
    if (!isObject(items)) {
      problems.push(
        at(
          `stack ${stack}`,
          `${jsonPath(kind, type)} is ${jsonKind(items)}; expected an object of blocks keyed by logical id`,
        ),
      );
      continue;
    }
    for (const [id, v] of Object.entries(items)) {
      if (!isObject(v)) {
        problems.push(
          at(
            `stack ${stack}`,
            `${jsonPath(kind, type, id)} is ${jsonKind(v)}; expected an object (the block's attributes)`,
          ),
        );
        continue;
      }
      problems.push(...keyProblems(`stack ${stack}: ${jsonPath(kind, type, id)}`, v, `${kind} ${type}`));
      out[type][id] = v;
    }
  }
  return out;
}

/**
 * Reads the desired state out of synthesized stacks, collecting every problem instead of
 * stopping at the first, so a user fixes them in one go. Makes no API call.
 */
/** The provider scopes of one stack, and its `resource` blocks. */
function scopesOfStack(
  stack: string,
  json: Json,
  problems: Problem[],
): { scopes: Scope[]; resources: Record<string, Record<string, Json>> } {
  const scopes = parseProviders(stack, json, problems);
  const resources = sections(stack, json, 'resource', problems);
  const usesProvider =
    Object.keys(resources.networkcalc_alert).length + Object.keys(resources.networkcalc_report_trigger).length > 0;
  // Terraform configures an unnamed default provider when resources need one.
  if (scopes.length === 0 && usesProvider) scopes.push(defaultScope(stack));
  return { scopes, resources };
}

/**
 * The provider scopes of every stack, read as `readDesired` reads them but nothing else of the
 * stacks (for choosing a shard's stacks); null when any stack has a problem there, which the
 * whole reading must then report.
 */
export function declaredScopes(stacks: StackDocument[]): Scope[] | null {
  const problems: Problem[] = [];
  const scopes: Scope[] = [];
  for (const { name, json } of stacks) {
    if (!isObject(json)) return null;
    scopes.push(...scopesOfStack(name, json, problems).scopes);
  }
  return problems.length ? null : scopes;
}

/** What the items of one stack are read against: its scopes and its data sources. */
interface StackContext {
  stack: string;
  scopes: Scope[];
  domains: Record<string, Json>;
  subdomains: Record<string, Json>;
  /** Where every problem found goes, in the order found. */
  problems: Problem[];
}

/** The scope a resource's `provider` names (the default provider when it names none). */
function referencedScope(ctx: StackContext, where: string, provider: unknown): Scope | null {
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
function dataSourceTarget(
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

/** A target: a positive id (number or digits) or a reference to a data source. */
function readTarget(ctx: StackContext, where: string, value: unknown, field: string): TargetRef | null {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return { kind: 'id', id: value };
  if (typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) && Number(value) > 0)
    return { kind: 'id', id: Number(value) };
  if (typeof value === 'string') {
    const m = DATA_REF.exec(value.trim());
    if (m) return dataSourceTarget(ctx, where, field, m[1], m[2]);
  }
  ctx.problems.push(
    at(
      where,
      `${field} ${JSON.stringify(value)} is neither a positive id nor a reference to a networkcalc_domain / networkcalc_subdomain data source`,
    ),
  );
  return null;
}

/** One `networkcalc_alert` resource; null when it has a problem (recorded). */
function readAlertItem(ctx: StackContext, logicalId: string, body: Json): DeclaredAlert | null {
  const { stack, problems } = ctx;
  const path = constructPath(body, stack, logicalId);
  const where = `stack ${stack}, alert ${path === `${stack}/${logicalId}` ? logicalId : path}`;
  const scopeKey = referencedScope(ctx, where, body.provider)?.key;
  const target = readTarget(ctx, where, body.target_id, 'target_id');
  const before = problems.length;
  const literal = literalStrings(body, ALERT_STRINGS, where, problems);
  if (problems.length > before) return null;
  // A name target validates with a stand-in id; the real one comes from the Domains API.
  const result = parseAlert({ ...literal, target_id: target?.kind === 'id' ? target.id : 1 });
  if (!result.ok) {
    for (const p of result.problems) problems.push({ ...p, path: where });
    return null;
  }
  if (target?.kind === 'name' && target.targetType !== result.alert.target_type) {
    problems.push(
      at(
        where,
        `target_type is "${result.alert.target_type}" but target_id refers to a ${target.targetType} (${target.dataSource}); make them agree`,
      ),
    );
    return null;
  }
  if (!scopeKey || !target) return null;
  const spec = { ...result.alert, target_id: target.kind === 'id' ? target.id : 0 };
  return { stack, logicalId, path, scopeKey, spec, target };
}

/** The `triggers` map of a report trigger, shown only; absent means always. */
function triggerValues(where: string, triggers: unknown, problems: Problem[]): Record<string, string> {
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
function readTriggerItem(ctx: StackContext, logicalId: string, body: Json): DeclaredTrigger | null {
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
  const target = readTarget(ctx, where, hasDomain ? body.domain_id : body.subdomain_id, field);
  if (target?.kind === 'name' && target.targetType !== targetType) {
    problems.push(
      at(
        where,
        `${field} refers to a ${target.targetType} (${target.dataSource}); use ${target.targetType}_id instead`,
      ),
    );
    return null;
  }
  const map = triggerValues(where, body.triggers, problems);
  if (!scopeKey || !target) return null;
  return { stack, logicalId, path, scopeKey, targetType, target, triggers: map };
}

/** Everything one stack declares: scopes, alerts, report triggers and alert policies. */
function readStack(
  stack: string,
  json: Json,
  problems: Problem[],
): { scopes: Scope[]; alerts: DeclaredAlert[]; triggers: DeclaredTrigger[]; policies: DeclaredPolicy[] } {
  const { scopes, resources } = scopesOfStack(stack, json, problems);
  const data = sections(stack, json, 'data', problems);
  const ctx: StackContext = {
    stack,
    scopes,
    domains: data.networkcalc_domain,
    subdomains: data.networkcalc_subdomain,
    problems,
  };
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
  return { scopes, alerts, triggers, policies };
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
  }

  problems.push(...duplicateNameProblems(alerts));
  problems.push(...ownershipPrefixProblems(scopes, alerts));
  problems.push(...policyProblems(policies, alerts));
  return { scopes, alerts, triggers, policies, problems };
}
