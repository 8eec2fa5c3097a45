/**
 * The account rules, each once: what parseProviderBlock accepts, what it refuses and with
 * which sentence, the defaults it fills in, and `claims`. The doors that use them are in
 * account-rules-doors.test.ts.
 */
import { ENV } from '../../src/accounts/environment';
import {
  MAX_RETRIES,
  TIMEOUT_SECONDS,
  claims,
  isEnvVariableName,
  parseProviderBlock,
  type ProviderField,
} from '../../src/accounts/account-rules';

const messages = (raw: Record<string, unknown>) => parseProviderBlock(raw).problems.map((p) => p.message);

describe('parseProviderBlock', () => {
  test('GIVEN an empty block THEN the defaults, and no problem', () => {
    expect(parseProviderBlock({})).toEqual({
      config: {
        alias: null,
        baseUrl: null,
        token: null,
        clientId: null,
        clientSecret: null,
        tokenEnv: ENV.token,
        clientIdEnv: ENV.clientId,
        clientSecretEnv: ENV.clientSecret,
        defaultCredentials: true,
        ownership: 'exclusive',
        prefix: null,
        maxRetries: null,
        timeoutSeconds: null,
      },
      problems: [],
    });
  });

  test('GIVEN every attribute set THEN each lands in the config', () => {
    const { config, problems } = parseProviderBlock({
      alias: 'team-a',
      base_url: ' http://127.0.0.1:8787 ',
      token: 't',
      client_id: 'id',
      client_secret: 's',
      token_env: 'A_TOKEN',
      client_id_env: 'A_ID',
      client_secret_env: 'A_SECRET',
      ownership: 'prefix',
      ownership_prefix: 'team-a-',
      max_retries: 3,
      timeout_seconds: 2.5,
    });
    expect(problems).toEqual([]);
    expect(config).toEqual({
      alias: 'team-a',
      baseUrl: 'http://127.0.0.1:8787',
      token: 't',
      clientId: 'id',
      clientSecret: 's',
      tokenEnv: 'A_TOKEN',
      clientIdEnv: 'A_ID',
      clientSecretEnv: 'A_SECRET',
      defaultCredentials: false,
      ownership: 'prefix',
      prefix: 'team-a-',
      maxRetries: 3,
      timeoutSeconds: 2.5,
    });
  });

  test('null and blank values are unset, as in Terraform: the default applies', () => {
    const { config, problems } = parseProviderBlock({
      alias: null,
      base_url: '  ',
      token_env: '',
      ownership: '',
      max_retries: null,
      timeout_seconds: ' ',
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      alias: null,
      baseUrl: null,
      tokenEnv: ENV.token,
      ownership: 'exclusive',
      maxRetries: null,
      timeoutSeconds: null,
    });
  });

  describe("max_retries: a whole number from 1 to 20 (Terraform's rule, now every door's)", () => {
    test.each([[1], [20], ['7']])('%p is accepted', (v) => {
      expect(parseProviderBlock({ max_retries: v })).toMatchObject({ config: { maxRetries: Number(v) }, problems: [] });
    });
    test.each([[0], [21], [50], [2.5], [-1], ['many'], [true], [Number.NaN]])('%p is refused', (v) => {
      const { config, problems } = parseProviderBlock({ max_retries: v });
      expect(config.maxRetries).toBeNull();
      expect(problems).toEqual([
        {
          field: 'max_retries',
          value: v,
          message: `max_retries ${JSON.stringify(v) ?? String(v)} is not valid; give a whole number from 1 to 20 (attempts per request, the first included)`,
        },
      ]);
    });
    test('the bounds are the ones the schema describes', () => {
      expect(MAX_RETRIES).toEqual({ min: 1, max: 20 });
    });
  });

  describe('timeout_seconds: more than 0 and at most 3600', () => {
    test.each([[0.5], [3600]])('%p is accepted', (v) => {
      expect(parseProviderBlock({ timeout_seconds: v })).toMatchObject({ config: { timeoutSeconds: v }, problems: [] });
    });
    test.each([[0], [-5], [3600.5], [7200]])('%p is refused', (v) => {
      expect(messages({ timeout_seconds: v })).toEqual([
        `timeout_seconds ${v} is not valid; give a number of seconds more than 0 and at most 3600`,
      ]);
    });
    test('the bounds are the ones the schema describes', () => {
      expect(TIMEOUT_SECONDS).toEqual({ above: 0, max: 3600 });
    });
  });

  describe('credentials belong to the block that names them', () => {
    test('GIVEN only token_env THEN no client credential variable is read (no default beside it)', () => {
      const { config, problems } = parseProviderBlock({ token_env: 'ACCT07_TOKEN' });
      expect(problems).toEqual([]);
      expect(config).toMatchObject({
        tokenEnv: 'ACCT07_TOKEN',
        clientIdEnv: null,
        clientSecretEnv: null,
        defaultCredentials: false,
      });
    });
    test('GIVEN only client credential variables THEN no token variable is read', () => {
      const { config, problems } = parseProviderBlock({ client_id_env: 'B_ID', client_secret_env: 'B_SECRET' });
      expect(problems).toEqual([]);
      expect(config).toMatchObject({ tokenEnv: null, clientIdEnv: 'B_ID', clientSecretEnv: 'B_SECRET' });
    });
    test('GIVEN a literal token THEN it names the credentials: no default variable', () => {
      expect(parseProviderBlock({ token: 't' }).config).toMatchObject({
        tokenEnv: null,
        clientIdEnv: null,
        clientSecretEnv: null,
        defaultCredentials: false,
      });
    });
    test('GIVEN half of the client credentials THEN a problem: the other half is never a default', () => {
      expect(messages({ token_env: 'A_TOKEN', client_id_env: 'A_ID' })).toEqual([
        'client_id_env is set but client_secret_env is not; a block that names a credential reads only what it names (never NETWORKCALC_CLIENT_SECRET), so name both halves of the client credentials, or neither',
      ]);
      expect(messages({ client_secret: 's' })).toEqual([
        'client_secret is set but client_id_env is not; a block that names a credential reads only what it names (never NETWORKCALC_CLIENT_ID), so name both halves of the client credentials, or neither',
      ]);
    });
  });

  describe('variable names', () => {
    test.each([['token_env'], ['client_id_env'], ['client_secret_env']] as Array<[ProviderField]>)(
      '%s must name a variable, and the value is never echoed',
      (field) => {
        const { config, problems } = parseProviderBlock({ [field]: 'sk-live secret' });
        // The bad name is the problem; the half it leaves is not reported on top of it.
        expect(problems).toEqual([
          {
            field,
            value: undefined,
            message: `${field} is not a valid environment variable name; give the NAME of the variable (letters, digits and _, not starting with a digit), never the secret itself`,
          },
        ]);
        // Nothing stands in (the block names a credential), so the secret goes no further.
        expect(JSON.stringify(config)).not.toContain('sk-live');
      },
    );
    test('the one rule for a name', () => {
      for (const ok of ['A', '_X', 'NETWORKCALC_TOKEN', 'a1_b2']) expect(isEnvVariableName(ok)).toBe(true);
      for (const bad of ['', '1A', 'A-B', 'A B', ' A', 'A=1', 5, null]) expect(isEnvVariableName(bad)).toBe(false);
    });
  });

  test('base_url: an http(s) URL with nothing secret in it, shown redacted', () => {
    expect(messages({ base_url: 'networkcalc.com' })).toEqual([
      'base URL "networkcalc.com" (from base_url) is not an http(s) URL such as https://networkcalc.com; fix base_url',
    ]);
    const [problem] = parseProviderBlock({ base_url: 'https://me:pa55@networkcalc.com' }).problems;
    expect(problem).toMatchObject({ field: 'base_url', value: 'https://***@networkcalc.com' });
    expect(JSON.stringify(problem)).not.toContain('pa55');
  });

  test('alias: a Terraform identifier', () => {
    expect(messages({ alias: 'team a' })).toEqual([
      'alias "team a" is not valid; use letters, digits, _ and -, starting with a letter or _',
    ]);
    expect(messages({ alias: 7 })).toEqual(['alias is a number; expected a string']);
  });

  describe('ownership', () => {
    test('one of exclusive, prefix, additive', () => {
      expect(messages({ ownership: 'mine' })).toEqual([
        'ownership "mine" is not valid; use one of exclusive, prefix, additive',
      ]);
    });
    test('"prefix" needs a prefix that is not blank', () => {
      for (const prefix of [undefined, '', '  ']) {
        expect(messages({ ownership: 'prefix', ownership_prefix: prefix })).toEqual([
          'ownership "prefix" needs a non-empty ownership_prefix',
        ]);
      }
    });
    test('a prefix without ownership "prefix" is refused, not ignored', () => {
      expect(messages({ ownership: 'additive', ownership_prefix: 'a-' })).toEqual([
        'ownership_prefix "a-" is only used with ownership "prefix"; set ownership to "prefix" or remove it',
      ]);
    });
  });

  test('a string attribute given another type', () => {
    expect(parseProviderBlock({ client_id: 12 }).problems).toEqual([
      { field: 'client_id', value: 12, message: 'client_id is a number; expected a string' },
    ]);
    // A literal secret of the wrong type is not shown either.
    expect(parseProviderBlock({ token: 12 }).problems).toEqual([
      { field: 'token', value: undefined, message: 'token is a number; expected a string' },
    ]);
  });

  test("every problem at once, in the door's names", () => {
    const label = (f: ProviderField) =>
      (({ max_retries: 'maxRetries', timeout_seconds: 'timeoutSeconds' }) as Partial<Record<ProviderField, string>>)[
        f
      ] ?? f;
    expect(
      parseProviderBlock({ max_retries: 50, timeout_seconds: 7200 }, { label }).problems.map((p) => p.message),
    ).toEqual([
      'maxRetries 50 is not valid; give a whole number from 1 to 20 (attempts per request, the first included)',
      'timeoutSeconds 7200 is not valid; give a number of seconds more than 0 and at most 3600',
    ]);
  });

  test('values not known yet are not checked, and are kept as given', () => {
    const unknown = '${TfToken[TOKEN.1]}';
    const { config, problems } = parseProviderBlock(
      { token_env: unknown, max_retries: unknown, base_url: unknown },
      { isUnknown: (v) => v === unknown },
    );
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ tokenEnv: unknown, maxRetries: unknown, baseUrl: unknown });
  });
});

describe('claims', () => {
  test('exclusive claims every name; prefix the names with its prefix; additive only what it declares', () => {
    expect(claims({ ownership: 'exclusive' }, 'anything')).toBe(true);
    expect(claims({ ownership: 'prefix', prefix: 'team-' }, 'team-x')).toBe(true);
    expect(claims({ ownership: 'prefix', prefix: 'team-' }, 'other')).toBe(false);
    expect(claims({ ownership: 'additive' }, 'n')).toBe(false);
    expect(claims({ ownership: 'additive' }, 'n', new Set(['n']))).toBe(true);
  });
});
