import { Testing, TerraformStack } from 'cdktf';
import { NetworkcalcAccount, Ownership } from '../../src/constructs';
import { NetworkcalcProvider, parse, synthError, tempApp } from './support';

describe('NetworkcalcAccount', () => {
  test('GIVEN no props THEN the provider names the default variables, exclusive ownership, no alias', () => {
    const json = Testing.synthScope((scope) => {
      new NetworkcalcAccount(scope, 'Account');
    });
    expect(json).toHaveProviderWithProperties(NetworkcalcProvider, {
      token_env: 'NETWORKCALC_TOKEN',
      client_id_env: 'NETWORKCALC_CLIENT_ID',
      client_secret_env: 'NETWORKCALC_CLIENT_SECRET',
      ownership: 'exclusive',
    });
    // Minimal output, compared exactly.
    expect(parse(json).provider.networkcalc).toEqual([
      {
        token_env: 'NETWORKCALC_TOKEN',
        client_id_env: 'NETWORKCALC_CLIENT_ID',
        client_secret_env: 'NETWORKCALC_CLIENT_SECRET',
        ownership: 'exclusive',
      },
    ]);
    expect(parse(json).terraform.required_providers).toEqual({
      networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' },
    });
  });

  test('GIVEN every prop THEN each lands on its provider attribute', () => {
    const json = Testing.synthScope((scope) => {
      new NetworkcalcAccount(scope, 'Account', {
        alias: 'team_a',
        baseUrl: 'http://127.0.0.1:8787',
        tokenEnv: 'TEAM_A_TOKEN',
        clientIdEnv: 'TEAM_A_ID',
        clientSecretEnv: 'TEAM_A_SECRET',
        ownership: Ownership.prefix('team-a-'),
      });
    });
    expect(parse(json).provider.networkcalc).toEqual([
      {
        alias: 'team_a',
        base_url: 'http://127.0.0.1:8787',
        token_env: 'TEAM_A_TOKEN',
        client_id_env: 'TEAM_A_ID',
        client_secret_env: 'TEAM_A_SECRET',
        ownership: 'prefix',
        ownership_prefix: 'team-a-',
      },
    ]);
  });

  test('GIVEN only tokenEnv THEN only token_env is written: no default client credentials beside it', () => {
    const json = Testing.synthScope((scope) => {
      new NetworkcalcAccount(scope, 'Account', { tokenEnv: 'ACCT07_TOKEN' });
    });
    // A default written here would be read for this account, and may hold another account's
    // client credentials (a refused token then fell back to them).
    expect(parse(json).provider.networkcalc).toEqual([{ token_env: 'ACCT07_TOKEN', ownership: 'exclusive' }]);
    const stack = new TerraformStack(Testing.app(), 'stack');
    const account = new NetworkcalcAccount(stack, 'Account', { tokenEnv: 'ACCT07_TOKEN' });
    expect([account.tokenEnv, account.clientIdEnv, account.clientSecretEnv]).toEqual([
      'ACCT07_TOKEN',
      undefined,
      undefined,
    ]);
  });

  test('GIVEN half of the client credentials THEN the synth fails naming the missing half', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account', { tokenEnv: 'A_TOKEN', clientIdEnv: 'A_ID' });
    expect(synthError(app)).toContain(
      'clientIdEnv is set but clientSecretEnv is not; a block that names a credential reads only what it names (never NETWORKCALC_CLIENT_SECRET)',
    );
  });

  test('GIVEN additive ownership THEN ownership is "additive" and no prefix is written', () => {
    const json = Testing.synthScope((scope) => {
      new NetworkcalcAccount(scope, 'Account', { ownership: Ownership.additive() });
    });
    expect(json).toHaveProviderWithProperties(NetworkcalcProvider, { ownership: 'additive' });
    expect(parse(json).provider.networkcalc[0].ownership_prefix).toBeUndefined();
  });

  test('the provider is the default child, id Resource', () => {
    const stack = new TerraformStack(Testing.app(), 'stack');
    const account = new NetworkcalcAccount(stack, 'Account');
    expect(account.node.defaultChild).toBeInstanceOf(NetworkcalcProvider);
    expect(account.node.defaultChild?.node.id).toBe('Resource');
  });

  test('Ownership values', () => {
    expect(Ownership.exclusive()).toMatchObject({ mode: 'exclusive', namePrefix: undefined });
    expect(Ownership.prefix('a-')).toMatchObject({ mode: 'prefix', namePrefix: 'a-' });
    expect(Ownership.additive().mode).toBe('additive');
    expect(Ownership.prefix('a-').covers('a-x')).toBe(true);
    expect(Ownership.prefix('a-').covers('b-x')).toBe(false);
    expect(Ownership.exclusive().covers('anything')).toBe(true);
  });

  describe('invalid props are reported at synth', () => {
    function errorOf(props: ConstructorParameters<typeof NetworkcalcAccount>[2], id = 'Account'): string {
      const { app } = tempApp();
      const stack = new TerraformStack(app, 'stack');
      new NetworkcalcAccount(stack, id, props);
      return synthError(app);
    }

    test('a secret given as a variable name is rejected without being echoed', () => {
      const message = errorOf({ tokenEnv: 'sekret-xyz-123' });
      expect(message).toContain(
        '[stack/Account] tokenEnv is not a valid environment variable name; give the NAME of the variable (letters, digits and _, not starting with a digit), never the secret itself',
      );
      expect(message).not.toContain('sekret-xyz-123');
    });

    test.each([['clientIdEnv'], ['clientSecretEnv']])('%s must be a variable name', (prop) => {
      expect(errorOf({ [prop]: '1BAD' })).toContain(`[stack/Account] ${prop} is not a valid environment variable name`);
    });

    test('baseUrl must be an http(s) URL with nothing secret in it (the same check as ncalc)', () => {
      expect(errorOf({ baseUrl: 'networkcalc.com' })).toContain(
        '[stack/Account] base URL "networkcalc.com" (from baseUrl) is not an http(s) URL such as https://networkcalc.com; fix baseUrl',
      );
      expect(errorOf({ baseUrl: 'ftp://networkcalc.com' })).toContain(
        'base URL "ftp://networkcalc.com" (from baseUrl) is not an http(s) URL',
      );
      for (const leaky of [
        'https://me:pa55word@networkcalc.com',
        'https://networkcalc.com/?key=pa55word',
        'https://networkcalc.com/#pa55word',
      ]) {
        const error = errorOf({ baseUrl: leaky });
        expect(error).toContain('(from baseUrl) carries user info, a query or a fragment');
        expect(error).not.toContain('pa55word');
      }
    });

    test('alias must be a Terraform identifier', () => {
      expect(errorOf({ alias: 'team a' })).toContain(
        '[stack/Account] alias "team a" is not valid; use letters, digits, _ and -, starting with a letter or _',
      );
    });

    test('a prefix ownership needs a prefix', () => {
      expect(errorOf({ ownership: Ownership.prefix(' ') })).toContain(
        '[stack/Account] ownership "prefix" needs a non-empty prefix',
      );
    });

    test('two accounts of one stack need distinct aliases', () => {
      const { app } = tempApp();
      const stack = new TerraformStack(app, 'stack');
      new NetworkcalcAccount(stack, 'A');
      new NetworkcalcAccount(stack, 'B');
      expect(synthError(app)).toContain(
        '[stack/A] stack stack has several accounts with no alias (stack/A, stack/B); give each account of a stack its own alias',
      );
    });
  });
});
