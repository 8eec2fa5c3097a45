/**
 * go-plugin AutoMTLS: a fresh self-signed server certificate per process.
 *
 * Node's crypto makes keys and signs but cannot build X.509, so this file carries a small
 * DER writer for exactly the certificate go-plugin expects. A general X.509 library was
 * measured at ~0.6 s of extra start-up, and terraform starts 2–5 provider processes per
 * command, so the ~100 lines below pay for themselves.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

// --- minimal DER writer -------------------------------------------------------------

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV: tag byte, DER length, content. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
}

const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
/** BIT STRING with a count of unused trailing bits in the last byte. */
const bits = (b: Buffer, unused = 0): Buffer => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));
/** [n] EXPLICIT: a constructed context tag wrapping one element. */
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);

/** Non-negative INTEGER from big-endian bytes (a leading zero keeps the sign bit clear). */
function uint(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const trimmed = b.subarray(i);
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime (YYMMDDHHMMSSZ); fine for dates before 2050, which is all we issue. */
function utcTime(d: Date): Buffer {
  const s = d.toISOString(); // 2024-01-02T03:04:05.678Z
  const text =
    s.slice(2, 4) + s.slice(5, 7) + s.slice(8, 10) + s.slice(11, 13) + s.slice(14, 16) + s.slice(17, 19) + 'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

// --- the certificate ----------------------------------------------------------------

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

const extension = (id: string, critical: boolean, value: Buffer): Buffer =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

export interface ServerCertificate {
  /** DER bytes; base64 of these (no padding) goes into the handshake line. */
  certDer: Buffer;
  certPem: string;
  keyPem: string;
}

function toPem(label: string, der: Buffer): string {
  const b64 = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

/**
 * CN=localhost, SAN DNS:localhost (go's verifier needs the SAN), IsCA (the cert is its own
 * root in terraform's pool), digitalSignature|keyEncipherment|keyCertSign, EKU server+client.
 */
export function generateServerCertificate(now = new Date()): ServerCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f || 0x01; // positive and non-zero
  const sigAlg = seq(oid(OID.ecdsaWithSha256));
  const name = seq(
    set(seq(oid(OID.organization), utf8('NetworkCalc provider'))),
    set(seq(oid(OID.commonName), utf8('localhost'))),
  );
  // Allow a little clock skew; the process lives for one terraform command.
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600_000);
  const keyUsage = bits(Buffer.from([0xa4]), 2); // bits 0, 2, 5
  const tbs = seq(
    explicit(0, uint(Buffer.from([2]))), // v3
    uint(serial),
    sigAlg,
    name,
    seq(utcTime(notBefore), utcTime(notAfter)),
    name,
    spki,
    explicit(
      3,
      seq(
        extension(OID.basicConstraints, true, seq(bool(true))),
        extension(OID.keyUsage, true, keyUsage),
        extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth), oid(OID.clientAuth))),
        extension(OID.subjectAltName, false, seq(tlv(0x82, Buffer.from('localhost', 'ascii')))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const certDer = seq(tbs, sigAlg, bits(signature));
  return {
    certDer,
    certPem: toPem('CERTIFICATE', certDer),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
