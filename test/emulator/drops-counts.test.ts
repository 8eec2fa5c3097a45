import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { request } from 'undici';
import { DEMO_ACCOUNT, EmulatorControl, RequestLog, startEmulator, type RequestLogEntry } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';
import { alertSpec } from '../helpers/fixtures';

const emu = useEmulator();
const T = DEMO_ACCOUNT.token;
const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(emu().url, method, path, opts);
const alertBody = (name: string) => alertSpec({ name, subtype: 'TXT', filter: 'contains', filter_value: 'v=spf1' });
const names = async () =>
  (await api('GET', '/api/alerts/', { token: T })).body.alerts.map((a: { name: string }) => a.name);

/** Sends one raw HTTP request and collects every byte answered until the server closes. */
function rawExchange(url: string, text: string, timeoutMs = 5_000): Promise<{ bytes: Buffer; error?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; received ${Buffer.concat(chunks).toString()}`));
    }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(chunks), error });
    });
    socket.write(text);
  });
}

function rawCreate(url: string, name: string): string {
  const body = JSON.stringify(alertBody(name));
  return (
    `POST /api/alerts/ HTTP/1.1\r\nHost: ${new URL(url).host}\r\nAuthorization: Bearer ${T}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

describe('ambiguous create: drop with phase "after"', () => {
  const ambiguous = { kind: 'drop', phase: 'after', match: { method: 'POST', path: '/api/alerts' } } as const;

  it('the alert is stored, and the connection closes without a single byte of an answer', async () => {
    await emu().control.addFault({ ...ambiguous, count: 1 });
    const { bytes } = await rawExchange(emu().url, rawCreate(emu().url, 'ghost'));
    expect(bytes.toString()).toBe('');
    expect(await names()).toEqual(['ghost']);
    const [entry] = (await emu().control.requests()).filter((r) => r.method === 'POST');
    expect(entry).toMatchObject({ path: '/api/alerts/', status: 0, faults: [{ kind: 'drop', phase: 'after' }] });
  });

  it('without the fault the same raw request is answered (the exchange above can tell)', async () => {
    const { bytes } = await rawExchange(emu().url, rawCreate(emu().url, 'seen'));
    expect(bytes.toString()).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"status":"OK"\}$/);
  });

  it('an HTTP client sees a dropped connection, not an answer', async () => {
    await emu().control.addFault({ ...ambiguous, count: 1 });
    const err = await request(`${emu().url}/api/alerts/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${T}`, 'content-type': 'application/json' },
      body: JSON.stringify(alertBody('lost')),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(await names()).toEqual(['lost']);
  });

  it('with rate 0.2 and a random seed, the same creates are dropped on every run, and every one is stored', async () => {
    const run = async (): Promise<string[]> => {
      await emu().control.reset();
      await emu().control.updateSettings({ randomSeed: 7 });
      await emu().control.addFault({ ...ambiguous, rate: 0.2 });
      const outcome: string[] = [];
      for (let i = 0; i < 15; i++) {
        const res = await call(emu().url, 'POST', '/api/alerts/', { token: T, json: alertBody(`a${i}`) }).catch(
          () => undefined,
        );
        outcome.push(res ? String(res.status) : 'dropped');
      }
      expect(await names()).toHaveLength(15);
      expect(await emu().control.countRequests({ method: 'POST', path: '/api/alerts' })).toBe(15);
      expect((await emu().control.requestCounts({ method: 'POST' })).statuses['0']).toBe(
        outcome.filter((o) => o === 'dropped').length,
      );
      return outcome;
    };
    const first = await run();
    expect(first).toContain('dropped');
    expect(first).toContain('200');
    expect(await run()).toEqual(first);
  });
});

describe('request counts', () => {
  it('count by method and exact path or prefix; statuses and faulted requests too', async () => {
    await emu().control.addFault({ kind: 'status', count: 1, match: { method: 'GET', path: '/api/alerts/1' } });
    for (let i = 0; i < 3; i++) await api('GET', '/api/alerts/', { token: T });
    await api('GET', '/api/alerts', { token: T });
    await api('GET', '/api/alerts/1', { token: T });
    await api('DELETE', '/api/alerts/7', { token: T });
    await api('DELETE', '/api/alerts/?alert_id=8', { token: T });
    await api('POST', '/api/domains/', { token: T, json: { domain: 'count.dev' } });

    const c = emu().control;
    expect(await c.countRequests({ method: 'GET', path: '/api/alerts/' })).toBe(4); // the list calls, slash or not
    expect(await c.countRequests({ method: 'get', path: '/api/alerts' })).toBe(4);
    expect(await c.countRequests({ method: 'GET', pathPrefix: '/api/alerts' })).toBe(5);
    expect(await c.countRequests({ method: 'DELETE' })).toBe(2);
    expect(await c.countRequests({ pathPrefix: '/api/domains' })).toBe(1);
    expect(await c.countRequests()).toBe(8);
    expect(await c.requestCounts({ method: 'GET', pathPrefix: '/api/alerts/1' })).toEqual({
      count: 1,
      statuses: { 500: 1 },
      faulted: 1,
      complete: true,
      dropped: 0,
    });
    expect(await c.requestCounts({ method: 'DELETE' })).toEqual({
      count: 2,
      statuses: { 400: 2 },
      faulted: 0,
      complete: true,
      dropped: 0,
    });
    const faulted = (await c.requests()).filter((r) => r.faults.length);
    expect(faulted).toEqual([
      expect.objectContaining({
        path: '/api/alerts/1',
        status: 500,
        faults: [expect.objectContaining({ kind: 'status', phase: 'before' })],
      }),
    ]);

    await c.clearRequests();
    expect(await c.countRequests()).toBe(0);
  });

  it('the log keeps the newest entries while the counts keep counting, and says how many it dropped', async () => {
    const e = await startEmulator({ requestLogLimit: 3 });
    try {
      for (let i = 1; i <= 7; i++) await call(e.url, 'GET', `/api/alerts/${i}`, { token: T });
      const raw = await fetch(`${e.url}/_emulator/requests`, { headers: { 'x-emulator-token': e.controlToken } });
      expect(raw.headers.get('x-emulator-requests-dropped')).toBe('4');
      expect(((await raw.json()) as Array<{ path: string }>).map((r) => r.path)).toEqual([
        '/api/alerts/5',
        '/api/alerts/6',
        '/api/alerts/7',
      ]);
      // The client never hands back part of the log as if it were all of it.
      await expect(e.control.requests()).rejects.toThrow(
        "the emulator's request log holds the newest 3 requests; 4 older ones were dropped",
      );
      expect(await e.control.requestCounts()).toMatchObject({ count: 7, dropped: 4, complete: true });
      expect(await e.control.countRequests({ method: 'GET', pathPrefix: '/api/alerts/' })).toBe(7);
      await e.control.clearRequests();
      expect(await e.control.requests()).toEqual([]);
    } finally {
      await e.close();
    }
  });

  it.each([
    ['?colour=red', 'colour is not a filter of the request counts (known: method, path, pathPrefix, account)'],
    ['?path=api', 'path must be given once, starting with "/"'],
    ['?method=GET&method=POST', 'method must be given once'],
  ])('a bad filter %s is refused with a message', async (query, message) => {
    const res = await call(emu().url, 'GET', `/_emulator/requests/counts${query}`, {
      headers: { 'x-emulator-token': emu().controlToken },
    });
    expect(res).toMatchObject({ status: 400, body: { status: 'INVALID_BODY', error: message } });
  });

  it('countRequests refuses to answer from counters that were full', async () => {
    const server = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ count: 3, statuses: {}, faulted: 0, complete: false }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const control = new EmulatorControl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'x');
      await expect(control.countRequests({ method: 'GET' })).rejects.toThrow(
        /more distinct request paths than its counters keep/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('RequestLog bounds', () => {
  const entry = (path: string, status = 200): RequestLogEntry => ({
    method: 'GET',
    path,
    query: '',
    account: null,
    claimedAccount: null,
    status,
    faults: [],
    at: '2025-01-01T00:00:00.000Z',
  });

  it('a ring of `limit` entries, oldest first, across many turns', () => {
    const log = new RequestLog(4, 100);
    for (let i = 0; i < 11; i++) log.add(entry(`/p${i}`));
    expect(log.entries().map((e) => e.path)).toEqual(['/p7', '/p8', '/p9', '/p10']);
    expect(log.counts()).toMatchObject({ count: 11, complete: true, dropped: 7 });
  });

  it('holds every request of a plan of 10,000 accounts: two lists each, on 20,000 counters', () => {
    const log = new RequestLog();
    for (let i = 0; i < 10_000; i++)
      for (const path of ['/api/alerts/', '/api/domains/']) log.add({ ...entry(path), claimedAccount: `acct${i}` });
    expect(log.entries()).toHaveLength(20_000);
    expect(log.counts()).toMatchObject({ count: 20_000, complete: true, dropped: 0 });
  });

  it('past the counter limit new paths are not kept, and the counts say they are incomplete', () => {
    const log = new RequestLog(10, 2);
    log.add(entry('/a'));
    log.add(entry('/b'));
    log.add(entry('/c'));
    log.add(entry('/a', 0));
    expect(log.counts({ path: '/a' })).toEqual({
      count: 2,
      statuses: { 200: 1, 0: 1 },
      faulted: 0,
      complete: false,
      dropped: 0,
    });
    expect(log.counts({ path: '/c' })).toMatchObject({ count: 0, complete: false });
    log.clear();
    expect(log.counts()).toEqual({ count: 0, statuses: {}, faulted: 0, complete: true, dropped: 0 });
    expect(log.entries()).toEqual([]);
  });
});
