/**
 * Every HTTP status the interface does not list, as a server, a proxy or a load balancer
 * answers it, against a small real HTTP server: the code, whether it was retried, and one
 * sentence naming the likely cause and what to check (src/client/statuses.ts). The 431 comes
 * from node's own header limit, as it would from a real server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NetworkCalcClient, isNotFound, type ClientOptions } from '../../src/client';
import { HTTP_STATUSES } from '../../src/client/statuses';
import { caught, dnsAlert, everythingShown } from './support';

const TOKEN = 'tok-7f3a9c1e2b4d';
/** 100 KB, as pasted from the wrong file: beyond node's 16 KiB header limit. */
const HUGE_TOKEN = `huge-${'9a8b7c6d'.repeat(12_500)}`.slice(0, 100_000);

interface Ctx {
  url: string;
  elsewhere: string;
}

interface Case {
  status: number;
  title: string;
  answer: (res: ServerResponse, ctx: Ctx) => void;
  call?: (c: NetworkCalcClient) => Promise<unknown>;
  client?: (ctx: Ctx) => Partial<ClientOptions>;
  code: string;
  retryable: boolean;
  /** Requests the server got: 2 when retried (maxAttempts 2), 1 when not. */
  requests: number;
  says: (ctx: Ctx) => Array<string | RegExp>;
  /** The error's `detail`, where the message (after retries) does not repeat it. */
  detail?: string;
}

const html =
  (status: number, title: string, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/html', ...headers });
    res.end(
      `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr>nginx</body></html>`,
    );
  };
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const redirect = (status: number, location?: (ctx: Ctx) => string) => (res: ServerResponse, ctx: Ctx) => {
  res.writeHead(status, location ? { location: location(ctx) } : {});
  res.end();
};
const noAnswer = (): never => {
  throw new Error('the server must not be asked');
};

const CASES: Case[] = [
  {
    status: 301,
    title: 'to another origin, with a secret in the query: not followed, the token stays, the query is not shown',
    answer: redirect(301, (c) => `${c.elsewhere}/api/alerts/?signature=s3cr3t-sig`),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [
      `NETWORKCALC_BASE_URL redirects to another origin, ${c.elsewhere}/api/alerts/?…; nothing was sent there`,
      `set NETWORKCALC_BASE_URL to ${c.elsewhere} if that is the NetworkCalc API`,
    ],
  },
  {
    status: 302,
    title: 'to a path on the same origin: not followed, the base URL to set is named',
    answer: redirect(302, () => '/v2/api/alerts/'),
    client: () => ({ variables: { baseUrl: 'PROD_URL' } as ClientOptions['variables'] }),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [
      `PROD_URL redirects to ${c.url}/v2/api/alerts/; set PROD_URL to ${c.url}/v2 (redirects are not followed)`,
    ],
  },
  {
    status: 303,
    title: 'after a create: it may have been stored, so OUTCOME_UNKNOWN (settled by a list)',
    answer: redirect(303, (c) => `${c.url}/api/alerts/7`),
    call: (c) => c.createAlert(dnsAlert('web')),
    code: 'OUTCOME_UNKNOWN',
    retryable: false,
    requests: 1,
    says: (c) => [/the create may or may not have happened/, `NETWORKCALC_BASE_URL redirects to ${c.url}/api/alerts/7`],
  },
  {
    status: 307,
    title: 'from http to https: another origin, not followed',
    answer: redirect(307, (c) => `${c.url.replace('http:', 'https:')}/api/alerts/`),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [`set NETWORKCALC_BASE_URL to ${c.url.replace('http:', 'https:')} if that is the NetworkCalc API`],
  },
  {
    status: 308,
    title: 'without a Location',
    answer: redirect(308),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [`a redirect without a Location; this client follows none: check NETWORKCALC_BASE_URL (now ${c.url})`],
  },
  {
    status: 400,
    title: 'without a code of the API',
    answer: html(400, '400 Bad Request'),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [/refused as malformed without one of the API's codes, so probably not by the NetworkCalc API/],
  },
  {
    status: 401,
    title: "from a proxy's login page (no code of the API): the base URL and the token's variable are named",
    answer: html(401, '401 Authorization Required', { 'www-authenticate': 'Basic realm="corp"' }),
    client: () => ({ variables: { token: 'PROD_TOKEN' } as ClientOptions['variables'] }),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [
      /refused without one of the API's codes, so not by the NetworkCalc API: a proxy or gateway/,
      /and that PROD_TOKEN holds a NetworkCalc access token/,
      /\(the answer is an HTML page titled "401 Authorization Required"\)$/,
    ],
  },
  {
    status: 403,
    title: 'from a firewall',
    answer: json(403, { message: 'Request blocked' }),
    call: (c) => c.updateAlert(4, dnsAlert('web')),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [
      /forbidden without one of the API's codes .*web application firewall/,
      /\(server said: Request blocked\)$/,
    ],
  },
  {
    status: 404,
    title: 'on a doubled /api path, saying ROUTE_NOT_FOUND: the base URL to set is named',
    answer: json(404, { status: 'ROUTE_NOT_FOUND' }),
    client: (c) => ({ baseUrl: `${c.url}/api` }),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [
      `no such route: GET ${c.url}/api/api/alerts/ does not exist`,
      `NETWORKCALC_BASE_URL is ${c.url}/api, and this client adds /api/... itself, so the path is doubled; set NETWORKCALC_BASE_URL to ${c.url}`,
    ],
  },
  {
    status: 404,
    title: 'saying NOT_FOUND on a get: an unknown route, never "no such alert"',
    answer: json(404, { status: 'NOT_FOUND' }),
    call: (c) => c.getAlert(3),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [
      `no such route: GET ${c.url}/api/alerts/3 does not exist`,
      `check NETWORKCALC_BASE_URL (now ${c.url})`,
    ],
  },
  {
    status: 405,
    title: 'on an edit',
    answer: json(405, { message: 'Method Not Allowed' }),
    call: (c) => c.updateAlert(4, dnsAlert('web')),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [`PATCH is not allowed at ${c.url}/api/alerts/4`],
  },
  {
    status: 408,
    title: 'a request timeout: retried',
    answer: html(408, '408 Request Time-out'),
    code: 'RETRIES_EXHAUSTED',
    retryable: true,
    requests: 2,
    says: () => [
      /gave up after 2 attempts .*last error: TIMEOUT \(HTTP 408\): the server, or a proxy in front of it, gave up waiting/,
    ],
  },
  {
    status: 408,
    title: 'after a create: OUTCOME_UNKNOWN, never a blind second POST',
    answer: html(408, '408 Request Time-out'),
    call: (c) => c.createAlert(dnsAlert('web')),
    code: 'OUTCOME_UNKNOWN',
    retryable: false,
    requests: 1,
    says: () => [/the server answered HTTP 408: the server, or a proxy in front of it, gave up waiting/],
  },
  {
    status: 413,
    title: 'on a create: refused before anything was stored, so not OUTCOME_UNKNOWN',
    answer: html(413, '413 Request Entity Too Large'),
    call: (c) => c.createAlert(dnsAlert('web')),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [
      /the request is too large for the server or a proxy in front of it \(Content Too Large\): the token in NETWORKCALC_TOKEN is 16 bytes \(16 bytes\), about \d+ bytes of request headers in all, a body of \d+ bytes; .*size limits of any proxy/,
    ],
  },
  {
    status: 414,
    title: 'URI too long',
    answer: html(414, '414 Request-URI Too Large'),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: (c) => [
      `the request URL (${c.url.length + '/api/alerts/'.length} characters) is longer than the server or a proxy`,
    ],
  },
  {
    status: 415,
    title: 'unsupported media type',
    answer: json(415, { error: 'Unsupported Media Type' }),
    call: (c) => c.updateAlert(4, dnsAlert('web')),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [/refused the request's Content-Type, application\/json/],
  },
  {
    status: 429,
    title: 'without Retry-After: backed off, retried, and the message says no wait was given',
    answer: html(429, '429 Too Many Requests'),
    code: 'RETRIES_EXHAUSTED',
    retryable: true,
    requests: 2,
    says: () => [
      /last error: RATE_LIMITED \(HTTP 429\): the service, or a proxy in front of it, is limiting requests and did not say for how long \(no Retry-After\)/,
    ],
  },
  {
    status: 431,
    title: "from node's own header limit, for a token of 100 KB: its size, never its value",
    answer: noAnswer, // node answers 431 before any handler runs
    client: () => ({ token: HUGE_TOKEN }),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 0,
    says: () => [
      'the request headers are too large for the server or a proxy in front of it (Request Header Fields Too Large): the token in NETWORKCALC_TOKEN is 97.7 KiB (100000 bytes)',
      'check that NETWORKCALC_TOKEN holds the token itself',
    ],
  },
  {
    status: 451,
    title: 'unavailable for legal reasons',
    answer: html(451, '451 Unavailable For Legal Reasons'),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [/refuses the request for legal reasons/],
  },
  {
    status: 500,
    title: 'without a code of the API: retried',
    answer: html(500, '500 Internal Server Error'),
    code: 'RETRIES_EXHAUSTED',
    retryable: true,
    requests: 2,
    says: () => [/SERVER_ERROR \(HTTP 500\): the service, or a proxy in front of it, had an internal error/],
  },
  {
    status: 502,
    title: "a proxy's HTML page: retried, the page named by its title",
    answer: html(502, '502 Bad Gateway'),
    code: 'RETRIES_EXHAUSTED',
    retryable: true,
    requests: 2,
    says: () => [
      /last error: SERVER_ERROR \(HTTP 502\): a proxy or load balancer in front of the service got no valid answer from it \(Bad Gateway\)/,
    ],
    detail: 'the answer is an HTML page titled "502 Bad Gateway"',
  },
  {
    status: 502,
    title: 'after a create: OUTCOME_UNKNOWN',
    answer: html(502, '502 Bad Gateway'),
    call: (c) => c.createAlert(dnsAlert('web')),
    code: 'OUTCOME_UNKNOWN',
    retryable: false,
    requests: 1,
    says: () => [
      /the server answered HTTP 502: a proxy or load balancer .*; the answer is an HTML page titled "502 Bad Gateway"\)$/,
    ],
  },
  {
    status: 503,
    title: "a load balancer's HTML page: retried",
    answer: html(503, '503 Service Temporarily Unavailable'),
    code: 'RETRIES_EXHAUSTED',
    retryable: true,
    requests: 2,
    says: () => [/SERVER_ERROR \(HTTP 503\): the service, or a proxy in front of it, is unavailable/],
  },
  {
    status: 504,
    title: "a proxy's HTML page: retried",
    answer: html(504, '504 Gateway Time-out'),
    code: 'RETRIES_EXHAUSTED',
    retryable: true,
    requests: 2,
    says: () => [/SERVER_ERROR \(HTTP 504\): a proxy or load balancer in front of the service gave up waiting for it/],
  },
  {
    status: 418,
    title: 'any other 4xx: something other than the API answered',
    answer: json(418, {}),
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    requests: 1,
    says: () => [/the NetworkCalc API does not answer with this status/],
  },
];

describe('HTTP statuses the interface does not list, against a small real server', () => {
  let server: Server;
  let elsewhere: Server;
  let ctx: Ctx;
  let answer: Case['answer'];
  let seen: string[];
  let elsewhereSeen: number;

  const listen = async (s: Server) => {
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => answer(res, ctx));
    });
    elsewhere = createServer((_req, res) => {
      elsewhereSeen++;
      res.end('{"status":"OK","alerts":[]}');
    });
    ctx = { url: await listen(server), elsewhere: await listen(elsewhere) };
  });
  beforeEach(() => {
    seen = [];
    elsewhereSeen = 0;
  });
  afterAll(async () => {
    for (const s of [server, elsewhere]) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  it('has a case here for every row of the table', () => {
    const tested = new Set(CASES.map((c) => c.status));
    expect(
      Object.keys(HTTP_STATUSES)
        .map(Number)
        .filter((s) => !tested.has(s)),
    ).toEqual([]);
  });

  it.each(CASES.map((c) => [`${c.status} ${c.title}`, c] as const))('%s', async (_name, c) => {
    answer = c.answer;
    const client = new NetworkCalcClient({
      baseUrl: ctx.url,
      token: TOKEN,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      ...c.client?.(ctx),
    });
    const err = await caught((c.call ?? ((x: NetworkCalcClient) => x.listAlerts()))(client));
    expect(err).toMatchObject({ code: c.code, httpStatus: c.status, retryable: c.retryable });
    expect(isNotFound(err)).toBe(false);
    for (const part of c.says(ctx)) {
      if (typeof part === 'string') expect(err.message).toContain(part);
      else expect(err.message).toMatch(part);
    }
    if (c.detail !== undefined) expect(err.detail).toBe(c.detail);
    expect(err.message).not.toMatch(/does not understand/);
    const shown = everythingShown(err);
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(HUGE_TOKEN.slice(0, 64));
    expect(shown).not.toContain('s3cr3t-sig');
    expect(seen).toHaveLength(c.requests);
    expect(elsewhereSeen).toBe(0);
  });

  it('401 without a code, with client credentials: one renewal, then the same sentence (not "lacks a paid plan")', async () => {
    let exchanges = 0;
    answer = (res) => {
      if (seen.at(-1) === 'POST /api/auth/token') {
        exchanges++;
        return json(200, { status: 'OK', token: { access_token: `issued-${exchanges}-abcdef`, expires_in: 3600 } })(
          res,
        );
      }
      return html(401, '401 Authorization Required')(res);
    };
    const client = new NetworkCalcClient({ baseUrl: ctx.url, clientId: 'id-1', clientSecret: 'secret-abcdef' });
    const err = await caught(client.listAlerts());
    expect(err).toMatchObject({ code: 'UNEXPECTED_RESPONSE', httpStatus: 401 });
    expect(err.message).toMatch(
      /not by the NetworkCalc API: .*and that NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET are NetworkCalc client credentials/,
    );
    expect(err.message).not.toMatch(/paid plan/);
    expect(exchanges).toBe(2);
    expect(seen).toEqual(['POST /api/auth/token', 'GET /api/alerts/', 'POST /api/auth/token', 'GET /api/alerts/']);
    expect(everythingShown(err)).not.toMatch(/issued-\d-abcdef|secret-abcdef/);
  });
});
