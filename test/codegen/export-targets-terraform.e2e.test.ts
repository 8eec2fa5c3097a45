/**
 * `ncalc export --with-targets --hcl` applied by the real terraform with our provider against
 * the emulator (one DELETE form, latency): the account's domains, subdomains and alerts are
 * all imported (nothing added, nothing changed), and the next plan is empty.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { cliEnv, ncalc } from '../cli/support';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from '../provider/nc-harness';

jest.setTimeout(300_000);

let emu: RunningEmulator | undefined;
let sb: NetworkcalcSandbox | undefined;
afterEach(async () => {
  sb?.dispose();
  await emu?.close();
});

it('terraform imports every exported domain, subdomain and alert, adds none, then plans no changes', async () => {
  requirePrerequisites();
  emu = await startEmulator({ deleteForm: 'path', randomSeed: 5 });
  await emu.control.addFault({ kind: 'latency', latencyMs: 20, match: { path: '/api/' } });
  await emu.control.createAlert('demo', {
    name: 'apex mx',
    type: 'DNS Record',
    subtype: 'MX',
    filter: 'contains',
    filter_value: 'mail',
    target: 'example.com',
  });
  await emu.control.createAlert('demo', {
    name: 'www cert',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: '30',
    target: 'www.example.com',
  });
  const [demo] = (await emu.control.state()).accounts.filter((a) => a.name === 'demo');
  const targets = demo!.domains.length + demo!.subdomains.length;
  sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  const env = cliEnv({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  const ex = await ncalc(['export', '--with-targets', '--hcl', 'main.tf', '--cdk', 'cdktf'], { cwd: sb.workDir, env });
  expect(ex.code).toBe(0);
  expect(readFileSync(path.join(sb.workDir, 'main.tf'), 'utf8')).toContain('resource "networkcalc_subdomain"');

  expectStatus(await sb.terraform(['init']), 0);
  expectStatus(await sb.terraform(['fmt', '-check']), 0);
  const plan = await sb.terraform(['plan', '-detailed-exitcode']);
  expect(plan.output).toContain(`Plan: ${targets + 2} to import, 0 to add, 0 to change, 0 to destroy.`);
  expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
  expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);

  // Adopted, not copied: the account holds what it held.
  const after = (await emu.control.state()).accounts.find((a) => a.name === 'demo')!;
  expect(after.domains.map((d) => d.id)).toEqual(demo!.domains.map((d) => d.id));
  expect(after.subdomains.map((s) => s.id)).toEqual(demo!.subdomains.map((s) => s.id));
  expect(after.alerts.map((a) => a.id)).toEqual(demo!.alerts.map((a) => a.id));
});
