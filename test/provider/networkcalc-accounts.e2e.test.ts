/**
 * Two accounts in one configuration (provider aliases with token_env), and the plain-HCL
 * example of examples/terraform-hcl, each through real terraform against the emulator.
 */
import { copyFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { REPO_ROOT } from './harness';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from './nc-harness';

jest.setTimeout(180_000);

const flat = (text: string) => text.replace(/\s+/g, ' ');

const ALPHA_TOKEN = 'tok-alpha-5e1d0c93';
const BETA_TOKEN = 'tok-beta-8b7f2a61';
const SEED = {
  accounts: [
    {
      name: 'alpha',
      user_id: 11,
      tokens: [{ access_token: ALPHA_TOKEN }],
      domains: [{ id: 1, domain: 'example.com' }],
    },
    { name: 'beta', user_id: 22, tokens: [{ access_token: BETA_TOKEN }], domains: [{ id: 10, domain: 'example.net' }] },
  ],
};

function twoAccounts(extra = ''): string {
  const alert = (account: string, domain: string) => `
data "networkcalc_domain" "${account}" {
  provider = networkcalc.${account}
  name     = "${domain}"
}

resource "networkcalc_alert" "${account}" {
  provider     = networkcalc.${account}
  name         = "same name in both accounts"
  type         = "DNS Record"
  subtype      = "MX"
  filter       = "contains"
  filter_value = "mx.${domain}"
  target_type  = "domain"
  target_id    = data.networkcalc_domain.${account}.id
}

data "networkcalc_alerts" "${account}" {
  provider   = networkcalc.${account}
  depends_on = [networkcalc_alert.alpha, networkcalc_alert.beta]
}

output "${account}_ids" {
  value = [for a in data.networkcalc_alerts.${account}.alerts : a.id]
}
`;
  return `${REQUIRED_PROVIDERS}
provider "networkcalc" {
  alias     = "alpha"
  token_env = "ALPHA_NC_TOKEN"
}

provider "networkcalc" {
  alias     = "beta"
  token_env = "BETA_NC_TOKEN"
}
${alert('alpha', 'example.com')}${alert('beta', 'example.net')}${extra}`;
}

describe('two accounts through provider aliases', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  const accountAlerts = async (name: string) =>
    (await emu.control.state()).accounts.find((a) => a.name === name)!.alerts;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ seed: SEED });
    sb = new NetworkcalcSandbox({
      NETWORKCALC_BASE_URL: emu.url,
      ALPHA_NC_TOKEN: ALPHA_TOKEN,
      BETA_NC_TOKEN: BETA_TOKEN,
    });
    sb.writeConfig(twoAccounts());
    expectStatus(await sb.terraform(['init']), 0);
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('each alias writes to its own account only', async () => {
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain('Resources: 2 added, 0 changed, 0 destroyed.');
    const [alpha, beta] = [await accountAlerts('alpha'), await accountAlerts('beta')];
    expect(alpha).toHaveLength(1);
    expect(beta).toHaveLength(1);
    expect(alpha[0]).toMatchObject({ filter_value: 'mx.example.com', target_id: 1 });
    expect(beta[0]).toMatchObject({ filter_value: 'mx.example.net', target_id: 10 });
    expect(sb.stateOf('networkcalc_alert.alpha')).toMatchObject({ id: String(alpha[0]!.id), user_id: 11 });
    expect(sb.stateOf('networkcalc_alert.beta')).toMatchObject({ id: String(beta[0]!.id), user_id: 22 });
    // Each data source sees its own account's alert only.
    expect(flat(apply.stdout)).toContain(`alpha_ids = [ ${alpha[0]!.id}, ]`);
    expect(flat(apply.stdout)).toContain(`beta_ids = [ ${beta[0]!.id}, ]`);
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expect(sb.readState()).not.toContain(ALPHA_TOKEN);
    expect(sb.readState()).not.toContain(BETA_TOKEN);
  });

  test("one account cannot see the other's domains or import its alerts", async () => {
    const betaId = (await accountAlerts('beta'))[0]!.id;
    sb.writeConfig(
      twoAccounts(`
data "networkcalc_domain" "crossed" {
  provider = networkcalc.alpha
  name     = "example.net"
}
`),
    );
    const lookup = await sb.terraform(['plan']);
    expectStatus(lookup, 1);
    expect(flat(lookup.output)).toContain('The account has no domain "example.net". Its domains: example.com.');
    sb.writeConfig(twoAccounts());
    expectStatus(await sb.terraform(['state', 'rm', 'networkcalc_alert.alpha']), 0);
    const r = await sb.terraform(['import', 'networkcalc_alert.alpha', String(betaId)]);
    expectStatus(r, 1);
    expect(flat(r.output)).toContain(`no alert with id ${betaId} in this account`);
    const alphaId = (await accountAlerts('alpha'))[0]!.id;
    expectStatus(await sb.terraform(['import', 'networkcalc_alert.alpha', String(alphaId)]), 0);
  });

  test('destroy empties both accounts', async () => {
    expectStatus(await sb.terraform(['destroy', '-auto-approve']), 0);
    expect(await accountAlerts('alpha')).toEqual([]);
    expect(await accountAlerts('beta')).toEqual([]);
  });
});

describe('examples/terraform-hcl', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator();
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    copyFileSync(path.join(REPO_ROOT, 'examples', 'terraform-hcl', 'main.tf'), path.join(sb.workDir, 'main.tf'));
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('init, plan and apply as its README says; then nothing to do', async () => {
    expectStatus(await sb.terraform(['init']), 0);
    const plan = await sb.terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 2);
    expect(plan.stdout).toContain('Plan: 4 to add, 0 to change, 0 to destroy.');
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toMatch(/report_url = "http:\/\/127\.0\.0\.1:\d+\/reports\//);
    const alerts = (await emu.control.state()).accounts[0]!.alerts;
    expect(alerts.map((a) => a.name).sort()).toEqual([
      'example.com A record',
      'example.com SPF validity',
      'www.example.com certificate expiry',
    ]);
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expectStatus(await sb.terraform(['destroy', '-auto-approve']), 0);
  });
});
