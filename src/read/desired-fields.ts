/**
 * What every block of `cdk.tf.json` is checked for, whatever it declares: the keys a block may
 * set (from the provider schema), meta-arguments, literal strings and their places in messages.
 */
import type { Problem } from '../model/problems';
import { PROVIDER_SCHEMA } from '../schema/provider-schema';
import type { BlockSchema } from '../schema/types';
import { isObject, type Json } from '../support/json';
import { holdsTemplate, unescapeTemplate } from '../support/terraform-template';

/** A synthesized stack: its name and parsed `cdk.tf.json`. */
export interface StackDocument {
  name: string;
  json: Record<string, unknown>;
}

/**
 * Meta-arguments Terraform accepts in any block. `ncalc` honours `provider`; `depends_on` and
 * `lifecycle` do not change what an alert is; cdktf writes its metadata under `//`.
 */
export const META_ARGUMENTS = new Set(['//', 'provider', 'depends_on', 'lifecycle']);
/** Meta-arguments that would make one block stand for zero or several alerts: ncalc cannot evaluate them. */
export const UNSUPPORTED_META = new Set(['count', 'for_each', 'provisioner', 'connection']);

/** Attributes a configuration may set: those of the schema that are not read-only. */
export function settable(schema: BlockSchema): Set<string> {
  return new Set(
    Object.entries(schema.attributes)
      .filter(([, a]) => !(a.computed && !a.optional && !a.required))
      .map(([k]) => k),
  );
}
export const SETTABLE: Record<string, Set<string>> = Object.fromEntries([
  ...Object.entries(PROVIDER_SCHEMA.resources).map(([k, v]) => [`resource ${k}`, settable(v)] as const),
  ...Object.entries(PROVIDER_SCHEMA.dataSources).map(([k, v]) => [`data ${k}`, settable(v)] as const),
  ['provider', new Set([...settable(PROVIDER_SCHEMA.provider), 'alias'])] as const,
]);

/** A problem found at `where` in the stacks (`stack main, alert Www`). */
export function at(where: string, message: string, field: string | null = null, value?: unknown): Problem {
  return { path: where, field, ...(value !== undefined ? { value } : {}), message };
}

/**
 * Problems with the keys of one block: unknown attributes, read-only ones, count / for_each.
 * `place` names the block, made only for a problem (a fleet's stacks hold 200,000 blocks).
 */
export function keyProblems(place: string | (() => string), body: Json, kind: string): Problem[] {
  const allowed = SETTABLE[kind];
  const out: Problem[] = [];
  for (const key of Object.keys(body)) {
    if (META_ARGUMENTS.has(key) || allowed.has(key)) continue;
    const where = typeof place === 'string' ? place : place();
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
export const DATA_REF = /^\$\{\s*data\.(networkcalc_domain|networkcalc_subdomain)\.([A-Za-z0-9_-]+)\.id\s*\}$/;

/** The construct path cdktf records in `//.metadata.path`, without the trailing `/Resource`. */
export function constructPath(body: Json, stack: string, logicalId: string): string {
  const meta = isObject(body['//']) && isObject(body['//'].metadata) ? body['//'].metadata : null;
  const p = meta && typeof meta.path === 'string' ? meta.path : null;
  return p ? p.replace(/\/Resource$/, '') : `${stack}/${logicalId}`;
}

/** A string holding a template (references are recognised before this): ncalc cannot evaluate it. */
export const templateProblem = (where: string, field: string, v: string): Problem =>
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
export function literalStrings(body: Json, fields: readonly string[], where: string, problems: Problem[]): Json {
  const out: Json = { ...body };
  for (const f of fields) {
    const v = body[f];
    if (typeof v !== 'string') continue;
    if (holdsTemplate(v)) problems.push(templateProblem(where, f, v));
    else out[f] = unescapeTemplate(v);
  }
  return out;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}
