import { X509Certificate } from 'node:crypto';
import { checkHandshakeEnv, handshakeLine, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../src/provider/handshake';
import { generateServerCertificate, oid } from '../../src/provider/tls';

describe('AutoMTLS server certificate', () => {
  const cert = generateServerCertificate();
  const x = new X509Certificate(cert.certDer);

  test('is the self-signed CA for localhost that go-plugin expects', () => {
    expect(x.subject).toContain('CN=localhost');
    expect(x.subjectAltName).toBe('DNS:localhost');
    expect(x.ca).toBe(true);
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(x.checkIssued(x)).toBe(true);
    expect(new Date(x.validFrom).getTime()).toBeLessThan(Date.now());
  });

  test('PEM and DER agree, and every start makes a new key', () => {
    expect(new X509Certificate(cert.certPem).raw.equals(cert.certDer)).toBe(true);
    expect(generateServerCertificate().certDer.equals(cert.certDer)).toBe(false);
  });

  test('OID encoding matches the DER rules (multi-byte arcs)', () => {
    expect(oid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302');
  });
});

describe('handshake', () => {
  const clientCert = generateServerCertificate().certPem;
  const base = {
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: '6,5',
    PLUGIN_CLIENT_CERT: clientCert,
  };

  test('without the magic cookie the binary explains it is a plugin', () => {
    const r = checkHandshakeEnv({});
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^This binary is a plugin/);
  });

  test('protocol versions are parsed in any order and must include 6', () => {
    expect(checkHandshakeEnv({ ...base, PLUGIN_PROTOCOL_VERSIONS: '5, 6' }).ok).toBe(true);
    const r = checkHandshakeEnv({ ...base, PLUGIN_PROTOCOL_VERSIONS: '4,5' });
    expect(!r.ok && r.message).toContain('protocol 6');
  });

  test('TLS: client cert required, unless TF_DISABLE_PLUGIN_TLS', () => {
    expect(checkHandshakeEnv(base)).toEqual({ ok: true, config: { clientCertPem: clientCert } });
    expect(checkHandshakeEnv({ ...base, PLUGIN_CLIENT_CERT: undefined }).ok).toBe(false);
    expect(checkHandshakeEnv({ ...base, PLUGIN_CLIENT_CERT: undefined, TF_DISABLE_PLUGIN_TLS: '1' })).toEqual({
      ok: true,
      config: { clientCertPem: null },
    });
  });

  test('the line carries the cert as base64 without padding', () => {
    const der = Buffer.from([1, 2, 3, 4]); // base64 "AQIDBA==" padded
    expect(handshakeLine('/tmp/x/plugin.sock', der)).toBe('1|6|unix|/tmp/x/plugin.sock|grpc|AQIDBA');
    expect(handshakeLine('/tmp/x/plugin.sock', null)).toBe('1|6|unix|/tmp/x/plugin.sock|grpc|');
  });
});
