/**
 * GitHub's official OpenAPI description (the `@octokit/openapi` package, api.github.com) as a
 * request checker: the operation a method and path name, its path and query parameters (only
 * those it declares, of their types and enums) and its JSON body (the schema, and no property
 * it does not name).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: Schema }>; required?: boolean };
}
interface Spec {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, Schema> };
}

export interface Checked {
  operationId: string;
  params: Record<string, string>;
  problems: string[];
}

const SPEC_FILE = require.resolve('@octokit/openapi/generated/api.github.com.json');

export class OpenApiChecker {
  private readonly spec: Spec;
  private readonly routes: { regex: RegExp; names: string[]; path: string }[];
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as Spec;
    this.ajv.addSchema({ components: { schemas: jsonSchema(this.spec.components.schemas) } }, 'github');
    this.routes = Object.keys(this.spec.paths).map((p) => {
      const names: string[] = [];
      const source = p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      });
      return { regex: new RegExp(`^${source}$`), names, path: p };
    });
  }

  /** The problems of one request (none: the description allows it). */
  check(method: string, url: URL, body: unknown): Checked {
    const problems: string[] = [];
    // A literal segment wins over a parameter (`/issues/comments/{id}` before `/issues/{n}/...`).
    const matches = this.routes
      .map((r) => ({ r, m: r.regex.exec(url.pathname) }))
      .filter((x) => x.m && this.spec.paths[x.r.path]![method.toLowerCase()]);
    matches.sort((a, b) => a.r.names.length - b.r.names.length);
    const found = matches[0];
    if (!found)
      return { operationId: '', params: {}, problems: [`${method} ${url.pathname} is no operation of the API`] };
    const op = this.spec.paths[found.r.path]![method.toLowerCase()]!;
    const params = Object.fromEntries(found.r.names.map((n, i) => [n, decodeURIComponent(found.m![i + 1]!)]));
    const declared = (op.parameters ?? []).map((p) => this.resolve(p));
    for (const p of declared.filter((d) => d.in === 'path'))
      problems.push(...this.value(`path parameter ${p.name}`, params[p.name], p.schema));
    for (const [name, value] of url.searchParams) {
      const p = declared.find((d) => d.in === 'query' && d.name === name);
      if (!p) problems.push(`query parameter ${name} is not one of ${op.operationId}`);
      else problems.push(...this.value(`query parameter ${name}`, value, p.schema));
    }
    for (const p of declared.filter((d) => d.in === 'query' && d.required))
      if (!url.searchParams.has(p.name)) problems.push(`query parameter ${p.name} is required`);
    problems.push(...this.body(op, body));
    return { operationId: op.operationId, params, problems };
  }

  private resolve(p: Parameter): Parameter {
    return p.$ref ? this.spec.components.parameters[p.$ref.split('/').pop()!]! : p;
  }

  private value(what: string, value: string | undefined, schema: Schema | undefined): string[] {
    if (value === undefined || value === '') return [`${what} is empty`];
    if (!schema) return [];
    if (schema.type === 'integer' && !/^-?\d+$/.test(value)) return [`${what} is ${value}, not an integer`];
    if (Array.isArray(schema.enum) && !schema.enum.includes(value))
      return [`${what} is ${value}, not one of ${schema.enum.join(', ')}`];
    return [];
  }

  private body(op: Operation, body: unknown): string[] {
    const schema = op.requestBody?.content?.['application/json']?.schema;
    if (!schema) return body === undefined ? [] : [`${op.operationId} takes no body`];
    if (body === undefined) return op.requestBody?.required ? [`${op.operationId} needs a body`] : [];
    let validate = this.compiled.get(op.operationId);
    if (!validate) {
      const withRefs = JSON.parse(
        JSON.stringify(jsonSchema(schema)).replace(/"#\/components\//g, '"github#/components/'),
      ) as Schema;
      validate = this.ajv.compile(withRefs);
      this.compiled.set(op.operationId, validate);
    }
    const problems = validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message ?? 'is not allowed'}`);
    const properties = schema.properties as Schema | undefined;
    if (properties && typeof body === 'object' && body !== null)
      for (const key of Object.keys(body))
        if (!(key in properties)) problems.push(`body property ${key} is not one of ${op.operationId}`);
    return problems;
  }
}

/** OpenAPI 3.0's `nullable` in JSON Schema terms (a `null` type, or anyOf with null), all the way down. */
function jsonSchema(value: unknown): Schema {
  if (Array.isArray(value)) return value.map((v) => jsonSchema(v)) as unknown as Schema;
  if (typeof value !== 'object' || value === null) return value as Schema;
  const { nullable, ...rest } = value as Schema;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, jsonSchema(v)]));
  if (nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}
