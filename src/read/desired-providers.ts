/**
 * The provider blocks of each stack, read into scopes (an account's rules and its place), and the
 * scopes every stack declares.
 */
import { jsonKind, jsonPath } from '../support/describe';
import type { Problem } from '../model/problems';
import { parseProviderBlock, type ProviderBlock } from '../accounts/account-rules';
import { PROVIDER_SCHEMA } from '../schema/provider-schema';
import type { Scope } from '../plan/types';
import { scopeKey } from '../plan/accounts';
import { isObject, type Json } from '../support/json';
import { holdsTemplate } from '../support/terraform-template';
import { type StackDocument, at, keyProblems, literalStrings, str } from './desired-fields';

export const PROVIDER_STRINGS = [
  'base_url',
  'token_env',
  'client_id_env',
  'client_secret_env',
  'ownership',
  'ownership_prefix',
] as const;
export function parseProviders(stack: string, json: Json, problems: Problem[]): Scope[] {
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

export function scopeOf(stack: string, providerKey: string, alias: string | null, config: ProviderBlock): Scope {
  return {
    key: scopeKey(stack, providerKey),
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
export function defaultScope(stack: string): Scope {
  return scopeOf(stack, 'networkcalc', null, parseProviderBlock({}).config);
}

/** The block types ncalc reads, from the provider schema; any other `networkcalc_*` type is an error. */
export const KNOWN_TYPES = {
  resource: Object.keys(PROVIDER_SCHEMA.resources),
  data: Object.keys(PROVIDER_SCHEMA.dataSources),
} as const;

/**
 * The `resource` / `data` blocks of one kind, read strictly: a group that is not an object,
 * a `networkcalc_*` type that is not one, or an entry that is not an object is a problem,
 * never read as "nothing declared" (an empty declaration deletes live alerts).
 */
export function sections(
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
    const setting = `${kind} ${type}`;
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
      const found = keyProblems(() => `stack ${stack}: ${jsonPath(kind, type, id)}`, v, setting);
      if (found.length) problems.push(...found);
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
export function scopesOfStack(
  stack: string,
  json: Json,
  problems: Problem[],
): { scopes: Scope[]; resources: Record<string, Record<string, Json>> } {
  const scopes = parseProviders(stack, json, problems);
  const resources = sections(stack, json, 'resource', problems);
  const usesProvider = Object.values(resources).some((items) => Object.keys(items).length > 0);
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
