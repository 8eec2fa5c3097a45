import { request } from 'undici';
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from '../../src/emulator';

/**
 * Starts one emulator for the file (beforeAll), resets it before each test (seed state,
 * no faults, empty request log) and closes it after all. Call inside a describe or at top level.
 */
export function useEmulator(opts: StartEmulatorOptions = {}): () => RunningEmulator {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator(opts);
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(async () => {
    await running!.control.reset();
  });
  return () => {
    if (!running) throw new Error('the emulator is not running (useEmulator works inside tests only)');
    return running;
  };
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as a JSON body with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (no content type unless given in headers). */
  body?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, the text otherwise. */
  body: any;
  text: string;
}

/** One raw HTTP call, so tests see exactly what the emulator answers. */
export async function call(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await request(baseUrl + path, { method: method as any, headers, body });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, text };
}

/**
 * Counts the connections that carry API requests to the emulator from now until `stop()`,
 * which returns the count. Counted per socket that served a request rather than per accept,
 * so a client that keeps connections from before (in this process) is counted too.
 */
export function countConnections(emu: RunningEmulator): { stop(): number } {
  const sockets = new Set<object>();
  const onRequest = (req: { url?: string; socket: object }) => {
    if (req.url?.startsWith('/api/')) sockets.add(req.socket);
  };
  emu.app.server.on('request', onRequest);
  return {
    stop: () => {
      emu.app.server.off('request', onRequest);
      return sockets.size;
    },
  };
}
