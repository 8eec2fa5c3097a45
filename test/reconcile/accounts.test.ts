import { resolveAccounts } from '../../src/reconcile';
import { normalizeBaseUrl } from '../../src/schema/base-url';
import type { Scope } from '../../src/reconcile/types';

const scope = (stack: string, baseUrl: string | null): Scope => ({
  key: `${stack}/networkcalc`,
  stack,
  providerKey: 'networkcalc',
  alias: null,
  baseUrl,
  tokenEnv: 'T',
  clientIdEnv: 'I',
  clientSecretEnv: 'S',
  ownership: 'exclusive',
  prefix: null,
  maxRetries: null,
  timeoutSeconds: null,
});

describe('one account, however its base URL is spelled', () => {
  it.each([
    ['https://networkcalc.com', 'https://networkcalc.com'],
    ['https://NETWORKCALC.com/', 'https://networkcalc.com'],
    ['https://networkcalc.com:443//', 'https://networkcalc.com'],
    ['http://127.0.0.1:80/api/', 'http://127.0.0.1/api'],
    [' https://networkcalc.com/ ', 'https://networkcalc.com'],
  ])('%j → %j', (raw, normal) => {
    expect(normalizeBaseUrl(raw)).toBe(normal);
  });

  it('leaves a URL it will reject as written, so the message shows it (masked)', () => {
    expect(normalizeBaseUrl('https://user:pw@Host/')).toBe('https://user:pw@Host');
  });

  it('groups two stacks with one token and two spellings of the URL into one account', () => {
    const { accounts, problems } = resolveAccounts(
      [scope('one', 'https://networkcalc.com'), scope('two', 'https://NETWORKCALC.com:443/')],
      { T: 'tok-1' },
    );
    expect(problems).toEqual([]);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ baseUrl: 'https://networkcalc.com', label: 'one+two' });
  });
});
