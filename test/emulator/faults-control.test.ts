import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { DEMO_ACCOUNT, EmulatorControl, EmulatorControlError, startEmulator } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';
import { alertSpec } from '../helpers/fixtures';

const emu = useEmulator();
const T = DEMO_ACCOUNT.token;
const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(emu().url, method, path, opts);
const alertBody = (name: string) => alertSpec({ name, subtype: 'TXT', filter: 'contains', filter_value: 'v=spf1' });
const names = async () => (await api('GET', '/api/alerts/', { token: T })).body.alerts.map((a: any) => a.name);

describe('faults', () => {
  it('latency delays the next matching request only', async () => {
    await emu().control.addFault({
      kind: 'latency',
      latencyMs: 300,
      count: 1,
      match: { method: 'GET', path: '/api/alerts' },
    });
    let start = Date.now();
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(280);
    start = Date.now();
    await api('GET', '/api/alerts/', { token: T });
    expect(Date.now() - start).toBeLessThan(250);
  });

  it('a 5xx for the next n matching requests, then normal answers', async () => {
    await emu().control.addFault({ kind: 'status', status: 503, count: 2, match: { path: '/api/alerts' } });
    for (let i = 0; i < 2; i++) {
      expect(await api('GET', '/api/alerts/', { token: T })).toMatchObject({
        status: 503,
        body: { status: 'SYSTEM_ERROR' },
      });
    }
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
    expect(await emu().control.faults()).toEqual([]);
  });

  it('429 with Retry-After', async () => {
    await emu().control.addFault({ kind: 'rate_limit', retryAfterSeconds: 7, count: 1 });
    const res = await api('GET', '/api/domains/', { token: T });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body).toEqual({ status: 'RATE_LIMITED' });
  });

  it('match narrows by method and path prefix', async () => {
    await emu().control.addFault({ kind: 'status', match: { method: 'POST', path: '/api/reports' } });
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
    expect((await api('POST', '/api/alerts/', { token: T, json: alertBody('x') })).status).toBe(200);
    expect((await api('POST', '/api/reports/domain-reports/1', { token: T })).status).toBe(500);
  });

  it('rate 0 never hits; clearFaults removes every fault', async () => {
    await emu().control.addFault({ kind: 'status', rate: 0 });
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
    await emu().control.addFault({ kind: 'status' });
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(500);
    await emu().control.clearFaults();
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
  });

  it('drop before: the connection closes and nothing is created', async () => {
    await emu().control.addFault({ kind: 'drop', count: 1, match: { method: 'POST', path: '/api/alerts' } });
    await expect(api('POST', '/api/alerts/', { token: T, json: alertBody('lost') })).rejects.toThrow();
    expect(await names()).toEqual([]);
    const log = await emu().control.requests();
    expect(log.find((r) => r.method === 'POST')).toMatchObject({ path: '/api/alerts/', status: 0, account: 'demo' });
  });

  it('drop after: the create is committed but the answer never comes (an ambiguous create)', async () => {
    await emu().control.addFault({
      kind: 'drop',
      phase: 'after',
      count: 1,
      match: { method: 'POST', path: '/api/alerts' },
    });
    await expect(api('POST', '/api/alerts/', { token: T, json: alertBody('ghost') })).rejects.toThrow();
    expect(await names()).toEqual(['ghost']);
  });

  it('a 5xx after the change committed', async () => {
    await emu().control.addFault({ kind: 'status', status: 502, phase: 'after', count: 1, match: { method: 'PATCH' } });
    await api('POST', '/api/alerts/', { token: T, json: alertBody('p') });
    expect((await api('PATCH', '/api/alerts/1', { token: T, json: { name: 'q' } })).status).toBe(502);
    expect(await names()).toEqual(['q']);
  });

  it('latency after the commit', async () => {
    await emu().control.addFault({
      kind: 'latency',
      latencyMs: 250,
      phase: 'after',
      count: 1,
      match: { method: 'POST' },
    });
    const start = Date.now();
    expect((await api('POST', '/api/alerts/', { token: T, json: alertBody('slow') })).status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(230);
  });

  it('a seeded generator makes rates reproducible', async () => {
    const pattern = async () => {
      const e = await startEmulator({ randomSeed: 42 });
      try {
        await e.control.addFault({ kind: 'status', rate: 0.5 });
        const out: number[] = [];
        for (let i = 0; i < 12; i++) out.push((await call(e.url, 'GET', '/api/alerts/', { token: T })).status);
        return out;
      } finally {
        await e.close();
      }
    };
    const a = await pattern();
    expect(await pattern()).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(200);
  });

  it.each([
    [{ kind: 'explode' }, /fault.kind/],
    [{ kind: 'status', status: 404 }, /5xx/],
    [{ kind: 'latency' }, /latencyMs/],
    [{ kind: 'reject', code: 'NOPE' }, /fault.code/],
    [{ kind: 'drop', rate: 2 }, /fault.rate/],
    [{ kind: 'reject', code: 'NOT_CREATED', phase: 'after' }, /phase/],
    [{ kind: 'drop', match: { path: 'api' } }, /fault.match.path/],
  ])('an invalid fault %j is refused with a message', async (fault, message) => {
    const err = await emu()
      .control.addFault(fault as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmulatorControlError);
    expect((err as EmulatorControlError).statusCode).toBe(400);
    expect(JSON.stringify((err as EmulatorControlError).body)).toMatch(message);
  });
});

describe('request log', () => {
  it('records method, path, query, account, status, faults and time of /api requests only; can be cleared', async () => {
    await api('GET', '/api/alerts/', { token: T });
    await api('GET', '/api/alerts/5', { token: 'bad' });
    await api('GET', '/nowhere');
    await api('DELETE', '/api/alerts/?alert_id=9&x=%20', { token: T });
    const log = await emu().control.requests();
    expect(log).toEqual([
      {
        method: 'GET',
        path: '/api/alerts/',
        query: '',
        account: 'demo',
        claimedAccount: 'demo',
        status: 200,
        faults: [],
        at: expect.any(String),
      },
      {
        method: 'GET',
        path: '/api/alerts/5',
        query: '',
        account: null,
        claimedAccount: null,
        status: 401,
        faults: [],
        at: expect.any(String),
      },
      {
        method: 'DELETE',
        path: '/api/alerts/',
        query: 'alert_id=9&x=%20',
        account: 'demo',
        claimedAccount: 'demo',
        status: 400,
        faults: [],
        at: expect.any(String),
      },
    ]);
    await emu().control.clearRequests();
    expect(await emu().control.requests()).toEqual([]);
  });
});

describe('control surface', () => {
  it.each([
    ['POST', '/reset'],
    ['PUT', '/seed'],
    ['GET', '/state'],
    ['POST', '/accounts/demo/alerts'],
    ['PATCH', '/accounts/demo/alerts/1'],
    ['DELETE', '/accounts/demo/alerts/1'],
    ['POST', '/accounts/demo/tokens/expire'],
    ['POST', '/faults'],
    ['GET', '/faults'],
    ['DELETE', '/faults'],
    ['GET', '/requests'],
    ['DELETE', '/requests'],
  ])('%s /_emulator%s requires the control token', async (method, path) => {
    const none = await api(method, `/_emulator${path}`, { json: {} });
    expect(none.status).toBe(401);
    const wrong = await api(method, `/_emulator${path}`, { json: {}, headers: { 'x-emulator-token': 'guess' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.status).toBe('NOT_AUTHORIZED');
  });

  it('a wrong token in the typed helper is an EmulatorControlError', async () => {
    const bad = new EmulatorControl(emu().url, 'nope');
    await expect(bad.state()).rejects.toMatchObject({ statusCode: 401 });
  });

  it('an answer that is not JSON is an EmulatorControlError with the status and the text', async () => {
    const answers: Array<[number, string]> = [
      [502, '<html>Bad Gateway</html>'],
      [200, 'not json'],
    ];
    const server = createServer((_req, res) => {
      const [status, text] = answers.shift()!;
      res.writeHead(status, { 'content-type': 'text/html' }).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const control = new EmulatorControl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'x');
      const gateway = await control.state().catch((e: unknown) => e);
      expect(gateway).toBeInstanceOf(EmulatorControlError);
      expect(gateway).toMatchObject({
        statusCode: 502,
        body: '<html>Bad Gateway</html>',
        text: '<html>Bad Gateway</html>',
        message: 'emulator control answered 502 with a body that is not JSON: "<html>Bad Gateway</html>"',
      });
      await expect(control.faults()).rejects.toMatchObject({
        name: 'EmulatorControlError',
        statusCode: 200,
        text: 'not json',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a JSON error answer keeps its parsed body, its text and the message it always had', async () => {
    const err = (await new EmulatorControl(emu().url, 'nope').state().catch((e: unknown) => e)) as EmulatorControlError;
    expect(err.body).toMatchObject({ status: 'NOT_AUTHORIZED' });
    expect(JSON.parse(err.text)).toEqual(err.body);
    expect(err.message).toBe(`emulator control answered 401: ${JSON.stringify(err.body)}`);
  });

  it('creates, edits and deletes alerts out of band; the API sees it', async () => {
    const c = emu().control;
    const created = await c.createAlert('demo', {
      name: 'oob',
      type: 'SPF Record',
      filter: 'validity',
      target: 'example.org',
    });
    expect(created).toMatchObject({ id: 1, name: 'oob', current_status: 'healthy', target_domain: { id: 4 } });
    const patched = await c.patchAlert('demo', created.id, {
      current_status: 'triggered',
      filter_value: '',
      name: 'renamed',
    });
    expect(patched).toMatchObject({ name: 'renamed', current_status: 'triggered' });
    expect(await names()).toEqual(['renamed']);
    await c.deleteAlert('demo', created.id);
    expect(await names()).toEqual([]);
    // The next public create still gets a new id.
    await api('POST', '/api/alerts/', { token: T, json: alertBody('next') });
    expect((await api('GET', '/api/alerts/2', { token: T })).body.alerts[0].name).toBe('next');
  });

  it('can plant an alert the public API would refuse (legacy spelling), with a fixed id', async () => {
    const planted = await emu().control.createAlert('demo', {
      id: 40,
      name: 'legacy',
      type: 'dns record',
      subtype: 'a',
      filter: 'Equals',
      filter_value: 'x',
      target_type: 'subdomain',
      target_id: 2,
    });
    expect(planted).toMatchObject({ id: 40, type: 'dns record', target_subdomain: { id: 2 } });
    await api('POST', '/api/alerts/', { token: T, json: alertBody('after') });
    expect((await api('GET', '/api/alerts/41', { token: T })).status).toBe(200);
  });

  it('refuses unknown accounts, alerts, fields and targets', async () => {
    const c = emu().control;
    await expect(
      c.createAlert('nobody', { name: 'x', type: 'SPF Record', filter: 'validity', target: 'example.org' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.patchAlert('demo', 9, { name: 'x' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(c.deleteAlert('demo', 9)).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      c.createAlert('demo', { name: 'x', type: 'SPF Record', filter: 'validity', target: 'nowhere.net' }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const created = await c.createAlert('demo', {
      name: 'x',
      type: 'SPF Record',
      filter: 'validity',
      target: 'example.org',
    });
    await expect(c.patchAlert('demo', created.id, { colour: 'red' } as never)).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(c.patchAlert('demo', created.id, { is_active: 'yes' } as never)).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('PUT seed replaces the accounts; a bad seed names the field; reset returns to the start seed', async () => {
    const c = emu().control;
    const err = await c.seed({ accounts: [{ name: 'x', user_id: 0 }] } as never).catch((e: unknown) => e);
    expect((err as EmulatorControlError).body).toMatchObject({
      status: 'INVALID_BODY',
      error: expect.stringMatching(/accounts\[0\]\.user_id/),
    });
    await c.seed({
      accounts: [
        { name: 'solo', user_id: 5, tokens: [{ access_token: 'solo-token' }], domains: [{ domain: 'solo.dev' }] },
      ],
    });
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(401);
    expect((await api('GET', '/api/domains/', { token: 'solo-token' })).body.domains[0]).toMatchObject({
      id: 1,
      domain: 'solo.dev',
    });
    await c.reset();
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
  });

  it('state shows accounts, tokens, domains and alerts', async () => {
    const state = await emu().control.state();
    expect(state.accounts.map((a) => a.name)).toEqual(['demo']);
    expect(state.accounts[0]!.tokens).toEqual([{ access_token: 'demo-token', expires_at: null }]);
  });

  it('control calls are not in the request log and faults do not touch them', async () => {
    await emu().control.addFault({ kind: 'status' });
    expect(await emu().control.faults()).toHaveLength(1);
    expect(await emu().control.requests()).toEqual([]);
  });

  it('reset clears faults and the request log', async () => {
    await emu().control.addFault({ kind: 'status' });
    await emu().control.reset();
    const res = await request(`${emu().url}/api/alerts/`, { headers: { authorization: `Bearer ${T}` } });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
  });
});
