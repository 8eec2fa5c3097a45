/**
 * Domain and Subdomain constructs through real terraform: the stack an app synthesizes (two
 * accounts, each with its declared domain, a subdomain, alerts by object and by name, and a
 * report) provisions two empty accounts in one apply against the emulator with creates
 * answered without ids; the second plan is empty, nothing is duplicated, destroy empties both.
 */
import { Testing, type TerraformStack } from 'cdktf';
import { Alert, AlertTarget, Domain, NetworkcalcAccount, ReportTarget, ReportTrigger } from '../../src/constructs';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';
// Testing.synthScope's temporary directories, removed after this file's tests.
import '../constructs/support';

jest.setTimeout(240_000);

const ACCOUNTS = ['team_a', 'team_b'];
const SEED = {
  accounts: ACCOUNTS.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
};

function synth(): string {
  return Testing.synthScope((scope) => {
    const stack = scope as TerraformStack;
    for (const alias of ACCOUNTS) {
      const account = new NetworkcalcAccount(stack, alias, { alias, tokenEnv: `${alias.toUpperCase()}_TOKEN` });
      const shop = new Domain(stack, `${alias}-shop`, { account, name: 'shop.example' });
      const www = shop.subdomain('www');
      new Alert(stack, `${alias}-www`, {
        account,
        name: 'www A',
        target: www,
        dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.1' },
      });
      new Alert(stack, `${alias}-tls`, {
        account,
        name: 'shop tls',
        target: AlertTarget.domain('shop.example'),
        certificate: { expiresInDays: 14 },
      });
      new ReportTrigger(stack, `${alias}-report`, { account, target: ReportTarget.of(shop) });
    }
  });
}

describe('Domain and Subdomain constructs through terraform', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ seed: SEED, deleteForm: 'body', targetCreateOmitsId: true });
    sb = new NetworkcalcSandbox({
      NETWORKCALC_BASE_URL: emu.url,
      TEAM_A_TOKEN: 'team_a-token',
      TEAM_B_TOKEN: 'team_b-token',
    });
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('GIVEN two empty accounts WHEN the synthesized stack is applied once THEN each has its domain, subdomain, alerts and report once; second plan empty', async () => {
    await emu.control.addFault({ kind: 'latency', latencyMs: 100 });
    sb.writeConfig(synth(), 'main.tf.json');
    expectStatus(await sb.terraform(['init']), 0);
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.output).toContain('10 added, 0 changed, 0 destroyed');

    const state = await emu.control.state();
    for (const name of ACCOUNTS) {
      const a = state.accounts.find((x) => x.name === name)!;
      expect(a.domains.map((d) => d.domain)).toEqual(['shop.example']);
      expect(a.subdomains.map((s) => s.prefix)).toEqual(['www']);
      expect(a.alerts.map((x) => [x.name, x.target_type]).sort()).toEqual([
        ['shop tls', 'domain'],
        ['www A', 'subdomain'],
      ]);
      expect(a.alerts.find((x) => x.name === 'shop tls')!.target_id).toBe(a.domains[0]!.id);
      expect(a.alerts.find((x) => x.name === 'www A')!.target_id).toBe(a.subdomains[0]!.id);
    }
    await emu.control.clearFaults();
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);

    expectStatus(await sb.terraform(['destroy', '-auto-approve']), 0);
    for (const a of (await emu.control.state()).accounts) {
      expect([a.domains.length, a.subdomains.length, a.alerts.length]).toEqual([0, 0, 0]);
    }
  });
});
