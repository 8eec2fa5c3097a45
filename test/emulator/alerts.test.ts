import { DEMO_ACCOUNT } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';

const emu = useEmulator();
const T = DEMO_ACCOUNT.token;
const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(emu().url, method, path, opts);

const dns = (over: Record<string, unknown> = {}) => ({
  name: 'apex A',
  type: 'DNS Record',
  subtype: 'A',
  filter: 'equals',
  filter_value: '93.184.216.34',
  target_type: 'domain',
  target_id: DEMO_ACCOUNT.domains['example.com'],
  ...over,
});

async function listAlerts(token: string = T): Promise<any[]> {
  const res = await api('GET', '/api/alerts/', { token });
  expect(res.status).toBe(200);
  return res.body.alerts;
}

describe('alert authorization (7.2)', () => {
  it.each([
    ['GET', '/api/alerts/'],
    ['GET', '/api/alerts/1'],
    ['POST', '/api/alerts/'],
    ['PATCH', '/api/alerts/1'],
    ['DELETE', '/api/alerts/1'],
  ])('%s %s without Authorization: 400 MISSING_HEADER; bad token: 401 NOT_AUTHORIZED', async (method, path) => {
    const missing = await api(method, path, { json: dns() });
    expect(missing.status).toBe(400);
    expect(missing.body.status).toBe('MISSING_HEADER');
    const bad = await api(method, path, { token: 'not-a-token', json: dns() });
    expect(bad.status).toBe(401);
    expect(bad.body.status).toBe('NOT_AUTHORIZED');
  });

  it('a header without the Bearer scheme counts as a bad token', async () => {
    const res = await api('GET', '/api/alerts/', { headers: { authorization: `Basic ${T}` } });
    expect(res).toMatchObject({ status: 401, body: { status: 'NOT_AUTHORIZED' } });
  });

  it('error bodies of list and delete are exactly {status}', async () => {
    expect((await api('GET', '/api/alerts/')).body).toEqual({ status: 'MISSING_HEADER' });
    expect((await api('GET', '/api/alerts/99', { token: T })).body).toEqual({ status: 'NOT_FOUND' });
    expect((await api('DELETE', '/api/alerts/99', { token: T })).body).toEqual({ status: 'NOT_FOUND' });
  });
});

describe('create (4.4, 4.6)', () => {
  it('answers {status: "OK"} only, with no id; the list shows the AlertResponse', async () => {
    const res = await api('POST', '/api/alerts/', { token: T, json: dns() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK' });
    const [alert] = await listAlerts();
    expect(alert).toEqual({
      id: 1,
      user_id: DEMO_ACCOUNT.userId,
      name: 'apex A',
      is_active: true,
      current_status: 'healthy',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '93.184.216.34',
      action: 'email',
      last_triggered_at: null,
      target_domain: { id: 1, domain: 'example.com', created_at: expect.any(String), updated_at: expect.any(String) },
    });
  });

  it('a subdomain target shows as target_subdomain with the full name', async () => {
    await api('POST', '/api/alerts/', {
      token: T,
      json: {
        name: 'www cert',
        type: 'Certificate (TLS)',
        filter: 'expires in (days)',
        filter_value: '30',
        target_type: 'subdomain',
        target_id: 2,
      },
    });
    const [alert] = await listAlerts();
    expect(alert.subtype).toBeNull();
    expect(alert.target_domain).toBeUndefined();
    expect(alert.target_subdomain).toEqual({
      id: 2,
      domain_id: 1,
      prefix: 'www',
      subdomain: 'www.example.com',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('SPF validity takes no value and is stored with an empty filter_value', async () => {
    const res = await api('POST', '/api/alerts/', {
      token: T,
      json: { name: 'spf', type: 'SPF Record', filter: 'validity', target_type: 'domain', target_id: 4 },
    });
    expect(res.body).toEqual({ status: 'OK' });
    expect((await listAlerts())[0]).toMatchObject({ subtype: null, filter: 'validity', filter_value: '' });
  });

  it('ids are numbers, increasing, never reused', async () => {
    for (const n of ['a', 'b']) await api('POST', '/api/alerts/', { token: T, json: dns({ name: n }) });
    await api('DELETE', '/api/alerts/2', { token: T });
    await api('POST', '/api/alerts/', { token: T, json: dns({ name: 'c' }) });
    expect((await listAlerts()).map((a) => [a.id, a.name])).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
  });

  it('names are not unique: a duplicate is a second alert', async () => {
    await api('POST', '/api/alerts/', { token: T, json: dns() });
    await api('POST', '/api/alerts/', { token: T, json: dns() });
    expect((await listAlerts()).map((a) => a.name)).toEqual(['apex A', 'apex A']);
  });

  it('without Content-Type: application/json: MISSING_HEADER with error text', async () => {
    const res = await api('POST', '/api/alerts/', { token: T, body: JSON.stringify(dns()) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'MISSING_HEADER', error: expect.stringMatching(/Content-Type/) });
    const text = await api('POST', '/api/alerts/', {
      token: T,
      body: JSON.stringify(dns()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.body.status).toBe('MISSING_HEADER');
    expect(await listAlerts()).toEqual([]);
  });

  it('a missing field: MISSING_VALUES with the model message', async () => {
    const { name: _drop, ...body } = dns();
    const res = await api('POST', '/api/alerts/', { token: T, json: body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'MISSING_VALUES', error: 'name is missing; give the alert a non-empty name' });
  });

  it('an empty body: MISSING_VALUES', async () => {
    const res = await api('POST', '/api/alerts/', {
      token: T,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.body.status).toBe('MISSING_VALUES');
  });

  it.each([
    ['type spelled differently (no canonicalization)', { type: 'dns record' }, /type "dns record" is not valid/],
    ['subtype not in the matrix', { subtype: 'AAAA' }, /subtype "AAAA" is not valid for type "DNS Record"/],
    ['filter not allowed for the type', { filter: 'validity' }, /filter "validity" is not valid for type "DNS Record"/],
    ['subtype given to SPF', { type: 'SPF Record', subtype: 'A', filter: 'contains' }, /takes no subtype/],
    [
      'days that are not a number',
      { type: 'Certificate (TLS)', subtype: null, filter: 'expires in (days)', filter_value: 'soon' },
      /positive whole number of days/,
    ],
    ['target_id as a string', { target_id: '1' }, /target_id "1" is not valid/],
    ['target_type unknown', { target_type: 'host' }, /target_type "host" is not valid/],
    [
      'filter_value of the wrong JSON type',
      { type: 'Certificate (TLS)', subtype: null, filter: 'expires in (days)', filter_value: 30 },
      /filter_value/,
    ],
    ['unknown target', { target_id: 999 }, /target_id 999 is not a domain of this account/],
    ['a subdomain id given as domain', { target_type: 'domain', target_id: 2 }, /not a domain of this account/],
  ])('%s: INVALID_BODY', async (_title, over, message) => {
    const res = await api('POST', '/api/alerts/', { token: T, json: dns(over) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'INVALID_BODY', error: expect.stringMatching(message) });
    expect(await listAlerts()).toEqual([]);
  });

  it('a body that is not JSON, or not an object: INVALID_BODY', async () => {
    const bad = await api('POST', '/api/alerts/', {
      token: T,
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.body.status).toBe('INVALID_BODY');
    const arr = await api('POST', '/api/alerts/', { token: T, json: [dns()] });
    expect(arr.body.status).toBe('INVALID_BODY');
  });

  it('POST /api/alerts/{id} is not a route: 404 NOT_FOUND', async () => {
    const res = await api('POST', '/api/alerts/1', { token: T, json: dns() });
    expect(res).toMatchObject({ status: 404, body: { status: 'NOT_FOUND' } });
  });
});

describe('list and get (4.3)', () => {
  it('get by id answers the envelope with one alert; unknown or non-numeric ids: NOT_FOUND', async () => {
    await api('POST', '/api/alerts/', { token: T, json: dns() });
    const one = await api('GET', '/api/alerts/1', { token: T });
    expect(one.status).toBe(200);
    expect(one.body.alerts).toHaveLength(1);
    expect(one.body.alerts[0].id).toBe(1);
    for (const id of ['2', 'abc', '-1']) {
      const res = await api('GET', `/api/alerts/${id}`, { token: T });
      expect(res).toMatchObject({ status: 400, body: { status: 'NOT_FOUND' } });
    }
  });

  it('server-side fields changed out of band show in the list', async () => {
    const created = await emu().control.createAlert('demo', {
      name: 'x',
      type: 'DNS Record',
      subtype: 'MX',
      filter: 'contains',
      filter_value: 'mx',
      target: 'mail.example.com',
    });
    await emu().control.patchAlert('demo', created.id, {
      current_status: 'triggered',
      last_triggered_at: '2025-01-02T03:04:05.000Z',
      is_active: false,
    });
    expect((await listAlerts())[0]).toMatchObject({
      current_status: 'triggered',
      last_triggered_at: '2025-01-02T03:04:05.000Z',
      is_active: false,
      target_subdomain: { id: 3, subdomain: 'mail.example.com' },
    });
  });

  it('the list is byte for byte the alerts that get by id writes with the response schema, also after edits', async () => {
    // Names the serializers could write differently: quotes, backslashes, control and
    // non-ASCII characters, U+2028, an emoji.
    const names = [
      'plain',
      'say "hi"',
      'back\\slash',
      'tab\there',
      'línea\u2028two',
      'rocket 🚀',
      ''.padEnd(60, 'long '),
    ];
    for (const [i, name] of names.entries()) {
      await emu().control.createAlert('demo', {
        name,
        type: 'DNS Record',
        subtype: i % 2 ? null : 'TXT',
        filter: 'contains',
        filter_value: `v=${name}`,
        target: i % 3 ? 'www.example.com' : 'example.org',
      });
    }
    await emu().control.patchAlert('demo', 2, {
      last_triggered_at: '2025-01-02T03:04:05.000Z',
      current_status: 'triggered',
    });
    const sameAsGets = async () => {
      const list = await api('GET', '/api/alerts/', { token: T });
      expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(list.headers['content-length'])).toBe(Buffer.byteLength(list.text));
      const gets: string[] = [];
      for (const { id } of list.body.alerts) {
        const one = (await api('GET', `/api/alerts/${id}`, { token: T })).text;
        expect(one.startsWith('{"status":"OK","alerts":[') && one.endsWith(']}')).toBe(true);
        gets.push(one.slice('{"status":"OK","alerts":['.length, -']}'.length));
      }
      expect(list.text).toBe(`{"status":"OK","alerts":[${gets.join(',')}]}`);
      return list.body.alerts;
    };
    expect((await sameAsGets()).map((a: { name: string }) => a.name)).toEqual(names);
    // Edited alerts are new objects: the list shows the edit, not text kept from before.
    await api('PATCH', '/api/alerts/3', { token: T, json: { name: 'renamed', filter_value: 'v=2' } });
    await emu().control.patchAlert('demo', 4, { target: 'mail.example.com' });
    const after = await sameAsGets();
    expect(after[2]).toMatchObject({ id: 3, name: 'renamed', filter_value: 'v=2' });
    expect(after[3].target_subdomain).toMatchObject({ id: 3, subdomain: 'mail.example.com' });
  });
});

describe('edit (4.5)', () => {
  beforeEach(async () => {
    await api('POST', '/api/alerts/', { token: T, json: dns() });
  });

  it('merges the given fields and answers {status: "OK"}', async () => {
    const res = await api('PATCH', '/api/alerts/1', { token: T, json: { filter_value: '1.1.1.1' } });
    expect(res).toMatchObject({ status: 200, body: { status: 'OK' } });
    expect((await listAlerts())[0]).toMatchObject({ name: 'apex A', filter_value: '1.1.1.1', subtype: 'A' });
  });

  it('validates the merged alert: changing the type needs the subtype cleared explicitly', async () => {
    const res = await api('PATCH', '/api/alerts/1', {
      token: T,
      json: { type: 'SPF Record', filter: 'contains', filter_value: 'include:x' },
    });
    expect(res.body).toEqual({ status: 'INVALID_BODY', error: expect.stringMatching(/takes no subtype/) });
    const ok = await api('PATCH', '/api/alerts/1', {
      token: T,
      json: { type: 'SPF Record', subtype: null, filter: 'contains', filter_value: 'include:x' },
    });
    expect(ok.body).toEqual({ status: 'OK' });
    expect((await listAlerts())[0]).toMatchObject({ type: 'SPF Record', subtype: null });
  });

  it('can move the target; an unknown target is INVALID_BODY and changes nothing', async () => {
    expect(
      (await api('PATCH', '/api/alerts/1', { token: T, json: { target_type: 'subdomain', target_id: 2 } })).body,
    ).toEqual({ status: 'OK' });
    expect((await listAlerts())[0].target_subdomain.id).toBe(2);
    const bad = await api('PATCH', '/api/alerts/1', { token: T, json: { target_id: 4 } });
    expect(bad.body.status).toBe('INVALID_BODY');
    expect((await listAlerts())[0].target_subdomain.id).toBe(2);
  });

  it('a blanked required field: MISSING_VALUES', async () => {
    const res = await api('PATCH', '/api/alerts/1', { token: T, json: { name: '' } });
    expect(res.body).toEqual({ status: 'MISSING_VALUES', error: expect.stringMatching(/name is missing/) });
  });

  it('unknown id: NOT_FOUND; no id: MISSING_VALUES; no content type: MISSING_HEADER', async () => {
    expect((await api('PATCH', '/api/alerts/77', { token: T, json: { name: 'n' } })).body).toEqual({
      status: 'NOT_FOUND',
      error: expect.any(String),
    });
    expect((await api('PATCH', '/api/alerts/', { token: T, json: { name: 'n' } })).body.status).toBe('MISSING_VALUES');
    expect((await api('PATCH', '/api/alerts/1', { token: T, body: '{"name":"n"}' })).body.status).toBe(
      'MISSING_HEADER',
    );
  });

  it('read-only fields in the body are ignored', async () => {
    await api('PATCH', '/api/alerts/1', { token: T, json: { current_status: 'triggered', id: 50, user_id: 9 } });
    expect((await listAlerts())[0]).toMatchObject({ id: 1, user_id: 1, current_status: 'healthy' });
  });
});

describe('delete (4.7): every form of carrying the id', () => {
  beforeEach(async () => {
    for (const n of ['a', 'b', 'c']) await api('POST', '/api/alerts/', { token: T, json: dns({ name: n }) });
  });

  it('as a path segment', async () => {
    expect((await api('DELETE', '/api/alerts/1', { token: T })).body).toEqual({ status: 'OK' });
    expect((await listAlerts()).map((a) => a.id)).toEqual([2, 3]);
  });

  it('as ?alert_id=', async () => {
    expect((await api('DELETE', '/api/alerts/?alert_id=2', { token: T })).body).toEqual({ status: 'OK' });
    expect((await listAlerts()).map((a) => a.id)).toEqual([1, 3]);
  });

  it('as a JSON body, with or without a content type', async () => {
    expect((await api('DELETE', '/api/alerts/', { token: T, json: { alert_id: 3 } })).body).toEqual({ status: 'OK' });
    expect((await listAlerts()).map((a) => a.id)).toEqual([1, 2]);
    expect((await api('DELETE', '/api/alerts/', { token: T, body: '{"alert_id": 2}' })).body).toEqual({ status: 'OK' });
    expect((await listAlerts()).map((a) => a.id)).toEqual([1]);
    // With a content type and an empty body, the id from the path still counts.
    expect(
      (await api('DELETE', '/api/alerts/1', { token: T, body: '', headers: { 'content-type': 'application/json' } }))
        .body,
    ).toEqual({ status: 'OK' });
  });

  it('no id at all: MISSING_VALUES; unknown: NOT_FOUND', async () => {
    expect(await api('DELETE', '/api/alerts/', { token: T })).toMatchObject({
      status: 400,
      body: { status: 'MISSING_VALUES' },
    });
    expect((await api('DELETE', '/api/alerts/', { token: T, json: {} })).body.status).toBe('MISSING_VALUES');
    expect(await api('DELETE', '/api/alerts/42', { token: T })).toMatchObject({
      status: 400,
      body: { status: 'NOT_FOUND' },
    });
    expect((await api('DELETE', '/api/alerts/?alert_id=42', { token: T })).body.status).toBe('NOT_FOUND');
    expect((await api('DELETE', '/api/alerts/1', { token: T })).body.status).toBe('OK');
    expect((await api('DELETE', '/api/alerts/1', { token: T })).body.status).toBe('NOT_FOUND');
  });
});

describe('NOT_CREATED, NOT_UPDATED, NOT_DELETED through a reject fault', () => {
  it.each([
    ['NOT_CREATED', 'POST', '/api/alerts/', dns({ name: 'new' })],
    ['NOT_UPDATED', 'PATCH', '/api/alerts/1', { name: 'renamed' }],
    ['NOT_DELETED', 'DELETE', '/api/alerts/1', undefined],
  ] as const)('%s on %s, and nothing changes', async (code, method, path, json) => {
    await api('POST', '/api/alerts/', { token: T, json: dns({ name: 'existing' }) });
    await emu().control.addFault({ kind: 'reject', code, match: { method, path: '/api/alerts' }, count: 1 });
    const res = await api(method, path, { token: T, json });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(code);
    expect((await listAlerts()).map((a) => a.name)).toEqual(['existing']);
    // count: 1: the next one goes through.
    expect((await api(method, path, { token: T, json })).body.status).toBe('OK');
  });

  it('authorization is still checked first', async () => {
    await emu().control.addFault({ kind: 'reject', code: 'NOT_CREATED', match: { method: 'POST' } });
    expect((await api('POST', '/api/alerts/', { json: dns() })).body.status).toBe('MISSING_HEADER');
  });
});

describe('account isolation', () => {
  const other = {
    name: 'other',
    user_id: 2,
    credentials: [{ client_id: 'other-client', client_secret: 'other-secret' }],
    tokens: [{ access_token: 'other-token' }],
    domains: [{ id: 100, domain: 'other.net', subdomains: [{ id: 101, prefix: 'api' }] }],
  };
  const demo = {
    name: 'demo',
    user_id: 1,
    tokens: [{ access_token: T }],
    domains: [{ id: 1, domain: 'example.com' }],
  };

  beforeEach(async () => {
    await emu().control.seed({ accounts: [demo, other] });
    await api('POST', '/api/alerts/', { token: T, json: dns({ name: 'mine' }) });
  });

  it('another account does not see, edit or delete the alert', async () => {
    expect(await listAlerts('other-token')).toEqual([]);
    expect((await api('GET', '/api/alerts/1', { token: 'other-token' })).body.status).toBe('NOT_FOUND');
    expect((await api('PATCH', '/api/alerts/1', { token: 'other-token', json: { name: 'x' } })).body.status).toBe(
      'NOT_FOUND',
    );
    expect((await api('DELETE', '/api/alerts/1', { token: 'other-token' })).body.status).toBe('NOT_FOUND');
    expect((await listAlerts()).map((a) => a.name)).toEqual(['mine']);
  });

  it("another account's domain is not a valid target", async () => {
    const res = await api('POST', '/api/alerts/', { token: T, json: dns({ target_id: 100 }) });
    expect(res.body.status).toBe('INVALID_BODY');
    const sub = await api('POST', '/api/alerts/', {
      token: T,
      json: dns({ target_type: 'subdomain', target_id: 101 }),
    });
    expect(sub.body.status).toBe('INVALID_BODY');
  });

  it('user_id is the owning account', async () => {
    await api('POST', '/api/alerts/', { token: 'other-token', json: dns({ target_id: 100 }) });
    expect((await listAlerts('other-token'))[0].user_id).toBe(2);
  });

  it('domains and reports are per account too', async () => {
    const doms = await api('GET', '/api/domains/', { token: 'other-token' });
    expect(doms.body.domains.map((d: any) => d.domain)).toEqual(['other.net']);
    expect((await api('GET', '/api/domains/1', { token: 'other-token' })).body.status).toBe('NOT_FOUND');
    expect((await api('POST', '/api/reports/domain-reports/1', { token: 'other-token' })).body.status).toBe(
      'NOT_GENERATED',
    );
  });
});

describe('unknown paths', () => {
  it.each(['/api/nothing', '/api', '/'])('%s: 404 {status: NOT_FOUND}', async (path) => {
    const res = await api('GET', path, { token: T });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'NOT_FOUND' });
  });
});
