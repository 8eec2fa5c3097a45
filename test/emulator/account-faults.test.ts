import type { EmulatorSeed } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';

/** Two accounts: alpha with a ready token and an expired one, beta with client credentials. */
const seed: EmulatorSeed = {
  accounts: [
    {
      name: 'alpha',
      user_id: 11,
      tokens: [{ access_token: 'alpha-token' }, { access_token: 'alpha-old', expires_at: '2020-01-01T00:00:00Z' }],
      domains: [{ domain: 'alpha.example' }],
    },
    {
      name: 'beta',
      user_id: 22,
      credentials: [{ client_id: 'beta-id', client_secret: 'beta-secret' }],
      tokens: [{ access_token: 'beta-token' }],
      domains: [{ domain: 'beta.example' }],
    },
  ],
};

const emu = useEmulator({ seed });
const api = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) =>
  call(emu().url, method, path, opts);
const exchange = (clientId: string, secret: string) =>
  api('POST', '/api/auth/token', {
    json: { client_id: clientId, client_secret: secret, grant_type: 'client_credentials' },
  });

describe('faults matched by account', () => {
  test('GIVEN a fault for beta THEN only beta’s requests are hit, alpha’s are answered', async () => {
    await emu().control.addFault({ kind: 'status', status: 503, match: { account: 'beta', path: '/api/alerts' } });
    expect((await api('GET', '/api/alerts/', { token: 'alpha-token' })).status).toBe(200);
    expect((await api('GET', '/api/alerts/', { token: 'beta-token' })).status).toBe(503);
    // Another path of beta is not matched.
    expect((await api('GET', '/api/domains/', { token: 'beta-token' })).status).toBe(200);
  });

  test('GIVEN a rate limit for alpha THEN a request with alpha’s expired token is alpha’s too', async () => {
    await emu().control.addFault({ kind: 'rate_limit', match: { account: 'alpha' }, count: 1 });
    expect((await api('GET', '/api/alerts/', { token: 'alpha-old' })).status).toBe(429);
    // Used up: the expired token is now refused as usual.
    expect((await api('GET', '/api/alerts/', { token: 'alpha-old' })).status).toBe(401);
  });

  test('GIVEN a fault for beta THEN beta’s token exchanges (by client id) are hit, others not', async () => {
    await emu().control.addFault({ kind: 'status', status: 500, match: { account: 'beta' }, count: 1 });
    expect((await exchange('beta-id', 'beta-secret')).status).toBe(500);
    expect((await exchange('beta-id', 'beta-secret')).status).toBe(200);
    await emu().control.addFault({ kind: 'drop', match: { account: 'alpha' } });
    // An unknown client id claims no account: the fault for alpha does not touch it.
    expect((await exchange('nobody', 'x')).body).toMatchObject({ status: 'CREDENTIALS_NOT_FOUND' });
  });

  test('match.account is checked: a name, nothing else', async () => {
    for (const account of ['', 7]) {
      const res = await call(emu().url, 'POST', '/_emulator/faults', {
        headers: { 'x-emulator-token': emu().controlToken },
        json: { kind: 'status', match: { account } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('fault.match.account must be the name of an account, as in the seed');
    }
  });
});

describe('the request log names the account credentials claim', () => {
  test('valid, expired and unknown tokens, and token exchanges', async () => {
    await api('GET', '/api/alerts/', { token: 'alpha-token' });
    await api('GET', '/api/alerts/', { token: 'alpha-old' });
    await api('GET', '/api/alerts/', { token: 'never-issued' });
    await exchange('beta-id', 'wrong');
    const log = (await emu().control.requests()).map((e) => [e.status, e.account, e.claimedAccount]);
    expect(log).toEqual([
      [200, 'alpha', 'alpha'],
      // Refused, but on behalf of alpha: the log says whose token it was.
      [401, null, 'alpha'],
      [401, null, null],
      [401, null, 'beta'],
    ]);
  });

  test('the request counts filter by the account claimed', async () => {
    await api('GET', '/api/alerts/', { token: 'alpha-token' });
    await api('GET', '/api/alerts/', { token: 'alpha-old' });
    await exchange('beta-id', 'beta-secret');
    await api('GET', '/api/domains/', { token: 'beta-token' });
    const control = emu().control;
    expect(await control.countRequests({ account: 'alpha' })).toBe(2);
    expect(await control.requestCounts({ account: 'alpha', method: 'GET', path: '/api/alerts' })).toMatchObject({
      count: 2,
      statuses: { '200': 1, '401': 1 },
    });
    expect(await control.countRequests({ account: 'beta' })).toBe(2);
    expect(await control.countRequests({ account: 'nobody' })).toBe(0);
    expect(await control.countRequests({})).toBe(4);
  });

  test('a token dropped after it expired is still its account’s', async () => {
    const issued = (await exchange('beta-id', 'beta-secret')).body.token.access_token as string;
    await emu().control.expireTokens('beta', issued);
    // The next exchange drops the expired token from the account.
    await exchange('beta-id', 'beta-secret');
    await api('GET', '/api/alerts/', { token: issued });
    const last = (await emu().control.requests()).at(-1)!;
    expect(last).toMatchObject({ status: 401, account: null, claimedAccount: 'beta' });
  });
});
