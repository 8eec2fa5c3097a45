import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { SPEC_FIELDS, validateAlert, type Problem } from '../model';
import { keepNewest, type EmulatorCore } from './core';
import { ApiError, type ErrorCode, type RouteGroup } from './errors';
import {
  alertView,
  domainView,
  domainWithSubdomainsView,
  randomToken,
  subdomainView,
  type StoredAccount,
  type StoredAlert,
} from './state';
import { DOMAIN_NAME, SUBDOMAIN_PREFIX } from './seed';
import { DELETE_FORMS, type DeleteForm } from './settings';

/** Route settings read by the hooks and the error handler. */
export interface RouteConfig {
  group: RouteGroup;
  /** Answers use AlertUpdateResponse: errors carry an `error` text. */
  updateShape?: boolean;
}

type Body = Record<string, unknown>;

function isObj(v: unknown): v is Body {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A path id: digits only. Anything else names nothing. */
function pathId(value: string | undefined): number | null {
  return value !== undefined && /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Destroys the connection without an answer; the request log records status 0. */
export function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket?.destroy();
}

/** The bearer token of a request: absent header, or present with a token (maybe unusable). */
function bearer(request: FastifyRequest): { present: false } | { present: true; token?: string } {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return { present: false };
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return { present: true, token: m?.[1] };
}

function mediaType(request: FastifyRequest): string | undefined {
  const ct = request.headers['content-type'];
  return ct?.split(';')[0]?.trim().toLowerCase();
}

// ---- shared schemas (response schemas also strip anything not listed) ----

const SCHEMAS = [
  { $id: 'StatusBody', type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  {
    $id: 'UpdateBody', type: 'object',
    properties: { status: { type: 'string' }, error: { type: 'string' } }, required: ['status'],
  },
  {
    $id: 'DomainResponse', type: 'object',
    properties: { id: { type: 'number' }, domain: { type: 'string' }, created_at: { type: 'string' }, updated_at: { type: 'string' } },
  },
  {
    $id: 'SubdomainResponse', type: 'object',
    properties: {
      id: { type: 'number' }, domain_id: { type: 'number' }, prefix: { type: 'string' }, subdomain: { type: 'string' },
      created_at: { type: 'string' }, updated_at: { type: 'string' },
    },
  },
  {
    $id: 'DomainWithSubdomains', type: 'object',
    properties: {
      id: { type: 'number' }, domain: { type: 'string' }, created_at: { type: 'string' }, updated_at: { type: 'string' },
      subdomains: { type: 'array', items: { $ref: 'SubdomainResponse#' } },
    },
  },
  {
    $id: 'AlertResponse', type: 'object',
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
    $id: 'AlertBody', type: 'object',
    properties: {
      type: { type: 'string' }, subtype: { type: ['string', 'null'] }, filter: { type: 'string' },
      filter_value: { type: ['string', 'null'] }, target_type: { type: 'string' }, target_id: { type: 'number' },
      name: { type: 'string' },
    },
  },
];

function responses(ok: object, update = false): Record<string, object> {
  const err = { $ref: update ? 'UpdateBody#' : 'StatusBody#' };
  return { 200: ok, '4xx': err, '5xx': err };
}

const OK_ONLY = { $ref: 'StatusBody#' };

/**
 * Registers every /api route and the report download. Handlers return the success body or
 * throw an ApiError; `handle` adds the faults that act around the handler.
 */
export function registerApiRoutes(app: FastifyInstance, core: EmulatorCore): void {
  const store = core.store;
  for (const s of SCHEMAS) app.addSchema(s);

  /** Wraps a handler: injected rejects before it, "after" faults once it has committed. */
  function handle(fn: (request: FastifyRequest, reply: FastifyReply) => unknown): RouteHandlerMethod {
    return async function (request, reply) {
      const plan = core.infoOf(request).plan;
      const terminal = plan?.terminal;
      if (terminal?.kind === 'reject') throw new ApiError(terminal.code!, `${terminal.code} (injected fault)`);
      let result: unknown;
      let error: unknown;
      try {
        result = await fn(request, reply);
      } catch (err) {
        error = err;
      }
      if (plan && plan.delayAfterMs > 0) await sleep(plan.delayAfterMs);
      if (terminal?.phase === 'after') {
        if (terminal.kind === 'drop') {
          dropConnection(request, reply);
          return reply;
        }
        if (terminal.kind === 'status') {
          reply.code(terminal.status ?? 500);
          return { status: 'SYSTEM_ERROR' };
        }
      }
      if (error !== undefined) throw error;
      return result;
    };
  }

  /** Authorization as the group names its failures (section 5). */
  function authorize(group: 'reports' | 'alerts' | 'domains') {
    return async (request: FastifyRequest) => {
      const auth = bearer(request);
      if (!auth.present) throw new ApiError(group === 'reports' ? 'INVALID_REQUEST' : 'MISSING_HEADER', 'the Authorization header is missing');
      const account = core.infoOf(request).account;
      if (!account) {
        throw new ApiError(group === 'reports' ? 'INVALID_GRANT' : 'NOT_AUTHORIZED', 'the access token is invalid or expired');
      }
    };
  }

  /** Create and edit require Content-Type: application/json (4.4, 4.5). */
  async function requireJson(request: FastifyRequest): Promise<void> {
    if (mediaType(request) !== 'application/json') throw new ApiError('MISSING_HEADER', 'the header Content-Type: application/json is required');
  }

  function accountOf(request: FastifyRequest): StoredAccount {
    return core.infoOf(request).account!;
  }

  // ---------------------------------------------------------------- auth
  app.post('/api/auth/token', {
    config: { group: 'auth' } satisfies RouteConfig,
    schema: {
      response: responses({
        type: 'object',
        properties: {
          status: { type: 'string' },
          token: {
            type: 'object',
            properties: { access_token: { type: 'string' }, token_type: { type: 'string' }, expires_in: { type: 'number' } },
          },
        },
      }),
    },
    handler: handle((request) => {
      const body = isObj(request.body) ? request.body : {};
      const { client_id: clientId, client_secret: secret, grant_type: grant } = body;
      if (typeof clientId !== 'string' || clientId === '' || typeof secret !== 'string' || secret === '') {
        throw new ApiError('MISSING_CREDENTIALS');
      }
      if (grant !== 'client_credentials') throw new ApiError('INVALID_GRANT_TYPE');
      let found: { account: StoredAccount; revoked: boolean; secret: string } | undefined;
      for (const account of store.state.accounts) {
        const c = account.credentials.find((x) => x.client_id === clientId);
        if (c) found = { account, revoked: c.revoked, secret: c.client_secret };
      }
      if (!found) throw new ApiError('CREDENTIALS_NOT_FOUND');
      if (found.secret !== secret) throw new ApiError('INVALID_CREDENTIALS');
      if (found.revoked) throw new ApiError('REVOKED_CREDENTIALS');
      const now = Date.now();
      const lifetime = core.tokenLifetimeSeconds;
      const token = randomToken();
      // Expired tokens answer like unknown ones, so dropping them changes nothing visible.
      const tokens = found.account.tokens.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now);
      tokens.push({ access_token: token, expires_at: new Date(now + lifetime * 1000).toISOString() });
      found.account.tokens = tokens.slice(-1000);
      store.commit();
      return { status: 'OK', token: { access_token: token, token_type: 'bearer', expires_in: lifetime } };
    }),
  });

  // ---------------------------------------------------------------- reports
  const reportResponse = responses({
    type: 'object',
    properties: {
      status: { type: 'string' },
      domain_id: { type: 'string' },
      subdomain_id: { type: 'number' },
      report_url: { type: 'string' },
    },
  });

  function reportUrl(request: FastifyRequest, id: string): string {
    return `${request.protocol}://${request.host}/reports/${id}`;
  }

  function generateReport(request: FastifyRequest, kind: 'domain' | 'subdomain') {
    const account = accountOf(request);
    const id = pathId((request.params as { id?: string }).id);
    if (id === null) throw new ApiError('NOT_GENERATED', 'no id given');
    const subdomain = kind === 'subdomain' ? account.subdomains.find((s) => s.id === id) : undefined;
    const domainId = kind === 'domain' ? id : subdomain?.domain_id;
    const domain = account.domains.find((d) => d.id === domainId);
    if (!domain || (kind === 'subdomain' && !subdomain)) throw new ApiError('NOT_GENERATED', `no ${kind} ${id} in this account`);
    const reportId = randomUUID();
    const generatedAt = new Date().toISOString();
    const subIds = kind === 'subdomain'
      ? [subdomain!.id]
      : account.subdomains.filter((s) => s.domain_id === domain.id).map((s) => s.id);
    const alerts = account.alerts.filter((a) =>
      (a.target_type === 'domain' && kind === 'domain' && a.target_id === domain.id) ||
      (a.target_type === 'subdomain' && subIds.includes(a.target_id)));
    const content: Record<string, unknown> = {
      report_id: reportId,
      kind,
      generated_at: generatedAt,
      user_id: account.user_id,
      domain: domainView(domain),
    };
    if (subdomain) content.subdomain = subdomainView(account, subdomain);
    else content.subdomains = account.subdomains.filter((s) => s.domain_id === domain.id).map((s) => subdomainView(account, s));
    content.alerts = alerts.map((a) => alertView(account, a));
    account.reports.push({
      id: reportId, kind, domain_id: domain.id, subdomain_id: subdomain?.id ?? null, created_at: generatedAt, content,
    });
    // Each report is a full snapshot and every commit writes the whole state: keep the newest.
    account.reports = keepNewest(account.reports, core.reportsPerAccount);
    store.commit();
    // domain_id is a quoted string, as in the reference's sample responses (2.1).
    const out: Record<string, unknown> = { status: 'OK', domain_id: String(domain.id) };
    if (subdomain) out.subdomain_id = subdomain.id;
    out.report_url = reportUrl(request, reportId);
    return out;
  }

  for (const kind of ['domain', 'subdomain'] as const) {
    const opts = {
      config: { group: 'reports' } satisfies RouteConfig,
      onRequest: authorize('reports'),
      schema: { response: reportResponse },
      handler: handle((request) => generateReport(request, kind)),
    };
    app.post(`/api/reports/${kind}-reports/:id`, opts);
    // The id is marked optional (4.1, 4.2); without it nothing can be generated.
    app.post(`/api/reports/${kind}-reports`, opts);
  }

  app.get('/reports/:report_id', {
    config: { group: 'download' } satisfies RouteConfig,
    handler: handle((request, reply) => {
      const id = (request.params as { report_id: string }).report_id;
      for (const account of store.state.accounts) {
        const report = account.reports.find((r) => r.id === id);
        if (!report) continue;
        const name = String((report.content.subdomain as { subdomain?: string } | undefined)?.subdomain
          ?? (report.content.domain as { domain?: string }).domain);
        reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="report-${name}-${id}.json"`);
        return JSON.stringify(report.content, null, 2) + '\n';
      }
      reply.code(404).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({ status: 'NOT_FOUND' });
    }),
  });

  // ---------------------------------------------------------------- alerts
  const alertsConfig = { group: 'alerts' } satisfies RouteConfig;
  const updateConfig = { group: 'alerts', updateShape: true } satisfies RouteConfig;
  const listResponse = responses({
    type: 'object',
    properties: { status: { type: 'string' }, alerts: { type: 'array', items: { $ref: 'AlertResponse#' } } },
  });

  function findAlert(account: StoredAccount, raw: unknown): StoredAlert {
    const id = typeof raw === 'number' ? raw : pathId(typeof raw === 'string' ? raw : undefined);
    const alert = id === null ? undefined : account.alerts.find((a) => a.id === id);
    if (!alert) throw new ApiError('NOT_FOUND', `no alert with id ${JSON.stringify(raw)}`);
    return alert;
  }

  /** MISSING_VALUES when something required is absent, INVALID_BODY otherwise (7.2). */
  function rejectProblems(problems: Problem[]): never {
    const code: ErrorCode = problems.some((p) => p.kind === 'missing') ? 'MISSING_VALUES' : 'INVALID_BODY';
    throw new ApiError(code, problems.map((p) => p.message).join('; '));
  }

  /** The model accepts a few things 4.6 types otherwise (a number of days); the schema does not. */
  function rejectSchemaError(request: FastifyRequest): void {
    const err = request.validationError;
    if (err) throw new ApiError('INVALID_BODY', err.message);
  }

  function checkTarget(account: StoredAccount, targetType: unknown, targetId: unknown): void {
    const exists = targetType === 'subdomain'
      ? account.subdomains.some((s) => s.id === targetId)
      : account.domains.some((d) => d.id === targetId);
    if (!exists) throw new ApiError('INVALID_BODY', `target_id ${String(targetId)} is not a ${String(targetType)} of this account`);
  }

  /** The body of create / edit as an object, or the code for why it is not one. */
  function alertBody(request: FastifyRequest): Body {
    const info = core.infoOf(request);
    if (info.invalidJson) throw new ApiError('INVALID_BODY', 'the body is not valid JSON');
    if (request.body === undefined) throw new ApiError('MISSING_VALUES', 'the body is empty; send the alert as a JSON object');
    if (!isObj(request.body)) throw new ApiError('INVALID_BODY', 'the body must be a JSON object');
    return request.body;
  }

  function blankToNull(v: unknown): unknown {
    return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v;
  }

  app.get('/api/alerts', {
    config: alertsConfig,
    onRequest: authorize('alerts'),
    schema: { response: listResponse },
    handler: handle((request) => {
      const account = accountOf(request);
      return { status: 'OK', alerts: account.alerts.map((a) => alertView(account, a)) };
    }),
  });

  app.get('/api/alerts/:alert_id', {
    config: alertsConfig,
    onRequest: authorize('alerts'),
    schema: { response: listResponse },
    handler: handle((request) => {
      const account = accountOf(request);
      const alert = findAlert(account, (request.params as { alert_id: string }).alert_id);
      return { status: 'OK', alerts: [alertView(account, alert)] };
    }),
  });

  app.post('/api/alerts', {
    config: updateConfig,
    onRequest: [authorize('alerts'), requireJson],
    attachValidation: true,
    schema: { body: { $ref: 'AlertBody#' }, response: responses(OK_ONLY, true) },
    handler: handle((request) => {
      const account = accountOf(request);
      const body = alertBody(request);
      // Validated as sent: the service takes the documented spellings only.
      const problems = validateAlert(body);
      if (problems.length) rejectProblems(problems);
      rejectSchemaError(request);
      checkTarget(account, body.target_type, body.target_id);
      const now = new Date().toISOString();
      account.alerts.push({
        id: store.nextAlertId(),
        name: body.name as string,
        type: body.type as string,
        subtype: blankToNull(body.subtype) as string | null,
        filter: body.filter as string,
        filter_value: String(blankToNull(body.filter_value) ?? ''),
        target_type: body.target_type as 'domain' | 'subdomain',
        target_id: body.target_id as number,
        is_active: true,
        current_status: 'healthy',
        action: 'email',
        last_triggered_at: null,
        created_at: now,
        updated_at: now,
      });
      store.commit();
      // AlertUpdateResponse: no id. A client lists to learn it.
      return { status: 'OK' };
    }),
  });

  app.patch('/api/alerts/:alert_id', {
    config: updateConfig,
    onRequest: [authorize('alerts'), requireJson],
    attachValidation: true,
    schema: { body: { $ref: 'AlertBody#' }, response: responses(OK_ONLY, true) },
    handler: handle((request) => {
      const account = accountOf(request);
      const alert = findAlert(account, (request.params as { alert_id: string }).alert_id);
      const body = alertBody(request);
      const merged: Body = {};
      for (const f of SPEC_FIELDS) merged[f] = f in body ? body[f] : alert[f];
      const problems = validateAlert(merged);
      if (problems.length) rejectProblems(problems);
      rejectSchemaError(request);
      checkTarget(account, merged.target_type, merged.target_id);
      alert.name = merged.name as string;
      alert.type = merged.type as string;
      alert.subtype = blankToNull(merged.subtype) as string | null;
      alert.filter = merged.filter as string;
      alert.filter_value = String(blankToNull(merged.filter_value) ?? '');
      alert.target_type = merged.target_type as 'domain' | 'subdomain';
      alert.target_id = merged.target_id as number;
      alert.updated_at = new Date().toISOString();
      store.commit();
      return { status: 'OK' };
    }),
  });

  app.patch('/api/alerts', {
    config: updateConfig,
    onRequest: [authorize('alerts'), requireJson],
    schema: { response: responses(OK_ONLY, true) },
    handler: handle(() => {
      throw new ApiError('MISSING_VALUES', 'give the alert id in the path: /api/alerts/{alert_id}');
    }),
  });

  /** Where each DELETE form carries the alert id (undefined: not there). */
  const deleteIdFrom: Record<DeleteForm, (request: FastifyRequest) => unknown> = {
    path: (request) => (request.params as { alert_id?: string }).alert_id,
    query: (request) => (request.query as Record<string, unknown>).alert_id,
    body: (request) => (isObj(request.body) && !core.infoOf(request).invalidJson ? request.body.alert_id : undefined),
  };

  /**
   * DELETE reads the id from the one form the settings name, like the real service; with none
   * named, from the path, else ?alert_id=, else a JSON body {"alert_id": id}. An id in a form
   * that is not read is missing, never NOT_FOUND: a client must not take it for a delete.
   */
  const deleteHandler = handle((request) => {
    const account = accountOf(request);
    const only = core.settings.deleteForm;
    const raw = (only ? [only] : DELETE_FORMS).map((form) => deleteIdFrom[form](request)).find((v) => v !== undefined && v !== '');
    if (raw === undefined) throw new ApiError('MISSING_VALUES', only ? `give alert_id in the ${only}` : 'give alert_id');
    const alert = findAlert(account, raw);
    account.alerts = account.alerts.filter((a) => a !== alert);
    store.commit();
    return { status: 'OK' };
  });
  for (const url of ['/api/alerts', '/api/alerts/:alert_id']) {
    app.delete(url, {
      config: alertsConfig,
      onRequest: authorize('alerts'),
      schema: { response: responses(OK_ONLY) },
      handler: deleteHandler,
    });
  }

  // ---------------------------------------------------------------- domains
  const domainsConfig = { group: 'domains' } satisfies RouteConfig;
  const domainAuth = authorize('domains');

  function findDomain(account: StoredAccount, raw: string) {
    const id = pathId(raw);
    const d = id === null ? undefined : account.domains.find((x) => x.id === id);
    if (!d) throw new ApiError('NOT_FOUND');
    return d;
  }

  app.post('/api/domains', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: {
      response: responses({ type: 'object', properties: { status: { type: 'string' }, domain: { $ref: 'DomainResponse#' } } }),
    },
    handler: handle((request) => {
      const account = accountOf(request);
      const body = request.body;
      const raw = isObj(body) && typeof body.domain === 'string' ? body.domain.trim().toLowerCase() : '';
      if (!DOMAIN_NAME.test(raw)) throw new ApiError('NOT_SAVED', 'give {"domain": "<name>"} with a valid domain name');
      if (account.domains.some((d) => d.domain === raw)) throw new ApiError('NOT_SAVED', 'the domain is already in this account');
      const now = new Date().toISOString();
      const d = { id: store.nextResourceId(), domain: raw, created_at: now, updated_at: now };
      account.domains.push(d);
      store.commit();
      return { status: 'OK', domain: domainView(d) };
    }),
  });

  app.get('/api/domains', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: {
      response: responses({
        type: 'object',
        properties: { status: { type: 'string' }, domains: { type: 'array', items: { $ref: 'DomainWithSubdomains#' } } },
      }),
    },
    handler: handle((request) => {
      const account = accountOf(request);
      return { status: 'OK', domains: account.domains.map((d) => domainWithSubdomainsView(account, d)) };
    }),
  });

  app.get('/api/domains/:domain_id', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: {
      response: responses({ type: 'object', properties: { status: { type: 'string' }, domain: { $ref: 'DomainWithSubdomains#' } } }),
    },
    handler: handle((request) => {
      const account = accountOf(request);
      const d = findDomain(account, (request.params as { domain_id: string }).domain_id);
      return { status: 'OK', domain: domainWithSubdomainsView(account, d) };
    }),
  });

  app.delete('/api/domains/:domain_id', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: { response: responses(OK_ONLY) },
    handler: handle((request) => {
      const account = accountOf(request);
      const d = findDomain(account, (request.params as { domain_id: string }).domain_id);
      const subIds = account.subdomains.filter((s) => s.domain_id === d.id).map((s) => s.id);
      const targeted = account.alerts.some((a) =>
        (a.target_type === 'domain' && a.target_id === d.id) || (a.target_type === 'subdomain' && subIds.includes(a.target_id)));
      if (targeted) throw new ApiError('NOT_DELETED', 'alerts target this domain or its subdomains');
      account.domains = account.domains.filter((x) => x !== d);
      account.subdomains = account.subdomains.filter((s) => s.domain_id !== d.id);
      store.commit();
      return { status: 'OK' };
    }),
  });

  const subdomainResponse = responses({
    type: 'object', properties: { status: { type: 'string' }, subdomain: { $ref: 'SubdomainResponse#' } },
  });

  app.post('/api/domains/:domain_id/subdomains/:subdomain_prefix', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: { response: subdomainResponse },
    handler: handle((request) => {
      const account = accountOf(request);
      const params = request.params as { domain_id: string; subdomain_prefix: string };
      const d = findDomain(account, params.domain_id);
      const prefix = params.subdomain_prefix.toLowerCase();
      if (!SUBDOMAIN_PREFIX.test(prefix) || !DOMAIN_NAME.test(`${prefix}.${d.domain}`)) {
        throw new ApiError('NOT_SAVED', 'the prefix is not a valid subdomain prefix');
      }
      if (account.subdomains.some((s) => s.domain_id === d.id && s.prefix === prefix)) {
        throw new ApiError('NOT_SAVED', 'the subdomain is already in this domain');
      }
      const now = new Date().toISOString();
      const s = { id: store.nextResourceId(), domain_id: d.id, prefix, created_at: now, updated_at: now };
      account.subdomains.push(s);
      store.commit();
      return { status: 'OK', subdomain: subdomainView(account, s) };
    }),
  });

  function findSubdomain(request: FastifyRequest) {
    const account = accountOf(request);
    const params = request.params as { domain_id: string; subdomain_id: string };
    const d = findDomain(account, params.domain_id);
    const id = pathId(params.subdomain_id);
    const s = account.subdomains.find((x) => x.domain_id === d.id && x.id === id);
    if (!s) throw new ApiError('NOT_FOUND');
    return { account, s };
  }

  app.get('/api/domains/:domain_id/subdomains/:subdomain_id', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: { response: subdomainResponse },
    handler: handle((request) => {
      const { account, s } = findSubdomain(request);
      return { status: 'OK', subdomain: subdomainView(account, s) };
    }),
  });

  app.delete('/api/domains/:domain_id/subdomains/:subdomain_id', {
    config: domainsConfig,
    onRequest: domainAuth,
    schema: { response: responses(OK_ONLY) },
    handler: handle((request) => {
      const { account, s } = findSubdomain(request);
      if (account.alerts.some((a) => a.target_type === 'subdomain' && a.target_id === s.id)) {
        throw new ApiError('NOT_DELETED', 'alerts target this subdomain');
      }
      account.subdomains = account.subdomains.filter((x) => x !== s);
      store.commit();
      return { status: 'OK' };
    }),
  });
}
