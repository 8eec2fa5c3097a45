/**
 * Credentials never cross accounts, through real terraform: the provider block of account
 * alpha names its token variable (refused by the service: expired), and the environment's
 * default client credentials (NETWORKCALC_CLIENT_ID / NETWORKCALC_CLIENT_SECRET) are account
 * beta's. A block that names a credential reads only what it names, so alpha's refusal is
 * alpha's error: no request with beta's identity, nothing read from or written to beta.
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from './nc-harness';

jest.setTimeout(180_000);

const SEED = {
  accounts: [
    {
      name: 'alpha',
      user_id: 11,
      tokens: [{ access_token: 'tok-alpha-expired', expires_at: '2020-01-01T00:00:00Z' }],
      domains: [{ id: 1, domain: 'alpha.example' }],
    },
    {
      name: 'beta',
      user_id: 22,
      credentials: [{ client_id: 'beta-client', client_secret: 'beta-secret-9f3e' }],
      domains: [{ id: 10, domain: 'beta.example' }],
      alerts: [
        {
          name: 'beta mx',
          type: 'DNS Record',
          subtype: 'MX',
          filter: 'contains',
          filter_value: 'mx.beta.example',
          target: 'beta.example',
        },
      ],
    },
  ],
};

const CONFIG = `${REQUIRED_PROVIDERS}
provider "networkcalc" {
  token_env = "ALPHA_NC_TOKEN"
}

resource "networkcalc_alert" "mx" {
  name         = "alpha mx"
  type         = "DNS Record"
  subtype      = "MX"
  filter       = "contains"
  filter_value = "mx.alpha.example"
  target_type  = "domain"
  target_id    = 1
}

data "networkcalc_alerts" "all" {}

output "names" {
  value = [for a in data.networkcalc_alerts.all.alerts : a.name]
}
`;

describe("a provider block whose token is refused, the default client credentials being another account's", () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ seed: SEED });
    sb = new NetworkcalcSandbox({
      NETWORKCALC_BASE_URL: emu.url,
      ALPHA_NC_TOKEN: 'tok-alpha-expired',
      NETWORKCALC_CLIENT_ID: 'beta-client',
      NETWORKCALC_CLIENT_SECRET: 'beta-secret-9f3e',
    });
    sb.writeConfig(CONFIG);
    expectStatus(await sb.terraform(['init']), 0);
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test("apply fails with alpha's own error; 0 requests as beta, beta's alerts untouched", async () => {
    await emu.control.clearRequests();
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 1);
    const log = await emu.control.requests();
    expect(log.filter((r) => r.claimedAccount === 'beta').map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // Alpha's token was tried, and refused.
    const alpha = log.filter((r) => r.claimedAccount === 'alpha');
    expect(alpha.length).toBeGreaterThan(0);
    expect(alpha.every((r) => r.status === 401)).toBe(true);
    const beta = (await emu.control.state()).accounts.find((a) => a.name === 'beta')!;
    expect(beta.alerts.map((a) => a.name)).toEqual(['beta mx']);
    const text = (apply.stdout + apply.stderr).replace(/\s+/g, ' ');
    expect(text).toContain('set ALPHA_NC_TOKEN to a valid access token');
    expect(text).not.toMatch(/NETWORKCALC_CLIENT_ID|NETWORKCALC_CLIENT_SECRET|beta mx/);
  });
});
