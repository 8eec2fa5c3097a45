/**
 * serveProvider(): the process side of go-plugin. Checks the handshake environment,
 * serves tfplugin6 over gRPC on a unix socket with AutoMTLS, prints the handshake line,
 * and exits when terraform calls plugin.GRPCController/Shutdown.
 */
import { PARENT_CHECK_MS, whenParentGone } from '../support/parent-watch';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import type { ProviderDefinition } from './framework';
import { checkHandshakeEnv, handshakeLine } from './handshake';
import { loadProtocol } from './proto';
import { ProviderServer } from './server';
import { generateServerCertificate } from './tls';

/** Terraform sends whole states and schemas; grpc-js's 4 MB default is too small for big ones. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the handshake line goes; stdout in real use. */
  out?: NodeJS.WritableStream;
  /** Called instead of process.exit, for tests. */
  exit?: (code: number) => void;
}

export interface RunningProvider {
  socketPath: string;
  /** Stops serving and removes the socket directory. */
  close(): Promise<void>;
}

type Handler = (call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

function log(message: string): void {
  // stderr lands in terraform's log (TF_LOG); stdout is reserved for the handshake.
  process.stderr.write(`[networkcalc-provider] ${message}\n`);
}

/** Unary handlers for every RPC of the Provider service, dispatched to ProviderServer. */
function providerHandlers(
  impl: ProviderServer<unknown>,
  service: grpc.ServiceDefinition,
): grpc.UntypedServiceImplementation {
  const handlers: Record<string, Handler> = {};
  for (const rpc of Object.keys(service)) {
    const method = (impl as unknown as Record<string, (req: unknown) => unknown>)[rpc];
    handlers[rpc] = (call, cb) => {
      if (typeof method !== 'function') {
        cb({ code: grpc.status.UNIMPLEMENTED, details: `${rpc} is not implemented` });
        return;
      }
      Promise.resolve()
        .then(() => method.call(impl, call.request))
        .then(
          (resp) => cb(null, resp),
          // Only reached on a bug in the protocol layer itself; handlers' errors are diagnostics.
          (err: unknown) => {
            log(`${rpc} failed: ${err instanceof Error ? err.stack : String(err)}`);
            cb({ code: grpc.status.INTERNAL, details: String(err) });
          },
        );
    };
  }
  return handlers;
}

export async function startProvider<P>(
  provider: ProviderDefinition<P>,
  opts: ServeOptions = {},
): Promise<RunningProvider> {
  const env = opts.env ?? process.env;
  const out = opts.out ?? process.stdout;
  const exit = opts.exit ?? ((code: number) => process.exit(code));

  const check = checkHandshakeEnv(env);
  if (!check.ok) {
    process.stderr.write(check.message);
    exit(1);
    throw new Error(check.message.trim());
  }

  const impl = new ProviderServer(provider);
  const services = loadProtocol();
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });

  let closing: Promise<void> | undefined;
  const openStreams = new Set<grpc.ServerWritableStream<unknown, unknown>>();
  const dir = mkdtempSync(path.join(tmpdir(), 'tfprov-nc-'));
  const socketPath = path.join(dir, 'plugin.sock');
  const removeDir = () => rmSync(dir, { recursive: true, force: true });

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      // First: terraform kills us 2 s after Shutdown. Open connections outlive the unlink.
      removeDir();
      for (const s of openStreams) s.end();
      // Give in-flight calls a moment, then cut: terraform is waiting for us to go.
      const timer = setTimeout(() => server.forceShutdown(), 2000);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return closing;
  };

  server.addService(services.provider, providerHandlers(impl as ProviderServer<unknown>, services.provider));
  server.addService(services.controller, {
    Shutdown: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      impl.shutdown();
      cb(null, {});
      // Respond first, then leave; terraform otherwise waits and kills us.
      setImmediate(() => void close().then(() => exit(0)));
    },
  });
  server.addService(services.stdio, {
    // We never capture stdio; keep the stream open so go-plugin does not log it as broken.
    StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      openStreams.add(call);
      call.on('cancelled', () => openStreams.delete(call));
    },
  });

  const { credentials, serverCertDer } = serverCredentials(check.config.clientCertPem);

  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix:${socketPath}`, credentials, (err) => (err ? reject(err) : resolve()));
  });
  process.once('exit', removeDir);

  out.write(`${handshakeLine(socketPath, serverCertDer)}\n`);
  return { socketPath, close };
}

/**
 * AutoMTLS when terraform sent its client certificate: a fresh server certificate, and only
 * that client trusted. Without one (TF_DISABLE_PLUGIN_TLS), plain gRPC on the socket.
 */
function serverCredentials(clientCertPem: string | null): {
  credentials: grpc.ServerCredentials;
  serverCertDer: Buffer | null;
} {
  if (!clientCertPem) return { credentials: grpc.ServerCredentials.createInsecure(), serverCertDer: null };
  const cert = generateServerCertificate();
  const credentials = grpc.ServerCredentials.createSsl(
    Buffer.from(clientCertPem),
    [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
    true, // require a client cert, trusted only if it is terraform's
  );
  return { credentials, serverCertDer: cert.certDer };
}

/**
 * Leaves when terraform is gone. A terraform killed with SIGKILL never calls Shutdown, and
 * the plugin's stdin is terraform's own (often a terminal), so it cannot tell us either; the
 * reliable sign is being re-parented (to init or a subreaper). The timer does not keep the
 * process alive by itself.
 */
export function exitWithParent(leave: () => void, interval = PARENT_CHECK_MS): NodeJS.Timeout {
  return whenParentGone((parent) => {
    log(`terraform (pid ${parent}) is gone; exiting`);
    leave();
  }, interval);
}

/**
 * Entry point for a provider binary: serves until terraform calls Shutdown. SIGINT is
 * ignored (terraform forwards Ctrl-C and then calls StopProvider and Shutdown itself).
 */
export function serveProvider<P>(provider: ProviderDefinition<P>): void {
  process.on('SIGINT', () => undefined);
  startProvider(provider).then(
    (running) => {
      process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
      exitWithParent(() => void running.close().then(() => process.exit(0)));
    },
    (err: unknown) => {
      log(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
