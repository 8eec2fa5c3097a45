/**
 * go-plugin handshake: the environment terraform sets before starting a provider and the
 * single stdout line the provider answers with.
 */

export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
/** go-plugin's own protocol version, first field of the handshake line. */
export const CORE_PROTOCOL_VERSION = 1;
export const PLUGIN_PROTOCOL_VERSION = 6;

export const NOT_A_PLUGIN_MESSAGE =
  'This binary is a plugin. These are not meant to be executed directly.\n' +
  'Please execute the program that consumes these plugins, which will\n' +
  'load any plugins automatically.\n' +
  'This is the NetworkCalc Terraform provider: use it through terraform (see the provider docs).\n';

export interface HandshakeConfig {
  /** PEM of the client certificate to trust, or null when TLS is disabled. */
  clientCertPem: string | null;
}

export type HandshakeCheck = { ok: true; config: HandshakeConfig } | { ok: false; message: string };

/** Reads what terraform put in the environment; never exits, so it can be tested. */
export function checkHandshakeEnv(env: NodeJS.ProcessEnv): HandshakeCheck {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) return { ok: false, message: NOT_A_PLUGIN_MESSAGE };

  // The order of versions varies between terraform releases; only membership matters.
  const offered = env.PLUGIN_PROTOCOL_VERSIONS;
  if (offered !== undefined && offered.trim() !== '') {
    const versions = offered.split(',').map((v) => Number.parseInt(v.trim(), 10));
    if (!versions.includes(PLUGIN_PROTOCOL_VERSION)) {
      return {
        ok: false,
        message:
          `This provider speaks plugin protocol ${PLUGIN_PROTOCOL_VERSION}, but the caller offers ` +
          `${offered}. Use terraform 1.0 or later.\n`,
      };
    }
  }

  if (env.TF_DISABLE_PLUGIN_TLS === '1' || env.TF_DISABLE_PLUGIN_TLS === 'true') {
    return { ok: true, config: { clientCertPem: null } };
  }
  const clientCertPem = env.PLUGIN_CLIENT_CERT;
  if (!clientCertPem || !clientCertPem.includes('BEGIN CERTIFICATE')) {
    return {
      ok: false,
      message:
        'PLUGIN_CLIENT_CERT is missing: this terraform does not offer mutual TLS, which this provider requires.\n',
    };
  }
  return { ok: true, config: { clientCertPem } };
}

/**
 * `1|6|unix|<path>|grpc|<cert>`. The certificate is base64 WITHOUT padding (go-plugin
 * decodes with RawStdEncoding; padding breaks the connection) and empty without TLS.
 */
export function handshakeLine(socketPath: string, serverCertDer: Buffer | null): string {
  const cert = serverCertDer ? serverCertDer.toString('base64').replace(/=+$/, '') : '';
  return [CORE_PROTOCOL_VERSION, PLUGIN_PROTOCOL_VERSION, 'unix', socketPath, 'grpc', cert].join('|');
}
