/**
 * Certificates of chosen subject, notBefore and notAfter (signed by a test CA, or self-signed)
 * made with node-forge, and local TLS servers that serve them by SNI. All servers of one set
 * listen on the same port at different loopback addresses, so DNS decides where a host goes:
 * 127.0.0.1 serves certificates by SNI, 127.0.0.2 accepts and never completes a handshake,
 * 127.0.0.3 refuses connections (nothing listens there). With `ipv6`, ::1 serves as 127.0.0.1 does.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createSecureContext, createServer, type SecureContext, type Server as TlsServer } from 'node:tls';
import * as forge from 'node-forge';

export const SERVES = '127.0.0.1';
export const STALLS = '127.0.0.2';
export const REFUSES = '127.0.0.3';
/** With `ipv6: true`: serves by SNI, as SERVES does. */
export const SERVES_V6 = '::1';

const DAY = 86_400_000;

// One RSA key for every certificate of the run: made by node (fast), signed with by forge.
const { privateKey: keyPem } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
const publicKey = forge.pki.setRsaPublicKey(key.n, key.e);

export interface CertificateSpec {
  /** Common name of the subject. */
  cn: string;
  /** More subject attributes, e.g. `{ O: 'Example' }`. */
  subject?: Record<string, string>;
  /** DNS names of subjectAltName (default: the common name). */
  altNames?: string[];
  notBefore: Date;
  notAfter: Date;
  /** Issued by itself instead of the test CA. */
  selfSigned?: boolean;
}

let serial = 1;
function build(spec: CertificateSpec, issuer: forge.pki.Certificate | null): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = (serial++).toString(16).padStart(2, '0');
  cert.validity.notBefore = spec.notBefore;
  cert.validity.notAfter = spec.notAfter;
  const attrs = [
    { shortName: 'CN', value: spec.cn },
    ...Object.entries(spec.subject ?? {}).map(([k, v]) => ({ shortName: k, value: v })),
  ];
  cert.setSubject(attrs);
  cert.setIssuer(issuer ? issuer.subject.attributes : attrs);
  cert.setExtensions(
    issuer
      ? [{ name: 'subjectAltName', altNames: (spec.altNames ?? [spec.cn]).map((value) => ({ type: 2, value })) }]
      : spec.selfSigned
        ? [{ name: 'subjectAltName', altNames: (spec.altNames ?? [spec.cn]).map((value) => ({ type: 2, value })) }]
        : [{ name: 'basicConstraints', cA: true }],
  );
  cert.sign(key, forge.md.sha256.create());
  return cert;
}

const CA = build(
  { cn: 'Preview Test CA', notBefore: new Date(Date.now() - 1000 * DAY), notAfter: new Date(Date.now() + 3000 * DAY) },
  null,
);

/** A PEM certificate chain (leaf, then the CA unless self-signed). */
export function makeCertificate(spec: CertificateSpec): string {
  const leaf = build(spec, spec.selfSigned ? null : CA);
  return forge.pki.certificateToPem(leaf) + (spec.selfSigned ? '' : forge.pki.certificateToPem(CA));
}

/** A certificate valid from `daysAgo` days ago for `lifetimeDays` days. */
export function lifetimeCertificate(
  cn: string,
  lifetimeDays: number,
  daysAgo: number,
  more: Partial<CertificateSpec> = {},
): CertificateSpec {
  const notBefore = new Date(Date.now() - daysAgo * DAY);
  return { cn, notBefore, notAfter: new Date(notBefore.getTime() + lifetimeDays * DAY), ...more };
}

export interface RunningTls {
  port: number;
  /** Handshakes the serving address completed or started, by SNI name. */
  handshakes: string[];
  close(): Promise<void>;
}

/**
 * Starts the servers. `certificates`: SNI name (or `*.example.test`) → certificate. A name with
 * no certificate gets the first one (as a server's default certificate would be sent).
 */
export async function startTlsServers(
  certificates: Record<string, CertificateSpec>,
  opts: { delayMs?: number; ipv6?: boolean } = {},
): Promise<RunningTls> {
  const contexts = new Map<string, SecureContext>();
  for (const [name, spec] of Object.entries(certificates))
    contexts.set(name, createSecureContext({ key: keyPem, cert: makeCertificate(spec) }));
  const fallback = contexts.values().next().value as SecureContext;
  const handshakes: string[] = [];
  const contextFor = (name: string) =>
    contexts.get(name) ?? contexts.get(`*.${name.split('.').slice(1).join('.')}`) ?? fallback;
  const defaultCert = makeCertificate(Object.values(certificates)[0]);
  const sockets = new Set<Socket>();
  const serving = (): TlsServer => {
    const server = createServer({
      key: keyPem,
      cert: defaultCert,
      // `delayMs`: the answer to the client's hello comes this much later (a distant server).
      SNICallback: (name, cb) => {
        handshakes.push(name);
        if (opts.delayMs) setTimeout(() => cb(null, contextFor(name)), opts.delayMs);
        else cb(null, contextFor(name));
      },
    });
    server.on('connection', (s: Socket) => sockets.add(s).size && s.on('close', () => sockets.delete(s)));
    server.on('tlsClientError', () => undefined);
    return server;
  };
  const tls = serving();
  await new Promise<void>((resolve) => tls.listen(0, SERVES, resolve));
  const port = (tls.address() as { port: number }).port;
  const tls6 = opts.ipv6 ? serving() : null;
  if (tls6)
    await new Promise<void>((resolve, reject) => {
      tls6.once('error', reject);
      tls6.listen(port, SERVES_V6, resolve);
    });
  // Accepts, reads, never answers: a handshake that stalls.
  const stall: NetServer = createNetServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    stall.once('error', reject);
    stall.listen(port, STALLS, resolve);
  });
  return {
    port,
    handshakes,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((resolve) => tls.close(() => resolve())),
        new Promise<void>((resolve) => (tls6 ? tls6.close(() => resolve()) : resolve())),
        new Promise<void>((resolve) => stall.close(() => resolve())),
      ]);
    },
  };
}
