/**
 * Retry policy and token renewal, driven through the real client against the emulator's
 * injected faults; request counts come from the emulator's own log.
 */
import { createServer } from 'node:net';
import { startEmulator } from '../../src/emulator';
import { NetworkCalcClient, type NetworkCalcError } from '../../src/client';
import { droppedCreates } from '../helpers/faults';
import { useEmulator } from '../helpers/emulator';
import { authRecorder, demoClients, dnsAlert, FAST_RETRY } from './support';

const emulator = useEmulator();
const recorder = authRecorder();
const { client, fails, logs, shown } = demoClients(emulator, { dispatcher: recorder.dispatcher });

afterAll(() => {
  expect(shown()).not.toMatch(/demo-token|demo-secret/);
  expect(recorder.seen.size).toBeGreaterThan(1);
  for (const token of recorder.seen) expect(shown()).not.toContain(token);
});

async function count(method: string, pathPrefix: string): Promise<number> {
  return (await emulator().control.requests()).filter((r) => r.method === method && r.path.startsWith(pathPrefix))
    .length;
}

describe('idempotent requests', () => {
  it('retry a 429 after the Retry-After it gives', async () => {
    await emulator().control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 1,
      match: { method: 'GET', path: '/api/alerts' },
      count: 1,
    });
    const t0 = Date.now();
    expect(await client().listAlerts()).toEqual([]);
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5000);
    expect(await count('GET', '/api/alerts')).toBe(2);
  });

  it('follow a Retry-After within the budget even when its random extra would pass the budget', async () => {
    await emulator().control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 1,
      match: { method: 'GET', path: '/api/alerts' },
      count: 1,
    });
    const t0 = Date.now();
    // Retry-After 1 s plus up to 200 ms, in a budget of 1.15 s: the wait is cut at the budget. The
    // budget leaves the first answer 150 ms (a loaded machine took more than 50 ms).
    expect(await client({ retry: { ...FAST_RETRY, maxTotalMs: 1150 } }).listAlerts()).toEqual([]);
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(await count('GET', '/api/alerts')).toBe(2);
  });

  it('give up at once when Retry-After is beyond the total budget', async () => {
    await emulator().control.addFault({ kind: 'rate_limit', retryAfterSeconds: 30, match: { path: '/api/alerts' } });
    const t0 = Date.now();
    const e = await fails(client({ retry: { ...FAST_RETRY, maxTotalMs: 2000 } }).listAlerts());
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(e).toMatchObject({ code: 'RETRIES_EXHAUSTED', httpStatus: 429, retryable: true, operation: 'listAlerts' });
    expect(e.message).toMatch(/wait 30 s/);
    expect(await count('GET', '/api/alerts')).toBe(1);
  });

  it.each([500, 502, 503, 504])('retry a %d and succeed', async (status) => {
    await emulator().control.addFault({ kind: 'status', status, match: { path: '/api/alerts' }, count: 2 });
    expect(await client().listAlerts()).toEqual([]);
    expect(await count('GET', '/api/alerts')).toBe(3);
  });

  it('stop after maxAttempts with RETRIES_EXHAUSTED naming the last error', async () => {
    await emulator().control.addFault({ kind: 'status', status: 503, match: { path: '/api/domains' } });
    const e = await fails(client({ retry: { ...FAST_RETRY, maxAttempts: 3 } }).listDomains());
    expect(e).toMatchObject({ code: 'RETRIES_EXHAUSTED', httpStatus: 503, attempts: 3 });
    expect(e.message).toMatch(/after 3 attempts/);
    // The emulator's 5xx bodies carry SYSTEM_ERROR: the body's code wins over the status.
    expect(e.message).toMatch(/last error: SYSTEM_ERROR \(HTTP 503\)/);
    expect((e.cause as NetworkCalcError).code).toBe('SYSTEM_ERROR');
    expect(await count('GET', '/api/domains')).toBe(3);
  });

  it('stop at maxTotalMs even with attempts left', async () => {
    await emulator().control.addFault({ kind: 'status', status: 500, match: { path: '/api/alerts' } });
    const t0 = Date.now();
    const e = await fails(
      client({ retry: { maxAttempts: 100, baseDelayMs: 100, maxDelayMs: 100, maxTotalMs: 400 } }).listAlerts(),
    );
    expect(e.code).toBe('RETRIES_EXHAUSTED');
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(await count('GET', '/api/alerts')).toBeLessThan(100);
  });

  it('with maxAttempts 1, throw the first error as it is', async () => {
    await emulator().control.addFault({ kind: 'status', status: 502, match: { path: '/api/alerts' } });
    const e = await fails(client({ retry: { maxAttempts: 1 } }).listAlerts());
    expect(e).toMatchObject({ code: 'SYSTEM_ERROR', httpStatus: 502, retryable: true });
  });

  it('retry a dropped connection', async () => {
    await emulator().control.addFault({ kind: 'drop', match: { method: 'GET', path: '/api/alerts' }, count: 2 });
    expect(await client().listAlerts()).toEqual([]);
    expect(logs.some((l) => /^GET \/api\/alerts\/ \S+ attempt=3 \d+ms$/.test(l))).toBe(true);
  });

  it('retry a PATCH dropped after it was applied: same body, same result', async () => {
    const { id } = await emulator().control.createAlert('demo', {
      name: 'p',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '1.1.1.1',
      target: 'example.com',
    });
    await emulator().control.addFault({ kind: 'drop', phase: 'after', match: { method: 'PATCH' }, count: 1 });
    const c = client();
    await c.updateAlert(id, dnsAlert('p', { filter_value: '2.2.2.2' }));
    expect(await count('PATCH', '/api/alerts')).toBe(2);
    expect((await c.getAlert(id)).filter_value).toBe('2.2.2.2');
  });

  it('a DELETE retried after a drop that deleted the alert succeeds', async () => {
    const { id } = await emulator().control.createAlert('demo', {
      name: 'd',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '1.1.1.1',
      target: 'example.com',
    });
    await emulator().control.addFault({ kind: 'drop', phase: 'after', match: { method: 'DELETE' }, count: 1 });
    const c = client();
    await c.deleteAlert(id);
    expect(await count('DELETE', '/api/alerts')).toBe(2);
    expect(await c.listAlerts()).toEqual([]);
  });

  it('time out a slow answer, then retry', async () => {
    await emulator().control.addFault({
      kind: 'latency',
      latencyMs: 1000,
      match: { method: 'GET', path: '/api/domains' },
      count: 1,
    });
    const domains = await client({ timeoutMs: 200 }).listDomains();
    expect(domains.length).toBeGreaterThan(0);
    expect(logs.some((l) => /^GET \/api\/domains\/ TIMEOUT attempt=1/.test(l))).toBe(true);
  });
});

describe('creates are never retried blindly', () => {
  it('a drop after the server saved the alert: exactly one POST, OUTCOME_UNKNOWN, and the alert can be adopted by name', async () => {
    await emulator().control.addFault(droppedCreates('after'));
    const c = client();
    const e = await fails(c.createAlert(dnsAlert('ambiguous')));
    expect(e).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      operation: 'createAlert',
      retryable: false,
      httpStatus: undefined,
    });
    // One sentence, the code once: what is unknown, what the caller does, then what was seen.
    expect(e.message).toMatch(
      /^createAlert \(alert "ambiguous"\) failed: OUTCOME_UNKNOWN: the create may or may not have happened; list the account and adopt what it created if it is there, or send the create again if not \(the connection was lost after sending; UND_ERR_SOCKET: other side closed\)$/,
    );
    expect(e.message.match(/OUTCOME_UNKNOWN/g)).toHaveLength(1);
    expect(await count('POST', '/api/alerts')).toBe(1);
    expect((await c.listAlerts()).map((a) => a.name)).toEqual(['ambiguous']);
  });

  it('a drop before processing looks the same from here: exactly one POST', async () => {
    await emulator().control.addFault({ kind: 'drop', match: { method: 'POST', path: '/api/alerts' }, count: 1 });
    const e = await fails(client().createAlert(dnsAlert('dropped')));
    expect(e.code).toBe('OUTCOME_UNKNOWN');
    expect(await count('POST', '/api/alerts')).toBe(1);
  });

  it.each([500, 503])('a %d: exactly one POST, OUTCOME_UNKNOWN', async (status) => {
    await emulator().control.addFault({
      kind: 'status',
      status,
      phase: 'after',
      match: { method: 'POST', path: '/api/alerts' },
      count: 1,
    });
    const e = await fails(client().createAlert(dnsAlert('five-hundred')));
    expect(e).toMatchObject({ code: 'OUTCOME_UNKNOWN', httpStatus: status });
    expect(e.message).toMatch(
      new RegExp(
        `^createAlert \\(alert "five-hundred"\\) failed: OUTCOME_UNKNOWN \\(HTTP ${status}\\): the create may or may not have happened; .* \\(the server answered SYSTEM_ERROR\\)$`,
      ),
    );
    expect(await count('POST', '/api/alerts')).toBe(1);
  });

  it('a timeout: exactly one POST, OUTCOME_UNKNOWN', async () => {
    await emulator().control.addFault({
      kind: 'latency',
      latencyMs: 800,
      match: { method: 'POST', path: '/api/alerts' },
      count: 1,
    });
    const e = await fails(client({ timeoutMs: 150 }).createAlert(dnsAlert('slow')));
    expect(e.code).toBe('OUTCOME_UNKNOWN');
    expect(e.detail).toMatch(/within 150 ms/);
    await new Promise((r) => setTimeout(r, 900));
    expect(await count('POST', '/api/alerts')).toBe(1);
  });

  it('a 429 certainly was not processed: retried, one alert created', async () => {
    await emulator().control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 0,
      match: { method: 'POST', path: '/api/alerts' },
      count: 2,
    });
    const c = client();
    await c.createAlert(dnsAlert('throttled'));
    expect(await count('POST', '/api/alerts')).toBe(3);
    expect((await c.listAlerts()).map((a) => a.name)).toEqual(['throttled']);
  });

  it('a refused connection certainly was not processed: retried until exhausted', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const c = new NetworkCalcClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: 'demo-token',
      retry: { ...FAST_RETRY, maxAttempts: 3 },
      logger: (l) => lines.push(l),
    });
    const e = await fails(c.createAlert(dnsAlert('nowhere')));
    expect(e).toMatchObject({ code: 'RETRIES_EXHAUSTED', attempts: 3, httpStatus: undefined });
    expect((e.cause as NetworkCalcError).code).toBe('CONNECTION_ERROR');
    expect(e.message).toMatch(/CONNECTION_ERROR/);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^POST \/api\/alerts\/ ECONNREFUSED attempt=1 \d+ms$/);
    logs.push(...lines);
  });
});

describe('report triggers', () => {
  it('are retried on 429', async () => {
    await emulator().control.addFault({
      kind: 'rate_limit',
      retryAfterSeconds: 0,
      match: { path: '/api/reports' },
      count: 1,
    });
    expect((await client().triggerDomainReport(1)).domain_id).toBe(1);
    expect(await count('POST', '/api/reports')).toBe(2);
  });

  it('are not retried on a 5xx', async () => {
    await emulator().control.addFault({ kind: 'status', status: 502, match: { path: '/api/reports' }, count: 1 });
    expect(await fails(client().triggerSubdomainReport(2))).toMatchObject({ code: 'SYSTEM_ERROR', httpStatus: 502 });
    expect(await count('POST', '/api/reports')).toBe(1);
  });

  it('are not retried after a drop', async () => {
    await emulator().control.addFault({ kind: 'drop', match: { path: '/api/reports' }, count: 1 });
    expect(await fails(client().triggerDomainReport(1))).toMatchObject({
      code: 'CONNECTION_ERROR',
      httpStatus: undefined,
    });
    expect(await count('POST', '/api/reports')).toBe(1);
  });
});

describe('token renewal', () => {
  const creds = (extra = {}) =>
    client({ token: undefined, clientId: 'demo-client', clientSecret: 'demo-secret', ...extra });

  it('renews once after the token expires (alerts: NOT_AUTHORIZED), then succeeds', async () => {
    const c = creds();
    await c.listAlerts();
    await emulator().control.expireTokens('demo');
    await emulator().control.clearRequests();
    expect(await c.listAlerts()).toEqual([]);
    expect(c.tokenExchanges).toBe(2);
    const reqs = (await emulator().control.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(reqs).toEqual(['GET /api/alerts/ 401', 'POST /api/auth/token 200', 'GET /api/alerts/ 200']);
  });

  it('renews once after the token expires (reports: INVALID_GRANT)', async () => {
    const c = creds();
    await c.triggerDomainReport(1);
    await emulator().control.expireTokens('demo');
    expect((await c.triggerDomainReport(1)).domain_id).toBe(1);
    expect(c.tokenExchanges).toBe(2);
  });

  it('concurrent callers refused together share one renewal', async () => {
    const c = creds();
    await c.listAlerts();
    await emulator().control.expireTokens('demo');
    await emulator().control.clearRequests();
    await Promise.all([c.listAlerts(), c.listDomains(), c.triggerDomainReport(1), c.getDomain(1), c.listAlerts()]);
    expect(c.tokenExchanges).toBe(2);
    expect(await count('POST', '/api/auth/token')).toBe(1);
  });

  it('a ready token cannot be renewed: the error says so', async () => {
    await emulator().control.expireTokens('demo');
    const e = await fails(client().listAlerts());
    expect(e).toMatchObject({ code: 'NOT_AUTHORIZED', httpStatus: 401, retryable: false });
    expect(e.message).toMatch(/expired, invalid/);
    expect(e.message).toMatch(/set NETWORKCALC_TOKEN/);
    expect(await count('POST', '/api/auth/token')).toBe(0);
  });

  it('a ready token with credentials falls back to the credentials once refused', async () => {
    await emulator().control.expireTokens('demo');
    const c = client({ clientId: 'demo-client', clientSecret: 'demo-secret' });
    expect(await c.listAlerts()).toEqual([]);
    expect(c.tokenExchanges).toBe(1);
  });

  it('renews before expiry with short lifetimes', async () => {
    const short = await startEmulator({ port: 0, tokenLifetimeSeconds: 1 });
    try {
      const c = new NetworkCalcClient({
        baseUrl: short.url,
        clientId: 'demo-client',
        clientSecret: 'demo-secret',
        retry: FAST_RETRY,
        dispatcher: recorder.dispatcher,
      });
      await c.listAlerts();
      await c.listAlerts();
      expect(c.tokenExchanges).toBe(1);
      await new Promise((r) => setTimeout(r, 950));
      await c.listAlerts();
      expect(c.tokenExchanges).toBe(2);
      // No refused request: the token was renewed ahead of expiry.
      expect((await short.control.requests()).filter((r) => r.status === 401)).toEqual([]);
    } finally {
      await short.close();
    }
  });

  it('SYSTEM_ERROR from the token endpoint is retried', async () => {
    await emulator().control.addFault({ kind: 'status', status: 500, match: { path: '/api/auth/token' }, count: 1 });
    const c = creds();
    expect(await c.listAlerts()).toEqual([]);
    expect(await count('POST', '/api/auth/token')).toBe(2);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
