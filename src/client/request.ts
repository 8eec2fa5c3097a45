/**
 * One request and its answer, as the client and the transport share them: what is sent (the
 * retry mode included), the body read as JSON, the code and detail an answer carries, and how
 * messages describe an operation.
 */
import type { Dispatcher } from 'undici';
import { adviceFor, isServiceCode, type ClientVariables, type NetworkCalcErrorCode } from './errors';
import { bodyCode, statusDecides } from './statuses';
import { isObject, type Json } from '../support/json';
import type { RetryPolicy } from './retry';

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
