/**
 * A folder of release files served over HTTPS on 127.0.0.1, with a CA of its own for
 * SSL_CERT_FILE, as two of terraform's sources: a provider network mirror (the provider network
 * mirror protocol, under /<host>/<namespace>/<type>/) and a provider registry (the provider
 * registry protocol, under /v1/providers/, its files under /files/).
 * https://developer.hashicorp.com/terraform/internals/provider-network-mirror-protocol
 * https://developer.hashicorp.com/terraform/internals/provider-registry-protocol
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import * as forge from 'node-forge';

/** The release's signing key, as a registry lists it. */
export interface SigningKey {
  /** The key id: the last 16 hex digits of the fingerprint. */
  keyId: string;
  asciiArmor: string;
}

export interface RunningMirror {
  /** The mirror's base URL, for network_mirror { url = ... }. */
  url: string;
  /** The registry's providers.v1 service URL, for a `host` block of the CLI configuration. */
  registryUrl: string;
  /** The CA that signed the server's certificate, PEM: the file SSL_CERT_FILE names. */
  caPem: string;
  /** Paths of the requests served, in order. */
  requests: string[];
  close(): Promise<void>;
}

function certificates(): { caPem: string; certPem: string; keyPem: string } {
  const { privateKey: keyPem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  const make = (cn: string, serial: string, issuer: forge.pki.Certificate | null) => {
    const cert = forge.pki.createCertificate();
    cert.publicKey = publicKey;
    cert.serialNumber = serial;
    cert.validity.notBefore = new Date(Date.now() - 86_400_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ shortName: 'CN', value: cn }]);
    cert.setIssuer(issuer ? issuer.subject.attributes : [{ shortName: 'CN', value: cn }]);
    cert.setExtensions(
      issuer
        ? [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]
        : [
            { name: 'basicConstraints', cA: true },
            { name: 'keyUsage', keyCertSign: true },
          ],
    );
    cert.sign(key, forge.md.sha256.create());
    return cert;
  };
  const ca = make('Provider Mirror Test CA', '01', null);
  const leaf = make('127.0.0.1', '02', ca);
  return { caPem: forge.pki.certificateToPem(ca), certPem: forge.pki.certificateToPem(leaf), keyPem };
}

type Docs = Map<string, { type: string; body: Buffer }>;

/** The mirror's JSON documents for one provider (`<host>/<namespace>/<type>/`) of `releaseDir`'s zips. */
function documents(releaseDir: string, providerPath: string): Docs {
  const docs: Docs = new Map();
  const zips = readdirSync(releaseDir).filter((f) => f.endsWith('.zip'));
  const sums = readdirSync(releaseDir).find((f) => f.endsWith('_SHA256SUMS'))!;
  const hashOf = new Map(
    readFileSync(path.join(releaseDir, sums), 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.split('  ')[1]!, line.split('  ')[0]!]),
  );
  const versions = new Map<string, Record<string, { url: string; hashes: string[] }>>();
  for (const zip of zips) {
    const [, version, os, arch] = /^terraform-provider-[a-z0-9]+_(.+)_([a-z0-9]+)_([a-z0-9]+)\.zip$/.exec(zip)!;
    const archives = versions.get(version!) ?? {};
    archives[`${os}_${arch}`] = { url: zip, hashes: [`zh:${hashOf.get(zip)!}`] };
    versions.set(version!, archives);
    docs.set(`/${providerPath}/${zip}`, { type: 'application/zip', body: readFileSync(path.join(releaseDir, zip)) });
  }
  const json = (value: unknown) => ({ type: 'application/json', body: Buffer.from(JSON.stringify(value)) });
  docs.set(
    `/${providerPath}/index.json`,
    json({ versions: Object.fromEntries([...versions.keys()].map((v) => [v, {}])) }),
  );
  for (const [version, archives] of versions) docs.set(`/${providerPath}/${version}.json`, json({ archives }));
  return docs;
}

/** The registry's documents of the release (namespace/type from `providerPath`, its last two parts). */
function registryDocuments(releaseDir: string, providerPath: string, base: string, key: SigningKey): Docs {
  const docs: Docs = new Map();
  const files = readdirSync(releaseDir);
  const sums = files.find((f) => f.endsWith('_SHA256SUMS'))!;
  const sumOf = new Map(
    readFileSync(path.join(releaseDir, sums), 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.split('  ')[1]!, line.split('  ')[0]!]),
  );
  for (const f of files)
    docs.set(`/files/${f}`, { type: 'application/octet-stream', body: readFileSync(path.join(releaseDir, f)) });
  const api = `/v1/providers/${providerPath.split('/').slice(1).join('/')}`;
  const json = (value: unknown) => ({ type: 'application/json', body: Buffer.from(JSON.stringify(value)) });
  const zips = files.filter((f) => f.endsWith('.zip'));
  const platforms = zips.map((zip) => {
    const [, version, os, arch] = /_([^_]+)_([a-z0-9]+)_([a-z0-9]+)\.zip$/.exec(zip)!;
    docs.set(
      `${api}/${version}/download/${os}/${arch}`,
      json({
        protocols: ['6.0'],
        os,
        arch,
        filename: zip,
        download_url: `${base}files/${zip}`,
        shasums_url: `${base}files/${sums}`,
        shasums_signature_url: `${base}files/${sums}.sig`,
        shasum: sumOf.get(zip),
        signing_keys: { gpg_public_keys: [{ key_id: key.keyId, ascii_armor: key.asciiArmor }] },
      }),
    );
    return { version: version!, os: os!, arch: arch! };
  });
  const versions = [...new Set(platforms.map((p) => p.version))].map((version) => ({
    version,
    protocols: ['6.0'],
    platforms: platforms.filter((p) => p.version === version).map(({ os, arch }) => ({ os, arch })),
  }));
  docs.set(`${api}/versions`, json({ versions }));
  return docs;
}

export async function startProviderMirror(
  releaseDir: string,
  providerPath: string,
  key: SigningKey,
): Promise<RunningMirror> {
  const { caPem, certPem, keyPem } = certificates();
  const docs = documents(releaseDir, providerPath);
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer({ key: keyPem, cert: certPem }, (req, res) => {
    requests.push(req.url ?? '');
    const doc = req.method === 'GET' ? docs.get(req.url ?? '') : undefined;
    if (!doc) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': doc.type, 'content-length': doc.body.length }).end(doc.body);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `https://127.0.0.1:${port}/`;
  for (const [p, doc] of registryDocuments(releaseDir, providerPath, url, key)) docs.set(p, doc);
  return {
    url,
    registryUrl: `${url}v1/providers/`,
    caPem,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
