/**
 * Shapes and failures the emulator does not produce: a small fastify server answers each
 * route with a canned body, so the client's tolerant reading and mapping can be pinned.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { NetworkCalcClient, adviceFor, isNetworkCalcError, type NetworkCalcError } from '../../src/client';
import { caught, dnsAlert, everythingShown } from './support';

let app: FastifyInstance;
let base: string;
let answer: (
  method: string,
  url: string,
  body: unknown,
) => { status: number; body: unknown; headers?: Record<string, string> };
const seen: string[] = [];

beforeAll(async () => {
  app = Fastify();
  app.all('/*', async (req, reply) => {
    seen.push(`${req.method} ${req.url}`);
    const a = answer(req.method, req.url, req.body);
    reply.code(a.status).headers(a.headers ?? {});
    return typeof a.body === 'string' ? reply.type('text/plain').send(a.body) : a.body;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app.close());
beforeEach(() => {
  seen.length = 0;
});

const client = (extra = {}) =>
  new NetworkCalcClient({
    baseUrl: base,
    token: 'tok-tolerant-1',
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
    ...extra,
  });

async function fails(p: Promise<unknown>): Promise<NetworkCalcError> {
  const e = await caught(p);
  expect(isNetworkCalcError(e)).toBe(true);
  expect(everythingShown(e)).not.toMatch(/tok-tolerant-1|sekrit-2/);
  return e;
}

it('reads quoted ids, ignores unknown fields, and null last_triggered_at', async () => {
  answer = () => ({
    status: 200,
    body: {
      status: 'OK',
      extra: { anything: true },
      alerts: [
        {
          id: '17',
          user_id: '3',
          name: 'n',
          type: 'DNS Record',
          subtype: 'A',
          filter: 'equals',
          filter_value: '1.1.1.1',
          last_triggered_at: null,
          surprise: 1,
          target_domain: { id: '9', domain: 'example.com', more: 'x' },
        },
      ],
    },
  });
  const [a] = await client().listAlerts();
  expect(a).toMatchObject({ id: 17, user_id: 3, target_type: 'domain', target_id: 9, last_triggered_at: null });
});

it('reads an id from a create response when one is sent, and none otherwise', async () => {
  answer = () => ({ status: 200, body: { status: 'OK', alert: { id: '41' } } });
  expect(await client().createAlert(dnsAlert('a'))).toEqual({ id: 41 });
  answer = () => ({ status: 200, body: { status: 'OK', id: 42 } });
  expect(await client().createAlert(dnsAlert('a'))).toEqual({ id: 42 });
  answer = () => ({ status: 200, body: { status: 'OK', alert_id: '43' } });
  expect(await client().createAlert(dnsAlert('a'))).toEqual({ id: 43 });
  answer = () => ({ status: 200, body: { status: 'OK' } });
  expect(await client().createAlert(dnsAlert('a'))).toEqual({});
});

it('reads report results with numeric or quoted ids', async () => {
  answer = () => ({
    status: 200,
    body: { status: 'OK', domain_id: 5, subdomain_id: '6', report_url: 'https://x/r/1' },
  });
  expect(await client().triggerSubdomainReport(6)).toEqual({
    status: 'OK',
    domain_id: 5,
    subdomain_id: 6,
    report_url: 'https://x/r/1',
  });
  answer = () => ({ status: 200, body: { status: 'OK', domain_id: '5', report_url: 'https://x/r/2' } });
  expect(await client().triggerDomainReport(5)).toEqual({
    status: 'OK',
    domain_id: 5,
    subdomain_id: null,
    report_url: 'https://x/r/2',
  });
});

it('SERVER_ERROR for a 5xx without a code, RATE_LIMITED for a 429 without one', async () => {
  answer = () => ({ status: 503, body: '<html>busy</html>' });
  const e = await fails(client({ retry: { maxAttempts: 1 } }).listAlerts());
  // A proxy's page is named, not quoted as markup.
  expect(e).toMatchObject({ code: 'SERVER_ERROR', httpStatus: 503, detail: 'the answer is an HTML page: "busy"' });
  answer = () => ({ status: 429, body: {}, headers: { 'retry-after': '0' } });
  expect(await fails(client({ retry: { maxAttempts: 1 } }).listAlerts())).toMatchObject({
    code: 'RATE_LIMITED',
    retryable: true,
  });
});

it('messages read "<operation> (<subject>) failed: <code> (HTTP n): <advice>"', async () => {
  answer = () => ({ status: 503, body: { status: 'SYSTEM_ERROR' } });
  const exhausted = await fails(client({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }).getAlert(3));
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(exhausted.message).toMatch(
    new RegExp(
      `^getAlert \\(alert 3\\) failed: RETRIES_EXHAUSTED: gave up after 2 attempts in \\d+ ms; last error: SYSTEM_ERROR \\(HTTP 503\\): ${escape(adviceFor('SYSTEM_ERROR'))}$`,
    ),
  );

  answer = () => ({ status: 401, body: { status: 'NOT_AUTHORIZED', error: 'nope' } });
  expect((await fails(client().listAlerts())).message).toBe(
    'listAlerts failed: NOT_AUTHORIZED (HTTP 401): the token was refused (expired, invalid, or without permission for this operation); ' +
      'set NETWORKCALC_TOKEN to a valid access token, or set NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET so tokens are renewed automatically ' +
      '(server said: nope)',
  );

  // The server's explanation first, instead of the generic advice ...
  answer = () => ({ status: 400, body: { status: 'INVALID_BODY', error: 'subtype "AAAA" is not valid' } });
  expect((await fails(client().updateAlert(4, dnsAlert('a')))).message).toBe(
    'updateAlert (alert 4) failed: INVALID_BODY (HTTP 400): server said: subtype "AAAA" is not valid',
  );
  // ... and the generic advice when the server gives none.
  answer = () => ({ status: 400, body: { status: 'INVALID_BODY' } });
  expect((await fails(client().updateAlert(4, dnsAlert('a')))).message).toBe(
    `updateAlert (alert 4) failed: INVALID_BODY (HTTP 400): ${adviceFor('INVALID_BODY')}`,
  );
});

it('an error code in a 200 body is still an error', async () => {
  answer = () => ({ status: 200, body: { status: 'NOT_UPDATED', error: 'locked' } });
  expect(await fails(client().updateAlert(1, dnsAlert('a')))).toMatchObject({
    code: 'NOT_UPDATED',
    httpStatus: 200,
    detail: 'locked',
  });
});

it('UNEXPECTED_RESPONSE for a body it cannot use', async () => {
  answer = () => ({ status: 200, body: { status: 'OK', things: [] } });
  const e = await fails(client().listAlerts());
  expect(e).toMatchObject({ code: 'UNEXPECTED_RESPONSE', httpStatus: 200, operation: 'listAlerts' });
  expect(e.message).toMatch(/no alerts array/);
  answer = () => ({ status: 200, body: 'not json' });
  expect((await fails(client().listDomains())).code).toBe('UNEXPECTED_RESPONSE');
});

it('getAlert: NOT_FOUND when the envelope does not hold the alert', async () => {
  answer = () => ({ status: 200, body: { status: 'OK', alerts: [] } });
  expect(await fails(client().getAlert(3))).toMatchObject({ code: 'NOT_FOUND', operation: 'getAlert' });
});

it('scrubs the token and secret from server texts and log lines', async () => {
  const lines: string[] = [];
  answer = (_m, url) =>
    url.startsWith('/api/auth/token')
      ? {
          status: 200,
          body: { status: 'OK', token: { access_token: 'sekrit-2', token_type: 'bearer', expires_in: 3600 } },
        }
      : {
          status: 400,
          body: {
            status: 'INVALID_BODY',
            error: 'got Bearer sekrit-2 and tok-tolerant-1 for /api/alerts/ (token sekrit-2)',
          },
        };
  const c = new NetworkCalcClient({
    baseUrl: base,
    clientId: 'id',
    clientSecret: 'tok-tolerant-1',
    logger: (l) => lines.push(l),
  });
  const e = await fails(c.createAlert(dnsAlert('a')));
  expect(e.detail).toBe('got Bearer [redacted] and [redacted] for /api/alerts/ (token [redacted])');
  expect(lines.join('\n')).not.toMatch(/sekrit|tok-tolerant/);
  expect(lines).toEqual([
    expect.stringMatching(/^POST \/api\/auth\/token 200 attempt=1 \d+ms$/),
    expect.stringMatching(/^POST \/api\/alerts\/ 400 attempt=1 \d+ms$/),
  ]);
});

it('after many renewals the current token and the secret are still scrubbed', async () => {
  let exchanges = 0;
  let refuse = true;
  answer = (_m, url) => {
    if (url.startsWith('/api/auth/token')) {
      exchanges++;
      return {
        status: 200,
        body: { status: 'OK', token: { access_token: `renewed-${exchanges}-abcdef`, expires_in: 3600 } },
      };
    }
    if (refuse) return { status: 401, body: { status: 'NOT_AUTHORIZED' } };
    return {
      status: 400,
      body: { status: 'INVALID_BODY', error: `token renewed-${exchanges}-abcdef, secret sekrit-2` },
    };
  };
  const c = new NetworkCalcClient({ baseUrl: base, clientId: 'id', clientSecret: 'sekrit-2' });
  for (let i = 0; i < 10; i++) await fails(c.listAlerts());
  expect(c.tokenExchanges).toBeGreaterThan(8); // more than the issued tokens the client remembers
  refuse = false;
  const e = await fails(c.createAlert(dnsAlert('a')));
  expect(e.detail).toBe('token [redacted], secret [redacted]');
});

it('a renewed token refused again is a permission problem, not retried further', async () => {
  let exchanges = 0;
  answer = (_m, url) => {
    if (url.startsWith('/api/auth/token')) {
      exchanges++;
      return { status: 200, body: { status: 'OK', token: { access_token: `t${exchanges}-abcdef`, expires_in: 3600 } } };
    }
    return { status: 401, body: { status: 'NOT_AUTHORIZED' } };
  };
  const c = new NetworkCalcClient({ baseUrl: base, clientId: 'id', clientSecret: 'sekrit-2' });
  const e = await fails(c.listAlerts());
  expect(e).toMatchObject({ code: 'NOT_AUTHORIZED', retryable: false });
  expect(e.message).toMatch(/lacks permission/);
  expect(exchanges).toBe(2);
  expect(seen.filter((s) => s.startsWith('GET'))).toHaveLength(2);
});
