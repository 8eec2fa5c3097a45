import { readLiveAlert, requestBody, type AlertSpec, type LiveAlert } from '../model';
import { TokenSource, isIssuedExpired } from './auth';
import {
  DELETE_FORMS,
  DELETE_FORM_SHAPES,
  deleteAlertRequest,
  deleteFormState,
  isFormNotUnderstood,
  type DeleteForm,
} from './delete-forms';
import { DEFAULT_VARIABLES, NetworkCalcError, isNetworkCalcError, type ClientVariables } from './errors';
import { readCreatedId, readDomain, readReportResult, readSubdomain } from './read';
import { isObject, type Json } from '../support/json';
import { resolveRetryPolicy } from './retry';
import { Secrets } from './secrets';
import { Transport, describe, type HttpRequest, type HttpResponse } from './transport';
import type { ClientOptions, Domain, ReportResult, Subdomain } from './types';
import { PACKAGE_VERSION } from '../version';

import { DEFAULT_BASE_URL, baseUrlProblem, normalizeBaseUrl } from '../accounts/base-url';
import { ENV } from '../accounts/environment';
import { DEFAULT_TIMEOUT_SECONDS } from '../accounts/account-rules';
import type { Environment } from '../public-types';

/** Environment variables read by `NetworkCalcClient.fromEnv`, and the default base URL. */
export { DEFAULT_BASE_URL, ENV };
export { DELETE_FORMS, deleteAlertRequest, isFormNotUnderstood };
export type { DeleteForm };
export const DEFAULT_TIMEOUT_MS = DEFAULT_TIMEOUT_SECONDS * 1000;
/**
 * Default of `maxResponseBytes`: 128 MiB, some 400,000 alerts in one list (200,000 alerts list
 * as about 65 MiB), while a hostile endless body costs the client well under 500 MB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

function configError(message: string): NetworkCalcError {
  return new NetworkCalcError({ operation: 'configure', code: 'CONFIG_ERROR', message });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * Where a value has a character an HTTP request cannot carry in a header (CR, LF, NUL, other
 * control characters, anything beyond printable ASCII), or -1. Client ids and secrets travel
 * in a JSON body, but a credential with such a character is a copy-paste accident all the same.
 */
export function unsendableCharAt(value: string): number {
  return value.search(/[^\x20-\x7e]/);
}

/** The CONFIG_ERROR for an unsendable value: names where it came from, never the value. */
function checkSendable(value: string | undefined, source: string): void {
  if (value === undefined) return;
  const at = unsendableCharAt(value);
  if (at < 0) return;
  const code = value.charCodeAt(at);
  const kind =
    code < 0x20 || code === 0x7f
      ? `a control character (code ${code}${code === 10 ? ', a line feed' : code === 13 ? ', a carriage return' : code === 0 ? ', NUL' : ''})`
      : 'a non-ASCII character';
  throw configError(
    `${source} contains ${kind} at position ${at + 1}, which an HTTP request cannot carry; set it again without it (a stray line break from a file or a paste is the usual cause)`,
  );
}

function checkId(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`${what} must be a whole number >= 0, got ${String(value)}`);
  return value;
}

/** One alert per id: a list naming an id twice leaves any action on that id ambiguous. */
function checkUniqueIds(alerts: LiveAlert[]): LiveAlert[] {
  const seen = new Set<number>();
  for (const a of alerts) {
    if (seen.has(a.id)) throw new Error(`the list holds two alerts with id ${a.id}, so neither can be acted on safely`);
    seen.add(a.id);
  }
  return alerts;
}

const AUTH_REFUSED = new Set(['INVALID_GRANT', 'NOT_AUTHORIZED']);

/**
 * HTTP 401 without a code of the interface: a gateway in front of the API may refuse an expired
 * token so. One renewal costs little and a refused request was not processed; its message
 * (statuses.ts) is kept, since blaming the account's plan would be a guess.
 */
const refusedWithoutCode = (e: NetworkCalcError) => e.httpStatus === 401 && e.code === 'UNEXPECTED_RESPONSE';
const isRefused = (e: unknown): e is NetworkCalcError =>
  isNetworkCalcError(e) && (AUTH_REFUSED.has(e.code) || refusedWithoutCode(e));

export class NetworkCalcClient {
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #auth: TokenSource;
  readonly #variables: ClientVariables;

  constructor(options: ClientOptions) {
    const v: ClientVariables = { ...DEFAULT_VARIABLES };
    for (const key of Object.keys(v) as Array<keyof ClientVariables>) {
      const name = options.variables?.[key];
      // null: the caller's configuration names no such variable; advice never suggests one.
      if (name === null && key !== 'baseUrl') v[key] = null;
      else if (name !== undefined && name !== null && name.trim() !== '') v[key] = name.trim();
    }
    this.#variables = v;
    const token = nonEmpty(options.token);
    const clientId = nonEmpty(options.clientId);
    const clientSecret = nonEmpty(options.clientSecret);
    if (clientId !== undefined && clientSecret === undefined) {
      throw configError(
        `a client id is set but no client secret: set ${v.clientSecret ?? 'the client secret'} (or the clientSecret option) as well${v.token === null ? '' : `, or use ${v.token}`}`,
      );
    }
    if (clientSecret !== undefined && clientId === undefined) {
      throw configError(
        `a client secret is set but no client id: set ${v.clientId ?? 'the client id'} (or the clientId option) as well${v.token === null ? '' : `, or use ${v.token}`}`,
      );
    }
    if (token === undefined && clientId === undefined) {
      throw configError(
        `no NetworkCalc credentials: set ${
          [
            ...(v.token !== null ? [`${v.token} to an access token`] : []),
            ...(v.clientId !== null && v.clientSecret !== null
              ? [`${v.clientId} and ${v.clientSecret} to client credentials`]
              : []),
          ].join(', or ') || 'the token option, or the clientId and clientSecret options'
        }`,
      );
    }
    // Checked here, not left to the HTTP layer: there a bad header is an error that looks like
    // a dropped connection, is retried, and ends blaming the base URL.
    checkSendable(token, v.token ?? 'the token option');
    checkSendable(clientId, v.clientId ?? 'the clientId option');
    checkSendable(clientSecret, v.clientSecret ?? 'the clientSecret option');
    checkSendable(options.userAgent, 'the userAgent option');

    const rawBase = nonEmpty(options.baseUrl) ?? DEFAULT_BASE_URL;
    const urlProblem = baseUrlProblem(rawBase, v.baseUrl);
    if (urlProblem) throw configError(urlProblem);
    this.baseUrl = normalizeBaseUrl(rawBase);

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
      throw configError(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
    const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) {
      throw configError(`maxResponseBytes must be a whole number of bytes above 0, got ${String(maxResponseBytes)}`);
    }
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
      maxResponseBytes,
      variables: v,
    });
    this.#auth = new TokenSource(this.#transport, { token, clientId, clientSecret }, (issued) =>
      secrets.addIssued(issued),
    );
  }

  /**
   * A client configured from NETWORKCALC_BASE_URL, NETWORKCALC_TOKEN, NETWORKCALC_CLIENT_ID
   * and NETWORKCALC_CLIENT_SECRET, or only the credential variables named in
   * `overrides.variables` when it names any (the defaults are never read beside them);
   * `overrides` win over the environment.
   */
  static fromEnv(overrides: ClientOptions = {}, env: Environment = process.env): NetworkCalcClient {
    const given = overrides.variables ?? {};
    const named = given.token != null || given.clientId != null || given.clientSecret != null;
    const v: ClientVariables = named
      ? { token: null, clientId: null, clientSecret: null, baseUrl: DEFAULT_VARIABLES.baseUrl, ...given }
      : { ...DEFAULT_VARIABLES, ...given };
    const read = (name: string | null) => (name === null ? undefined : env[name]);
    return new NetworkCalcClient({
      ...overrides,
      variables: v,
      baseUrl: overrides.baseUrl ?? env[v.baseUrl],
      token: overrides.token ?? read(v.token),
      clientId: overrides.clientId ?? read(v.clientId),
      clientSecret: overrides.clientSecret ?? read(v.clientSecret),
    });
  }

  /** Token exchanges made so far; 0 with a ready token. */
  get tokenExchanges(): number {
    return this.#auth.exchanges;
  }

  /** The DELETE form found to work at this base URL, by any client of this process, once one has. */
  get deleteForm(): DeleteForm | undefined {
    return deleteFormState(this.baseUrl).form;
  }

  // ---- alerts -------------------------------------------------------------------------

  async listAlerts(): Promise<LiveAlert[]> {
    const req = { operation: 'listAlerts', method: 'GET', path: '/api/alerts/', mode: 'idempotent' } as const;
    const res = await this.#call(req);
    return this.#read(
      req,
      res,
      (body) => {
        if (!Array.isArray(body.alerts)) throw new Error('the response has no alerts array');
        return body.alerts.map((a) => {
          if (!isObject(a)) throw new Error('an alerts entry is not an object');
          return readLiveAlert(a);
        });
      },
      checkUniqueIds,
    );
  }

  async getAlert(id: number): Promise<LiveAlert> {
    checkId(id, 'alert id');
    const req = {
      operation: 'getAlert',
      subject: `alert ${id}`,
      method: 'GET',
      path: `/api/alerts/${id}`,
      mode: 'idempotent',
    } as const;
    const res = await this.#call(req);
    const found = this.#read(req, res, (body) => {
      const list: unknown[] = Array.isArray(body.alerts) ? body.alerts : isObject(body.alert) ? [body.alert] : [];
      const alerts = list.filter(isObject).map((a) => readLiveAlert(a));
      return checkUniqueIds(alerts.filter((a) => a.id === id))[0];
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
   *
   * The id form is learned once per base URL (see delete-forms.ts): while it is unknown, the
   * first delete probes the forms and the others wait for it, then each sends one request.
   */
  async deleteAlert(id: number): Promise<void> {
    checkId(id, 'alert id');
    const learned = deleteFormState(this.baseUrl);
    let relearned = false;
    // Each turn sends one request with the learned form, waits for another call's probe, or
    // probes: a call sends at most one request with a learned form and makes one probe.
    for (;;) {
      const form = learned.form;
      if (form !== undefined) {
        try {
          return await this.#deleteWith(form, id, learned);
        } catch (err) {
          // The server stopped understanding the learned form (redeployed?): learn it again, once.
          if (relearned || !isFormNotUnderstood(err)) throw err;
          relearned = true;
          if (learned.form === form) learned.form = undefined;
          continue;
        }
      }
      if (learned.probe !== undefined) {
        await learned.probe;
        continue;
      }
      let finished!: () => void;
      learned.probe = new Promise<void>((resolve) => {
        finished = resolve;
      });
      try {
        return await this.#probeDelete(id, learned);
      } finally {
        learned.probe = undefined;
        finished();
      }
    }
  }

  /** Tries the forms in order until one is understood, and keeps it for this base URL. */
  async #probeDelete(id: number, learned: ReturnType<typeof deleteFormState>): Promise<void> {
    let last: NetworkCalcError | undefined;
    for (const form of DELETE_FORMS) {
      try {
        return await this.#deleteWith(form, id, learned);
      } catch (err) {
        if (!isFormNotUnderstood(err)) throw err;
        last = err as NetworkCalcError;
      }
    }
    const forms = DELETE_FORMS.map((f) => DELETE_FORM_SHAPES[f]).join('; ');
    throw new NetworkCalcError({
      operation: 'deleteAlert',
      code: last!.code,
      httpStatus: last!.httpStatus,
      detail: last!.detail,
      attempts: last!.attempts,
      retryable: false,
      message: describe(
        'deleteAlert',
        `alert ${id}`,
        last!.code,
        last!.httpStatus,
        `the server understood none of the ways this client sends the alert id (${forms}), so the alert was not deleted; ` +
          `${this.#variables.baseUrl} may not point at the NetworkCalc Alerts API, or the service changed how DELETE takes the id (please report it)`,
      ),
      cause: last,
    });
  }

  /** One DELETE in `form`; success and NOT_FOUND both prove the form is understood. */
  async #deleteWith(form: DeleteForm, id: number, learned: ReturnType<typeof deleteFormState>): Promise<void> {
    try {
      await this.#call({
        operation: 'deleteAlert',
        subject: `alert ${id}`,
        method: 'DELETE',
        ...deleteAlertRequest(form, id),
        mode: 'idempotent',
      });
      learned.form = form;
    } catch (err) {
      if (!isNetworkCalcError(err) || err.code !== 'NOT_FOUND' || isFormNotUnderstood(err)) throw err;
      learned.form = form;
      // A retried DELETE whose earlier attempt got through finds nothing: that is success.
      if ((err.attempts ?? 1) > 1) return;
      throw err;
    }
  }

  // ---- reports ------------------------------------------------------------------------

  async triggerDomainReport(domainId: number): Promise<ReportResult> {
    checkId(domainId, 'domain id');
    return this.#trigger('triggerDomainReport', `domain ${domainId}`, `/api/reports/domain-reports/${domainId}`);
  }

  async triggerSubdomainReport(subdomainId: number): Promise<ReportResult> {
    checkId(subdomainId, 'subdomain id');
    return this.#trigger(
      'triggerSubdomainReport',
      `subdomain ${subdomainId}`,
      `/api/reports/subdomain-reports/${subdomainId}`,
    );
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
    const req = {
      operation: 'getDomain',
      subject: `domain ${id}`,
      method: 'GET',
      path: `/api/domains/${id}`,
      mode: 'idempotent',
    } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => readDomain(body.domain));
  }

  /** Adds a domain by name. Like createAlert, never repeated after an ambiguous failure. */
  async addDomain(name: string): Promise<Domain> {
    const req = {
      operation: 'addDomain',
      subject: `domain ${JSON.stringify(name)}`,
      method: 'POST',
      path: '/api/domains/',
      body: { domain: name },
      mode: 'create',
    } as const;
    const res = await this.#call(req);
    return this.#read(req, res, (body) => readDomain(body.domain));
  }

  async deleteDomain(id: number): Promise<void> {
    checkId(id, 'domain id');
    await this.#call({
      operation: 'deleteDomain',
      subject: `domain ${id}`,
      method: 'DELETE',
      path: `/api/domains/${id}`,
      mode: 'idempotent',
    });
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
    const parentName =
      typeof parent?.domain === 'string' ? parent.domain : typeof raw.domain === 'string' ? raw.domain : undefined;
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
  async #call(req: Omit<HttpRequest, 'token' | 'tokenVariable'>): Promise<HttpResponse> {
    const token = await this.#auth.current();
    try {
      return await this.#transport.send({ ...req, token, tokenVariable: this.#tokenVariable(token) });
    } catch (err) {
      if (!isRefused(err)) throw err;
      if (!this.#auth.canRenew) throw refusedWithoutCode(err) ? err : this.#refused(req, err, 'static');
      this.#auth.invalidate(token);
      const fresh = await this.#auth.current();
      try {
        return await this.#transport.send({ ...req, token: fresh, tokenVariable: this.#tokenVariable(fresh) });
      } catch (again) {
        if (!isRefused(again) || refusedWithoutCode(again)) throw again;
        const lifetime = this.#auth.issuedLifetime(fresh);
        throw this.#refused(req, again, isIssuedExpired(lifetime) ? 'issued-expired' : 'renewed', lifetime);
      }
    }
  }

  /** The variable a token came from, for messages; undefined for an issued one. */
  #tokenVariable(token: string): string | undefined {
    return this.#auth.isConfigured(token) ? (this.#variables.token ?? 'the token option') : undefined;
  }

  #refused(
    req: Pick<HttpRequest, 'operation' | 'subject'>,
    err: NetworkCalcError,
    why: 'static' | 'renewed' | 'issued-expired',
    lifetime?: number,
  ): NetworkCalcError {
    const v = this.#variables;
    // Client credentials are suggested only where the configuration names them: a default
    // variable may hold another account's (docs/architecture.md, "Credentials bound to their account").
    const renew =
      v.clientId !== null && v.clientSecret !== null
        ? `, or set ${v.clientId} and ${v.clientSecret} so tokens are renewed automatically`
        : '';
    const advice =
      why === 'static'
        ? `the token was refused (expired, invalid, or without permission for this operation); set ${v.token ?? 'the token'} to a valid access token${renew}`
        : why === 'issued-expired'
          ? `the service issues tokens that are already expired (this one came with expires_in ${lifetime}) and refused it at once; ` +
            `the credentials were accepted, so this is the service's fault (or its clock's): try again later, or report it to NetworkCalc`
          : `a freshly issued token was refused too, so the account lacks permission for this operation (the API needs a paid plan); check ${v.clientId ?? 'the client id'} and ${v.clientSecret ?? 'the client secret'}`;
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

  /** Applies a body reader (then `check`); a shape it cannot use becomes UNEXPECTED_RESPONSE. */
  #read<T>(
    req: Pick<HttpRequest, 'operation' | 'subject'>,
    res: HttpResponse,
    reader: (body: Json) => T,
    check: (value: T) => T = (x) => x,
  ): T {
    try {
      return check(reader(res.body));
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
