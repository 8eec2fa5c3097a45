/** Shared pieces of the client contract tests (not a test file itself). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { Agent, type Dispatcher } from 'undici';
import { NetworkCalcClient, isNetworkCalcError, type NetworkCalcError } from '../../src/client';
import type { RunningEmulator } from '../../src/emulator';
import type { AlertSpec } from '../../src/model';
import { alertSpec } from '../helpers/fixtures';

/** An agent that rewrites each request on its way out (headers, body) to produce faults the client never makes. */
export function rewritingAgent(rewrite: (opts: Dispatcher.DispatchOptions) => Dispatcher.DispatchOptions): Dispatcher {
  return new Agent().compose((dispatch) => (opts, handler) => dispatch(rewrite(opts), handler));
}

export function withoutHeader(name: string, onlyPath?: RegExp): Dispatcher {
  return rewritingAgent((opts) => {
    if (onlyPath && !onlyPath.test(opts.path)) return opts;
    const headers = { ...(opts.headers as Record<string, string>) };
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
    return { ...opts, headers };
  });
}

/** Records every Authorization header value sent, so tests can prove none leaks. */
export function authRecorder(): { dispatcher: Dispatcher; seen: Set<string> } {
  const seen = new Set<string>();
  const dispatcher = rewritingAgent((opts) => {
    const headers = (opts.headers ?? {}) as Record<string, string>;
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() === 'authorization') seen.add(String(v).replace(/^Bearer\s+/i, ''));
    }
    return opts;
  });
  return { dispatcher, seen };
}

/** Everything an error shows: message, fields, JSON and inspect output (with cause). */
export function everythingShown(err: unknown): string {
  return [String(err), JSON.stringify(err), inspect(err, { depth: 10, showHidden: true })].join('\n');
}

export async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** A DNS A alert named `name`: the shared fixture's defaults, with `overrides`. */
export function dnsAlert(name: string, overrides: Partial<AlertSpec> = {}): AlertSpec {
  return alertSpec({ name, ...overrides });
}

export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4, maxTotalMs: 5000 };

export interface TinyServer {
  url: string;
  /** Requests received, in order. */
  seen: Array<{ method: string; url: string; body: string }>;
  close(): Promise<void>;
}

/**
 * A node:http server on 127.0.0.1 and a free port (or `port`), answering each request with `handle`
 * once its body has arrived. close() also ends kept-alive connections.
 */
export async function tinyServer(
  handle: (req: IncomingMessage, body: string, res: ServerResponse) => void,
  port = 0,
): Promise<TinyServer> {
  const seen: TinyServer['seen'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      handle(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

type ClientOptions = ConstructorParameters<typeof NetworkCalcClient>[0];

/**
 * Clients of a suite's emulator (the demo token, FAST_RETRY, `defaults`) and `fails`, which
 * awaits a NetworkCalcError. Every log line and error stays in `shown()`, for the suite's check
 * that no credential shows.
 */
export function demoClients(emulator: () => RunningEmulator, defaults: Partial<ClientOptions> = {}) {
  const logs: string[] = [];
  const errors: unknown[] = [];
  const client = (extra: Partial<ClientOptions> = {}): NetworkCalcClient =>
    new NetworkCalcClient({
      baseUrl: emulator().url,
      token: 'demo-token',
      retry: FAST_RETRY,
      logger: (l) => logs.push(l),
      ...defaults,
      ...extra,
    });
  const fails = async (p: Promise<unknown>): Promise<NetworkCalcError> => {
    const e = await caught(p);
    errors.push(e);
    expect(isNetworkCalcError(e)).toBe(true);
    return e as NetworkCalcError;
  };
  const shown = () => [...logs, ...errors.map(everythingShown)].join('\n');
  return { client, fails, logs, shown };
}
