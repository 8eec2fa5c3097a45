import { inspect } from 'node:util';
import {
  CLIENT_CODES,
  NetworkCalcClient,
  NetworkCalcError,
  SERVICE_CODES,
  adviceFor,
  isNetworkCalcError,
  isNotFound,
  responseCode,
} from '../../src/client';
import type * as ErrorsModule from '../../src/client/errors';

describe('responseCode: decided on the body first', () => {
  it('takes NOT_FOUND from a 400 body', () => {
    expect(responseCode(400, { status: 'NOT_FOUND' })).toBe('NOT_FOUND');
  });

  it('takes every service code from the body, whatever the HTTP status', () => {
    for (const code of SERVICE_CODES) expect(responseCode(400, { status: code })).toBe(code);
    expect(responseCode(200, { status: 'NOT_UPDATED' })).toBe('NOT_UPDATED');
    expect(responseCode(500, { status: 'SYSTEM_ERROR' })).toBe('SYSTEM_ERROR');
    expect(responseCode(401, { status: 'not_authorized' })).toBe('NOT_AUTHORIZED');
  });

  it('treats OK bodies and bodiless 2xx as success', () => {
    expect(responseCode(200, { status: 'OK' })).toBeUndefined();
    expect(responseCode(200, {})).toBeUndefined();
    expect(responseCode(204, {})).toBeUndefined();
  });

  it('falls back on the HTTP status when the body has no known code', () => {
    expect(responseCode(429, {})).toBe('RATE_LIMITED');
    expect(responseCode(503, { status: 'busy' })).toBe('SERVER_ERROR');
    expect(responseCode(404, { message: 'Route not found' })).toBe('UNEXPECTED_RESPONSE');
    expect(responseCode(418, {})).toBe('UNEXPECTED_RESPONSE');
    expect(responseCode(408, {})).toBe('TIMEOUT');
  });

  it('lets the status decide where the interface never pairs it with a code: an unknown route saying NOT_FOUND is no missing alert', () => {
    expect(responseCode(404, { status: 'NOT_FOUND' })).toBe('UNEXPECTED_RESPONSE');
    expect(responseCode(405, { status: 'NOT_FOUND' })).toBe('UNEXPECTED_RESPONSE');
    expect(responseCode(301, { status: 'NOT_AUTHORIZED' })).toBe('UNEXPECTED_RESPONSE');
    expect(responseCode(431, { status: 'INVALID_BODY' })).toBe('UNEXPECTED_RESPONSE');
    // ... while a code of the interface still decides on statuses it may come with.
    expect(responseCode(401, { status: 'INVALID_GRANT' })).toBe('INVALID_GRANT');
    expect(responseCode(503, { status: 'SYSTEM_ERROR' })).toBe('SYSTEM_ERROR');
  });
});

describe('NetworkCalcError', () => {
  const err = new NetworkCalcError({
    operation: 'getAlert',
    code: 'NOT_FOUND',
    httpStatus: 400,
    message: 'm',
    detail: 'no alert',
  });

  it('carries operation, code, status, detail and retryability', () => {
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      name: 'NetworkCalcError',
      operation: 'getAlert',
      code: 'NOT_FOUND',
      httpStatus: 400,
      retryable: false,
      detail: 'no alert',
    });
    expect(new NetworkCalcError({ operation: 'x', code: 'RATE_LIMITED', message: 'm' }).retryable).toBe(true);
    expect(new NetworkCalcError({ operation: 'x', code: 'OUTCOME_UNKNOWN', message: 'm' }).retryable).toBe(false);
    expect(isNotFound(err)).toBe(true);
  });

  it('is recognised through a Symbol.for brand, also from another copy of the module', () => {
    let copy!: typeof ErrorsModule;
    jest.isolateModules(() => {
      copy = require('../../src/client/errors');
    });
    expect(copy.NetworkCalcError).not.toBe(NetworkCalcError);
    const foreign = new copy.NetworkCalcError({ operation: 'x', code: 'TIMEOUT', message: 'm' });
    expect(isNetworkCalcError(foreign)).toBe(true);
    expect(foreign instanceof NetworkCalcError).toBe(true);
    expect(copy.isNetworkCalcError(err)).toBe(true);
    expect(isNetworkCalcError(new Error('x'))).toBe(false);
    expect(isNetworkCalcError({ code: 'NOT_FOUND' })).toBe(false);
  });

  it('serializes to plain data', () => {
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: 'NetworkCalcError',
      message: 'm',
      operation: 'getAlert',
      code: 'NOT_FOUND',
      httpStatus: 400,
      retryable: false,
      detail: 'no alert',
    });
  });

  it('has advice for every code', () => {
    for (const code of [...SERVICE_CODES, ...CLIENT_CODES]) expect(adviceFor(code).length).toBeGreaterThan(10);
    expect(adviceFor('NOT_AUTHORIZED')).toMatch(
      /the token was refused; check NETWORKCALC_TOKEN or the client credentials/,
    );
    expect(adviceFor('OUTCOME_UNKNOWN')).toBe(
      'the create may or may not have happened; list the account and adopt what it created if it is there, or send the create again if not',
    );
  });
});

describe('configuration', () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e as NetworkCalcError;
    }
    throw new Error('did not throw');
  };

  it('needs a token or a client id + secret, and names the variables', () => {
    const e = codeOf(() => NetworkCalcClient.fromEnv({}, {}));
    expect(e.code).toBe('CONFIG_ERROR');
    expect(e.message).toMatch(/NETWORKCALC_TOKEN/);
    expect(e.message).toMatch(/NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET/);
    expect(codeOf(() => NetworkCalcClient.fromEnv({}, { NETWORKCALC_TOKEN: '   ' })).code).toBe('CONFIG_ERROR');
  });

  it('rejects half a credential pair', () => {
    const e = codeOf(() => NetworkCalcClient.fromEnv({}, { NETWORKCALC_CLIENT_ID: 'id' }));
    expect(e.code).toBe('CONFIG_ERROR');
    expect(e.message).toMatch(/NETWORKCALC_CLIENT_SECRET/);
    expect(codeOf(() => NetworkCalcClient.fromEnv({}, { NETWORKCALC_CLIENT_SECRET: 'hush-hush' })).message).toMatch(
      /NETWORKCALC_CLIENT_ID/,
    );
    expect(codeOf(() => NetworkCalcClient.fromEnv({}, { NETWORKCALC_CLIENT_SECRET: 'hush-hush' })).message).not.toMatch(
      /hush-hush/,
    );
  });

  it('rejects a base URL that is not http(s)', () => {
    for (const url of ['ftp://networkcalc.com', 'networkcalc.com', 'file:///tmp/x', 'https://u:p@networkcalc.com']) {
      const e = codeOf(() => NetworkCalcClient.fromEnv({}, { NETWORKCALC_TOKEN: 't', NETWORKCALC_BASE_URL: url }));
      expect(e.code).toBe('CONFIG_ERROR');
      expect(e.message).toMatch(/NETWORKCALC_BASE_URL/);
    }
  });

  it('reads the environment, with overrides winning', () => {
    expect(NetworkCalcClient.fromEnv({}, { NETWORKCALC_TOKEN: 't' }).baseUrl).toBe('https://networkcalc.com');
    const c = NetworkCalcClient.fromEnv(
      { baseUrl: 'http://127.0.0.1:9/' },
      { NETWORKCALC_TOKEN: 't', NETWORKCALC_BASE_URL: 'https://x.example' },
    );
    expect(c.baseUrl).toBe('http://127.0.0.1:9');
    expect(
      NetworkCalcClient.fromEnv({}, { NETWORKCALC_CLIENT_ID: 'i', NETWORKCALC_CLIENT_SECRET: 's' }),
    ).toBeInstanceOf(NetworkCalcClient);
  });

  it('keeps credentials out of inspect output of the client', () => {
    const c = new NetworkCalcClient({ token: 'sekret-token-123', clientId: 'id', clientSecret: 'sekret-secret-456' });
    const shown = inspect(c, { depth: 10, showHidden: true }) + JSON.stringify(c);
    expect(shown).not.toMatch(/sekret/);
  });
});
