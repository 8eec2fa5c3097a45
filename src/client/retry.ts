/**
 * Retry policy: pure functions, unit-tested without a server.
 *
 * The retry loop itself lives in `transport.ts` and is written by hand around
 * `undici.request` rather than using undici's RetryHandler / retry interceptor: that handler
 * has no bound on total elapsed time, no jitter, and decides by HTTP method alone, while
 * here a create (POST) must never be repeated after an ambiguous failure and the decision
 * also depends on the response body's code.
 */
import { readingFor } from './statuses';
import { DEFAULT_MAX_RETRIES } from '../accounts/account-rules';

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** No new attempt starts (and no wait is begun) past this many ms after the first. */
  maxTotalMs: number;
  /** Backoff before attempt n+1 is drawn from [c/2, c], c = min(maxDelayMs, baseDelayMs * 2^(n-1)). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: DEFAULT_MAX_RETRIES,
  maxTotalMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
});

export function resolveRetryPolicy(partial?: Partial<RetryPolicy>): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const key of Object.keys(DEFAULT_RETRY_POLICY) as Array<keyof RetryPolicy>) {
    const value = partial?.[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`retry.${key} must be a finite number >= 0, got ${String(value)}`);
    }
    policy[key] = value;
  }
  policy.maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  return policy;
}

/**
 * Exponential backoff with jitter and a floor: half of the exponential step is always waited,
 * the other half is drawn at random, so that many clients throttled at once do not retry in
 * lockstep. `attempt` is the number of the attempt that just failed, starting at 1.
 *
 * Why not full jitter (a wait from 0): its waits can all be near 0, so a call's five attempts
 * could land within a few hundred ms, inside one short outage of the service. Measured against
 * the emulator with 2 s outages every 4 s, 600 calls: 76 gave up with full jitter, 0 with the
 * floor (bench/RESULTS.md, "Client retries under faults"). With the defaults, a call's retries
 * now span at least 1.9 s (at most 3.75 s) before its fifth attempt.
 */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(exponent, 30));
  return Math.floor(ceiling / 2 + (random() * ceiling) / 2);
}

/** Share of a Retry-After wait added at random on top of it. */
export const RETRY_AFTER_SPREAD = 0.2;

/**
 * The wait after a Retry-After of `retryAfterMs`: that, plus a random extra of up to 20 % of
 * it, and of at least up to twice `baseDelayMs` (500 ms by default) for short ones. Clients
 * refused together are told the same time; without the extra they would all come back in the
 * same instant and be refused together again.
 */
export function retryAfterDelayMs(
  retryAfterMs: number,
  policy: Pick<RetryPolicy, 'baseDelayMs'>,
  random: () => number = Math.random,
): number {
  const spread = Math.max(retryAfterMs * RETRY_AFTER_SPREAD, 2 * policy.baseDelayMs);
  return retryAfterMs + Math.floor(random() * spread);
}

/**
 * Retry-After as milliseconds: delta-seconds ("120") or an HTTP date. Returns undefined for
 * absent or unparseable values; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^[0-9]+(\.[0-9]+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined; // e.g. "-5": not a date either
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** HTTP statuses worth a retry when the request may be repeated: 408, 429, 500, 502, 503, 504 (statuses.ts). */
export function isRetryableStatus(status: number): boolean {
  return status >= 300 && readingFor(status).retryable;
}

/** Error codes meaning the connection was never established: nothing was sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Codes of errors raised on this machine before anything is sent: undici's argument checks
 * (a header value with a line break, a non-Latin-1 character, ...) and node's own. A retry
 * would fail alike; the request never left, so it is a configuration problem.
 */
const LOCAL_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_INVALID_URL',
]);

export type NetworkFailure =
  /** Refused on this machine before sending (a header it cannot carry, ...): not retried. */
  | 'local'
  /** Certainly not processed: the connection was never made. */
  | 'not-sent'
  /** Connection dropped or broke after the request may have reached the server. */
  | 'dropped'
  | 'timeout';

/** Every `code` found on an error, its cause chain and aggregated errors (happy eyeballs). */
function errorCodes(err: unknown, depth = 0): string[] {
  if (!err || typeof err !== 'object' || depth > 4) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const out: string[] = typeof e.code === 'string' ? [e.code] : [];
  out.push(...errorCodes(e.cause, depth + 1));
  if (Array.isArray(e.errors)) for (const inner of e.errors) out.push(...errorCodes(inner, depth + 1));
  return out;
}

/**
 * Classifies an error thrown by undici. `local` when undici or node refused the request
 * itself (the outermost code says so). `not-sent` only when every code found says the
 * connection was never made; everything else (ECONNRESET, EPIPE, UND_ERR_SOCKET, no code at
 * all, ...) counts as `dropped`: when in doubt, assume the server may have seen the request.
 */
export function classifyNetworkError(err: unknown): NetworkFailure {
  const codes = errorCodes(err);
  if (codes.length > 0 && LOCAL_CODES.has(codes[0])) return 'local';
  if (codes.some((c) => TIMEOUT_CODES.has(c))) return 'timeout';
  if (codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c))) return 'not-sent';
  return 'dropped';
}

/** First error code found, for messages. */
export function networkErrorCode(err: unknown): string | undefined {
  return errorCodes(err)[0];
}
