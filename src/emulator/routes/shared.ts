import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, type RouteGroup } from '../errors';
import type { StoredAccount } from '../state';

// What the route plugins share: route settings, schemas, request helpers.

/** Route settings read by the hooks and the error handler. */
export interface RouteConfig {
  group: RouteGroup;
  /** Answers use AlertUpdateResponse: errors carry an `error` text. */
  updateShape?: boolean;
}

/** Gives every route a plugin registers its group (and any other default setting). */
export function routeDefaults(app: FastifyInstance, defaults: RouteConfig): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...defaults, ...(route.config as Partial<RouteConfig> | undefined) };
  });
}

// ---- shared schemas (response schemas also strip anything not listed) ----

/** A domain as answered, alone or with its subdomains. */
const DOMAIN_PROPERTIES = {
  id: { type: 'number' },
  domain: { type: 'string' },
  created_at: { type: 'string' },
  updated_at: { type: 'string' },
};

export const SCHEMAS = [
  { $id: 'StatusBody', type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  {
    $id: 'UpdateBody',
    type: 'object',
    properties: { status: { type: 'string' }, error: { type: 'string' } },
    required: ['status'],
  },
  { $id: 'DomainResponse', type: 'object', properties: DOMAIN_PROPERTIES },
  {
    $id: 'SubdomainResponse',
    type: 'object',
    properties: {
      id: { type: 'number' },
      domain_id: { type: 'number' },
      prefix: { type: 'string' },
      subdomain: { type: 'string' },
      created_at: { type: 'string' },
      updated_at: { type: 'string' },
    },
  },
  {
    $id: 'DomainWithSubdomains',
    type: 'object',
    properties: { ...DOMAIN_PROPERTIES, subdomains: { type: 'array', items: { $ref: 'SubdomainResponse#' } } },
  },
  {
    $id: 'AlertResponse',
    type: 'object',
    properties: {
      id: { type: 'number' },
      user_id: { type: 'number' },
      name: { type: 'string' },
      is_active: { type: 'boolean' },
      current_status: { type: 'string' },
      type: { type: 'string' },
      subtype: { type: ['string', 'null'] },
      filter: { type: 'string' },
      filter_value: { type: 'string' },
      action: { type: 'string' },
      last_triggered_at: { type: ['string', 'null'] },
      target_domain: { $ref: 'DomainResponse#' },
      target_subdomain: { $ref: 'SubdomainResponse#' },
    },
  },
  // Request body of create and edit (4.6). Types only: which fields are required, and the
  // matrix, are checked by the model so the answers carry the interface's codes.
  {
    $id: 'AlertBody',
    type: 'object',
    properties: {
      type: { type: 'string' },
      subtype: { type: ['string', 'null'] },
      filter: { type: 'string' },
      filter_value: { type: ['string', 'null'] },
      target_type: { type: 'string' },
      target_id: { type: 'number' },
      name: { type: 'string' },
    },
  },
];

/** Response schemas of a route: its success body, and the error shape of its group. */
export function responses(ok: object, update = false): Record<string, object> {
  const err = { $ref: update ? 'UpdateBody#' : 'StatusBody#' };
  return { 200: ok, '4xx': err, '5xx': err };
}

export const OK_ONLY = { $ref: 'StatusBody#' };

export type Body = Record<string, unknown>;

/** A path id: digits only. Anything else names nothing. */
export function pathId(value: string | undefined): number | null {
  return value !== undefined && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

/** Authorization as each group names its failures (section 5); an onRequest hook. */
export function authorize(group: 'reports' | 'alerts' | 'domains') {
  return async (request: FastifyRequest): Promise<void> => {
    const { authorization, account } = request.emulator;
    if (!authorization)
      throw new ApiError(
        group === 'reports' ? 'INVALID_REQUEST' : 'MISSING_HEADER',
        'the Authorization header is missing',
      );
    if (!account)
      throw new ApiError(
        group === 'reports' ? 'INVALID_GRANT' : 'NOT_AUTHORIZED',
        'the access token is invalid or expired',
      );
  };
}

/** Create and edit require Content-Type: application/json (4.4, 4.5); an onRequest hook. */
export async function requireJson(request: FastifyRequest): Promise<void> {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json')
    throw new ApiError('MISSING_HEADER', 'the header Content-Type: application/json is required');
}

/** The caller's account, on routes behind `authorize`. */
export function accountOf(request: FastifyRequest): StoredAccount {
  return request.emulator.account!;
}

/** Now, as the state's timestamps write it. */
export function now(): string {
  return new Date().toISOString();
}
