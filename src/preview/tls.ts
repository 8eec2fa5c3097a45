/**
 * Reading the certificate a host serves: connect with SNI, take the leaf certificate whether
 * or not it verifies (self-signed and expired certificates are exactly what an alert is for),
 * and report the verification separately. Bounded in time: a server that accepts the
 * connection and then stalls the handshake is a reason, not a hang.
 */
import { X509Certificate } from 'node:crypto';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';

export interface ObservedCertificate {
  /** `CN=www.example.com, O=Example`: the subject's attributes in the certificate's order. */
  subject: string;
  /** The common name, when the subject has one. */
  commonName: string | null;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  /** DNS names of subjectAltName (`*.example.com` included as written). */
  altNames: string[];
  selfSigned: boolean;
  /** null when the chain verifies against the system's roots and the name matches. */
  verificationError: string | null;
  /** The certificate's names cover the host asked for (wildcards per RFC 6125). */
  nameMatches: boolean;
}

export type CertificateResult =
  { ok: true; certificate: ObservedCertificate } | { ok: false; code: string; reason: string };

export interface CertificateTarget {
  address: string;
  port: number;
  /** The host name: sent as SNI and checked against the certificate. */
  servername: string;
  timeoutMs: number;
}

/** `CN=a, O=b` from a node subject object (multi-valued attributes repeated). */
function dn(subject: PeerCertificate['subject'] | undefined): string {
  if (!subject) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(subject)) {
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`${key}=${String(v)}`);
  }
  return parts.join(', ');
}

function altNamesOf(cert: PeerCertificate): string[] {
  return (cert.subjectaltname ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
}

export function readCertificate(target: CertificateTarget): Promise<CertificateResult> {
  const where = `${target.servername} (${target.address}:${target.port})`;
  return new Promise<CertificateResult>((resolve) => {
    let settled = false;
    const finish = (r: CertificateResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const socket = connect({
      host: target.address,
      port: target.port,
      servername: target.servername,
      // Read the certificate whatever it is; verification is reported below, not enforced.
      rejectUnauthorized: false,
    });
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          code: 'TLS_TIMEOUT',
          reason: `${where} did not complete a TLS handshake within ${target.timeoutMs} ms`,
        }),
      target.timeoutMs,
    );
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate(false);
      if (!peer || !peer.raw) {
        finish({ ok: false, code: 'NO_CERTIFICATE', reason: `${where} completed the handshake without a certificate` });
        return;
      }
      const x509 = new X509Certificate(peer.raw);
      const identity = checkServerIdentity(target.servername, peer);
      const authError = socket.authorizationError ? String(socket.authorizationError) : null;
      const cn = peer.subject?.CN;
      finish({
        ok: true,
        certificate: {
          subject: dn(peer.subject),
          commonName: cn === undefined ? null : Array.isArray(cn) ? cn[0] : cn,
          issuer: dn(peer.issuer),
          notBefore: new Date(x509.validFrom),
          notAfter: new Date(x509.validTo),
          altNames: altNamesOf(peer),
          selfSigned: x509.checkIssued(x509) && x509.verify(x509.publicKey),
          verificationError: authError ?? (identity ? identity.message : null),
          nameMatches: identity === undefined,
        },
      });
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? 'TLS_ERROR';
      const reason =
        code === 'ECONNREFUSED'
          ? `${where} refused the connection (nothing listens on port ${target.port})`
          : code === 'ECONNRESET'
            ? `${where} closed the connection during the TLS handshake`
            : code === 'ENETUNREACH' || code === 'EHOSTUNREACH'
              ? `${where} cannot be reached from this machine (${code}): no network route`
              : `${where}: TLS failed (${code}: ${e.message})`;
      finish({ ok: false, code, reason });
    });
    socket.once('close', () =>
      finish({ ok: false, code: 'ECONNRESET', reason: `${where} closed the connection before the handshake finished` }),
    );
  });
}
