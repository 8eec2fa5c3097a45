import { readLiveAlert, requestBody, type AlertSpec, type LiveAlert } from '../model';
import { TokenSource } from './auth';
import { NetworkCalcError, isNetworkCalcError } from './errors';
import { isObject, readCreatedId, readDomain, readReportResult, readSubdomain, type Json } from './read';
import { resolveRetryPolicy } from './retry';
import { Secrets } from './secrets';
import { Transport, describe, type HttpRequest, type HttpResponse } from './transport';
import type { ClientOptions, Domain, ReportResult, Subdomain } from './types';
import { PACKAGE_VERSION } from '../version';

import { DEFAULT_BASE_URL } from '../schema/base-url';
import { ENV } from '../schema/environment';

/** Environment variables read by `NetworkCalcClient.fromEnv`, and the default base URL. */
export { DEFAULT_BASE_URL, ENV };
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * How DELETE /api/alerts/ carries the alert id. The interface shows the path without an id
 * segment and does not say (4.7), so the forms are tried in this order: the path segment
 * (as GET and PATCH use), the `alert_id` query parameter, a JSON body `{"alert_id": id}`.
 * The first form the server understands is remembered for the life of the client.
 */
export const DELETE_FORMS = ['path', 'query', 'body'] as const;
export type DeleteForm = (typeof DELETE_FORMS)[number];

export function deleteAlertRequest(form: DeleteForm, id: number): Pick<HttpRequest, 'path' | 'query' | 'body'> {
  switch (form) {
    case 'path':
      return { path: `/api/alerts/${id}` };
    case 'query':
      return { path: '/api/alerts/', query: { alert_id: String(id) } };
    case 'body':
      return { path: '/api/alerts/', body: { alert_id: id } };
  }
}

/**
 * True when the server did not understand this DELETE form: no such route (404, 405) or no
 * id found (MISSING_VALUES). Never NOT_FOUND: that means the form worked and the alert is gone.
 */
export function isFormNotUnderstood(err: unknown): boolean {
  if (!isNetworkCalcError(err) || err.code === 'NOT_FOUND') return false;
  return err.code === 'MISSING_VALUES' || err.httpStatus === 404 || err.httpStatus === 405;
}

function configError(message: string): NetworkCalcError {
  return new NetworkCalcError({ operation: 'configure', code: 'CONFIG_ERROR', message });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function checkId(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${what} must be a whole number >= 0, got ${String(value)}`);
  return value;
}

const AUTH_REFUSED = new Set(['INVALID_GRANT', 'NOT_AUTHORIZED']);

export class NetworkCalcClient {
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #auth: TokenSource;
  #deleteForm: DeleteForm | undefined;

  constructor(options: ClientOptions) {
    const token = nonEmpty(options.token);
    const clientId = nonEmpty(options.clientId);
    const clientSecret = nonEmpty(options.clientSecret);
    if (clientId !== undefined && clientSecret === undefined) {
      throw configError(`a client id is set but no client secret: set ${ENV.clientSecret} (or the clientSecret option) as well, or use ${ENV.token}`);
    }
    if (clientSecret !== undefined && clientId === undefined) {
      throw configError(`a client secret is set but no client id: set ${ENV.clientId} (or the clientId option) as well, or use ${ENV.token}`);
    }
    if (token === undefined && clientId === undefined) {
      throw configError(
        `no NetworkCalc credentials: set ${ENV.token} to an access token, or ${ENV.clientId} and ${ENV.clientSecret} to client credentials`,
      );
    }
    const rawBase = nonEmpty(options.baseUrl) ?? DEFAULT_BASE_URL;
    let url: URL;
    try {
      url = new URL(rawBase);
    } catch {
      throw configError(`${ENV.baseUrl} must be an http(s) URL such as ${DEFAULT_BASE_URL}, got ${JSON.stringify(rawBase)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw configError(`${ENV.baseUrl} must be an http(s) URL such as ${DEFAULT_BASE_URL}, got ${JSON.stringify(rawBase)}`);
    }
    if (url.username || url.password || url.search || url.hash) {
      throw configError(`${ENV.baseUrl} must not carry credentials, a query or a fragment; give only scheme, host and optional path prefix`);
    }
    this.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw configError(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
    let policy;
    try {
      policy = resolveRetryPolicy(options.retry);
    } catch (err) {
      throw configError((err as Error).message);
    }

    // The configured secrets and the latest issued tokens are scrubbed from messages and log lines.
    const secrets = new Secrets([token, clientSecret]);
    const redact = (text: string): string => secrets.redact(text);
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      policy,
      timeoutMs,
      userAgent: options.userAgent ?? `cdktf-provider-networkcalc/${PACKAGE_VERSION} node/${process.version}`,
      dispatcher: options.dispatcher,
      logger: options.logger,
      redact,
      stopSignal: options.stopSignal,
    });
    this.#auth = new TokenSource(this.#transport, { token, clientId, clientSecret }, (issued) => secrets.addIssued(issued));
  }

  /**
   * A client configured from NETWORKCALC_BASE_URL, NETWORKCALC_TOKEN, NETWORKCALC_CLIENT_ID
   * and NETWORKCALC_CLIENT_SECRET; `overrides` win over the environment.
   */
  static fromEnv(overrides: ClientOptions = {}, env: NodeJS.ProcessEnv = process.env): NetworkCalcClient {
    return new NetworkCalcClient({
      ...overrides,
      baseUrl: overrides.baseUrl ?? env[ENV.baseUrl],
      token: overrides.token ?? env[ENV.token],
      clientId: overrides.clientId ?? env[ENV.clientId],
      clientSecret: overrides.clientSecret ?? env[ENV.clientSecret],
    });
  }

  /** Token exchanges made so far; 0 with a ready token. */
  get tokenExchanges(): number {
    return this.#auth.exchanges;
  }

  /** The DELETE form found to work, once one has. */
  get deleteForm(): DeleteForm | undefined {
    return this.#deleteForm;
  }

  // ---- alerts -------------------------------------------------------------------------

  async listAlerts(): Promise<LiveAlert[]> {
    const req = { operation: 'listAlerts', method: 'GET', path: '/api/alerts/', mode: 'idempotent' } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => {
      if (!Array.isArray(body.alerts)) throw new Error('the response has no alerts array');
      return body.alerts.map((a) => {
        if (!isObject(a)) throw new Error('an alerts entry is not an object');
        return readLiveAlert(a);
      });
    });
  }

  async getAlert(id: number): Promise<LiveAlert> {
    checkId(id, 'alert id');
    const req = { operation: 'getAlert', subject: `alert ${id}`, method: 'GET', path: `/api/alerts/${id}`, mode: 'idempotent' } as const;
    const res = await this.#call(req);
    const found = this.#read(req, res, (body) => {
      const list: unknown[] = Array.isArray(body.alerts) ? body.alerts : isObject(body.alert) ? [body.alert] : [];
      const alerts = list.filter(isObject).map((a) => readLiveAlert(a));
      return alerts.find((a) => a.id === id);
    });
    if (found) return found;
    throw new NetworkCalcError({
      operation: 'getAlert',
      code: 'NOT_FOUND',
      httpStatus: res.status,
      message: `${describe('getAlert', `alert ${id}`, 'NOT_FOUND', res.status)} (the response did not contain it)`,
    });
  }

  /**
   * Creates an alert. The create response (AlertUpdateResponse) carries no id in the
   * interface; `id` is returned only when a server sends one anyway. Callers needing the id
   * re-list and find the alert by name. Never repeated after an ambiguous failure: that
   * throws OUTCOME_UNKNOWN instead.
   */
  async createAlert(spec: AlertSpec): Promise<{ id?: number }> {
    const req = {
      operation: 'createAlert',
      subject: `alert ${JSON.stringify(spec.name)}`,
      method: 'POST',
      path: '/api/alerts/',
      body: requestBody(spec),
      mode: 'create',
    } as const;
    const res = await this.#call(req);
    const id = readCreatedId(res.body);
    return id === undefined ? {} : { id };
  }

  /** PATCH with the whole body: the interface does not say which fields an edit may omit. */
  async updateAlert(id: number, spec: AlertSpec): Promise<void> {
    checkId(id, 'alert id');
    await this.#call({
      operation: 'updateAlert',
      subject: `alert ${id}`,
      method: 'PATCH',
      path: `/api/alerts/${id}`,
      body: requestBody(spec),
      mode: 'idempotent',
    });
  }

  /**
   * Deletes an alert. A missing alert throws NOT_FOUND (callers converging state may treat
   * that as done), except when an earlier attempt of this same call may have deleted it.
   */
  async deleteAlert(id: number): Promise<void> {
    checkId(id, 'alert id');
    const forms = this.#deleteForm ? [this.#deleteForm] : DELETE_FORMS;
    let lastError: unknown;
    for (const form of forms) {
      try {
        await this.#call({
          operation: 'deleteAlert',
          subject: `alert ${id}`,
          method: 'DELETE',
          ...deleteAlertRequest(form, id),
          mode: 'idempotent',
        });
        this.#deleteForm = form;
        return;
      } catch (err) {
        if (isNetworkCalcError(err) && err.code === 'NOT_FOUND') {
          this.#deleteForm = form;
          // A retried DELETE whose earlier attempt got through finds nothing: that is success.
          if ((err.attempts ?? 1) > 1) return;
          throw err;
        }
        if (this.#deleteForm === undefined && isFormNotUnderstood(err)) {
          lastError = err;
          continue;
        }
        throw err;
      }
    }
    throw lastError;
  }

  // ---- reports ------------------------------------------------------------------------

  async triggerDomainReport(domainId: number): Promise<ReportResult> {
    checkId(domainId, 'domain id');
    return this.#trigger('triggerDomainReport', `domain ${domainId}`, `/api/reports/domain-reports/${domainId}`);
  }

  async triggerSubdomainReport(subdomainId: number): Promise<ReportResult> {
    checkId(subdomainId, 'subdomain id');
    return this.#trigger('triggerSubdomainReport', `subdomain ${subdomainId}`, `/api/reports/subdomain-reports/${subdomainId}`);
  }

  async #trigger(operation: string, subject: string, path: string): Promise<ReportResult> {
    const req = { operation, subject, method: 'POST', path, mode: 'trigger' } as const;
    const res = await this.#call(req);
    return this.#read(req, res, readReportResult);
  }

  // ---- domains ------------------------------------------------------------------------

  async listDomains(): Promise<Domain[]> {
    const req = { operation: 'listDomains', method: 'GET', path: '/api/domains/', mode: 'idempotent' } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => {
      if (!Array.isArray(body.domains)) throw new Error('the response has no domains array');
      return body.domains.map(readDomain);
    });
  }

  async getDomain(id: number): Promise<Domain> {
    checkId(id, 'domain id');
    const req = { operation: 'getDomain', subject: `domain ${id}`, method: 'GET', path: `/api/domains/${id}`, mode: 'idempotent' } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => readDomain(body.domain));
  }

  /** Adds a domain by name. Like createAlert, never repeated after an ambiguous failure. */
  async addDomain(name: string): Promise<Domain> {
    const req = { operation: 'addDomain', subject: `domain ${JSON.stringify(name)}`, method: 'POST', path: '/api/domains/', body: { domain: name }, mode: 'create' } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => readDomain(body.domain));
  }

  async deleteDomain(id: number): Promise<void> {
    checkId(id, 'domain id');
    await this.#call({ operation: 'deleteDomain', subject: `domain ${id}`, method: 'DELETE', path: `/api/domains/${id}`, mode: 'idempotent' });
  }

  /** Adds `prefix` under a domain (`my.demo` for my.demo.example.com). */
  async addSubdomain(domainId: number, prefix: string): Promise<Subdomain> {
    checkId(domainId, 'domain id');
    const req = {
      operation: 'addSubdomain',
      subject: `subdomain ${JSON.stringify(prefix)} of domain ${domainId}`,
      method: 'POST',
      path: `/api/domains/${domainId}/subdomains/${encodeURIComponent(prefix)}`,
      mode: 'create',
    } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => this.#subdomainFrom(body, domainId));
  }

  async getSubdomain(domainId: number, subdomainId: number): Promise<Subdomain> {
    checkId(domainId, 'domain id');
    checkId(subdomainId, 'subdomain id');
    const req = {
      operation: 'getSubdomain',
      subject: `subdomain ${subdomainId} of domain ${domainId}`,
      method: 'GET',
      path: `/api/domains/${domainId}/subdomains/${subdomainId}`,
      mode: 'idempotent',
    } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => this.#subdomainFrom(body, domainId));
  }

  async deleteSubdomain(domainId: number, subdomainId: number): Promise<void> {
    checkId(domainId, 'domain id');
    checkId(subdomainId, 'subdomain id');
    await this.#call({
      operation: 'deleteSubdomain',
      subject: `subdomain ${subdomainId} of domain ${domainId}`,
      method: 'DELETE',
      path: `/api/domains/${domainId}/subdomains/${subdomainId}`,
      mode: 'idempotent',
    });
  }

  #subdomainFrom(body: Json, domainId: number): Subdomain {
    const raw = isObject(body.subdomain) ? body.subdomain : body;
    const parent = isObject(body.domain) ? body.domain : isObject(raw.domain) ? raw.domain : undefined;
    const parentName = typeof parent?.domain === 'string' ? parent.domain : typeof raw.domain === 'string' ? raw.domain : undefined;
    return readSubdomain(raw, parentName === undefined ? undefined : { id: domainId, domain: parentName });
  }

  // ---- plumbing -----------------------------------------------------------------------

  /**
   * Sends with the current token. When the server refuses it (INVALID_GRANT on reports,
   * NOT_AUTHORIZED on alerts and domains: the interface gives alert endpoints no separate
   * "expired" code, so NOT_AUTHORIZED may mean expiry), a token from client credentials is
   * renewed once and the request sent again; a refused request was not processed, so this is
   * safe for creates too. A ready token cannot be renewed.
   */
  async #call(req: Omit<HttpRequest, 'token'>): Promise<HttpResponse> {
    const token = await this.#auth.current();
    try {
      return await this.#transport.send({ ...req, token });
    } catch (err) {
      if (!isNetworkCalcError(err) || !AUTH_REFUSED.has(err.code)) throw err;
      if (!this.#auth.canRenew) throw this.#refused(req, err, 'static');
      this.#auth.invalidate(token);
      const fresh = await this.#auth.current();
      try {
        return await this.#transport.send({ ...req, token: fresh });
      } catch (again) {
        if (isNetworkCalcError(again) && AUTH_REFUSED.has(again.code)) throw this.#refused(req, again, 'renewed');
        throw again;
      }
    }
  }

  #refused(req: Pick<HttpRequest, 'operation' | 'subject'>, err: NetworkCalcError, why: 'static' | 'renewed'): NetworkCalcError {
    const advice =
      why === 'static'
        ? `the token was refused (expired, invalid, or without permission for this operation); set ${ENV.token} to a valid access token, or set ${ENV.clientId} and ${ENV.clientSecret} so tokens are renewed automatically`
        : `a freshly issued token was refused too, so the account lacks permission for this operation (the API needs a paid plan); check ${ENV.clientId} and ${ENV.clientSecret}`;
    return new NetworkCalcError({
      operation: err.operation,
      code: err.code,
      httpStatus: err.httpStatus,
      detail: err.detail,
      attempts: err.attempts,
      retryable: false,
      message: `${describe(req.operation, req.subject, err.code, err.httpStatus, advice)}${err.detail ? ` (server said: ${err.detail})` : ''}`,
    });
  }

  /** Applies a body reader; a shape it cannot use becomes UNEXPECTED_RESPONSE. */
  #read<T>(req: Pick<HttpRequest, 'operation' | 'subject'>, res: HttpResponse, reader: (body: Json) => T): T {
    try {
      return reader(res.body);
    } catch (err) {
      if (isNetworkCalcError(err)) throw err;
      const detail = err instanceof Error ? err.message : String(err);
      return this.#fail(req, res.status, detail);
    }
  }

  #fail(req: Pick<HttpRequest, 'operation' | 'subject'>, status: number, detail: string): never {
    throw new NetworkCalcError({
      operation: req.operation,
      code: 'UNEXPECTED_RESPONSE',
      httpStatus: status,
      detail,
      message: `${describe(req.operation, req.subject, 'UNEXPECTED_RESPONSE', status)} (${detail})`,
    });
  }
}
