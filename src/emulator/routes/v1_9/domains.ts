import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isValidHostName, normalizeHostName, normalizePrefix } from '../../../model';
import type { EmulatorCore } from '../../core';
import { ApiError } from '../../errors';
import type { StoredAccount, StoredDomain } from '../../state';
import { domainView, domainWithSubdomainsView, subdomainView } from '../../views';
import { accountOf, authorize, now, OK_ONLY, pathId, responses, routeDefaults } from '../shared';
import { isObject } from '../../../support/json';

function findDomain(account: StoredAccount, raw: string): StoredDomain {
  const id = pathId(raw);
  const d = id === null ? undefined : account.domains.find((x) => x.id === id);
  if (!d) throw new ApiError('NOT_FOUND');
  return d;
}

/** A create's answer as the settings have it: without the new id when targetCreateOmitsId is on. */
function created(core: EmulatorCore, view: Record<string, unknown>): Record<string, unknown> {
  if (!core.settings.targetCreateOmitsId) return view;
  const { id: _id, ...rest } = view;
  return rest;
}

/**
 * The alerts targeting the domain ids or subdomain ids: a delete refuses them (NOT_DELETED),
 * or with targetDeleteTakesAlerts on, removes them with the target.
 */
function targetingAlerts(account: StoredAccount, domainIds: Set<number>, subIds: Set<number>): number[] {
  return account.alerts
    .filter((a) => (a.target_type === 'domain' ? domainIds : subIds).has(a.target_id))
    .map((a) => a.id);
}

function findSubdomain(request: FastifyRequest) {
  const account = accountOf(request);
  const params = request.params as { domain_id: string; subdomain_id: string };
  const d = findDomain(account, params.domain_id);
  const id = pathId(params.subdomain_id);
  const s = account.subdomains.find((x) => x.domain_id === d.id && x.id === id);
  if (!s) throw new ApiError('NOT_FOUND');
  return { account, s };
}

/** POST of a domain: stored in the model's canonical form, once per account. */
function createDomainRoute(app: FastifyInstance, core: EmulatorCore): void {
  const store = core.store;
  app.post('/api/domains', {
    schema: {
      response: responses({
        type: 'object',
        properties: { status: { type: 'string' }, domain: { $ref: 'DomainResponse#' } },
      }),
    },
    handler: async (request) => {
      const account = accountOf(request);
      const body = request.body;
      // Stored in the model's canonical form; valid by the model's one rule for host names.
      const name = normalizeHostName(isObject(body) ? body.domain : undefined);
      if (!isValidHostName(name)) throw new ApiError('NOT_SAVED', 'give {"domain": "<name>"} with a valid domain name');
      if (account.domains.some((d) => d.domain === name))
        throw new ApiError('NOT_SAVED', 'the domain is already in this account');
      const at = now();
      const d: StoredDomain = { id: store.state.next_resource_id, domain: name, created_at: at, updated_at: at };
      await store.commit([{ op: 'put', account: account.name, list: 'domains', item: d }]);
      return { status: 'OK', domain: created(core, domainView(d)) };
    },
  });
}

/** GET of all domains (with their subdomains) and of one. */
function readDomainRoutes(app: FastifyInstance): void {
  app.get('/api/domains', {
    schema: {
      response: responses({
        type: 'object',
        properties: {
          status: { type: 'string' },
          domains: { type: 'array', items: { $ref: 'DomainWithSubdomains#' } },
        },
      }),
    },
    handler: async (request) => {
      const account = accountOf(request);
      return { status: 'OK', domains: account.domains.map((d) => domainWithSubdomainsView(account, d)) };
    },
  });

  app.get('/api/domains/:domain_id', {
    schema: {
      response: responses({
        type: 'object',
        properties: { status: { type: 'string' }, domain: { $ref: 'DomainWithSubdomains#' } },
      }),
    },
    handler: async (request) => {
      const account = accountOf(request);
      const d = findDomain(account, (request.params as { domain_id: string }).domain_id);
      return { status: 'OK', domain: domainWithSubdomainsView(account, d) };
    },
  });
}

/**
 * DELETE of a domain and its subdomains, refused while alerts target any of them, or with
 * targetDeleteTakesAlerts on, deleting those alerts too.
 */
function deleteDomainRoute(app: FastifyInstance, core: EmulatorCore): void {
  const store = core.store;
  app.delete('/api/domains/:domain_id', {
    schema: { response: responses(OK_ONLY) },
    handler: async (request) => {
      const account = accountOf(request);
      const d = findDomain(account, (request.params as { domain_id: string }).domain_id);
      const subIds = new Set(account.subdomains.filter((s) => s.domain_id === d.id).map((s) => s.id));
      const alertIds = targetingAlerts(account, new Set([d.id]), subIds);
      if (alertIds.length && !core.settings.targetDeleteTakesAlerts)
        throw new ApiError('NOT_DELETED', 'alerts target this domain or its subdomains');
      await store.commit([
        ...(alertIds.length
          ? [{ op: 'remove' as const, account: account.name, list: 'alerts' as const, keys: alertIds }]
          : []),
        { op: 'remove', account: account.name, list: 'domains', keys: [d.id] },
        { op: 'remove', account: account.name, list: 'subdomains', keys: [...subIds] },
      ]);
      return { status: 'OK' };
    },
  });
}

/** POST, GET and DELETE of a subdomain of a domain. */
function subdomainRoutes(app: FastifyInstance, core: EmulatorCore): void {
  const store = core.store;
  const subdomainResponse = responses({
    type: 'object',
    properties: { status: { type: 'string' }, subdomain: { $ref: 'SubdomainResponse#' } },
  });

  app.post('/api/domains/:domain_id/subdomains/:subdomain_prefix', {
    schema: { response: subdomainResponse },
    handler: async (request) => {
      const account = accountOf(request);
      const params = request.params as { domain_id: string; subdomain_prefix: string };
      const d = findDomain(account, params.domain_id);
      const prefix = normalizePrefix(params.subdomain_prefix);
      // The prefix is valid when prefix.domain is a valid host name (the domain already is).
      if (!isValidHostName(`${prefix}.${d.domain}`))
        throw new ApiError('NOT_SAVED', 'the prefix is not a valid subdomain prefix');
      if (account.subdomains.some((s) => s.domain_id === d.id && s.prefix === prefix)) {
        throw new ApiError('NOT_SAVED', 'the subdomain is already in this domain');
      }
      const at = now();
      const s = { id: store.state.next_resource_id, domain_id: d.id, prefix, created_at: at, updated_at: at };
      await store.commit([{ op: 'put', account: account.name, list: 'subdomains', item: s }]);
      return { status: 'OK', subdomain: created(core, subdomainView(account, s, d)) };
    },
  });

  app.get('/api/domains/:domain_id/subdomains/:subdomain_id', {
    schema: { response: subdomainResponse },
    handler: async (request) => {
      const { account, s } = findSubdomain(request);
      return { status: 'OK', subdomain: subdomainView(account, s) };
    },
  });

  app.delete('/api/domains/:domain_id/subdomains/:subdomain_id', {
    schema: { response: responses(OK_ONLY) },
    handler: async (request) => {
      const { account, s } = findSubdomain(request);
      const alertIds = targetingAlerts(account, new Set(), new Set([s.id]));
      if (alertIds.length && !core.settings.targetDeleteTakesAlerts)
        throw new ApiError('NOT_DELETED', 'alerts target this subdomain');
      await store.commit([
        ...(alertIds.length
          ? [{ op: 'remove' as const, account: account.name, list: 'alerts' as const, keys: alertIds }]
          : []),
        { op: 'remove', account: account.name, list: 'subdomains', keys: [s.id] },
      ]);
      return { status: 'OK' };
    },
  });
}

/** The Domains API: domains and their subdomains, the targets of alerts. */
export async function domainRoutes(app: FastifyInstance, { core }: { core: EmulatorCore }): Promise<void> {
  routeDefaults(app, { group: 'domains' });
  app.addHook('onRequest', authorize('domains'));
  createDomainRoute(app, core);
  readDomainRoutes(app);
  deleteDomainRoute(app, core);
  subdomainRoutes(app, core);
}
