/**
 * One HTTP exchange with retries: builds the request, maps the answer to a NetworkCalcError
 * on the body's code, and decides whether another attempt is safe.
 */
import { request, type Dispatcher } from 'undici';
import { NetworkCalcError, adviceFor, isServiceCode, type NetworkCalcErrorCode } from './errors';
import { isObject, type Json } from './read';
import {
  backoffDelayMs,
  classifyNetworkError,
  isRetryableStatus,
  networkErrorCode,
  parseRetryAfter,
  type RetryPolicy,
} from './retry';

/**
 * How a request may be repeated:
 * - `idempotent`: GET, PATCH (whole body), DELETE, the token exchange: retried on 429, 5xx,
 *   SYSTEM_ERROR, timeouts and dropped or refused connections.
 * - `create`: POST that adds something. Retried only when it certainly was not processed
 *   (429, connection refused). A timeout, a drop after sending or a 5xx gives OUTCOME_UNKNOWN.
 * - `trigger`: report POSTs. A second report is harmless but wasteful, so like `create` they
 *   are retried on 429 and refused connections only; other failures are reported as they are.
 */
export type RetryMode = 'idempotent' | 'create' | 'trigger';

export interface HttpRequest {
  operation: string;
  /** Names what is acted on in messages, e.g. "alert 12". */
  subject?: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  mode: RetryMode;
  /** Bearer token; never logged, never put on an error. */
  token?: string;
}

export interface HttpResponse {
  status: number;
  body: Json;
}

export interface TransportOptions {
  baseUrl: string;
  policy: RetryPolicy;
  timeoutMs: number;
  userAgent: string;
  dispatcher?: Dispatcher;
  logger?: (line: string) => void;
  /** Removes secrets from any text before it reaches a message or a log line. */
  redact: (text: string) => string;
  /** See ClientOptions.stopSignal. */
  stopSignal?: AbortSignal;
}

type Outcome =
  | { kind: 'response'; status: number; body: Json; text: string; retryAfterMs: number | undefined }
  | { kind: 'network'; error: unknown; aborted: boolean };

/**
 * The code a response carries, or undefined for success. The body's `status` decides first:
 * NOT_FOUND comes as HTTP 400, and an error code in a 200 body is still an error.
 */
export function responseCode(httpStatus: number, body: Json): NetworkCalcErrorCode | undefined {
  const status = typeof body.status === 'string' ? body.status.trim().toUpperCase() : undefined;
  if (isServiceCode(status)) return status;
  if (httpStatus >= 200 && httpStatus < 300) return undefined;
  if (httpStatus === 429) return 'RATE_LIMITED';
  if (httpStatus >= 500) return 'SERVER_ERROR';
  return 'UNEXPECTED_RESPONSE';
}

/** The server's own explanation, if the body has one. */
export function responseDetail(body: Json, text: string): string | undefined {
  for (const key of ['error', 'message', 'detail', 'error_description']) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  if (Object.keys(body).length === 0 && text.trim() !== '') return text.trim().slice(0, 200);
  if (typeof body.status === 'string' && !isServiceCode(body.status.toUpperCase()) && !/^ok$/i.test(body.status)) {
    return `status ${body.status}`;
  }
  return undefined;
}

/**
 * The head of every client error message: `<operation> (<subject>) failed: <code> (HTTP n):
 * <advice>`. `advice` defaults to the code's own; `before` goes between "failed: " and the
 * code (why retries stopped, with the last error's code after it).
 */
export function describe(
  operation: string,
  subject: string | undefined,
  code: NetworkCalcErrorCode,
  httpStatus: number | undefined,
  advice: string = adviceFor(code),
  before = '',
): string {
  const what = subject ? `${operation} (${subject})` : operation;
  const http = httpStatus === undefined ? '' : ` (HTTP ${httpStatus})`;
  return `${what} failed: ${before}${code}${http}: ${advice}`;
}

/** Waits ms, or less when signal aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The last error of a request that is not retried because the caller asked to stop. */
function stopped(error: NetworkCalcError): NetworkCalcError {
  return new NetworkCalcError({
    operation: error.operation,
    code: error.code,
    httpStatus: error.httpStatus,
    detail: error.detail,
    attempts: error.attempts,
    message: `${error.message} (not retried: asked to stop)`,
    cause: error,
  });
}

export class Transport {
  readonly #opts: TransportOptions;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
  }

  /** Sends with retries; resolves only on success, otherwise throws a NetworkCalcError. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const { policy } = this.#opts;
    const started = Date.now();
    const deadline = started + policy.maxTotalMs;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(req, attempt);
      let error: NetworkCalcError;
      let retry: boolean;
      let waitMs: number | undefined;

      if (outcome.kind === 'response') {
        const code = responseCode(outcome.status, outcome.body);
        if (code === undefined) return { status: outcome.status, body: outcome.body };
        const detail = responseDetail(outcome.body, outcome.text);
        const transient = isRetryableStatus(outcome.status) || code === 'SYSTEM_ERROR';
        const serverFault = outcome.status >= 500 || code === 'SYSTEM_ERROR';
        if (req.mode === 'create' && serverFault) {
          // The server may have saved the alert before failing. Repeating the POST could create
          // a duplicate: the caller (the reconciler) must re-list and adopt the alert by name.
          throw this.#error(req, 'OUTCOME_UNKNOWN', outcome.status, detail ?? `server answered ${code}`, attempt);
        }
        error = this.#error(req, code, outcome.status, detail, attempt);
        retry = req.mode === 'idempotent' ? transient : outcome.status === 429;
        waitMs = outcome.retryAfterMs;
      } else {
        const failure = outcome.aborted ? 'timeout' : classifyNetworkError(outcome.error);
        const netCode = networkErrorCode(outcome.error);
        const detail = this.#opts.redact(
          failure === 'timeout'
            ? `no complete answer within ${this.#opts.timeoutMs} ms`
            : `${netCode ?? 'network error'}: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`,
        );
        if (req.mode === 'create' && failure !== 'not-sent') {
          // Sent, then no answer: it may have been created. Same rule as a 5xx above.
          throw this.#error(req, 'OUTCOME_UNKNOWN', undefined, detail, attempt);
        }
        error = this.#error(req, failure === 'timeout' ? 'TIMEOUT' : 'CONNECTION_ERROR', undefined, detail, attempt);
        retry = req.mode === 'idempotent' || failure === 'not-sent';
      }

      if (!retry) throw error;
      if (policy.maxAttempts <= 1) throw error;
      if (this.#opts.stopSignal?.aborted) throw stopped(error);
      const delay = waitMs ?? backoffDelayMs(attempt, policy);
      const elapsed = Date.now() - started;
      if (attempt >= policy.maxAttempts || Date.now() + delay > deadline) {
        const why =
          attempt >= policy.maxAttempts
            ? `after ${attempt} attempts in ${elapsed} ms`
            : waitMs !== undefined
              ? `after ${attempt} attempt(s): the server asked to wait ${Math.ceil(waitMs / 1000)} s, beyond the ${policy.maxTotalMs} ms retry budget`
              : `after ${attempt} attempt(s) in ${elapsed} ms: the ${policy.maxTotalMs} ms retry budget is spent`;
        throw new NetworkCalcError({
          operation: req.operation,
          code: 'RETRIES_EXHAUSTED',
          httpStatus: error.httpStatus,
          detail: error.detail,
          attempts: attempt,
          message: describe(req.operation, req.subject, error.code, error.httpStatus, undefined, `RETRIES_EXHAUSTED: gave up ${why}; last error: `),
          cause: error,
        });
      }
      await sleep(delay, this.#opts.stopSignal);
      if (this.#opts.stopSignal?.aborted) throw stopped(error);
    }
  }

  #error(req: HttpRequest, code: NetworkCalcErrorCode, httpStatus: number | undefined, detail: string | undefined, attempts: number): NetworkCalcError {
    const clean = detail === undefined ? undefined : this.#opts.redact(detail);
    let message = describe(req.operation, req.subject, code, httpStatus);
    if (clean) message += ` (server said: ${clean})`;
    return new NetworkCalcError({ operation: req.operation, code, httpStatus, detail: clean, attempts, message });
  }

  async #attempt(req: HttpRequest, attempt: number): Promise<Outcome> {
    const { baseUrl, timeoutMs, userAgent, dispatcher, logger } = this.#opts;
    const qs = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    const pathAndQuery = `${req.path}${qs}`;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    // One timer per attempt covers connect, headers and body: undici's headersTimeout and
    // bodyTimeout each bound one phase only.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const t0 = Date.now();
    const log = (result: string) => {
      logger?.(this.#opts.redact(`${req.method} ${pathAndQuery} ${result} attempt=${attempt} ${Date.now() - t0}ms`));
    };
    try {
      const res = await request(`${baseUrl}${pathAndQuery}`, {
        method: req.method,
        headers,
        body: payload,
        signal: controller.signal,
        dispatcher,
      });
      const text = await res.body.text();
      let body: Json = {};
      if (text.trim() !== '') {
        try {
          const parsed: unknown = JSON.parse(text);
          body = isObject(parsed) ? parsed : { value: parsed };
        } catch {
          body = {};
        }
      }
      const outcome: Outcome = {
        kind: 'response',
        status: res.statusCode,
        body,
        text,
        retryAfterMs: res.statusCode === 429 || res.statusCode === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined,
      };
      log(String(res.statusCode));
      return outcome;
    } catch (error) {
      const aborted = controller.signal.aborted;
      log(aborted ? 'TIMEOUT' : (networkErrorCode(error) ?? 'NETWORK_ERROR'));
      return { kind: 'network', error, aborted };
    } finally {
      clearTimeout(timer);
    }
  }
}
