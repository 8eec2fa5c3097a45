import { SNAPSHOT_FROM_SCOPES, resolveAccounts } from '../../src/plan/accounts';
import { environmentSnapshot } from '../../src/accounts/environment';
import { shardOfKey } from '../../src/plan/shard';
import { normalizeBaseUrl } from '../../src/accounts/base-url';
import type { Scope } from '../../src/plan/types';
import { scope } from '../helpers/fixtures';

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
      [
        scope({ stack: 'one', baseUrl: 'https://networkcalc.com' }),
        scope({ stack: 'two', baseUrl: 'https://NETWORKCALC.com:443/' }),
      ],
      { T: 'tok-1' },
    );
    expect(problems).toEqual([]);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ baseUrl: 'https://networkcalc.com', label: 'one+two' });
  });
});

describe('a stable account identity', () => {
  const own = (stack: string, tokenEnv: string): Scope => ({
    ...scope({ stack, baseUrl: 'http://127.0.0.1:8787' }),
    tokenEnv,
    clientIdEnv: null,
    clientSecretEnv: null,
  });
  const app = [own('acct01', 'ACCT01_TOKEN'), own('acct02', 'ACCT02_TOKEN'), own('acct03', 'ACCT03_TOKEN')];

  it('GIVEN a token rotation THEN the key and the shard stay: they come from the base URL and the stack', () => {
    const before = resolveAccounts(app, { ACCT01_TOKEN: 'a', ACCT02_TOKEN: 'b', ACCT03_TOKEN: 'c' }).accounts;
    const after = resolveAccounts(app, { ACCT01_TOKEN: 'rotated', ACCT02_TOKEN: 'b', ACCT03_TOKEN: 'c' }).accounts;
    expect(before.map((a) => a.key)).toEqual([
      'http://127.0.0.1:8787 acct01/networkcalc',
      'http://127.0.0.1:8787 acct02/networkcalc',
      'http://127.0.0.1:8787 acct03/networkcalc',
    ]);
    expect(after.map((a) => a.key)).toEqual(before.map((a) => a.key));
    expect(after[0].identity).not.toBe(before[0].identity);
    for (const n of [2, 3, 4, 7])
      expect(after.map((a) => shardOfKey(a.key, n))).toEqual(before.map((a) => shardOfKey(a.key, n)));
    // Nothing secret in a key.
    expect(JSON.stringify(after.map((a) => a.key))).not.toMatch(/rotated|sha256/);
  });

  it('GIVEN two tokens whose shown fingerprints are equal THEN they are two accounts: grouping compares the whole digest', () => {
    // sha256 of both begins a9a9b769: met in a fleet of 10,000 tokens.
    const { accounts } = resolveAccounts(app.slice(0, 2), {
      ACCT01_TOKEN: 'acct3060-token',
      ACCT02_TOKEN: 'acct8735-token',
    });
    expect(accounts.map((a) => [a.label, a.identity])).toEqual([
      ['acct01', 'token sha256:a9a9b769'],
      ['acct02', 'token sha256:a9a9b769'],
    ]);
  });

  it('GIVEN one stack without its secret THEN that account alone has a problem, the others resolve', () => {
    const { accounts, problems } = resolveAccounts(app, { ACCT01_TOKEN: 'a', ACCT03_TOKEN: 'c' });
    expect(problems).toEqual([]);
    expect(accounts.map((a) => [a.label, a.problem ?? null])).toEqual([
      ['acct01', null],
      ['acct02', 'stack acct02, provider networkcalc: no credentials; set ACCT02_TOKEN'],
      ['acct03', null],
    ]);
    // The key of the failing account is the one it has with its secret: it stays in its shard.
    expect(accounts[1].key).toBe('http://127.0.0.1:8787 acct02/networkcalc');
  });

  it('GIVEN two stacks whose variables hold one token THEN one account, keyed by the first stack', () => {
    const { accounts } = resolveAccounts([own('zeta', 'Z_TOKEN'), own('alpha', 'A_TOKEN')], {
      Z_TOKEN: 'same',
      A_TOKEN: 'same',
    });
    expect(accounts.map((a) => [a.key, a.label])).toEqual([['http://127.0.0.1:8787 alpha/networkcalc', 'zeta+alpha']]);
  });
});

describe('credentials of a fleet, read from one copy of the environment', () => {
  const own = (i: number): Scope => ({
    ...scope({ stack: `fleet${i}`, baseUrl: 'http://127.0.0.1:8787' }),
    tokenEnv: `NCALC_TEST_FLEET_${i}_TOKEN`,
    clientIdEnv: null,
    clientSecretEnv: null,
  });
  const fleet = Array.from({ length: SNAPSHOT_FROM_SCOPES }, (_, i) => own(i));
  afterEach(() => {
    for (const s of fleet) delete process.env[s.tokenEnv!];
  });

  it('GIVEN the process environment, set and changed at run time THEN each account has the value set last', () => {
    fleet.forEach((s, i) => (process.env[s.tokenEnv!] = `first-${i}`));
    fleet.forEach((s, i) => (process.env[s.tokenEnv!] = i === 7 ? '' : `token-${i}`));
    const { accounts } = resolveAccounts(fleet, process.env);
    expect(accounts).toHaveLength(fleet.length);
    const byStack = new Map(accounts.map((a) => [a.scopes[0]!.stack, a]));
    expect(byStack.get('fleet0')!.credentials.token).toBe('token-0');
    expect(byStack.get('fleet999')!.credentials.token).toBe('token-999');
    // Blank is unset, as for one read of process.env.
    expect(byStack.get('fleet7')!.problem).toMatch(/no credentials; set NCALC_TEST_FLEET_7_TOKEN/);
    expect(accounts.filter((a) => a.problem)).toHaveLength(1);
  });

  it('GIVEN a process.env that is not the process environment (this runner replaces it) THEN it is read as it is', () => {
    process.env.NCALC_TEST_FLEET_0_TOKEN = 'now';
    expect(environmentSnapshot(process.env).NCALC_TEST_FLEET_0_TOKEN).toBe('now');
    const given = { A: 'b' };
    expect(environmentSnapshot(given)).toBe(given);
  });
});
