/**
 * Answers a misbehaving server gives: a 2xx that is not the success the interface describes,
 * a list naming one id twice, a body without end. A small node:http server answers each
 * request as the test says and counts what it received.
 */
import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type * as Undici from 'undici';
import { NetworkCalcClient, isNetworkCalcError, type NetworkCalcError } from '../../src/client';
import { caught, dnsAlert, everythingShown, sendJson, tinyServer, type TinyServer } from './support';

let server: TinyServer;
let answer: (method: string, url: string, res: ServerResponse) => void;

beforeAll(async () => {
  server = await tinyServer((req, _body, res) => answer(req.method ?? '', req.url ?? '', res));
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
});

const TOKEN = 'tok-answers-1';
const client = (extra = {}) =>
  new NetworkCalcClient({
    baseUrl: server.url,
    token: TOKEN,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
    ...extra,
  });

function raw(status: number, text: string, type = 'text/html'): (m: string, u: string, res: ServerResponse) => void {
  return (_m, _u, res) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
}

async function fails(p: Promise<unknown>): Promise<NetworkCalcError> {
  const e = await caught(p);
  expect(isNetworkCalcError(e)).toBe(true);
  expect(everythingShown(e)).not.toContain(TOKEN);
  return e as NetworkCalcError;
}

const alert = (id: number, name = `a${id}`) => ({
  id,
  user_id: 1,
  name,
  type: 'DNS Record',
  subtype: 'A',
  filter: 'equals',
  filter_value: '192.0.2.1',
  target_domain: { id: 1, domain: 'example.com' },
});

describe('a 2xx is a success only when it looks like one', () => {
  it.each([
    [
      'an HTML page',
      '<html><body>Welcome to the captive portal</body></html>',
      /a body that is not JSON: "<html><body>Welcome/,
    ],
    [
      'broken JSON',
      '{"status": "OK", "alerts": [',
      /a body that is not JSON: "\{\\"status\\": \\"OK\\", \\"alerts\\": \["/,
    ],
    ['an empty body', '', /an empty body/],
    ['JSON that is not an object', '[1, 2]', /JSON that is not an object: "\[1, 2\]"/],
  ])('a list answered with %s: UNEXPECTED_RESPONSE, not retried', async (_what, text, why) => {
    answer = raw(200, text);
    const e = await fails(client().listAlerts());
    expect(e).toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      httpStatus: 200,
      retryable: false,
      operation: 'listAlerts',
    });
    expect(e.message).toMatch(
      /^listAlerts failed: UNEXPECTED_RESPONSE \(HTTP 200\): the service answered in a form this client does not understand \(the server answered with /,
    );
    expect(e.message).toMatch(why);
    expect(server.seen).toHaveLength(1);
  });

  it.each([
    ['an HTML page', raw(200, '<html>ok</html>')],
    ['an empty body', raw(200, '')],
    ['a body without a status', raw(200, '{}', 'application/json')],
    ['a status that is neither OK nor a code', raw(200, '{"status": "QUEUED"}', 'application/json')],
  ])('an update answered with %s: UNEXPECTED_RESPONSE, not retried', async (_what, how) => {
    answer = how;
    const e = await fails(client().updateAlert(5, dnsAlert('a')));
    expect(e).toMatchObject({ code: 'UNEXPECTED_RESPONSE', httpStatus: 200, retryable: false });
    expect(server.seen).toHaveLength(1);
  });

  it('a delete answered with an empty 200 is not a success either', async () => {
    answer = raw(200, '');
    // The first form's answer is not understood as a refusal either: no other form is tried.
    expect(await fails(client().deleteAlert(5))).toMatchObject({ code: 'UNEXPECTED_RESPONSE', httpStatus: 200 });
    expect(server.seen).toHaveLength(1);
  });

  it.each([
    [
      'an HTML page',
      raw(200, '<html>saved?</html>'),
      /the server answered with a body that is not JSON: "<html>saved\?<\/html>"/,
    ],
    [
      'a status that is neither OK nor a code',
      raw(201, '{"status": "ACCEPTED"}', 'application/json'),
      /the server answered with status "ACCEPTED"/,
    ],
  ])('a create answered with %s: OUTCOME_UNKNOWN (it may have been stored), one POST', async (_what, how, why) => {
    answer = how;
    const e = await fails(client().createAlert(dnsAlert('maybe')));
    expect(e).toMatchObject({ code: 'OUTCOME_UNKNOWN', retryable: false, operation: 'createAlert' });
    expect(e.message).toMatch(
      /^createAlert \(alert "maybe"\) failed: OUTCOME_UNKNOWN \(HTTP 20[01]\): the create may or may not have happened; /,
    );
    expect(e.message).toMatch(why);
    expect(server.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('takes "ok" in any case and extra fields as success', async () => {
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'ok', error: null, note: 'saved' });
    await expect(client().updateAlert(5, dnsAlert('a'))).resolves.toBeUndefined();
    await expect(client().createAlert(dnsAlert('a'))).resolves.toEqual({});
  });

  it('an error code in a 2xx body is that error, as before', async () => {
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'NOT_UPDATED', error: 'locked' });
    expect(await fails(client().updateAlert(5, dnsAlert('a')))).toMatchObject({
      code: 'NOT_UPDATED',
      detail: 'locked',
    });
  });
});

describe('one alert per id', () => {
  it('a list naming an id twice is UNEXPECTED_RESPONSE naming the id', async () => {
    answer = (_m, _u, res) =>
      sendJson(res, 200, { status: 'OK', alerts: [alert(4), alert(7, 'one'), alert(7, 'other')] });
    const e = await fails(client().listAlerts());
    expect(e).toMatchObject({ code: 'UNEXPECTED_RESPONSE', httpStatus: 200, operation: 'listAlerts' });
    expect(e.message).toMatch(/two alerts with id 7/);
  });

  it('so is a get whose envelope holds the id twice', async () => {
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'OK', alerts: [alert(7, 'one'), alert(7, 'other')] });
    expect((await fails(client().getAlert(7))).message).toMatch(/two alerts with id 7/);
  });

  it('distinct ids read as before', async () => {
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'OK', alerts: [alert(4), alert(7)] });
    expect((await client().listAlerts()).map((a) => a.id)).toEqual([4, 7]);
  });
});

/** An HTTP server that answers every request with a body without end; prints its port. */
const ENDLESS_SERVER = `
const chunk = Buffer.alloc(64 * 1024, 'x');
const srv = require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.on('error', () => {});
  const pump = () => { while (!res.destroyed && res.write(chunk)); if (!res.destroyed) res.once('drain', pump); };
  pump();
});
srv.listen(0, '127.0.0.1', () => console.log(srv.address().port));
`;

describe('bounded reads', () => {
  /** Writes 64 KiB chunks until the client goes away; no Content-Length. */
  function endless(status = 200): (m: string, u: string, res: ServerResponse) => void {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    return (_m, _u, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('error', () => {});
      pump();
    };
  }

  it('an endless body stops at the default 128 MiB: RESPONSE_TOO_LARGE, not retried, memory bounded', async () => {
    // The server runs in its own process, so that only the client's memory is measured here.
    const child = spawn(process.execPath, ['-e', ENDLESS_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(String(d).trim()));
        child.once('error', reject);
      });
      const c = new NetworkCalcClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
      // Warm up (code loaded, pools made) with an answer within a small limit.
      await fails(
        new NetworkCalcClient({
          baseUrl: `http://127.0.0.1:${port}`,
          token: TOKEN,
          maxResponseBytes: 1024,
        }).listAlerts(),
      );
      const base = process.memoryUsage().rss;
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      let e: NetworkCalcError;
      try {
        e = await fails(c.listAlerts());
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(e).toMatchObject({
        code: 'RESPONSE_TOO_LARGE',
        httpStatus: 200,
        retryable: false,
        operation: 'listAlerts',
        attempts: 1,
      });
      expect(e.message).toMatch(
        /^listAlerts failed: RESPONSE_TOO_LARGE \(HTTP 200\): the answer is larger than this client reads; raise the maxResponseBytes option if the account really holds that much \(the answer \(HTTP 200\) is more than 128 MiB \(\d+ bytes read when reading stopped\), beyond the limit of 128 MiB \(maxResponseBytes 134217728\)\)$/,
      );
      expect(e.message).not.toMatch(/BASE_URL|connectivity/);
      expect(peak - base).toBeLessThan(250 * 1024 * 1024);
    } finally {
      child.kill();
    }
  });

  it('a Content-Length beyond the limit fails before reading', async () => {
    answer = (_m, _u, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{"status": "OK", "alerts": [');
      // The rest never comes: a client that waited for it would time out instead.
    };
    const t0 = Date.now();
    const e = await fails(client({ maxResponseBytes: 1024 * 1024, timeoutMs: 5000 }).listAlerts());
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(e).toMatchObject({ code: 'RESPONSE_TOO_LARGE', httpStatus: 200 });
    expect(e.detail).toBe(
      'the answer (HTTP 200) is announced as 10 MiB (Content-Length), beyond the limit of 1 MiB (maxResponseBytes 1048576)',
    );
  });

  it('a limit set lower applies to error answers too, and a create beyond it is OUTCOME_UNKNOWN', async () => {
    answer = endless(500);
    expect(await fails(client({ maxResponseBytes: 4096 }).listDomains())).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      httpStatus: 500,
    });
    expect(server.seen).toHaveLength(1);
    answer = endless(200);
    const e = await fails(client({ maxResponseBytes: 4096 }).createAlert(dnsAlert('big')));
    expect(e).toMatchObject({ code: 'OUTCOME_UNKNOWN', httpStatus: 200 });
    expect(e.message).toMatch(/beyond the limit of 4 KiB \(maxResponseBytes 4096\)/);
  });

  it('answers within the limit are read whole', async () => {
    const alerts = Array.from({ length: 200 }, (_, i) => alert(i + 1));
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'OK', alerts });
    const size = Buffer.byteLength(JSON.stringify({ status: 'OK', alerts }));
    expect(await client({ maxResponseBytes: size }).listAlerts()).toHaveLength(200);
    expect(await fails(client({ maxResponseBytes: size - 1 }).listAlerts())).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
    });
  });

  it('refuses a limit that is not a positive whole number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => client({ maxResponseBytes: bad })).toThrow(
        expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringMatching(/maxResponseBytes/) }),
      );
    }
  });
});

/**
 * A dispatcher of undici 6 (a user's proxy agent, say) calls the handler interface before
 * undici 7's: the client reads answers, limits and timeouts through it alike.
 */
describe('a dispatcher of undici 6', () => {
  const { Agent } = require('undici-6') as typeof Undici;
  let agent: InstanceType<typeof Agent>;
  beforeAll(() => {
    agent = new Agent();
  });
  afterAll(() => agent.close());

  it('sends under the base URL’s path, without its trailing slash', async () => {
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'OK', alerts: [] });
    await client({ dispatcher: agent, baseUrl: `${server.url}/gateway/` }).listAlerts();
    await client({ baseUrl: `${server.url}/gateway` }).listAlerts();
    expect(server.seen.map((r) => r.url)).toEqual(['/gateway/api/alerts/', '/gateway/api/alerts/']);
  });

  it('reads a list, its headers and the count of what was sent', async () => {
    answer = (_m, _u, res) => sendJson(res, 200, { status: 'OK', alerts: [alert(1), alert(2)] });
    const alerts = await client({ dispatcher: agent }).listAlerts();
    expect(alerts.map((a) => a.id)).toEqual([1, 2]);
    expect(server.seen).toHaveLength(1);
  });

  it('retries a 429 through it, then reads the answer', async () => {
    let calls = 0;
    answer = (_m, _u, res) => {
      if (calls++ === 0) {
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        res.end('{"status":"RATE_LIMITED"}');
      } else sendJson(res, 200, { status: 'OK', alerts: [] });
    };
    expect(await client({ dispatcher: agent }).listAlerts()).toEqual([]);
    expect(server.seen).toHaveLength(2);
  });

  it('stops an endless body at the limit, and a silent server at the timeout', async () => {
    answer = (_m, _u, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    };
    expect(await fails(client({ dispatcher: agent, maxResponseBytes: 4096 }).listDomains())).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      httpStatus: 200,
    });
    answer = () => {
      // never answers
    };
    const t0 = Date.now();
    expect(
      await fails(client({ dispatcher: agent, timeoutMs: 150, retry: { maxAttempts: 1 } }).listAlerts()),
    ).toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
