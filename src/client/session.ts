/**
 * One set of credentials' connection to the API, under every resource of the client: the
 * options checked once, the transport, the token (renewed once when refused) and the reading
 * of answers. The resources (alerts.ts, domains.ts, reports.ts) send through it.
 */
import { TokenSource, isIssuedExpired } from './v1_9/auth';
import { DEFAULT_VARIABLES, NetworkCalcError, isNetworkCalcError, type ClientVariables } from './errors';
import type { Json } from '../support/json';
import { resolveRetryPolicy } from './retry';
import { Secrets } from './secrets';
import { Transport, describe, type HttpRequest, type HttpResponse } from './transport';
import type { ClientOptions } from './types';
import { PACKAGE_VERSION } from '../version';
import { DEFAULT_BASE_URL, baseUrlProblem, normalizeBaseUrl } from '../accounts/base-url';
import { DEFAULT_TIMEOUT_SECONDS } from '../accounts/account-rules';

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

export function checkId(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`${what} must be a whole number >= 0, got ${String(value)}`);
  return value;
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

export class ApiSession {
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly #auth: TokenSource;
  readonly variables: ClientVariables;

  constructor(options: ClientOptions) {
    const v: ClientVariables = { ...DEFAULT_VARIABLES };
    for (const key of Object.keys(v) as Array<keyof ClientVariables>) {
      const name = options.variables?.[key];
      // null: the caller's configuration names no such variable; advice never suggests one.
      if (name === null && key !== 'baseUrl') v[key] = null;
      else if (name !== undefined && name !== null && name.trim() !== '') v[key] = name.trim();
    }
    this.variables = v;
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
    this.transport = new Transport({
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
    this.#auth = new TokenSource(this.transport, { token, clientId, clientSecret }, (issued) =>
      secrets.addIssued(issued),
    );
  }

  /** Token exchanges made so far; 0 with a ready token. */
  get tokenExchanges(): number {
    return this.#auth.exchanges;
  }

  /**
   * Sends with the current token. When the server refuses it (INVALID_GRANT on reports,
   * NOT_AUTHORIZED on alerts and domains: the interface gives alert endpoints no separate
   * "expired" code, so NOT_AUTHORIZED may mean expiry), a token from client credentials is
   * renewed once and the request sent again; a refused request was not processed, so this is
   * safe for creates too. A ready token cannot be renewed.
   */
  async call(req: Omit<HttpRequest, 'token' | 'tokenVariable'>): Promise<HttpResponse> {
    const token = await this.#auth.current();
    try {
      return await this.transport.send({ ...req, token, tokenVariable: this.#tokenVariable(token) });
    } catch (err) {
      if (!isRefused(err)) throw err;
      if (!this.#auth.canRenew) throw refusedWithoutCode(err) ? err : this.#refused(req, err, 'static');
      this.#auth.invalidate(token);
      const fresh = await this.#auth.current();
      try {
        return await this.transport.send({ ...req, token: fresh, tokenVariable: this.#tokenVariable(fresh) });
      } catch (again) {
        if (!isRefused(again) || refusedWithoutCode(again)) throw again;
        const lifetime = this.#auth.issuedLifetime(fresh);
        throw this.#refused(req, again, isIssuedExpired(lifetime) ? 'issued-expired' : 'renewed', lifetime);
      }
    }
  }

  /** The variable a token came from, for messages; undefined for an issued one. */
  #tokenVariable(token: string): string | undefined {
    return this.#auth.isConfigured(token) ? (this.variables.token ?? 'the token option') : undefined;
  }

  #refused(
    req: Pick<HttpRequest, 'operation' | 'subject'>,
    err: NetworkCalcError,
    why: 'static' | 'renewed' | 'issued-expired',
    lifetime?: number,
  ): NetworkCalcError {
    const v = this.variables;
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
  read<T>(
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
      return this.fail(req, res.status, detail);
    }
  }

  fail(req: Pick<HttpRequest, 'operation' | 'subject'>, status: number, detail: string): never {
    throw new NetworkCalcError({
      operation: req.operation,
      code: 'UNEXPECTED_RESPONSE',
      httpStatus: status,
      detail,
      message: `${describe(req.operation, req.subject, 'UNEXPECTED_RESPONSE', status)} (${detail})`,
    });
  }
}
