/**
 * The provider as a process: handshake refusal without the cookie, and a gRPC session
 * over the unix socket ending with go-plugin's Shutdown, which must exit and clean up.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../src/provider/handshake';
import { startProvider } from '../../src/provider/main';
import { loadProtocol } from '../../src/provider/proto';
import { generateServerCertificate } from '../../src/provider/tls';
import { REPO_ROOT, requireFreshBuild } from './harness';

const BIN = path.join(REPO_ROOT, 'dist', 'provider', 'bin.js');
const WAIT_MS = 10_000;

beforeAll(() => requireFreshBuild());

test('run directly, the binary says it is a plugin and exits 1', () => {
  const r = spawnSync(process.execPath, [BIN], { encoding: 'utf8', timeout: WAIT_MS, env: { PATH: process.env.PATH } });
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^This binary is a plugin/);
});

function startPlugin(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN], {
    env: { PATH: process.env.PATH, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '5,6', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('no handshake line in time')), WAIT_MS);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!);
      }
    });
  });
  return { child, exited, line };
}

type Unary = (req: object, cb: (err: grpc.ServiceError | null, resp: Record<string, unknown>) => void) => void;
const call = (client: grpc.Client, method: string, req: object = {}) =>
  new Promise<Record<string, unknown>>((resolve, reject) =>
    (client as unknown as Record<string, Unary>)[method]!.call(client, req, (err, resp) =>
      err ? reject(err) : resolve(resp),
    ),
  );

async function session(line: string, creds: grpc.ChannelCredentials, options: grpc.ClientOptions = {}) {
  const [core, proto, network, address, kind] = line.split('|');
  expect([core, proto, network, kind]).toEqual(['1', '6', 'unix', 'grpc']);
  const services = loadProtocol();
  const Provider = grpc.makeGenericClientConstructor(services.provider, 'Provider');
  const Controller = grpc.makeGenericClientConstructor(services.controller, 'GRPCController');
  const provider = new Provider(`unix:${address}`, creds, options);
  const controller = new Controller(`unix:${address}`, creds, options);
  const metadata = await call(provider, 'GetMetadata');
  const schema = await call(provider, 'GetProviderSchema');
  await call(controller, 'Shutdown');
  provider.close();
  controller.close();
  return { address: address!, metadata, schema };
}

test('with TLS disabled it serves gRPC, and Shutdown exits 0 and removes the socket', async () => {
  const { exited, line, child } = startPlugin({ TF_DISABLE_PLUGIN_TLS: '1' });
  try {
    const l = await line;
    expect(l).toMatch(/\|grpc\|$/);
    const { address, metadata, schema } = await session(l, grpc.credentials.createInsecure());
    expect(metadata.server_capabilities).toMatchObject({ get_provider_schema_optional: true });
    expect(
      Object.keys((schema.provider as { block: { attributes: unknown[] } }).block.attributes).length,
    ).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(existsSync(address)).toBe(false);
  } finally {
    child.kill('SIGKILL');
  }
});

test('with AutoMTLS it accepts the client certificate it was given', async () => {
  const client = generateServerCertificate();
  const { exited, line, child } = startPlugin({ PLUGIN_CLIENT_CERT: client.certPem });
  try {
    const l = await line;
    const certB64 = l.split('|')[5]!;
    expect(certB64).not.toMatch(/=$/);
    const der = Buffer.from(certB64, 'base64'); // Node's decoder accepts missing padding
    const serverPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64')}\n-----END CERTIFICATE-----\n`;
    const creds = grpc.credentials.createSsl(
      Buffer.from(serverPem),
      Buffer.from(client.keyPem),
      Buffer.from(client.certPem),
    );
    const { metadata } = await session(l, creds, {
      'grpc.ssl_target_name_override': 'localhost',
      'grpc.default_authority': 'localhost',
    });
    expect(metadata.diagnostics).toEqual([]);
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
});

test('with AutoMTLS a client certificate other than the one given is refused', async () => {
  const trusted = generateServerCertificate();
  const stranger = generateServerCertificate();
  const { line, child, exited } = startPlugin({ PLUGIN_CLIENT_CERT: trusted.certPem });
  try {
    const [, , , address, , certB64] = (await line).split('|');
    const serverPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(certB64!, 'base64').toString('base64')}\n-----END CERTIFICATE-----\n`;
    const creds = grpc.credentials.createSsl(
      Buffer.from(serverPem),
      Buffer.from(stranger.keyPem),
      Buffer.from(stranger.certPem),
    );
    const Provider = grpc.makeGenericClientConstructor(loadProtocol().provider, 'Provider');
    const client = new Provider(`unix:${address}`, creds, { 'grpc.ssl_target_name_override': 'localhost' });
    const deadline = new Date(Date.now() + 3000);
    await expect(
      new Promise((resolve, reject) =>
        (
          client as unknown as Record<
            string,
            (r: object, m: grpc.Metadata, o: grpc.CallOptions, cb: (e: unknown, r: unknown) => void) => void
          >
        ).GetMetadata!({}, new grpc.Metadata(), { deadline }, (err, resp) =>
          err ? reject(err as Error) : resolve(resp),
        ),
      ),
    ).rejects.toMatchObject({ code: expect.any(Number) });
    client.close();
    // Stopped as a service manager would: it exits 0 and leaves no socket directory behind.
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.dirname(address!))).toBe(false);
  } finally {
    child.kill('SIGKILL');
  }
});

test('on Shutdown the socket directory goes at once, even while a call is still running', async () => {
  const block = { description: '', attributes: {} };
  const running = await startProvider(
    {
      typeName: 'x',
      schema: block,
      resources: [],
      dataSources: [{ typeName: 'x_hang', schema: block, read: () => new Promise(() => undefined) }],
    },
    {
      env: { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, TF_DISABLE_PLUGIN_TLS: '1' },
      out: { write: () => true } as unknown as NodeJS.WritableStream,
      exit: () => undefined,
    },
  );
  const Provider = grpc.makeGenericClientConstructor(loadProtocol().provider, 'Provider');
  const client = new Provider(`unix:${running.socketPath}`, grpc.credentials.createInsecure());
  await call(client, 'GetMetadata');
  void call(client, 'ReadDataSource', { type_name: 'x_hang' }).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 100));
  const closed = running.close();
  // terraform kills a provider 2 s after Shutdown: cleaning up only after the calls end could be too late.
  await new Promise((r) => setImmediate(r));
  expect(existsSync(path.dirname(running.socketPath))).toBe(false);
  client.close();
  await closed;
});
