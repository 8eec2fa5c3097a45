import { isValidHostName } from '../../src/model';
import { buildEmulator, DEMO_ACCOUNT, REPORTS_PER_ACCOUNT_LIMIT } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';

const emu = useEmulator({ tokenLifetimeSeconds: 120 });
const T = DEMO_ACCOUNT.token;
const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(emu().url, method, path, opts);

const creds = (over: Record<string, unknown> = {}) => ({
  client_id: DEMO_ACCOUNT.clientId,
  client_secret: DEMO_ACCOUNT.clientSecret,
  grant_type: 'client_credentials',
  ...over,
});

describe('POST /api/auth/token', () => {
  it('issues a bearer token with the configured lifetime; the token works', async () => {
    const res = await api('POST', '/api/auth/token', { json: creds() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'OK',
      token: { access_token: expect.any(String), token_type: 'bearer', expires_in: 120 },
    });
    const token = res.body.token.access_token as string;
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect((await api('GET', '/api/alerts/', { token })).status).toBe(200);
    // Every call gives a fresh token.
    const again = await api('POST', '/api/auth/token', { json: creds() });
    expect(again.body.token.access_token).not.toBe(token);
  });

  it.each([
    ['no client_secret', { client_secret: undefined }, 'MISSING_CREDENTIALS'],
    ['empty client_id', { client_id: '' }, 'MISSING_CREDENTIALS'],
    ['another grant type', { grant_type: 'password' }, 'INVALID_GRANT_TYPE'],
    ['no grant type', { grant_type: undefined }, 'INVALID_GRANT_TYPE'],
    ['unknown client id', { client_id: 'who' }, 'CREDENTIALS_NOT_FOUND'],
    ['wrong secret', { client_secret: 'guess' }, 'INVALID_CREDENTIALS'],
  ])('%s: 401 %s', async (_title, over, code) => {
    const res = await api('POST', '/api/auth/token', { json: creds(over) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: code });
  });

  it('no body, or a body that is not JSON: MISSING_CREDENTIALS', async () => {
    expect((await api('POST', '/api/auth/token')).body).toEqual({ status: 'MISSING_CREDENTIALS' });
    const form = await api('POST', '/api/auth/token', {
      body: 'client_id=demo-client',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form).toMatchObject({ status: 401, body: { status: 'MISSING_CREDENTIALS' } });
  });

  it('a revoked credential: REVOKED_CREDENTIALS', async () => {
    await emu().control.seed({
      accounts: [{ name: 'r', user_id: 7, credentials: [{ client_id: 'old', client_secret: 's', revoked: true }] }],
    });
    const res = await api('POST', '/api/auth/token', {
      json: { client_id: 'old', client_secret: 's', grant_type: 'client_credentials' },
    });
    expect(res).toMatchObject({ status: 401, body: { status: 'REVOKED_CREDENTIALS' } });
  });
});

describe('token expiry through the control surface', () => {
  it('expired tokens answer INVALID_GRANT on reports and NOT_AUTHORIZED on alerts and domains', async () => {
    const issued = (await api('POST', '/api/auth/token', { json: creds() })).body.token.access_token;
    expect(await emu().control.expireTokens('demo')).toBe(2);
    for (const token of [T, issued]) {
      expect(await api('POST', '/api/reports/domain-reports/1', { token })).toMatchObject({
        status: 401,
        body: { status: 'INVALID_GRANT' },
      });
      expect(await api('GET', '/api/alerts/', { token })).toMatchObject({
        status: 401,
        body: { status: 'NOT_AUTHORIZED' },
      });
      expect(await api('GET', '/api/domains/', { token })).toMatchObject({
        status: 401,
        body: { status: 'NOT_AUTHORIZED' },
      });
    }
    // Credentials still work: a client recovers by asking for a new token.
    const fresh = (await api('POST', '/api/auth/token', { json: creds() })).body.token.access_token;
    expect((await api('GET', '/api/alerts/', { token: fresh })).status).toBe(200);
  });

  it('one token can be expired alone', async () => {
    const issued = (await api('POST', '/api/auth/token', { json: creds() })).body.token.access_token;
    expect(await emu().control.expireTokens('demo', issued)).toBe(1);
    expect((await api('GET', '/api/alerts/', { token: issued })).status).toBe(401);
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
  });

  it('reset brings the ready token back', async () => {
    await emu().control.expireTokens('demo');
    await emu().control.reset();
    expect((await api('GET', '/api/alerts/', { token: T })).status).toBe(200);
  });
});

describe('reports (4.1, 4.2)', () => {
  it('domain report: domain_id is a quoted string; the URL downloads an attachment', async () => {
    await api('POST', '/api/alerts/', {
      token: T,
      json: {
        name: 'a',
        type: 'DNS Record',
        subtype: 'A',
        filter: 'equals',
        filter_value: '1.2.3.4',
        target_type: 'domain',
        target_id: 1,
      },
    });
    const res = await api('POST', '/api/reports/domain-reports/1', { token: T });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'OK',
      domain_id: '1',
      report_url: expect.stringMatching(new RegExp(`^${emu().url}/reports/[0-9a-f-]{36}$`)),
    });
    const download = await call(res.body.report_url, 'GET', '');
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="report-example\.com-[0-9a-f-]+\.json"$/,
    );
    expect(download.body).toMatchObject({
      kind: 'domain',
      domain: { id: 1, domain: 'example.com' },
      subdomains: [{ subdomain: 'www.example.com' }, { subdomain: 'mail.example.com' }],
      alerts: [{ name: 'a' }],
    });
  });

  it('subdomain report: domain_id of the parent as a string, subdomain_id as a number', async () => {
    const res = await api('POST', '/api/reports/subdomain-reports/3', { token: T });
    expect(res.body).toEqual({ status: 'OK', domain_id: '1', subdomain_id: 3, report_url: expect.any(String) });
    const download = await call(res.body.report_url, 'GET', '');
    expect(download.body).toMatchObject({
      kind: 'subdomain',
      subdomain: { subdomain: 'mail.example.com' },
      alerts: [],
    });
  });

  it('reports persist: each trigger is a new URL, old ones still download', async () => {
    const a = (await api('POST', '/api/reports/domain-reports/4', { token: T })).body.report_url;
    const b = (await api('POST', '/api/reports/domain-reports/4', { token: T })).body.report_url;
    expect(a).not.toBe(b);
    expect((await call(a, 'GET', '')).status).toBe(200);
    expect((await emu().control.state()).accounts[0]!.reports).toHaveLength(2);
  });

  it('an unknown report URL: 404', async () => {
    expect((await api('GET', '/reports/00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  describe('a capped number of reports per account', () => {
    const small = useEmulator({ reportsPerAccount: 3 });

    it('the oldest reports are forgotten: their URLs answer 404 NOT_FOUND, the newest download', async () => {
      const urls: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(small().url, 'POST', '/api/reports/domain-reports/1', { token: T });
        expect(res.status).toBe(200);
        urls.push(res.body.report_url);
      }
      for (const old of urls.slice(0, 2)) {
        expect(await call(old, 'GET', '')).toMatchObject({ status: 404, body: { status: 'NOT_FOUND' } });
      }
      for (const kept of urls.slice(2)) expect((await call(kept, 'GET', '')).status).toBe(200);
      const reports = (await small().control.state()).accounts[0]!.reports;
      expect(reports.map((r) => r.id)).toEqual(urls.slice(2).map((u) => u.split('/').pop()));
    });

    it('defaults to 1,000 and refuses a cap that is not a positive whole number', async () => {
      expect(REPORTS_PER_ACCOUNT_LIMIT).toBe(1000);
      await expect(buildEmulator({ reportsPerAccount: 0 })).rejects.toThrow(RangeError);
    });
  });

  it.each([
    ['/api/reports/domain-reports/999'],
    ['/api/reports/domain-reports/2'], // a subdomain id is not a domain
    ['/api/reports/domain-reports/'],
    ['/api/reports/domain-reports/abc'],
    ['/api/reports/subdomain-reports/1'],
    ['/api/reports/subdomain-reports'],
  ])('%s: 400 NOT_GENERATED', async (path) => {
    expect(await api('POST', path, { token: T })).toMatchObject({ status: 400, body: { status: 'NOT_GENERATED' } });
  });

  it.each(['domain', 'subdomain'])(
    '%s report without Authorization: 401 INVALID_REQUEST; bad token: 401 INVALID_GRANT',
    async (kind) => {
      const path = `/api/reports/${kind}-reports/${kind === 'domain' ? 1 : 2}`;
      expect(await api('POST', path)).toMatchObject({ status: 401, body: { status: 'INVALID_REQUEST' } });
      expect(await api('POST', path, { token: 'bogus' })).toMatchObject({
        status: 401,
        body: { status: 'INVALID_GRANT' },
      });
    },
  );
});

describe('domains (vendor facts)', () => {
  it('lists domains with their subdomains', async () => {
    const res = await api('GET', '/api/domains/', { token: T });
    expect(res.status).toBe(200);
    expect(
      res.body.domains.map((d: any) => [d.id, d.domain, d.subdomains.map((s: any) => [s.id, s.subdomain])]),
    ).toEqual([
      [
        1,
        'example.com',
        [
          [2, 'www.example.com'],
          [3, 'mail.example.com'],
        ],
      ],
      [4, 'example.org', []],
    ]);
  });

  it('adds a domain and a dotted subdomain prefix; gets both; deletes both', async () => {
    const add = await api('POST', '/api/domains/', { token: T, json: { domain: 'demo.io' } });
    expect(add.body).toEqual({
      status: 'OK',
      domain: { id: 5, domain: 'demo.io', created_at: expect.any(String), updated_at: expect.any(String) },
    });
    const sub = await api('POST', '/api/domains/5/subdomains/my.demo', { token: T });
    expect(sub.body).toEqual({
      status: 'OK',
      subdomain: {
        id: 6,
        domain_id: 5,
        prefix: 'my.demo',
        subdomain: 'my.demo.demo.io',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect((await api('GET', '/api/domains/5', { token: T })).body.domain).toMatchObject({
      domain: 'demo.io',
      subdomains: [{ id: 6 }],
    });
    expect((await api('GET', '/api/domains/5/subdomains/6', { token: T })).body.subdomain).toMatchObject({
      prefix: 'my.demo',
    });
    expect((await api('DELETE', '/api/domains/5/subdomains/6', { token: T })).body).toEqual({ status: 'OK' });
    expect((await api('GET', '/api/domains/5/subdomains/6', { token: T })).body).toEqual({ status: 'NOT_FOUND' });
    expect((await api('DELETE', '/api/domains/5', { token: T })).body).toEqual({ status: 'OK' });
    expect(await api('GET', '/api/domains/5', { token: T })).toMatchObject({
      status: 400,
      body: { status: 'NOT_FOUND' },
    });
  });

  it.each([
    ['a duplicate', { domain: 'example.com' }],
    ['a duplicate in another spelling', { domain: ' Example.COM. ' }],
    ['an invalid name', { domain: 'not a domain' }],
    ['a single label', { domain: 'localhost' }],
    ['a top-level label ending in a hyphen', { domain: 'example.co-' }],
    ['a scheme', { domain: 'https://demo.io' }],
    ['a name that is not a string', { domain: 42 }],
    ['no name', {}],
  ])('%s: NOT_SAVED', async (_t, json) => {
    expect(await api('POST', '/api/domains/', { token: T, json })).toMatchObject({
      status: 400,
      body: { status: 'NOT_SAVED' },
    });
  });

  it("names are valid by the model's one rule and stored in its canonical form (lower case, no trailing dot)", async () => {
    for (const [name, stored] of [
      ['Mixed.Case.IO', 'mixed.case.io'],
      ['fqdn.dev.', 'fqdn.dev'],
    ]) {
      expect(isValidHostName(stored)).toBe(true);
      const res = await api('POST', '/api/domains/', { token: T, json: { domain: name } });
      expect(res.body).toMatchObject({ status: 'OK', domain: { domain: stored } });
    }
    // A subdomain is valid when its full name is: 253 characters at most.
    const label = 'a'.repeat(63);
    const long = `${label}.${label}.${label}`; // 191 characters + ".example.com" = 203
    expect((await api('POST', `/api/domains/1/subdomains/${long}`, { token: T })).body.status).toBe('OK');
    const tooLong = `${long}.${'b'.repeat(50)}`; // 254 characters with ".example.com"
    expect(isValidHostName(`${tooLong}.example.com`)).toBe(false);
    expect((await api('POST', `/api/domains/1/subdomains/${tooLong}`, { token: T })).body).toEqual({
      status: 'NOT_SAVED',
    });
  });

  it('a duplicate or invalid subdomain: NOT_SAVED; under an unknown domain: NOT_FOUND', async () => {
    expect((await api('POST', '/api/domains/1/subdomains/www', { token: T })).body).toEqual({ status: 'NOT_SAVED' });
    expect((await api('POST', '/api/domains/1/subdomains/bad_prefix!', { token: T })).body).toEqual({
      status: 'NOT_SAVED',
    });
    expect((await api('POST', '/api/domains/99/subdomains/api', { token: T })).body).toEqual({ status: 'NOT_FOUND' });
  });

  it('a domain or subdomain that alerts target cannot be deleted: NOT_DELETED', async () => {
    await api('POST', '/api/alerts/', {
      token: T,
      json: {
        name: 'w',
        type: 'DNS Record',
        subtype: 'CNAME',
        filter: 'contains',
        filter_value: 'cdn',
        target_type: 'subdomain',
        target_id: 2,
      },
    });
    expect(await api('DELETE', '/api/domains/1/subdomains/2', { token: T })).toMatchObject({
      status: 400,
      body: { status: 'NOT_DELETED' },
    });
    expect((await api('DELETE', '/api/domains/1', { token: T })).body).toEqual({ status: 'NOT_DELETED' });
    expect((await api('DELETE', '/api/domains/1/subdomains/3', { token: T })).body).toEqual({ status: 'OK' });
  });

  it('unknown ids: NOT_FOUND; auth: MISSING_HEADER and NOT_AUTHORIZED', async () => {
    expect((await api('DELETE', '/api/domains/77', { token: T })).body).toEqual({ status: 'NOT_FOUND' });
    expect((await api('GET', '/api/domains/4/subdomains/2', { token: T })).body).toEqual({ status: 'NOT_FOUND' });
    expect(await api('GET', '/api/domains/')).toMatchObject({ status: 400, body: { status: 'MISSING_HEADER' } });
    expect(await api('POST', '/api/domains/', { token: 'x', json: { domain: 'a.io' } })).toMatchObject({
      status: 401,
      body: { status: 'NOT_AUTHORIZED' },
    });
  });
});
