/**
 * One attempt of a request on the wire: the URL split once, the headers and body built, one
 * timer over connect, headers and body, the body read up to its limit, and the outcome as data
 * (an answer, a network failure, or a body too large) for the transport to classify.
 */
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { splitBaseUrl } from '../accounts/base-url';
import type { Json } from '../support/json';
import { networkErrorCode, parseRetryAfter } from './retry';
import { parseBody, type HttpRequest, type TransportOptions } from './request';

/**
 * undici, loaded on the first request: loading it costs about 0.2 s of CPU, which
 * `ncalc --help`, `validate` and `synth` never need.
 */
let undici: typeof Undici | undefined;
const loadUndici = (): typeof Undici => (undici ??= require('undici') as typeof Undici);

export type Outcome =
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
      /** Sizes of what was sent, for "too large" answers: 0 for a status below 400. */
      headerBytes: number;
      bodyBytes: number;
    }
  | { kind: 'network'; error: unknown; aborted: boolean }
  /** The body passed maxResponseBytes; `bytes` read so far, or announced by Content-Length. */
  | { kind: 'too-large'; status: number; bytes: number; announced: boolean };

/** Response headers as undici gives them: lower-case names. */
type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

/** An answer read whole (`text`), or one whose body passed the limit (`tooLarge`). */
type Exchanged =
  | { status: number; headers: IncomingHttpHeaders; text: string }
  | { status: number; tooLarge: { bytes: number; announced: boolean } };

/** Why an exchange stopped reading: the body passed the limit. */
class TooLarge extends Error {
  constructor(
    readonly bytes: number,
    readonly announced: boolean,
  ) {
    super('the body passed the limit');
  }
}

/**
 * One request and its whole answer through `dispatcher.dispatch`, the body gathered as it comes
 * and refused past `limit` bytes (from its Content-Length before reading, or as soon as the
 * received bytes pass it), so memory stays bounded whatever the server sends. undici's
 * `request()` wraps every answer in a stream, an async resource and an abort listener: about
 * 15 µs of CPU a request (bench/RESULTS.md), 0.3 s over a fleet's 20,000 lists. `onAbort` gets a function that
 * stops the exchange (the attempt's timer), which then fails with `reason`. The handler
 * speaks both of undici's handler interfaces, so a dispatcher of another undici major works.
 */
function exchange(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  limit: number,
  onAbort: (abort: (reason: Error) => void) => void,
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stop: ((reason: Error) => void) | undefined;
    let stopped: Error | undefined;
    let settled = false;
    const abort = (reason: Error) => {
      stopped ??= reason;
      stop?.(reason);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      const reason = stopped ?? err;
      if (reason instanceof TooLarge)
        resolve({ status, tooLarge: { bytes: reason.bytes, announced: reason.announced } });
      else reject(reason);
    };
    const started = (abortFn: (reason: Error) => void) => {
      stop = abortFn;
      if (stopped) abortFn(stopped);
    };
    const answered = (code: number, parsed: IncomingHttpHeaders) => {
      status = code;
      headers = parsed;
      const announced = Number(parsed['content-length']);
      if (Number.isFinite(announced) && announced > limit) abort(new TooLarge(announced, true));
    };
    const data = (chunk: Buffer) => {
      if (stopped) return;
      bytes += chunk.length;
      if (bytes > limit) abort(new TooLarge(bytes, false));
      else chunks.push(chunk);
    };
    const done = () => {
      if (settled) return;
      settled = true;
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, bytes).toString('utf8');
      resolve({ status, headers, text });
    };
    const handler: Dispatcher.DispatchHandler = {
      // undici 7's interface
      onRequestStart: (controller) => started((r) => controller.abort(r)),
      onResponseStart: (_controller, code, parsed) => answered(code, parsed),
      onResponseData: (_controller, chunk) => data(chunk),
      onResponseEnd: done,
      onResponseError: (_controller, err) => fail(err),
      // the interface before it
      onConnect: (abortFn) => started((r) => abortFn(r)),
      onHeaders: (code, raw) => {
        answered(code, loadUndici().util.parseHeaders(raw));
        return true;
      },
      onData: (chunk) => {
        data(chunk);
        return true;
      },
      onComplete: done,
      onError: (err) => fail(err),
    };
    onAbort(abort);
    try {
      dispatcher.dispatch(options, handler);
    } catch (err) {
      fail(err as Error);
    }
  });
}

/** Bytes of the request line and the headers this client sets, as they go on the wire. */
function headerBlockBytes(method: string, pathAndQuery: string, headers: Record<string, string>): number {
  let n = Buffer.byteLength(`${method} ${pathAndQuery} HTTP/1.1\r\n`);
  for (const [name, value] of Object.entries(headers)) n += Buffer.byteLength(`${name}: ${value}\r\n`);
  return n;
}

export class Connection {
  readonly #opts: TransportOptions;
  /** The base URL's origin and path, split once (see the constructor). */
  readonly #origin: string;
  readonly #prefix: string;

  constructor(opts: TransportOptions) {
    this.#opts = opts;
    // Split once: undici parses a whole URL again for every request. A base URL that does not
    // parse goes to undici as it is, which refuses it before sending.
    const split = splitBaseUrl(opts.baseUrl);
    const origin = split?.origin ?? opts.baseUrl;
    const prefix = split?.path ?? '';
    this.#origin = origin;
    this.#prefix = prefix;
  }

  async attempt(req: HttpRequest, attempt: number): Promise<Outcome> {
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
    let timedOut = false;
    let stop: ((reason: Error) => void) | undefined;
    const late = () => new Error(`no complete answer within ${timeoutMs} ms`);
    const timer = setTimeout(() => {
      timedOut = true;
      stop?.(late());
    }, timeoutMs);
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
      const res = await exchange(
        dispatcher ?? loadUndici().getGlobalDispatcher(),
        {
          origin: this.#origin,
          path: `${this.#prefix}${pathAndQuery}`,
          method: req.method,
          headers,
          body: payload,
          // undici closes the connection after a body on a method that does not expect one
          // (DELETE) unless told not to: a DELETE in the body form cost a connection each.
          // HTTP/1.1 frames a request body by its Content-Length whatever the method, so the
          // server has read it before it answers. (A closed connection also made undici's Agent
          // close the next pool of the origin, and so on: a new connection for every later request.)
          reset: false,
        },
        maxResponseBytes,
        (abort) => {
          stop = abort;
          if (timedOut) abort(late());
        },
      );
      if ('tooLarge' in res) {
        log(`${res.status} TOO_LARGE`);
        return { kind: 'too-large', status: res.status, ...res.tooLarge };
      }
      const header = (name: string) => {
        const value = res.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const outcome: Outcome = {
        kind: 'response',
        status: res.status,
        text: res.text,
        ...parseBody(res.text),
        retryAfterMs:
          res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined,
        location: header('location'),
        contentType: header('content-type'),
        // Only an error's sentence names them (statuses.ts): not counted for a success.
        headerBytes: res.status < 400 ? 0 : headerBlockBytes(req.method, pathAndQuery, headers),
        bodyBytes: res.status < 400 || payload === undefined ? 0 : Buffer.byteLength(payload),
      };
      log(String(res.status));
      return outcome;
    } catch (error) {
      log(timedOut ? 'TIMEOUT' : (networkErrorCode(error) ?? 'NETWORK_ERROR'));
      return { kind: 'network', error, aborted: timedOut };
    } finally {
      clearTimeout(timer);
    }
  }
}
