/**
 * A Terraform user adopts existing targets: a CDK Terrain app declares a Domain and a
 * Subdomain the account already has (and an alert on the subdomain) with no Terraform state;
 * `ncalc import-blocks` writes a block for each, by name, and the real terraform imports all
 * three, adds none, and plans nothing after; then there is nothing more to import.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from '../provider/nc-harness';
import { cliEnv, ncalc, writeCdktnApp } from './support';

jest.setTimeout(240_000);

const MAIN = `const { App, TerraformStack } = require('cdktn');
const { Alert, Domain, NetworkcalcAccount } = require('cdktf-provider-networkcalc');
const app = new App();
const stack = new TerraformStack(app, 'prod');
new NetworkcalcAccount(stack, 'Account');
const apex = new Domain(stack, 'Apex', { name: 'Example.com' });
const www = apex.subdomain('www');
new Alert(stack, 'WwwCert', { name: 'www cert', target: www, certificate: { expiresInDays: 30 } });
app.synth();
`;

let emu: RunningEmulator | undefined;
let sb: NetworkcalcSandbox | undefined;
afterEach(async () => {
  sb?.dispose();
  await emu?.close();
});

it('import-blocks adopts the declared domain and subdomain the account has; terraform imports them, adds none', async () => {
  requirePrerequisites();
  emu = await startEmulator({ deleteForm: 'path' });
  await emu.control.addFault({ kind: 'latency', latencyMs: 20, match: { path: '/api/' } });
  const alert = await emu.control.createAlert('demo', {
    name: 'www cert',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: '30',
    target: 'www.example.com',
  });
  sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token }, 'app');
  const app = sb.workDir;
  writeCdktnApp(sb.root, app, MAIN);
  const stackDir = path.join(app, 'cdktf.out', 'stacks', 'prod');
  const env = cliEnv({ NETWORKCALC_TOKEN: DEMO_ACCOUNT.token, NETWORKCALC_BASE_URL: emu.url });
  const run = (args: string[]) => ncalc(args, { cwd: app, env });

  const blocks = await run(['import-blocks']);
  expect(blocks.stderr).toContain('Wrote 3 import blocks to cdktf.out/stacks/prod/networkcalc-imports.tf.');
  expect(blocks.code).toBe(0);
  const file = readFileSync(path.join(stackDir, 'networkcalc-imports.tf'), 'utf8');
  const stack = JSON.parse(readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8'));
  const [domainKey] = Object.keys(stack.resource.networkcalc_domain);
  const [subdomainKey] = Object.keys(stack.resource.networkcalc_subdomain);
  expect(file).toContain(`to = networkcalc_domain.${domainKey}\n  id = "${DEMO_ACCOUNT.domains['example.com']}"\n`);
  expect(file).toContain(
    `to = networkcalc_subdomain.${subdomainKey}\n  id = "${DEMO_ACCOUNT.subdomains['www.example.com']}"\n`,
  );
  expect(file).toContain(`id = "${alert.id}"\n`);

  expectStatus(await sb.terraform(['init'], { cwd: stackDir }), 0);
  const plan = await sb.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir });
  expectStatus(plan, 2);
  expect(plan.output).toContain('Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.');
  expectStatus(await sb.terraform(['apply', '-auto-approve'], { cwd: stackDir }), 0);
  expectStatus(await sb.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir }), 0);

  // The state holds them now: nothing more to import.
  const again = await run(['import-blocks', '--no-synth', '--out', '-']);
  expect(again.code).toBe(0);
  expect(again.stdout).toBe('');
  expect(again.stderr).toContain('No import blocks');
});
