/**
 * `ncalc import-blocks` for declared domains and subdomains: an app that declares targets the
 * account already has (made in the console, or by a runner whose state is lost) gets an
 * `import {}` block for each, by name from the account's domains list, so terraform adopts
 * them; a target not live yet gets none, and one a Terraform state holds is left alone.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import type { Json } from '../../src/support/json';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator({ deleteForm: 'path' });

function appStack(): Json {
  const json = stack({
    provider: { alias: 'shop', token_env: 'SHOP_TOKEN' },
    alerts: {
      Www: alert({
        name: 'www a',
        provider: 'networkcalc.shop',
        target_type: 'subdomain',
        target_id: '${networkcalc_subdomain.www.id}',
      }),
    },
  });
  const resource = json.resource as Record<string, Json>;
  resource.networkcalc_domain = {
    apex: { provider: 'networkcalc.shop', name: 'Shop.Example' },
    fresh: { provider: 'networkcalc.shop', name: 'new.example' },
  };
  resource.networkcalc_subdomain = {
    www: { provider: 'networkcalc.shop', domain_id: '${networkcalc_domain.apex.id}', prefix: 'www' },
    api: { provider: 'networkcalc.shop', domain_id: 10, prefix: 'api' },
  };
  return json;
}

/** A Terraform state (format 4) holding these resources of the shop provider. */
function state(resources: Array<{ type: string; name: string; id: number }>): string {
  return JSON.stringify({
    version: 4,
    resources: resources.map((r) => ({
      mode: 'managed',
      type: r.type,
      name: r.name,
      provider: 'provider["registry.terraform.io/networkcalc/networkcalc"].shop',
      instances: [{ attributes: { id: String(r.id) } }],
    })),
  });
}

describe('ncalc import-blocks with declared targets', () => {
  let app: FixtureApp;
  beforeEach(() => {
    app = new FixtureApp({ main: appStack() });
  });
  afterEach(() => app.remove());

  it('writes a block per declared target the account has, by name; none for one not live or held by a state', async () => {
    await emulator().control.seed({
      accounts: [
        {
          name: 'shop',
          user_id: 1,
          tokens: [{ access_token: 'shop-token' }],
          domains: [
            {
              id: 10,
              domain: 'shop.example',
              subdomains: [
                { id: 11, prefix: 'www' },
                { id: 12, prefix: 'api' },
              ],
            },
          ],
        },
      ],
    });
    const env = cliEnv({ NETWORKCALC_BASE_URL: emulator().url, SHOP_TOKEN: 'shop-token' });
    const run = (args: string[]) => ncalc(['import-blocks', ...args], { cwd: app.dir, env });

    const first = await run(['--out', '-']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('the live alerts, domains and subdomains of stack main');
    expect(first.stdout).toContain(
      'import {\n  to       = networkcalc_domain.apex\n  id       = "10"\n  provider = networkcalc.shop\n}',
    );
    expect(first.stdout).toContain('to       = networkcalc_subdomain.www\n  id       = "11"');
    expect(first.stdout).toContain('to       = networkcalc_subdomain.api\n  id       = "12"');
    expect(first.stdout).not.toContain('networkcalc_domain.fresh'); // terraform creates it
    expect(first.stdout).not.toContain('networkcalc_alert'); // not live
    expect(first.stderr).toContain('Wrote 3 import blocks.');

    // The state holds the domain (adopted before) and the www address with another id.
    writeFileSync(
      path.join(app.dir, 'terraform.main.tfstate'),
      state([
        { type: 'networkcalc_domain', name: 'apex', id: 10 },
        { type: 'networkcalc_subdomain', name: 'www', id: 99 },
      ]),
    );
    const doc = JSON.parse((await run(['--json'])).stdout) as {
      blocks: Array<{ address: string; id: number }>;
      not_imported: string[];
    };
    expect(doc.blocks.map((b) => [b.address, b.id])).toEqual([['networkcalc_subdomain.api', 12]]);
    expect(doc.not_imported).toEqual([
      expect.stringContaining(
        'networkcalc_subdomain.www (subdomain "www.shop.example"): ' +
          path.join(app.dir, 'terraform.main.tfstate') +
          ' holds this address with id 99, not the live subdomain 11',
      ),
    ]);
    // Nothing was written to the account.
    const writes = (await emulator().control.requests()).filter((r) => r.method !== 'GET');
    expect(writes).toEqual([]);
  });
});
