/**
 * `ncalc export --hcl` moves an existing account to plain Terraform in one step: the file is
 * `terraform fmt`-clean, its import blocks adopt every live alert (no copies), and the next
 * plan has nothing to do.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { cliEnv, ncalcProcess } from '../cli/support';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';

jest.setTimeout(180_000);

let emu: RunningEmulator;
let sandbox: NetworkcalcSandbox;
let tmp: string;

beforeAll(async () => {
  requirePrerequisites();
  emu = await startEmulator({ port: 0 });
  tmp = mkdtempSync(path.join(tmpdir(), 'nc-export-'));
  // GIVEN an account managed by hand: targets by name and by id, and a value HCL would interpolate.
  await emu.control.createAlert('demo', {
    name: 'www A',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.10',
    target: 'www.example.com',
  });
  await emu.control.createAlert('demo', {
    name: 'apex SPF "strict"',
    type: 'SPF Record',
    filter: 'contains',
    filter_value: 'include:${spf.example.com} ~all',
    target: 'example.com',
  });
  await emu.control.createAlert('demo', {
    name: 'org certificate',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: '14',
    target_type: 'domain',
    target_id: 4,
  });
  sandbox = new NetworkcalcSandbox({ ACME_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emu.url });
});
afterAll(async () => {
  sandbox?.dispose();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  await emu?.close();
});

it('export --hcl → terraform fmt/init/plan/apply imports every alert → the next plan is empty', async () => {
  // WHEN the account is exported with its own credential variables
  const tf = path.join(tmp, 'alerts.tf');
  const r = await ncalcProcess(['export', '--account', 'ACME', '--out', path.join(tmp, 'alerts.ts'), '--hcl', tf], {
    cwd: tmp,
    env: cliEnv({ ACME_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emu.url }),
  });
  expect(r.code).toBe(0);
  const hcl = readFileSync(tf, 'utf8');
  expect(hcl).toContain('token_env         = "ACME_TOKEN"');
  expect(hcl).not.toContain('demo-token');
  copyFileSync(tf, path.join(sandbox.workDir, 'alerts.tf'));

  // THEN terraform accepts it as it is
  expectStatus(await sandbox.terraform(['fmt', '-check', '-diff']), 0);
  expectStatus(await sandbox.terraform(['init']), 0);
  const plan = await sandbox.terraform(['plan', '-detailed-exitcode']);
  expectStatus(plan, 2);
  expect(plan.stdout).toContain('Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.');
  const apply = await sandbox.terraform(['apply', '-auto-approve']);
  expectStatus(apply, 0);
  expect(apply.stdout).toContain('Resources: 3 imported, 0 added, 0 changed, 0 destroyed.');
  expectStatus(await sandbox.terraform(['plan', '-detailed-exitcode']), 0);

  // AND the account holds the same three alerts: adopted, not copied
  const state = (await emu.control.state()) as {
    accounts: { name: string; alerts: { name: string; filter_value: string }[] }[];
  };
  const demo = state.accounts.find((a) => a.name === 'demo')!;
  expect(demo.alerts.map((a) => a.name).sort()).toEqual(['apex SPF "strict"', 'org certificate', 'www A']);
  expect(demo.alerts.find((a) => a.name === 'apex SPF "strict"')!.filter_value).toBe('include:${spf.example.com} ~all');
});
