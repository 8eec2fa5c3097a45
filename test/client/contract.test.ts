/**
 * The real client against the real emulator: every endpoint and every error code of
 * interface section 7, plus the auth and domain codes.
 */
import { startEmulator } from '../../src/emulator';
import { NetworkCalcClient } from '../../src/client';
import { alertSpec, SPF_VALIDITY } from '../helpers/fixtures';
import { useEmulator } from '../helpers/emulator';
import { demoClients, dnsAlert, everythingShown, withoutHeader, rewritingAgent, FAST_RETRY } from './support';

const emulator = useEmulator();
const { client, fails, logs, shown } = demoClients(emulator);

afterAll(() => {
  // Nothing the tests saw or logged may show a credential.
  expect(shown()).not.toMatch(/demo-token|demo-secret|bogus-token-123/);
});

describe('alerts', () => {
  it('create, list, get, update, delete', async () => {
    const c = client();
    expect(await c.listAlerts()).toEqual([]);

    // The emulator, like the service, answers a create without an id (an id sent anyway is
    // read: see tolerant.test.ts).
    expect(await c.createAlert(dnsAlert('web A record'))).toEqual({});

    const list = await c.listAlerts();
    expect(list).toHaveLength(1);
    const live = list[0];
    expect(live).toMatchObject({ ...dnsAlert('web A record'), user_id: 1, last_triggered_at: null });
    expect(typeof live.id).toBe('number');

    expect(await c.getAlert(live.id)).toEqual(live);

    await c.updateAlert(live.id, dnsAlert('web A record', { filter: 'does not equal', filter_value: '10.0.0.1' }));
    expect(await c.getAlert(live.id)).toMatchObject({
      filter: 'does not equal',
      filter_value: '10.0.0.1',
      name: 'web A record',
    });

    await c.deleteAlert(live.id);
    expect(c.deleteForm).toBe('path');
    expect(await c.listAlerts()).toEqual([]);
  });

  it('edits an alert into another type: the old subtype is cleared, not merged', async () => {
    const c = client();
    await c.createAlert(dnsAlert('mail check'));
    const [live] = await c.listAlerts();
    await c.updateAlert(live.id, alertSpec({ name: 'mail check', ...SPF_VALIDITY }));
    expect(await c.getAlert(live.id)).toMatchObject({
      type: 'SPF Record',
      subtype: null,
      filter: 'validity',
      target_type: 'domain',
      target_id: 1,
    });
  });

  it('creates every type: DNS on a subdomain, SPF validity, certificate expiry', async () => {
    const c = client();
    await c.createAlert(
      dnsAlert('mx', {
        subtype: 'MX',
        filter: 'contains',
        filter_value: 'mail',
        target_type: 'subdomain',
        target_id: 3,
      }),
    );
    await c.createAlert(alertSpec({ name: 'spf', ...SPF_VALIDITY, target_id: 4 }));
    await c.createAlert({
      name: 'tls',
      type: 'Certificate (TLS)',
      subtype: null,
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 2,
    });
    const byName = Object.fromEntries((await c.listAlerts()).map((a) => [a.name, a]));
    expect(byName.mx).toMatchObject({ target_type: 'subdomain', target_id: 3, subtype: 'MX' });
    expect(byName.spf).toMatchObject({
      type: 'SPF Record',
      subtype: null,
      filter: 'validity',
      filter_value: '',
      target_id: 4,
    });
    expect(byName.tls).toMatchObject({
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 2,
    });
  });

  it('reads alerts changed out of band: status, last_triggered_at', async () => {
    await emulator().control.createAlert('demo', {
      name: 'oob',
      type: 'DNS Record',
      subtype: 'TXT',
      filter: 'contains',
      filter_value: 'v=spf1',
      target: 'example.com',
    });
    const c = client();
    const [a] = await c.listAlerts();
    expect(a).toMatchObject({ name: 'oob', target_type: 'domain', target_id: 1, last_triggered_at: null });
    await emulator().control.patchAlert('demo', a.id, {
      current_status: 'triggered',
      last_triggered_at: '2026-01-02T03:04:05Z',
    });
    expect(await c.getAlert(a.id)).toMatchObject({
      current_status: 'triggered',
      last_triggered_at: '2026-01-02T03:04:05Z',
    });
  });

  it('NOT_FOUND arrives as HTTP 400 and is decided on the body', async () => {
    const c = client();
    for (const p of [c.getAlert(9999), c.updateAlert(9999, dnsAlert('x')), c.deleteAlert(9999)]) {
      const e = await fails(p);
      expect(e).toMatchObject({ code: 'NOT_FOUND', httpStatus: 400, retryable: false });
    }
    const e = await fails(c.getAlert(9999));
    expect(e.operation).toBe('getAlert');
    expect(e.message).toMatch(/alert 9999/);
  });

  it('INVALID_BODY for a combination outside the matrix', async () => {
    const e = await fails(client().createAlert(dnsAlert('bad', { filter: 'validity' })));
    expect(e).toMatchObject({ code: 'INVALID_BODY', httpStatus: 400, operation: 'createAlert' });
    // The server's explanation says which field; it comes first, the generic advice is left out.
    expect(e.message).toBe(`createAlert (alert "bad") failed: INVALID_BODY (HTTP 400): server said: ${e.detail}`);
    expect(e.detail).toMatch(/^filter "validity" is not valid for type "DNS Record"/);
  });

  it('MISSING_VALUES for a missing field', async () => {
    const e = await fails(client().createAlert(dnsAlert('   ')));
    expect(e).toMatchObject({ code: 'MISSING_VALUES', httpStatus: 400 });
    const e2 = await fails(
      client().createAlert({ ...dnsAlert('no target'), target_id: undefined as unknown as number }),
    );
    expect(e2.code).toBe('MISSING_VALUES');
  });

  it('MISSING_HEADER when Authorization or Content-Type is missing', async () => {
    const noAuth = client({ dispatcher: withoutHeader('authorization') });
    expect(await fails(noAuth.listAlerts())).toMatchObject({ code: 'MISSING_HEADER', httpStatus: 400 });
    const noType = client({ dispatcher: withoutHeader('content-type') });
    expect(await fails(noType.createAlert(dnsAlert('x')))).toMatchObject({ code: 'MISSING_HEADER', httpStatus: 400 });
    expect(await client().listAlerts()).toEqual([]);
  });

  it('NOT_AUTHORIZED for a refused ready token, with advice and without the token', async () => {
    const e = await fails(client({ token: 'bogus-token-123' }).listAlerts());
    expect(e).toMatchObject({ code: 'NOT_AUTHORIZED', httpStatus: 401, retryable: false });
    expect(e.message).toMatch(/NETWORKCALC_TOKEN/);
    expect(e.message).toMatch(/NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET/);
  });

  it.each([
    ['NOT_CREATED', 'POST', (c: NetworkCalcClient, _id: number) => c.createAlert(dnsAlert('x'))],
    ['NOT_UPDATED', 'PATCH', (c: NetworkCalcClient, id: number) => c.updateAlert(id, dnsAlert('x'))],
    ['NOT_DELETED', 'DELETE', (c: NetworkCalcClient, id: number) => c.deleteAlert(id)],
  ] as const)('%s when the server cannot save', async (code, method, act) => {
    const { id } = await emulator().control.createAlert('demo', {
      name: 'x',
      type: 'DNS Record',
      subtype: 'A',
      filter: 'equals',
      filter_value: '1.2.3.4',
      target: 'example.com',
    });
    await emulator().control.addFault({ kind: 'reject', code, match: { method, path: '/api/alerts' }, count: 1 });
    const e = await fails(act(client(), id));
    expect(e).toMatchObject({ code, httpStatus: 400, retryable: false });
    // Not retried: one request of that method.
    expect((await emulator().control.requests()).filter((r) => r.method === method)).toHaveLength(1);
  });

  it('reads the target of an alert from target_subdomain', async () => {
    await emulator().control.createAlert('demo', {
      name: 'q',
      type: 'SPF Record',
      filter: 'equals',
      filter_value: 'v=spf1 -all',
      target: 'www.example.com',
    });
    const [a] = await client().listAlerts();
    expect(a).toMatchObject({ name: 'q', target_type: 'subdomain', target_id: 2, subtype: null });
  });
});

describe('reports', () => {
  it('triggers a domain report; domain_id comes as a number even when quoted', async () => {
    const r = await client().triggerDomainReport(1);
    expect(r).toMatchObject({ status: 'OK', domain_id: 1 });
    expect(r.report_url).toMatch(/^https?:\/\//);
  });

  it('triggers a subdomain report', async () => {
    const r = await client().triggerSubdomainReport(2);
    expect(r).toMatchObject({ subdomain_id: 2 });
    expect(r.report_url).toMatch(/^https?:\/\//);
  });

  it('NOT_GENERATED for an unknown domain', async () => {
    expect(await fails(client().triggerDomainReport(9999))).toMatchObject({ code: 'NOT_GENERATED', httpStatus: 400 });
    expect(await fails(client().triggerSubdomainReport(1))).toMatchObject({ code: 'NOT_GENERATED', httpStatus: 400 });
  });

  it('INVALID_GRANT for a refused ready token', async () => {
    const e = await fails(client({ token: 'bogus-token-123' }).triggerDomainReport(1));
    expect(e).toMatchObject({ code: 'INVALID_GRANT', httpStatus: 401 });
    expect(e.message).toMatch(/NETWORKCALC_TOKEN/);
  });

  it('INVALID_REQUEST when the Authorization header is missing', async () => {
    const e = await fails(client({ dispatcher: withoutHeader('authorization') }).triggerSubdomainReport(2));
    expect(e).toMatchObject({ code: 'INVALID_REQUEST', httpStatus: 401 });
  });
});

describe('domains', () => {
  it('lists domains with their subdomains', async () => {
    const domains = await client().listDomains();
    const com = domains.find((d) => d.domain === 'example.com')!;
    expect(com.id).toBe(1);
    expect(com.subdomains.map((s) => [s.id, s.prefix, s.subdomain, s.domain_id]).sort()).toEqual([
      [2, 'www', 'www.example.com', 1],
      [3, 'mail', 'mail.example.com', 1],
    ]);
    expect(domains.find((d) => d.domain === 'example.org')).toMatchObject({ id: 4, subdomains: [] });
  });

  it('add, get, add subdomain, get subdomain, delete both', async () => {
    const c = client();
    const d = await c.addDomain('example.net');
    expect(d).toMatchObject({ domain: 'example.net', id: expect.any(Number) });
    expect(await c.getDomain(d.id)).toMatchObject({ id: d.id, domain: 'example.net' });

    const s = await c.addSubdomain(d.id, 'my.demo');
    expect(s).toMatchObject({ domain_id: d.id, prefix: 'my.demo', subdomain: 'my.demo.example.net' });
    expect(await c.getSubdomain(d.id, s.id)).toEqual(s);
    expect((await c.getDomain(d.id)).subdomains.map((x) => x.id)).toEqual([s.id]);

    await c.deleteSubdomain(d.id, s.id);
    expect((await fails(c.getSubdomain(d.id, s.id))).code).toBe('NOT_FOUND');
    await c.deleteDomain(d.id);
    expect((await fails(c.getDomain(d.id))).code).toBe('NOT_FOUND');
  });

  it('NOT_SAVED for a duplicate or invalid domain', async () => {
    const c = client();
    expect(await fails(c.addDomain('example.com'))).toMatchObject({ code: 'NOT_SAVED', httpStatus: 400 });
    expect(await fails(c.addDomain('not a domain'))).toMatchObject({ code: 'NOT_SAVED', httpStatus: 400 });
  });

  it('NOT_UPDATED and NOT_DELETED from the domain endpoints', async () => {
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_DELETED',
      match: { method: 'DELETE', path: '/api/domains' },
      count: 1,
    });
    expect(await fails(client().deleteDomain(4))).toMatchObject({ code: 'NOT_DELETED', operation: 'deleteDomain' });
    await emulator().control.addFault({
      kind: 'reject',
      code: 'NOT_UPDATED',
      match: { method: 'POST', path: '/api/domains' },
      count: 1,
    });
    expect(await fails(client().addSubdomain(4, 'x'))).toMatchObject({
      code: 'NOT_UPDATED',
      operation: 'addSubdomain',
    });
  });

  it('NOT_AUTHORIZED for a refused token', async () => {
    expect(await fails(client({ token: 'bogus-token-123' }).listDomains())).toMatchObject({
      code: 'NOT_AUTHORIZED',
      httpStatus: 401,
    });
  });
});

describe('token exchange codes', () => {
  const creds = (clientId: string, clientSecret: string, extra = {}) =>
    client({ token: undefined, clientId, clientSecret, ...extra });

  it('CREDENTIALS_NOT_FOUND for an unknown client id', async () => {
    const e = await fails(creds('nobody', 'demo-secret').listAlerts());
    expect(e).toMatchObject({ code: 'CREDENTIALS_NOT_FOUND', httpStatus: 401, operation: 'exchangeToken' });
    expect(e.message).toMatch(/NETWORKCALC_CLIENT_ID/);
  });

  it('INVALID_CREDENTIALS for a wrong secret', async () => {
    const e = await fails(creds('demo-client', 'wrong-secret').listAlerts());
    expect(e).toMatchObject({ code: 'INVALID_CREDENTIALS', httpStatus: 401 });
    expect(e.message).toMatch(/NETWORKCALC_CLIENT_SECRET/);
    expect(everythingShown(e)).not.toMatch(/wrong-secret/);
  });

  it('MISSING_CREDENTIALS and INVALID_GRANT_TYPE for malformed exchanges', async () => {
    const rewriteBody = (body: object) =>
      rewritingAgent((o) => (o.path.startsWith('/api/auth/token') ? { ...o, body: JSON.stringify(body) } : o));
    const missing = creds('demo-client', 'demo-secret', {
      dispatcher: rewriteBody({ grant_type: 'client_credentials' }),
    });
    expect(await fails(missing.listAlerts())).toMatchObject({ code: 'MISSING_CREDENTIALS', httpStatus: 401 });
    const grant = creds('demo-client', 'demo-secret', {
      dispatcher: rewriteBody({ client_id: 'demo-client', client_secret: 'demo-secret', grant_type: 'password' }),
    });
    expect(await fails(grant.listAlerts())).toMatchObject({ code: 'INVALID_GRANT_TYPE', httpStatus: 401 });
  });

  it('REVOKED_CREDENTIALS for revoked credentials', async () => {
    const other = await startEmulator({
      port: 0,
      seed: {
        accounts: [
          {
            name: 'r',
            user_id: 7,
            credentials: [{ client_id: 'old-client', client_secret: 'old-secret', revoked: true }],
          },
        ],
      },
    });
    try {
      const c = new NetworkCalcClient({
        baseUrl: other.url,
        clientId: 'old-client',
        clientSecret: 'old-secret',
        retry: FAST_RETRY,
      });
      const e = await fails(c.listAlerts());
      expect(e).toMatchObject({ code: 'REVOKED_CREDENTIALS', httpStatus: 401 });
      expect(everythingShown(e)).not.toMatch(/old-secret/);
    } finally {
      await other.close();
    }
  });

  it('exchanges once and reuses the token', async () => {
    const c = creds('demo-client', 'demo-secret');
    await Promise.all([c.listAlerts(), c.listDomains(), c.triggerDomainReport(1), c.listAlerts()]);
    await c.listAlerts();
    expect(c.tokenExchanges).toBe(1);
    expect((await emulator().control.requests()).filter((r) => r.path.startsWith('/api/auth/token'))).toHaveLength(1);
  });
});

describe('logging', () => {
  it('writes one line per request: method, path, status, attempt, ms', async () => {
    const lines: string[] = [];
    const c = client({ logger: (l) => lines.push(l) });
    await c.listAlerts();
    await fails(c.getAlert(4242));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/api\/alerts\/ 200 attempt=1 \d+ms$/);
    expect(lines[1]).toMatch(/^GET \/api\/alerts\/4242 400 attempt=1 \d+ms$/);
    logs.push(...lines);
  });
});
