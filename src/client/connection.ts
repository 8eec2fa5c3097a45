/**
 * One attempt of a request on the wire: the URL split once, the headers and body built, one
 * timer over connect, headers and body, the body read up to its limit, and the outcome as data
 * (an answer, a network failure, or a body too large) for the transport to classify.
 */
import { EventEmitter } from 'node:events';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { Json } from '../support/json';
import { networkErrorCode, parseRetryAfter } from './retry';
import { parseBody, type HttpRequest, type TransportOptions } from './request';

/**
 * undici's global dispatcher, loaded on the first request: loading undici costs about 0.2 s of
 * CPU, which `ncalc --help`, `validate` and `synth` never need.
 */
let undici: typeof Undici | undefined;
function globalDispatcher(): Dispatcher {
  undici ??= require('undici') as typeof Undici;
  return undici.getGlobalDispatcher();
}

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
  // Framed by its Content-Length within the limit, the body cannot grow past it: read at once,
  // without the per-chunk iteration (a fleet's plan reads 20,000 small lists).
  if (Number.isFinite(announced)) return res.body.text();
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

export class Connection {
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
    // undici takes an EventEmitter as the signal: an AbortController per attempt cost more
    // (memory and CPU) over a fleet's 100,000 requests.
    const abort = new EventEmitter();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.emit('abort');
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
      const res = await (dispatcher ?? globalDispatcher()).request({
        origin: this.#origin,
        path: `${this.#prefix}${pathAndQuery}`,
        method: req.method,
        headers,
        body: payload,
        signal: abort,
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
        // Only an error's sentence names them (statuses.ts): not counted for a success.
        headerBytes: res.statusCode < 400 ? 0 : headerBlockBytes(req.method, pathAndQuery, headers),
        bodyBytes: res.statusCode < 400 || payload === undefined ? 0 : Buffer.byteLength(payload),
      };
      log(String(res.statusCode));
      return outcome;
    } catch (error) {
      log(timedOut ? 'TIMEOUT' : (networkErrorCode(error) ?? 'NETWORK_ERROR'));
      return { kind: 'network', error, aborted: timedOut };
    } finally {
      clearTimeout(timer);
    }
  }
}
