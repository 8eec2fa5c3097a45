/**
 * The DELETE id form is undocumented. The emulator accepts every form, so these servers
 * each accept only one, to prove the fallback order and that the working form is remembered.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { NetworkCalcClient, deleteAlertRequest, isFormNotUnderstood, NetworkCalcError } from '../../src/client';

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

async function serverAccepting(form: 'query' | 'body', existing: Set<number>): Promise<{ url: string; seen: Seen[]; app: FastifyInstance }> {
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
      form === 'query' ? (req.query as Record<string, string>).alert_id : ((req.body ?? {}) as Record<string, unknown>).alert_id;
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

  it('falls back on 404, 405 and MISSING_VALUES, never on NOT_FOUND', () => {
    const e = (code: NetworkCalcError['code'], httpStatus: number) => new NetworkCalcError({ operation: 'deleteAlert', code, httpStatus, message: 'm' });
    expect(isFormNotUnderstood(e('UNEXPECTED_RESPONSE', 404))).toBe(true);
    expect(isFormNotUnderstood(e('UNEXPECTED_RESPONSE', 405))).toBe(true);
    expect(isFormNotUnderstood(e('MISSING_VALUES', 400))).toBe(true);
    expect(isFormNotUnderstood(e('NOT_FOUND', 400))).toBe(false);
    expect(isFormNotUnderstood(e('NOT_FOUND', 404))).toBe(false);
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
    const client = new NetworkCalcClient({ baseUrl: server.url, token: 'tok-delete-forms', retry: { baseDelayMs: 1 }, logger: (l) => lines.push(l) });

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
    await expect(client.deleteAlert(99)).rejects.toMatchObject({ code: 'NOT_FOUND', operation: 'deleteAlert', httpStatus: 400 });
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
