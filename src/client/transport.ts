/**
 * One HTTP exchange with retries: builds the request, maps the answer to a NetworkCalcError
 * on the body's code, and decides whether another attempt is safe.
 */
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import {
  EXPLAINED_BY_SERVER,
  NetworkCalcError,
  adviceFor,
  isServiceCode,
  type ClientVariables,
  type NetworkCalcErrorCode,
} from './errors';
import { isObject, type Json } from '../support/json';
import { bodyCode, formatBytes, htmlPage, readingFor, statusDecides, type StatusReading } from './statuses';
import {
  backoffDelayMs,
  classifyNetworkError,
  isRetryableStatus,
  networkErrorCode,
  parseRetryAfter,
  retryAfterDelayMs,
  type RetryPolicy,
} from './retry';

/**
 * undici's global dispatcher, loaded on the first request: loading undici costs about 0.2 s of
 * CPU, which `ncalc --help`, `validate` and `synth` never need.
 */
let undici: typeof Undici | undefined;
function globalDispatcher(): Dispatcher {
  undici ??= require('undici') as typeof Undici;
  return undici.getGlobalDispatcher();
}

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
  /** The variable the token came from, for messages; undefined for a token the exchange issued. */
  tokenVariable?: string;
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
  /** See ClientOptions.maxResponseBytes. */
  maxResponseBytes: number;
  /** Names of the variables the client was configured from, for advice. */
  variables: ClientVariables;
}

type Outcome =
  | {
      kind: 'response';
      status: number;
      body: Json;
      text: string;
      retryAfterMs: number | undefined;
      /** Why the body is not a JSON object, when it is not. */
      unreadable: string | undefined;
      location: string | undefined;
      contentType: string | undefined;
      /** Sizes of what was sent, for "too large" answers. */
      headerBytes: number;
      bodyBytes: number;
    }
  | { kind: 'network'; error: unknown; aborted: boolean }
  /** The body passed maxResponseBytes; `bytes` read so far, or announced by Content-Length. */
  | { kind: 'too-large'; status: number; bytes: number; announced: boolean };

/** An attempt that failed: the error, whether it may be sent again, and after how long. */
interface AttemptFailure {
  error: NetworkCalcError;
  retry: boolean;
  /** The server's Retry-After, when it gave one. */
  waitMs: number | undefined;
  /** The status row's sentence, when it explains the answer instead of the code's advice. */
  advice: string | undefined;
}

/** How much of a body that is not JSON a message shows. */
const SHOWN_TEXT = 120;

function excerpt(text: string): string {
  const t = text.trim();
  return JSON.stringify(t.length > SHOWN_TEXT ? `${t.slice(0, SHOWN_TEXT)}...` : t);
}

/** The body of a response as JSON, or why it is not a JSON object. */
export function parseBody(text: string): { body: Json; unreadable: string | undefined } {
  if (text.trim() === '') return { body: {}, unreadable: 'an empty body' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { body: {}, unreadable: `a body that is not JSON: ${excerpt(text)}` };
  }
  if (!isObject(parsed)) return { body: { value: parsed }, unreadable: `JSON that is not an object: ${excerpt(text)}` };
  return { body: parsed, unreadable: undefined };
}

/**
 * Why a 2xx answer that carries no error code is still not a success, or undefined. The
 * body must be a JSON object; a write's must say `"status": "OK"` (any case, other fields
 * allowed), as the interface's AlertUpdateResponse / AlertDeleteResponse do. A read needs no
 * status (its reader checks the shape), but one that is there must be OK.
 */
export function successProblem(
  method: HttpRequest['method'],
  body: Json,
  unreadable: string | undefined,
): string | undefined {
  if (unreadable !== undefined) return unreadable;
  const status = body.status;
  if (status === undefined)
    return method === 'GET' ? undefined : 'a body without a status (a success is {"status": "OK"})';
  if (typeof status === 'string' && /^ok$/i.test(status.trim())) return undefined;
  return `status ${JSON.stringify(status)}, which is neither OK nor an error code of the interface`;
}

/**
 * The code a response carries, or undefined for success. The body's `status` decides first
 * (NOT_FOUND comes as HTTP 400, and an error code in a 200 body is still an error), except
 * for statuses the interface never pairs with a code (a redirect, 404, 431, ...): there the
 * status decides (statuses.ts).
 */
export function responseCode(httpStatus: number, body: Json): NetworkCalcErrorCode | undefined {
  const reading = statusDecides(httpStatus, body);
  if (reading) return reading.code;
  return bodyCode(body);
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

/**
 * The body as text, or how far it got past `limit` bytes: refused from its Content-Length
 * before reading, or as soon as the streamed bytes pass the limit, so memory stays bounded
 * whatever the server sends. Reading stops by destroying the body, which closes the socket.
 */
async function readBounded(
  res: Dispatcher.ResponseData,
  limit: number,
): Promise<string | { bytes: number; announced: boolean }> {
  // Destroying the body makes undici emit an abort error on it: expected here, not a crash.
  const stop = () => res.body.on('error', () => {}).destroy();
  const announced = Number(res.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) {
    stop();
    return { bytes: announced, announced: true };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of res.body) {
    const buf = chunk as Buffer;
    bytes += buf.length;
    if (bytes > limit) {
      stop();
      return { bytes, announced: false };
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, bytes).toString('utf8');
}

/** Bytes of the request line and the headers this client sets, as they go on the wire. */
function headerBlockBytes(method: string, pathAndQuery: string, headers: Record<string, string>): number {
  let n = Buffer.byteLength(`${method} ${pathAndQuery} HTTP/1.1\r\n`);
  for (const [name, value] of Object.entries(headers)) n += Buffer.byteLength(`${name}: ${value}\r\n`);
  return n;
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
  /** The base URL's origin and path, split once (see the constructor). */
  readonly #origin: string;
  readonly #prefix: string;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    // Split once: undici's request(url) parses the whole URL again for every request. A base
    // URL that does not parse goes to undici as it is, which refuses it before sending.
    let origin = opts.baseUrl;
    let prefix = '';
    try {
      const url = new URL(opts.baseUrl);
      origin = url.origin;
      prefix = url.pathname.replace(/\/+$/, '');
    } catch {
      // refused by undici at the first request
    }
    this.#origin = origin;
    this.#prefix = prefix;
  }

  /** Sends with retries; resolves only on success, otherwise throws a NetworkCalcError. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(req, attempt);
      const failure = this.#classify(req, outcome, attempt);
      if (!('error' in failure)) return failure;
      const delay = this.#retryDelay(req, failure, attempt, started);
      await sleep(delay, this.#opts.stopSignal);
      if (this.#opts.stopSignal?.aborted) throw stopped(failure.error);
    }
  }

  /**
   * What an attempt's outcome means: the answer when it is a success, else the failure and
   * whether it may be sent again. Throws at once what must not be retried whatever the policy
   * (a local failure, an answer too large, an outcome a create cannot know).
   */
  #classify(req: HttpRequest, outcome: Outcome, attempt: number): HttpResponse | AttemptFailure {
    switch (outcome.kind) {
      case 'too-large':
        return this.#tooLarge(req, outcome, attempt);
      case 'response':
        return this.#classifyResponse(req, outcome, attempt);
      case 'network':
        return this.#classifyNetworkFailure(req, outcome, attempt);
    }
  }

  #tooLarge(req: HttpRequest, outcome: Extract<Outcome, { kind: 'too-large' }>, attempt: number): never {
    const { status, bytes, announced } = outcome;
    const limit = this.#opts.maxResponseBytes;
    const size = announced
      ? `announced as ${formatBytes(bytes)} (Content-Length)`
      : `more than ${formatBytes(limit)} (${bytes} bytes read when reading stopped)`;
    const detail = `the answer (HTTP ${status}) is ${size}, beyond the limit of ${formatBytes(limit)} (maxResponseBytes ${limit})`;
    // A create's answer that cannot be read says nothing of whether it happened.
    if (req.mode === 'create') throw this.#outcomeUnknown(req, status, detail, attempt);
    throw this.#error(req, 'RESPONSE_TOO_LARGE', status, detail, attempt, 'local');
  }

  #classifyResponse(
    req: HttpRequest,
    outcome: Extract<Outcome, { kind: 'response' }>,
    attempt: number,
  ): HttpResponse | AttemptFailure {
    const code = responseCode(outcome.status, outcome.body);
    if (code === undefined) return this.#success(req, outcome, attempt);
    // A status the interface does not pair with a code is explained by its row in
    // statuses.ts (cause and what to check); a proxy's HTML page is named, not quoted.
    const reading = statusDecides(outcome.status, outcome.body);
    const page = reading ? htmlPage(outcome.text, outcome.contentType) : undefined;
    const detail = page ? `the answer is ${page}` : responseDetail(outcome.body, outcome.text);
    const advice = reading ? this.#cause(reading, req, outcome) : undefined;
    const transient = isRetryableStatus(outcome.status) || code === 'SYSTEM_ERROR';
    const serverFault = readingFor(outcome.status).mayHaveActed || code === 'SYSTEM_ERROR';
    if (req.mode === 'create' && serverFault) {
      // The server may have saved the alert before failing. Repeating the POST could create
      // a duplicate: the caller lists the account and adopts the alert, or sends it again.
      const seen = advice ? `HTTP ${outcome.status}: ${advice}` : code;
      throw this.#outcomeUnknown(
        req,
        outcome.status,
        `the server answered ${seen}${detail ? `; ${detail}` : ''}`,
        attempt,
      );
    }
    return {
      error: this.#error(req, code, outcome.status, detail, attempt, page ? 'local' : 'server', advice),
      // Only what certainly was not processed (429) is sent again when a repeat is not safe.
      retry: transient && (req.mode === 'idempotent' || !serverFault),
      waitMs: outcome.retryAfterMs,
      advice,
    };
  }

  /** An answer without an error code: the success, unless it is not the one the interface describes. */
  #success(req: HttpRequest, outcome: Extract<Outcome, { kind: 'response' }>, attempt: number): HttpResponse {
    const problem = successProblem(req.method, outcome.body, outcome.unreadable);
    if (problem === undefined) return { status: outcome.status, body: outcome.body };
    // A 2xx that is not the success the interface describes: never counted as one. A
    // second look would not help (a proxy's page, a broken deployment): not retried.
    if (req.mode === 'create')
      throw this.#outcomeUnknown(req, outcome.status, `the server answered with ${problem}`, attempt);
    throw this.#error(
      req,
      'UNEXPECTED_RESPONSE',
      outcome.status,
      `the server answered with ${problem}`,
      attempt,
      'local',
    );
  }

  #classifyNetworkFailure(
    req: HttpRequest,
    outcome: Extract<Outcome, { kind: 'network' }>,
    attempt: number,
  ): AttemptFailure {
    const failure = outcome.aborted ? 'timeout' : classifyNetworkError(outcome.error);
    const netCode = networkErrorCode(outcome.error);
    const what = `${netCode ?? 'network error'}: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`;
    if (failure === 'local') throw this.#notSent(req, what, attempt);
    if (req.mode === 'create' && failure !== 'not-sent') {
      // Sent, then no answer: it may have been created. Same rule as a 5xx above.
      const why =
        failure === 'timeout'
          ? `no complete answer within ${this.#opts.timeoutMs} ms`
          : `the connection was lost after sending; ${what}`;
      throw this.#outcomeUnknown(req, undefined, why, attempt);
    }
    const detail = failure === 'timeout' ? `no complete answer within ${this.#opts.timeoutMs} ms` : what;
    return {
      error: this.#error(
        req,
        failure === 'timeout' ? 'TIMEOUT' : 'CONNECTION_ERROR',
        undefined,
        detail,
        attempt,
        'local',
      ),
      retry: req.mode === 'idempotent' || failure === 'not-sent',
      waitMs: undefined,
      advice: undefined,
    };
  }

  /**
   * How long to wait before the next attempt; throws the failure when it is not to be retried,
   * when the caller asked to stop, or when the attempts or the time budget are spent.
   */
  #retryDelay(req: HttpRequest, failure: AttemptFailure, attempt: number, started: number): number {
    const { policy } = this.#opts;
    const { error, waitMs } = failure;
    if (!failure.retry) throw error;
    if (policy.maxAttempts <= 1) throw error;
    if (this.#opts.stopSignal?.aborted) throw stopped(error);
    const elapsed = Date.now() - started;
    const left = started + policy.maxTotalMs - Date.now();
    // Retry-After is followed, plus a random extra so that clients refused together do not
    // come back together; the extra never stretches the wait past the budget.
    const delay =
      waitMs !== undefined
        ? Math.min(retryAfterDelayMs(waitMs, policy), Math.max(waitMs, left))
        : backoffDelayMs(attempt, policy);
    if (attempt >= policy.maxAttempts || delay > left) {
      const why =
        attempt >= policy.maxAttempts
          ? `after ${attempt} attempts in ${elapsed} ms`
          : waitMs !== undefined
            ? `after ${attempt} attempt(s): the server asked to wait ${Math.ceil(waitMs / 1000)} s, beyond the ${policy.maxTotalMs} ms retry budget`
            : `after ${attempt} attempt(s) in ${elapsed} ms: the ${policy.maxTotalMs} ms retry budget is spent`;
      throw this.#exhausted(req, failure, attempt, why);
    }
    return delay;
  }

  /** The last failure, wrapped as RETRIES_EXHAUSTED with why the retries stopped. */
  #exhausted(req: HttpRequest, { error, advice }: AttemptFailure, attempt: number, why: string): NetworkCalcError {
    return new NetworkCalcError({
      operation: req.operation,
      code: 'RETRIES_EXHAUSTED',
      httpStatus: error.httpStatus,
      detail: error.detail,
      attempts: attempt,
      message: describe(
        req.operation,
        req.subject,
        error.code,
        error.httpStatus,
        advice ?? this.#advice(error.code),
        `RETRIES_EXHAUSTED: gave up ${why}; last error: `,
      ),
      cause: error,
    });
  }

  #advice(code: NetworkCalcErrorCode): string {
    return adviceFor(code, this.#opts.variables);
  }

  /** The status row's sentence for this answer, with the variable names and sizes it needs. */
  #cause(reading: StatusReading, req: HttpRequest, outcome: Extract<Outcome, { kind: 'response' }>): string {
    const location = outcome.location;
    return this.#opts.redact(
      reading.cause({
        status: outcome.status,
        method: req.method,
        baseUrl: this.#opts.baseUrl,
        path: req.path,
        variables: this.#opts.variables,
        location,
        retryAfter: outcome.retryAfterMs !== undefined,
        tokenVariable: req.token === undefined ? undefined : req.tokenVariable,
        tokenBytes: req.token === undefined ? 0 : Buffer.byteLength(req.token),
        headerBytes: outcome.headerBytes,
        bodyBytes: outcome.bodyBytes,
      }),
    );
  }

  /**
   * `source` says whose words `detail` is: the server's explanation, shown as such (instead
   * of the generic advice where it says more), or what the client saw itself.
   */
  #error(
    req: HttpRequest,
    code: NetworkCalcErrorCode,
    httpStatus: number | undefined,
    detail: string | undefined,
    attempts: number,
    source: 'server' | 'local',
    advice: string = this.#advice(code),
  ): NetworkCalcError {
    const clean = detail === undefined ? undefined : this.#opts.redact(detail);
    let message: string;
    if (clean && source === 'server' && EXPLAINED_BY_SERVER.has(code)) {
      message = describe(req.operation, req.subject, code, httpStatus, `server said: ${clean}`);
    } else {
      message = describe(req.operation, req.subject, code, httpStatus, advice);
      if (clean) message += source === 'server' ? ` (server said: ${clean})` : ` (${clean})`;
    }
    return new NetworkCalcError({ operation: req.operation, code, httpStatus, detail: clean, attempts, message });
  }

  /** A create that may or may not have happened: `why` says what was seen instead of an answer. */
  #outcomeUnknown(req: HttpRequest, httpStatus: number | undefined, why: string, attempts: number): NetworkCalcError {
    return this.#error(req, 'OUTCOME_UNKNOWN', httpStatus, why, attempts, 'local');
  }

  /** Refused on this machine before sending: nothing reached the server, a retry would fail alike. */
  #notSent(req: HttpRequest, what: string, attempts: number): NetworkCalcError {
    const v = this.#opts.variables;
    const clean = this.#opts.redact(what);
    return new NetworkCalcError({
      operation: req.operation,
      code: 'CONFIG_ERROR',
      detail: clean,
      attempts,
      message: describe(
        req.operation,
        req.subject,
        'CONFIG_ERROR',
        undefined,
        `nothing was sent: this machine refused to build the request (${clean}); a configured value cannot go into an HTTP request: check ${[v.token, v.clientId, v.clientSecret].filter((n) => n !== null).join(', ')} and the userAgent option for line breaks or other control or non-ASCII characters`,
      ),
    });
  }

  async #attempt(req: HttpRequest, attempt: number): Promise<Outcome> {
    const { timeoutMs, userAgent, dispatcher, logger, maxResponseBytes } = this.#opts;
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
      // undici counts a kept-alive connection as busy until the check phase after its answer
      // (it looks for bytes the server sent unasked first); a request sent within the same
      // turn, as the next of a batch is, finds every connection busy and opens another: 83
      // connections for 600 deletes at parallelism 64 instead of 64.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const res = await (dispatcher ?? globalDispatcher()).request({
        origin: this.#origin,
        path: `${this.#prefix}${pathAndQuery}`,
        method: req.method,
        headers,
        body: payload,
        signal: controller.signal,
        // undici closes the connection after a body on a method that does not expect one
        // (DELETE) unless told not to: a DELETE in the body form cost a connection each. HTTP/1.1
        // frames a request body by its Content-Length whatever the method, so the server has
        // read it before it answers. (A closed connection also made undici's Agent close the
        // next pool of the origin, and so on: a new connection for every later request.)
        reset: false,
      });
      const read = await readBounded(res, maxResponseBytes);
      if (typeof read !== 'string') {
        log(`${res.statusCode} TOO_LARGE`);
        return { kind: 'too-large', status: res.statusCode, ...read };
      }
      const header = (name: string) => {
        const value = res.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const outcome: Outcome = {
        kind: 'response',
        status: res.statusCode,
        text: read,
        ...parseBody(read),
        retryAfterMs:
          res.statusCode === 429 || res.statusCode === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined,
        location: header('location'),
        contentType: header('content-type'),
        headerBytes: headerBlockBytes(req.method, pathAndQuery, headers),
        bodyBytes: payload === undefined ? 0 : Buffer.byteLength(payload),
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
