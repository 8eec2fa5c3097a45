import { declaredNames, findScopeOverlaps, resolveAccounts } from '../../src/plan/accounts';
import { prepare } from '../../src/engine/plan-all';
import { readDesired } from '../../src/read/desired';
import { ConfigError } from '../../src/contract/config-error';
import { alert, stack } from '../cli/support';
import { problemText } from '../../src/model/problems';

const env = { NETWORKCALC_TOKEN: 'demo-token', OTHER_TOKEN: 'other-token' };

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('readDesired', () => {
  it('reads providers, alerts with id and name targets, and triggers', () => {
    const d = readDesired([
      {
        name: 'app',
        json: stack({
          provider: [
            { token_env: 'NETWORKCALC_TOKEN' },
            { alias: 'b', token_env: 'OTHER_TOKEN', ownership: 'prefix', ownership_prefix: 'b-' },
          ],
          alerts: {
            One: alert({ name: ' one ', type: 'dns record', subtype: 'a' }),
            Two: alert({
              name: 'b-two',
              target_type: 'subdomain',
              target_id: '${data.networkcalc_subdomain.www.id}',
              provider: 'networkcalc.b',
            }),
          },
          triggers: {
            Rep: { domain_id: 1 },
            Rep2: { subdomain_id: '${data.networkcalc_subdomain.www.id}', triggers: { v: 1 } },
          },
          data: { networkcalc_subdomain: { www: { name: 'WWW.example.com' } } },
        }),
      },
    ]);
    expect(d.problems.map(problemText)).toEqual([]);
    expect(d.scopes.map((s) => [s.key, s.ownership, s.prefix, s.tokenEnv])).toEqual([
      ['app/networkcalc', 'exclusive', null, 'NETWORKCALC_TOKEN'],
      ['app/networkcalc.b', 'prefix', 'b-', 'OTHER_TOKEN'],
    ]);
    expect(d.alerts[0].spec).toMatchObject({ name: 'one', type: 'DNS Record', subtype: 'A', target_id: 1 });
    expect(d.alerts[1]).toMatchObject({
      scopeKey: 'app/networkcalc.b',
      target: { kind: 'name', targetType: 'subdomain', name: 'www.example.com' },
    });
    expect(d.triggers.map((t) => t.triggers)).toEqual([{ always: '${timestamp()}' }, { v: '1' }]);
  });

  it('collects every problem, each saying what to fix', () => {
    const d = readDesired([
      {
        name: 'app',
        json: stack({
          provider: { ownership: 'mine', token: 'literal' },
          alerts: {
            Bad: alert({ name: 'x', type: 'SPF Record', subtype: 'A' }),
            Ref: alert({ name: 'y', target_id: '${data.networkcalc_domain.nope.id}' }),
            Dup1: alert({ name: 'same' }),
            Dup2: alert({ name: 'same' }),
            Lost: alert({ name: 'z', provider: 'networkcalc.ghost' }),
          },
          triggers: { T: { domain_id: 1, subdomain_id: 2 } },
        }),
      },
    ]);
    const text = d.problems.map(problemText).join('\n');
    expect(text).toMatch(/"token" is written into the synthesized configuration/);
    expect(text).toMatch(/ownership "mine" is not valid; use one of exclusive, prefix, additive/);
    expect(text).toMatch(/alert Bad: .*subtype/);
    expect(text).toMatch(
      /alert Ref: target_id refers to data.networkcalc_domain.nope, which this stack does not declare/,
    );
    expect(text).toMatch(/alerts app\/Dup1 and app\/Dup2 are both named "same"/);
    expect(text).toMatch(/alert Lost: provider "networkcalc.ghost" is not configured/);
    expect(text).toMatch(/report trigger T: give exactly one of domain_id and subdomain_id/);
  });

  it('rejects a name outside the ownership prefix', () => {
    const d = readDesired([
      {
        name: 'app',
        json: stack({ provider: { ownership: 'prefix', ownership_prefix: 'p-' }, alerts: { A: alert({ name: 'q' }) } }),
      },
    ]);
    expect(d.problems.map(problemText).join()).toMatch(/name "q" does not start with the ownership prefix "p-"/);
  });
});

describe('accounts and scopes', () => {
  it('groups scopes by base URL and credential identity, never showing the token', () => {
    const d = readDesired([
      { name: 'a', json: stack({ provider: { base_url: 'http://h/', ownership: 'prefix', ownership_prefix: 'a-' } }) },
      { name: 'b', json: stack({ provider: { base_url: 'http://h', ownership: 'prefix', ownership_prefix: 'b-' } }) },
      { name: 'c', json: stack({ provider: { base_url: 'http://h', token_env: 'OTHER_TOKEN' } }) },
    ]);
    const { accounts, problems } = resolveAccounts(d.scopes, env);
    expect(problems).toEqual([]);
    expect(accounts.map((a) => a.scopes.map((s) => s.stack))).toEqual([['a', 'b'], ['c']]);
    expect(JSON.stringify(accounts.map((a) => [a.key, a.label, a.identity]))).not.toMatch(/demo-token|other-token/);
  });

  it.each([
    [
      'user info in NETWORKCALC_BASE_URL',
      {},
      { NETWORKCALC_BASE_URL: 'https://ops:hunter2pw@api.example' },
      undefined,
      '"https://***@api.example" (from NETWORKCALC_BASE_URL) carries user info',
    ],
    [
      'a query in base_url',
      { base_url: 'https://api.example/?token=hunter2pw' },
      {},
      undefined,
      '"https://api.example/?***" (from base_url of the provider) carries',
    ],
    [
      'not http, from --base-url',
      {},
      {},
      'ftp://ops:hunter2pw@api.example',
      '"ftp://***@api.example" (from --base-url) is not an http(s) URL',
    ],
    [
      'unparseable',
      {},
      { NETWORKCALC_BASE_URL: 'http://[oops' },
      undefined,
      '"http://[oops" (from NETWORKCALC_BASE_URL) is not an http(s) URL such as https://networkcalc.com; fix NETWORKCALC_BASE_URL',
    ],
  ])(
    'a base URL that is not a plain http(s) URL is a problem naming its source, never showing a secret: %s',
    (_n, provider, extra, override, expected) => {
      const d = readDesired([{ name: 'a', json: stack({ provider }) }]);
      const { accounts, problems } = resolveAccounts(d.scopes, { ...env, ...extra }, { baseUrlOverride: override });
      expect(accounts).toEqual([]);
      expect(problems).toHaveLength(1);
      expect(problemText(problems[0]!)).toContain(expected);
      // Nor in the problem as data (`--json` details).
      expect(JSON.stringify(problems[0])).not.toContain('hunter2pw');
    },
  );

  it('reports missing credentials by variable name', () => {
    const d = readDesired([
      { name: 'a', json: stack({ provider: { client_id_env: 'CID', client_secret_env: 'CSEC' } }) },
    ]);
    expect(resolveAccounts(d.scopes, { CID: 'x' }).accounts.map((a) => a.problem)).toEqual([
      'stack a, provider networkcalc: no credentials (CID is set but CSEC is not); set CID and CSEC',
    ]);
  });

  it('reads only the variables a block names: the defaults never stand in beside them', () => {
    const d = readDesired([
      { name: 'a', json: stack({ provider: { token_env: 'A_TOKEN' } }) },
      { name: 'b', json: stack({ provider: { client_id_env: 'B_ID', client_secret_env: 'B_SECRET' } }) },
    ]);
    const env = { NETWORKCALC_TOKEN: 'shared-t', NETWORKCALC_CLIENT_ID: 'shared-id', NETWORKCALC_CLIENT_SECRET: 's' };
    // Neither block is given the shared variables: each is missing its own, and fails alone.
    expect(resolveAccounts(d.scopes, env).accounts.map((a) => a.problem)).toEqual([
      'stack a, provider networkcalc: no credentials; set A_TOKEN',
      'stack b, provider networkcalc: no credentials; set B_ID and B_SECRET',
    ]);
    const { accounts } = resolveAccounts(d.scopes, { ...env, A_TOKEN: 'a-t', B_ID: 'b', B_SECRET: 'bs' });
    expect(accounts.map((a) => [a.credentials.token, a.credentials.clientId])).toEqual([
      ['a-t', undefined],
      [undefined, 'b'],
    ]);
  });

  it.each([
    [
      'exclusive + prefix',
      { ownership: 'exclusive' },
      { ownership: 'prefix', ownership_prefix: 'x-' },
      [],
      [],
      /exclusive scope owns every alert/,
    ],
    [
      'nested prefixes',
      { ownership: 'prefix', ownership_prefix: 'team' },
      { ownership: 'prefix', ownership_prefix: 'team-a' },
      [],
      [],
      /prefixes "team" and "team-a" overlap/,
    ],
    ['additive names', { ownership: 'additive' }, { ownership: 'additive' }, ['n'], ['n'], /both claim "n"/],
    [
      'prefix vs additive',
      { ownership: 'prefix', ownership_prefix: 'p' },
      { ownership: 'additive' },
      ['p1'],
      ['p2'],
      /both claim "p2"/,
    ],
  ])('overlapping scopes of one account across stacks are an error: %s', (_n, pa, pb, na, nb, re) => {
    const mk = (name: string, provider: Record<string, unknown>, names: string[]) => ({
      name,
      json: stack({ provider, alerts: Object.fromEntries(names.map((n) => [n.toUpperCase(), alert({ name: n })])) }),
    });
    const problems = problemsOf(() => prepare([mk('one', pa, na as string[]), mk('two', pb, nb as string[])], env));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(re);
    expect(problems[0]).toMatch(/claimed by stack one .* and stack two/);
  });

  it('disjoint scopes of one account are fine', () => {
    const d = readDesired([
      { name: 'one', json: stack({ provider: { ownership: 'prefix', ownership_prefix: 'a-' } }) },
      { name: 'two', json: stack({ provider: { ownership: 'prefix', ownership_prefix: 'b-' } }) },
      { name: 'three', json: stack({ provider: { ownership: 'additive' }, alerts: { X: alert({ name: 'c' }) } }) },
    ]);
    const { accounts } = resolveAccounts(d.scopes, env);
    expect(findScopeOverlaps(accounts[0], declaredNames(d.alerts))).toEqual([]);
  });
});
