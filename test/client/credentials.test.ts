/**
 * Credentials checked before anything is sent, variable names in messages, and tokens the
 * service issues already expired. A small node:http server plays the service.
 */
import { NetworkCalcClient, adviceFor, classifyNetworkError, type NetworkCalcError } from '../../src/client';
import { caught, dnsAlert, everythingShown, rewritingAgent, sendJson, tinyServer, type TinyServer } from './support';

function configError(fn: () => unknown): NetworkCalcError {
  try {
    fn();
  } catch (e) {
    return e as NetworkCalcError;
  }
  throw new Error('did not throw');
}

describe('credentials an HTTP request cannot carry are a CONFIG_ERROR at construction', () => {
  const bad: Array<[string, string]> = [
    ['a line feed', 'abc\ndef-secret'],
    ['a carriage return', 'abc\rdef-secret'],
    ['NUL', 'abc\u0000def-secret'],
    ['another control character', 'abc\u0007def-secret'],
    ['a non-Latin-1 character', 'abc\u20acdef-secret'],
    ['a non-ASCII Latin-1 character', 'abc\u00e9def-secret'],
  ];

  it.each(bad)('a token with %s names the variable, never the value', (_what, value) => {
    const e = configError(() => NetworkCalcClient.fromEnv({}, { NETWORKCALC_TOKEN: value }));
    expect(e).toMatchObject({ code: 'CONFIG_ERROR', operation: 'configure', retryable: false });
    expect(e.message).toMatch(
      /^NETWORKCALC_TOKEN contains (a control character \(code \d+.*\)|a non-ASCII character) at position 4, which an HTTP request cannot carry; /,
    );
    expect(everythingShown(e)).not.toMatch(/abc|def-secret/);
  });

  it('checks the client id and secret too, by the names the caller gives', () => {
    const variables = {
      token: 'PROD_TOKEN',
      clientId: 'PROD_CLIENT_ID',
      clientSecret: 'PROD_CLIENT_SECRET',
      baseUrl: 'PROD_BASE_URL',
    };
    // A trailing line break is trimmed like blanks are; one inside is not.
    expect(new NetworkCalcClient({ clientId: 'id\n', clientSecret: 'ok-secret', variables })).toBeInstanceOf(
      NetworkCalcClient,
    );
    const inside = configError(() => new NetworkCalcClient({ clientId: 'i\nd', clientSecret: 'ok-secret', variables }));
    expect(inside.message).toMatch(
      /^PROD_CLIENT_ID contains a control character \(code 10, a line feed\) at position 2/,
    );
    const secret = configError(
      () => new NetworkCalcClient({ clientId: 'id', clientSecret: 'sec\u0000ret', variables }),
    );
    expect(secret.message).toMatch(/^PROD_CLIENT_SECRET contains a control character \(code 0, NUL\) at position 4/);
    expect(everythingShown(secret)).not.toMatch(/sec.?ret/);
  });

  it('refuses a userAgent option a header cannot carry', () => {
    expect(configError(() => new NetworkCalcClient({ token: 't', userAgent: 'me\r\nX-Evil: 1' })).message).toMatch(
      /^the userAgent option contains a control character/,
    );
  });

  it('reads the environment under the names given, and names them in configuration errors', () => {
    const variables = {
      token: 'PROD_TOKEN',
      clientId: 'PROD_CLIENT_ID',
      clientSecret: 'PROD_CLIENT_SECRET',
      baseUrl: 'PROD_BASE_URL',
    };
    expect(
      NetworkCalcClient.fromEnv({ variables }, { PROD_TOKEN: 't', PROD_BASE_URL: 'http://127.0.0.1:9' }).baseUrl,
    ).toBe('http://127.0.0.1:9');
    expect(configError(() => NetworkCalcClient.fromEnv({ variables }, { NETWORKCALC_TOKEN: 't' })).message).toBe(
      'no NetworkCalc credentials: set PROD_TOKEN to an access token, or PROD_CLIENT_ID and PROD_CLIENT_SECRET to client credentials',
    );
    expect(
      configError(() => NetworkCalcClient.fromEnv({ variables }, { PROD_TOKEN: 't', PROD_BASE_URL: 'ftp://x' }))
        .message,
    ).toMatch(/\(from PROD_BASE_URL\).*; fix PROD_BASE_URL$/);
  });

  it('reads only the credential variables named: a named token never brings the default client credentials', () => {
    const env = { NETWORKCALC_CLIENT_ID: 'other-id', NETWORKCALC_CLIENT_SECRET: 'other-secret' };
    expect(configError(() => NetworkCalcClient.fromEnv({ variables: { token: 'ACCT07_TOKEN' } }, env)).message).toBe(
      'no NetworkCalc credentials: set ACCT07_TOKEN to an access token',
    );
  });
});

describe('what undici refuses before sending', () => {
  let server: TinyServer;
  beforeAll(async () => {
    server = await tinyServer((_req, _body, res) => sendJson(res, 200, { status: 'OK', alerts: [] }));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
  });

  // A header value the client would never build itself, slipped in on the way out.
  const badHeader = rewritingAgent((opts) => ({
    ...opts,
    headers: { ...(opts.headers as Record<string, string>), 'x-trace': 'a\nb' },
  }));

  it('is classified as local, not as a dropped connection', () => {
    const err = Object.assign(new Error('invalid x-trace header'), { code: 'UND_ERR_INVALID_ARG' });
    expect(classifyNetworkError(err)).toBe('local');
  });

  it.each([
    ['listAlerts', (c: NetworkCalcClient) => c.listAlerts()],
    ['createAlert', (c: NetworkCalcClient) => c.createAlert(dnsAlert('never sent'))],
  ])(
    '%s: CONFIG_ERROR at once, never retried, never OUTCOME_UNKNOWN, never blaming the base URL',
    async (_op, call) => {
      const c = new NetworkCalcClient({
        baseUrl: server.url,
        token: 'tok-local',
        dispatcher: badHeader,
        retry: { baseDelayMs: 1, maxDelayMs: 2 },
      });
      const e = await caught(call(c));
      expect(e).toMatchObject({ code: 'CONFIG_ERROR', retryable: false, attempts: 1, httpStatus: undefined });
      expect(e.message).toMatch(
        /failed: CONFIG_ERROR: nothing was sent: this machine refused to build the request \(UND_ERR_INVALID_ARG: invalid x-trace header\)/,
      );
      expect(e.message).not.toMatch(/BASE_URL|connectivity/);
      expect(server.seen).toHaveLength(0);
    },
  );
});

describe('advice names the variables the client was configured from', () => {
  let server: TinyServer;
  let answer: (url: string) => { status: number; body: unknown };
  beforeAll(async () => {
    server = await tinyServer((req, _body, res) => {
      const a = answer(req.url ?? '');
      sendJson(res, a.status, a.body);
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
  });

  const variables = {
    token: 'PROD_TOKEN',
    clientId: 'PROD_CLIENT_ID',
    clientSecret: 'PROD_CLIENT_SECRET',
    baseUrl: 'PROD_BASE_URL',
  };

  it('a refused ready token', async () => {
    answer = () => ({ status: 401, body: { status: 'NOT_AUTHORIZED' } });
    const e = await caught(new NetworkCalcClient({ baseUrl: server.url, token: 'tok-prod', variables }).listAlerts());
    expect(e.message).toBe(
      'listAlerts failed: NOT_AUTHORIZED (HTTP 401): the token was refused (expired, invalid, or without permission for this operation); ' +
        'set PROD_TOKEN to a valid access token, or set PROD_CLIENT_ID and PROD_CLIENT_SECRET so tokens are renewed automatically',
    );
  });

  it('refused client credentials', async () => {
    answer = () => ({ status: 401, body: { status: 'INVALID_CREDENTIALS' } });
    const e = await caught(
      new NetworkCalcClient({ baseUrl: server.url, clientId: 'id', clientSecret: 'sec-prod', variables }).listAlerts(),
    );
    expect(e.message).toBe(
      'exchangeToken (POST /api/auth/token) failed: INVALID_CREDENTIALS (HTTP 401): the client secret was refused; check PROD_CLIENT_SECRET',
    );
  });

  it('the defaults when no names are given, word for word as before', () => {
    expect(adviceFor('NOT_AUTHORIZED')).toBe(
      'the token was refused; check NETWORKCALC_TOKEN or the client credentials (NETWORKCALC_CLIENT_ID, NETWORKCALC_CLIENT_SECRET), and that the account has a paid plan',
    );
    expect(adviceFor('CONNECTION_ERROR')).toBe(
      'could not talk to the service; check NETWORKCALC_BASE_URL and connectivity',
    );
    expect(adviceFor('CONNECTION_ERROR', variables)).toBe(
      'could not talk to the service; check PROD_BASE_URL and connectivity',
    );
  });
});

describe('tokens issued already expired', () => {
  let server: TinyServer;
  let lifetime: unknown;
  let acceptIssued: boolean;
  let exchanges = 0;
  beforeAll(async () => {
    server = await tinyServer((req, _body, res) => {
      if (req.url?.startsWith('/api/auth/token')) {
        exchanges++;
        return sendJson(res, 200, {
          status: 'OK',
          token: { access_token: `issued-${exchanges}-abcdef`, token_type: 'bearer', expires_in: lifetime },
        });
      }
      if (acceptIssued && /^Bearer issued-/.test(req.headers.authorization ?? ''))
        return sendJson(res, 200, { status: 'OK', alerts: [] });
      return sendJson(res, 401, { status: 'NOT_AUTHORIZED' });
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
    exchanges = 0;
  });

  const creds = () => new NetworkCalcClient({ baseUrl: server.url, clientId: 'id', clientSecret: 'sekrit-9' });

  it.each([0, -5, 0.5])(
    'expires_in %p, then refused: the service is blamed, not the credentials or the plan',
    async (given) => {
      lifetime = given;
      acceptIssued = false;
      const e = await caught(creds().listAlerts());
      expect(e).toMatchObject({ code: 'NOT_AUTHORIZED', retryable: false });
      expect(e.message).toBe(
        `listAlerts failed: NOT_AUTHORIZED (HTTP 401): the service issues tokens that are already expired (this one came with expires_in ${given}) and refused it at once; ` +
          "the credentials were accepted, so this is the service's fault (or its clock's): try again later, or report it to NetworkCalc",
      );
      expect(e.message).not.toMatch(/paid plan|lacks permission/);
      expect(exchanges).toBe(2);
    },
  );

  it('such a token is used for its call but never cached: each call exchanges anew', async () => {
    lifetime = 0;
    acceptIssued = true;
    const c = creds();
    await c.listAlerts();
    await c.listAlerts();
    expect(c.tokenExchanges).toBe(2);
  });

  it('a real lifetime is cached, and a refusal after renewal is still a permission problem', async () => {
    lifetime = 3600;
    acceptIssued = true;
    const c = creds();
    await c.listAlerts();
    await c.listAlerts();
    expect(c.tokenExchanges).toBe(1);
    acceptIssued = false;
    expect((await caught(creds().listAlerts())).message).toMatch(
      /lacks permission for this operation \(the API needs a paid plan\)/,
    );
  });

  it('no lifetime at all is the default hour, not "expired"', async () => {
    lifetime = undefined;
    acceptIssued = true;
    const c = creds();
    await c.listAlerts();
    await c.listAlerts();
    expect(c.tokenExchanges).toBe(1);
  });
});
