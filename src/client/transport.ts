/**
 * One HTTP exchange with retries: the attempts (connection.ts) classified into the answer or a
 * NetworkCalcError on the body's code (request.ts reads the answer), and whether another attempt
 * is safe and when (the retry policy of retry.ts).
 */
import { EXPLAINED_BY_SERVER, NetworkCalcError, adviceFor, type NetworkCalcErrorCode } from './errors';
import { formatBytes, htmlPage, readingFor, statusDecides, type StatusReading } from './statuses';
import { backoffDelayMs, classifyNetworkError, isRetryableStatus, networkErrorCode, retryAfterDelayMs } from './retry';
import { Connection, type Outcome } from './connection';
import {
  describe,
  responseCode,
  responseDetail,
  successProblem,
  type HttpRequest,
  type HttpResponse,
  type TransportOptions,
} from './request';

export { describe, parseBody, responseCode, responseDetail, successProblem } from './request';
export type { HttpRequest, HttpResponse, RetryMode, TransportOptions } from './request';

/** An attempt that failed: the error, whether it may be sent again, and after how long. */
interface AttemptFailure {
  error: NetworkCalcError;
  retry: boolean;
  /** The server's Retry-After, when it gave one. */
  waitMs: number | undefined;
  /** The status row's sentence, when it explains the answer instead of the code's advice. */
  advice: string | undefined;
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
  /** Where each attempt goes (connection.ts). */
  readonly #connection: Connection;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    this.#connection = new Connection(opts);
  }

  /** Sends with retries; resolves only on success, otherwise throws a NetworkCalcError. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#connection.attempt(req, attempt);
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
}
