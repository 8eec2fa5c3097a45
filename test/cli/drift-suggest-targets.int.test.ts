/**
 * `ncalc drift --suggest` for domains and subdomains added in the console: each gets the
 * declaration that would adopt it (Domain / Subdomain, networkcalc_domain /
 * networkcalc_subdomain with an import block of its id), as a line without an edit; the
 * targets the app declares get none, and an app that declares no targets gets none at all.
 */
import { useEmulator } from '../helpers/emulator';
import type { Json } from '../../src/support/json';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator({ deleteForm: 'path' });

function appStack(declareTargets: boolean, ownership = 'exclusive'): Json {
  const json = stack({
    provider: { token_env: 'SHOP_TOKEN', ownership },
    alerts: {
      Apex: alert({
        name: 'apex a',
        target_type: 'domain',
        target_id: declareTargets ? '${networkcalc_domain.apex.id}' : 10,
      }),
    },
  });
  if (declareTargets) (json.resource as Record<string, Json>).networkcalc_domain = { apex: { name: 'shop.example' } };
  return json;
}

describe('ncalc drift --suggest with targets added in the console', () => {
  let app: FixtureApp | undefined;
  afterEach(() => app?.remove());

  async function seed() {
    await emulator().control.seed({
      accounts: [
        {
          name: 'shop',
          user_id: 1,
          tokens: [{ access_token: 'shop-token' }],
          domains: [
            { id: 10, domain: 'shop.example', subdomains: [{ id: 11, prefix: 'api' }] },
            { id: 20, domain: 'extra.example', subdomains: [{ id: 21, prefix: 'www' }] },
          ],
          alerts: [
            {
              name: 'apex a',
              type: 'DNS Record',
              subtype: 'A',
              filter: 'equals',
              filter_value: '192.0.2.1',
              target: 'shop.example',
            },
          ],
        },
      ],
    });
    return cliEnv({ NETWORKCALC_BASE_URL: emulator().url, SHOP_TOKEN: 'shop-token' });
  }

  it('proposes the Domain / networkcalc_domain declaration of each, none for a declared one', async () => {
    const env = await seed();
    app = new FixtureApp({ main: appStack(true) });
    const text = await ncalc(['drift', '--suggest'], { cwd: app.dir, env });
    expect(text.stderr).toBe('');
    // Exclusive ownership: the targets added in the console are planned for delete, so drift.
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(
      `domain "extra.example" (id 20) was added in the console and the app does not declare it (ncalc apply deletes it: the account is owned exclusively); to keep it, declare new Domain(this, 'ExtraExample', { name: 'extra.example' }), or in HCL resource "networkcalc_domain" "extra_example" { name = "extra.example" } with an import block of id "20"`,
    );
    expect(text.stdout).toContain(
      `subdomain "www.extra.example" (id 21) was added in the console and the app does not declare it (ncalc apply deletes it: the account is owned exclusively); to keep it, declare new Subdomain(this, 'WwwExtraExample', { domain: 'extra.example', prefix: 'www' }), or in HCL resource "networkcalc_subdomain" "www_extra_example" { domain_id = 20, prefix = "www" } with an import block of id "21"`,
    );
    expect(text.stdout).toContain(`{ domain: 'shop.example', prefix: 'api' }`);
    expect(text.stdout).toContain(
      'Suggested edits to the code: 0 of 0 alerts can be adopted by an edit; 3 domains and subdomains to declare by hand',
    );
    expect(text.stdout).not.toContain('domain "shop.example" (id 10)');

    const json = await ncalc(['drift', '--suggest', '--json'], { cwd: app.dir, env });
    const doc = JSON.parse(json.stdout) as {
      suggest: { suggestions: Array<{ kind: string; alert: string; diff: unknown }> };
    };
    expect(doc.suggest.suggestions.map((s) => [s.kind, s.alert, s.diff])).toEqual([
      ['undeclared', 'api.shop.example', null],
      ['undeclared', 'extra.example', null],
      ['undeclared', 'www.extra.example', null],
    ]);
  });

  it('under additive ownership the same targets are left in place, said so, and are not drift', async () => {
    const env = await seed();
    app = new FixtureApp({ main: appStack(true, 'additive') });
    const text = await ncalc(['drift', '--suggest'], { cwd: app.dir, env });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `domain "extra.example" (id 20) was added in the console and the app does not declare it (ncalc leaves it in place); to keep it, declare new Domain(this, 'ExtraExample', { name: 'extra.example' })`,
    );
    expect(text.stdout).not.toContain('ncalc apply deletes it');
  });

  it('an app that declares no targets gets no target suggestions', async () => {
    const env = await seed();
    app = new FixtureApp({ main: appStack(false) });
    const r = await ncalc(['drift', '--suggest', '--json'], { cwd: app.dir, env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { suggest: { suggestions: unknown[] } };
    expect(doc.suggest.suggestions).toEqual([]);
  });
});
