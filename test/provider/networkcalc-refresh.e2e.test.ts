/**
 * Reads are served from one list call per provider process: a refresh of 30 alerts makes
 * a couple of list calls (one per process that reads), never one GET per alert.
 */
import { startEmulator, type RunningEmulator, DEMO_ACCOUNT } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from './nc-harness';

jest.setTimeout(180_000);

const COUNT = 30;

const config = `${REQUIRED_PROVIDERS}
provider "networkcalc" {}

resource "networkcalc_alert" "many" {
  count        = ${COUNT}
  name         = "alert \${count.index}"
  type         = "DNS Record"
  subtype      = "TXT"
  filter       = "contains"
  filter_value = "v=spf1 \${count.index}"
  target_type  = "domain"
  target_id    = 1
}
`;

describe('refresh of many alerts', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator();
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    sb.writeConfig(config);
    expectStatus(await sb.terraform(['init']), 0);
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain(`Resources: ${COUNT} added`);
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  const alertCalls = async () => {
    const requests = await emu.control.requests();
    return {
      lists: requests.filter((q) => q.method === 'GET' && /^\/api\/alerts\/?(\?.*)?$/.test(q.path)).length,
      gets: requests.filter((q) => q.method === 'GET' && /^\/api\/alerts\/\d+/.test(q.path)).length,
      all: requests.length,
    };
  };

  test(`plan -refresh-only of ${COUNT} alerts: one list per process, no per-alert GET`, async () => {
    await emu.control.clearRequests();
    const r = await sb.terraform(['plan', '-refresh-only', '-detailed-exitcode']);
    expectStatus(r, 0);
    expect((r.stdout.match(/Refreshing state\.\.\./g) ?? []).length).toBe(COUNT);
    const calls = await alertCalls();
    expect(calls.gets).toBe(0);
    // Every ReadResource of a refresh goes to one provider process: one list for all 30.
    expect(calls.lists).toBe(1);
    expect(calls.all).toBe(calls.lists);
  });

  test('a normal plan, and one after an out-of-band change, cost the same', async () => {
    await emu.control.clearRequests();
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    const quiet = await alertCalls();
    const alerts = (await emu.control.state()).accounts[0]!.alerts;
    await emu.control.patchAlert(DEMO_ACCOUNT.name, alerts[5]!.id, { filter_value: 'edited' });
    await emu.control.clearRequests();
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 2);
    const drifted = await alertCalls();
    expect(quiet.gets + drifted.gets).toBe(0);
    expect(quiet.lists).toBeLessThanOrEqual(2);
    expect(drifted.lists).toBe(quiet.lists);
  });

  test('a failing list is tried once per process, not once per alert', async () => {
    await emu.control.clearRequests();
    const r = await sb.terraform(['plan', '-refresh-only'], { env: { NETWORKCALC_TOKEN: 'refused-token' } });
    expectStatus(r, 1);
    expect(r.output).toContain('NOT_AUTHORIZED');
    const calls = await alertCalls();
    expect(calls.lists).toBe(1);
    expect(calls.all).toBe(1);
  });
});
