import type { EmulatorSeed } from '../../src/emulator';
import { call, useEmulator } from '../helpers/emulator';

/**
 * The emulator finds a request's account from an index of tokens (a scan of the accounts made
 * a plan of 10,000 accounts quadratic). Every way the tokens change keeps the index in step:
 * an exchange, an expiry, a reset, a new seed.
 */
const seed: EmulatorSeed = {
  accounts: [
    { name: 'alpha', user_id: 1, tokens: [{ access_token: 'alpha-token' }] },
    {
      name: 'beta',
      user_id: 2,
      credentials: [{ client_id: 'beta-id', client_secret: 'beta-secret' }],
      tokens: [{ access_token: 'beta-token' }],
    },
  ],
};

const emu = useEmulator({ seed });
const list = (token: string) => call(emu().url, 'GET', '/api/alerts/', { token });
const accountsSeen = async () => (await emu().control.requests()).map((r) => [r.account, r.claimedAccount]);

describe('the account of a token', () => {
  test('GIVEN seeded tokens THEN each request is its own account’s, an unknown token nobody’s', async () => {
    expect((await list('alpha-token')).status).toBe(200);
    expect((await list('beta-token')).status).toBe(200);
    expect((await list('nobody-token')).status).toBe(401);
    expect(await accountsSeen()).toEqual([
      ['alpha', 'alpha'],
      ['beta', 'beta'],
      [null, null],
    ]);
  });

  test('GIVEN a token exchange THEN the issued token is its account’s at once', async () => {
    const res = await call(emu().url, 'POST', '/api/auth/token', {
      json: { client_id: 'beta-id', client_secret: 'beta-secret', grant_type: 'client_credentials' },
    });
    const issued = (res.body as { token: { access_token: string } }).token.access_token;
    await emu().control.clearRequests();
    expect((await list(issued)).status).toBe(200);
    expect((await list('beta-token')).status).toBe(200);
    expect(await accountsSeen()).toEqual([
      ['beta', 'beta'],
      ['beta', 'beta'],
    ]);
  });

  test('GIVEN an expired token THEN it is refused but still claims its account', async () => {
    expect(await emu().control.expireTokens('alpha', 'alpha-token')).toBe(1);
    expect((await list('alpha-token')).status).toBe(401);
    expect(await accountsSeen()).toEqual([[null, 'alpha']]);
  });

  test('GIVEN a new seed, then a reset THEN tokens follow each: the seed’s, then the start’s again', async () => {
    await emu().control.seed({ accounts: [{ name: 'gamma', user_id: 3, tokens: [{ access_token: 'alpha-token' }] }] });
    expect((await list('alpha-token')).status).toBe(200);
    expect((await list('beta-token')).status).toBe(401);
    await emu().control.reset();
    await emu().control.clearRequests();
    expect((await list('alpha-token')).status).toBe(200);
    expect(await accountsSeen()).toEqual([['alpha', 'alpha']]);
  });
});
