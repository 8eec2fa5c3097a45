/**
 * The DELETE id form is undocumented. The emulator accepts every form, so these servers
 * each accept only one, to prove the fallback order and that the working form is remembered.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Limiter } from '../../src/support/limiter';
import { Agent } from 'undici';
import {
  NetworkCalcClient,
  deleteAlertRequest,
  isFormNotUnderstood,
  NetworkCalcError,
  type DeleteForm,
} from '../../src/client';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { caught, dnsAlert, sendJson, tinyServer, type TinyServer } from './support';

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

async function serverAccepting(
  form: 'query' | 'body',
  existing: Set<number>,
): Promise<{ url: string; seen: Seen[]; app: FastifyInstance }> {
  const app = Fastify();
  const seen: Seen[] = [];
  app.addHook('onRequest', async (req) => {
    seen.push({ method: req.method, url: req.url, body: undefined });
  });
  app.addHook('preHandler', async (req) => {
    seen[seen.length - 1].body = req.body;
  });
  app.delete('/api/alerts/', async (req, reply) => {
    const raw =
      form === 'query'
        ? (req.query as Record<string, string>).alert_id
        : ((req.body ?? {}) as Record<string, unknown>).alert_id;
    if (raw === undefined) return reply.code(400).send({ status: 'MISSING_VALUES' });
    const id = Number(raw);
    if (!existing.delete(id)) return reply.code(400).send({ status: 'NOT_FOUND' });
    return { status: 'OK' };
  });
  // No DELETE /api/alerts/:id route: fastify answers 404 "Route not found".
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, seen, app };
}

describe('deleteAlertRequest', () => {
  it('keeps the three forms in one place', () => {
    expect(deleteAlertRequest('path', 7)).toEqual({ path: '/api/alerts/7' });
    expect(deleteAlertRequest('query', 7)).toEqual({ path: '/api/alerts/', query: { alert_id: '7' } });
    expect(deleteAlertRequest('body', 7)).toEqual({ path: '/api/alerts/', body: { alert_id: 7 } });
  });

  it('falls back on 404, 405 and MISSING_VALUES, never on NOT_FOUND (HTTP 400)', () => {
    const e = (code: NetworkCalcError['code'], httpStatus: number) =>
      new NetworkCalcError({ operation: 'deleteAlert', code, httpStatus, message: 'm' });
    expect(isFormNotUnderstood(e('UNEXPECTED_RESPONSE', 404))).toBe(true);
    expect(isFormNotUnderstood(e('UNEXPECTED_RESPONSE', 405))).toBe(true);
    expect(isFormNotUnderstood(e('MISSING_VALUES', 400))).toBe(true);
    expect(isFormNotUnderstood(e('NOT_FOUND', 400))).toBe(false);
    // HTTP 404 is an unknown route whatever the body says: the interface's NOT_FOUND is HTTP 400.
    expect(isFormNotUnderstood(e('NOT_FOUND', 404))).toBe(true);
    expect(isFormNotUnderstood(e('NOT_DELETED', 400))).toBe(false);
  });
});

describe.each(['query', 'body'] as const)('a server that takes only the %s form', (form) => {
  let server: Awaited<ReturnType<typeof serverAccepting>>;
  const existing = new Set([1, 2, 3]);

  beforeAll(async () => {
    server = await serverAccepting(form, existing);
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('finds the form, then uses only that one', async () => {
    const lines: string[] = [];
    const client = new NetworkCalcClient({
      baseUrl: server.url,
      token: 'tok-delete-forms',
      retry: { baseDelayMs: 1 },
      logger: (l) => lines.push(l),
    });

    await client.deleteAlert(1);
    expect(client.deleteForm).toBe(form);
    const first = server.seen.map((s) => `${s.method} ${s.url}`);
    expect(first[0]).toBe('DELETE /api/alerts/1');
    expect(first[first.length - 1]).toBe(form === 'query' ? 'DELETE /api/alerts/?alert_id=1' : 'DELETE /api/alerts/');
    expect(first).toHaveLength(form === 'query' ? 2 : 3);
    if (form === 'body') expect(server.seen[2].body).toEqual({ alert_id: 1 });
    expect(existing.has(1)).toBe(false);

    server.seen.length = 0;
    await client.deleteAlert(2);
    expect(server.seen).toHaveLength(1);

    // NOT_FOUND through the working form is an answer, not a reason to try another form.
    server.seen.length = 0;
    await expect(client.deleteAlert(99)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      operation: 'deleteAlert',
      httpStatus: 400,
    });
    expect(server.seen).toHaveLength(1);
    expect(lines.join('\n')).not.toMatch(/tok-delete-forms/);
  });
});

it('does not fall back when the first form says NOT_FOUND', async () => {
  const app = Fastify();
  let calls = 0;
  app.delete('/api/alerts/:id', async (_req, reply) => {
    calls++;
    return reply.code(400).send({ status: 'NOT_FOUND' });
  });
  app.delete('/api/alerts/', async () => {
    calls++;
    return { status: 'OK' };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const port = (app.server.address() as { port: number }).port;
    const client = new NetworkCalcClient({ baseUrl: `http://127.0.0.1:${port}`, token: 't0k3n' });
    await expect(client.deleteAlert(5)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(calls).toBe(1);
    expect(client.deleteForm).toBe('path');
  } finally {
    await app.close();
  }
});

/**
 * A server that reads the id of a DELETE from one form only, as a real service would. The
 * others get what an unknown route or a missing id gets: 404 for the path form (with the
 * emulator's `{"status": "NOT_FOUND"}` body, which must not pass for "alert gone"), 400
 * MISSING_VALUES for the others.
 */
async function strictServer(form: DeleteForm, ids: Iterable<number>): Promise<TinyServer & { alerts: Set<number> }> {
  const alerts = new Set(ids);
  const server = await tinyServer((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const segment = /^\/api\/alerts\/(\d+)$/.exec(url.pathname)?.[1];
    if (req.method !== 'DELETE' || (segment === undefined && url.pathname !== '/api/alerts/'))
      return sendJson(res, 404, { status: 'NOT_FOUND' });
    if (segment !== undefined && form !== 'path') return sendJson(res, 404, { status: 'NOT_FOUND' });
    let raw: unknown;
    if (form === 'path') raw = segment;
    else if (form === 'query') raw = url.searchParams.get('alert_id') ?? undefined;
    else raw = body.trim() === '' ? undefined : (JSON.parse(body) as { alert_id?: unknown }).alert_id;
    if (raw === undefined) return sendJson(res, 400, { status: 'MISSING_VALUES' });
    if (!alerts.delete(Number(raw))) return sendJson(res, 400, { status: 'NOT_FOUND' });
    return sendJson(res, 200, { status: 'OK' });
  });
  return Object.assign(server, { alerts });
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe.each(['path', 'query', 'body'] as const)(
  'learned once per base URL: a server that takes only the %s form',
  (form) => {
    let server: Awaited<ReturnType<typeof strictServer>>;
    beforeEach(async () => {
      server = await strictServer(form, range(1, 1000));
    });
    afterEach(() => server.close());

    const fresh = () =>
      new NetworkCalcClient({
        baseUrl: server.url,
        token: 'tok-strict-delete',
        retry: { baseDelayMs: 1, maxDelayMs: 2 },
      });

    it('32 concurrent deletes on a fresh client all succeed, for at most 32 + 2 requests', async () => {
      const results = await Promise.allSettled(range(1, 32).map((id) => fresh().deleteAlert(id)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(range(1, 32).filter((id) => server.alerts.has(id))).toEqual([]);
      expect(server.seen.length).toBeLessThanOrEqual(32 + 2);
      // Every client of the process knows the form now, a new one included.
      expect(fresh().deleteForm).toBe(form);
    });

    it('300 deletes, concurrent and sequential, from clients made at different times: N + 2 requests at most', async () => {
      const first = fresh();
      await Promise.all(range(1, 150).map((id) => first.deleteAlert(id)));
      for (const id of range(151, 150)) await fresh().deleteAlert(id);
      expect(server.alerts.size).toBe(1000 - 300);
      expect(server.seen.length).toBeLessThanOrEqual(300 + 2);
      // Once learned, one request per delete, NOT_FOUND included (the form worked, the alert is gone).
      server.seen.length = 0;
      await expect(fresh().deleteAlert(1)).rejects.toMatchObject({ code: 'NOT_FOUND', httpStatus: 400 });
      expect(server.seen).toHaveLength(1);
    });
  },
);

it('a learned form the server stops understanding is learned again, once', async () => {
  const before = await strictServer('query', range(1, 10));
  const c = new NetworkCalcClient({
    baseUrl: before.url,
    token: 'tok-relearn',
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  });
  await c.deleteAlert(1);
  expect(c.deleteForm).toBe('query');
  const port = new URL(before.url).port;
  await before.close();
  // The same base URL, now reading the body form (a redeployed service).
  const after = await tinyServer((_req, body, res) => {
    const id = body.trim() === '' ? undefined : (JSON.parse(body) as { alert_id?: number }).alert_id;
    sendJson(res, id === undefined ? 400 : 200, { status: id === undefined ? 'MISSING_VALUES' : 'OK' });
  }, Number(port));
  try {
    await c.deleteAlert(2);
    expect(c.deleteForm).toBe('body');
    expect(after.seen.map((r) => r.url)).toEqual([
      '/api/alerts/?alert_id=2',
      '/api/alerts/2',
      '/api/alerts/?alert_id=2',
      '/api/alerts/',
    ]);
  } finally {
    await after.close();
  }
});

it('a DELETE no form of which is understood says so, not what a create misses', async () => {
  const server = await tinyServer((_req, _body, res) => sendJson(res, 400, { status: 'MISSING_VALUES' }));
  try {
    const c = new NetworkCalcClient({
      baseUrl: server.url,
      token: 'tok-none',
      variables: { baseUrl: 'PROD_BASE_URL' },
    });
    const e = await caught(c.deleteAlert(7));
    expect(e).toMatchObject({ code: 'MISSING_VALUES', httpStatus: 400, retryable: false, operation: 'deleteAlert' });
    expect(e.message).toBe(
      'deleteAlert (alert 7) failed: MISSING_VALUES (HTTP 400): the server understood none of the ways this client sends the alert id ' +
        '(DELETE /api/alerts/{id}; DELETE /api/alerts/?alert_id={id}; DELETE /api/alerts/ with the JSON body {"alert_id": id}), so the alert was not deleted; ' +
        'PROD_BASE_URL may not point at the NetworkCalc Alerts API, or the service changed how DELETE takes the id (please report it)',
    );
    expect(e.message).not.toMatch(/filter_value|target_id/);
    expect(server.seen).toHaveLength(3);
    expect(c.deleteForm).toBeUndefined();
  } finally {
    await server.close();
  }
});

/**
 * undici closes a connection after a body on a method that does not expect one, so the body
 * form used to open one connection per DELETE (1,001 for 1,000 alerts). Counted here on the
 * emulator's own server, in its strict mode (one DELETE form, creates answered without an id).
 */
describe.each(['path', 'query', 'body'] as const)('connections: an emulator that takes only the %s form', (form) => {
  const N = 120;
  const P = 8;
  let emu: RunningEmulator;
  let agent: Agent;
  beforeEach(async () => {
    emu = await startEmulator({ deleteForm: form });
    agent = new Agent();
  });
  afterEach(async () => {
    await agent.close();
    await emu.close();
  });

  it(`deletes ${N} alerts at parallelism ${P} over at most ${P} + 3 connections`, async () => {
    const client = new NetworkCalcClient({ baseUrl: emu.url, token: DEMO_ACCOUNT.token, dispatcher: agent });
    const limit = new Limiter(P);
    await Promise.all(
      range(0, N).map((i) =>
        limit.run(() => client.createAlert(dnsAlert(`conn ${i}`, { filter_value: `192.0.2.${i}` }))),
      ),
    );
    const ids = (await client.listAlerts()).map((a) => a.id);
    expect(ids).toHaveLength(N);
    // Only the deletes count: the connections above stay open in the agent's pool, idle.
    await agent.close();
    agent = new Agent();
    const deleting = new NetworkCalcClient({ baseUrl: emu.url, token: DEMO_ACCOUNT.token, dispatcher: agent });
    let connections = 0;
    const count = () => void connections++;
    emu.app.server.on('connection', count);
    try {
      await Promise.all(ids.map((id) => limit.run(() => deleting.deleteAlert(id))));
    } finally {
      emu.app.server.off('connection', count);
    }
    expect((await emu.control.state()).accounts[0]!.alerts).toEqual([]);
    expect(connections).toBeGreaterThan(0);
    expect(connections).toBeLessThanOrEqual(P + 3);
  });
});
