/**
 * Both doors on one account, with the real terraform and a real CDK Terrain app: once
 * terraform has applied a stack (its state at `<app>/terraform.<stack>.tfstate`, where the
 * stack's local backend puts it), ncalc plan and drift warn, and apply and destroy refuse to
 * write to the alerts that state holds, unless given --ignore-terraform-state. Then a fresh
 * runner (no state, no .terraform): `ncalc import-blocks` writes the import blocks, and
 * terraform imports every alert, adds none, and plans nothing after.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from '../provider/nc-harness';
import { cliEnv, ncalc, writeCdktnApp } from './support';

jest.setTimeout(240_000);

const MAIN = `const { App, TerraformStack } = require('cdktn');
const { Alert, AlertTarget, NetworkcalcAccount } = require('cdktf-provider-networkcalc');
const app = new App();
const stack = new TerraformStack(app, 'prod');
new NetworkcalcAccount(stack, 'Account');
const value = process.env.ALERT_VALUE || '192.0.2.1';
for (const n of [1, 2, 3])
  new Alert(stack, 'Alert' + n, {
    name: 'prod alert ' + n,
    target: AlertTarget.domain('example.com'),
    dnsRecord: { record: 'A', filter: 'equals', value },
  });
app.synth();
`;

describe('ncalc beside terraform on one account', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let app: string;
  let stackDir: string;
  let stateFile: string;
  const env = (more: Record<string, string> = {}) =>
    cliEnv({ NETWORKCALC_TOKEN: DEMO_ACCOUNT.token, NETWORKCALC_BASE_URL: emu.url, ...more });
  const run = (args: string[], more: Record<string, string> = {}) => ncalc(args, { cwd: app, env: env(more) });
  const live = () => new NetworkCalcClient({ baseUrl: emu.url, token: DEMO_ACCOUNT.token }).listAlerts();
  const apiCalls = async () => (await emu.control.requests()).filter((r) => r.path.startsWith('/api/'));
  const writes = async () => (await apiCalls()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'path' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token }, 'app');
    app = sb.workDir;
    writeCdktnApp(sb.root, app, MAIN);
    stackDir = path.join(app, 'cdktf.out', 'stacks', 'prod');
    stateFile = path.join(app, 'terraform.prod.tfstate');
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('GIVEN a stack terraform applied THEN plan and drift warn, apply and destroy refuse, and write nothing; --ignore-terraform-state writes', async () => {
    const synth = await run(['synth']);
    expect(synth.code).toBe(0);
    // The backend CDK Terrain writes: the state beside the app.
    const json = JSON.parse(readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8'));
    expect(json.terraform.backend.local.path).toBe(stateFile);
    expectStatus(await sb.terraform(['init'], { cwd: stackDir }), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve'], { cwd: stackDir }), 0);
    expect(existsSync(stateFile)).toBe(true);
    const ids = (await live()).map((a) => a.id).sort((a, b) => a - b);
    expect(ids).toHaveLength(3);

    // In sync: nothing to say.
    const quiet = await run(['plan', '--detailed-exitcode']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain('Terraform state');

    // The app changed: ncalc would update the three alerts terraform holds.
    await emu.control.clearRequests();
    const changed = { ALERT_VALUE: '192.0.2.9' };
    const plan = await run(['plan'], changed);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(
      `the Terraform state ${stateFile} (stack prod) holds 3 alerts this plan would change: "prod alert 1" (id ${(await live()).find((a) => a.name === 'prod alert 1')!.id}, networkcalc_alert.Alert1_`,
    );
    expect(plan.stdout).toContain('pass --ignore-terraform-state to write anyway');
    const planJson = JSON.parse((await run(['plan', '--json'], changed)).stdout);
    expect(planJson.accounts[0].warnings.join('\n')).toContain(`the Terraform state ${stateFile} (stack prod)`);
    const drift = await run(['drift', '--format', 'markdown'], changed);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`> ⚠️ the Terraform state ${stateFile} (stack prod) holds 3 alerts`);

    const apply = await run(['apply', '--auto-approve'], changed);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      'Error: refusing to apply: Terraform holds some of these alerts; nothing was changed.',
    );
    expect(apply.stderr).toContain(stateFile);
    const applyJson = JSON.parse((await run(['apply', '--auto-approve', '--json'], changed)).stdout);
    expect(applyJson.error.code).toBe('TERRAFORM_STATE');

    // A saved plan carries the warning: applying it is refused the same way.
    expect((await run(['plan', '--save', 'plan.json'], changed)).code).toBe(0);
    const saved = await run(['apply', 'plan.json']);
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain(`Error: refusing to apply: Terraform holds some of these alerts`);

    const destroy = await run(['destroy', '--stack', 'prod', '--auto-approve']);
    expect(destroy.code).toBe(1);
    expect(destroy.stderr).toContain('Error: refusing to destroy: Terraform holds some of these alerts');
    expect(destroy.stderr).toContain(
      `the Terraform state ${stateFile} (stack prod) holds 3 alerts this plan would delete`,
    );
    expect(await writes()).toEqual([]);
    expect((await live()).map((a) => a.id).sort((a, b) => a - b)).toEqual(ids);

    // A state that is not JSON: a clear error naming it, before any call, quoting none of it.
    const aside = `${stateFile}.saved`;
    renameSync(stateFile, aside);
    writeFileSync(stateFile, '{"version": 4, "secret": "s3cr3t-value" trailing');
    try {
      await emu.control.clearRequests();
      const broken = await run(['plan']);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`${stateFile} (the Terraform state of stack prod) is not JSON`);
      expect(broken.stderr + broken.stdout).not.toContain('s3cr3t');
      expect(await apiCalls()).toEqual([]);
    } finally {
      renameSync(aside, stateFile);
    }

    // Told to: apply writes the alerts terraform holds.
    const forced = await run(['apply', '--auto-approve', '--ignore-terraform-state'], changed);
    expect(forced.code).toBe(0);
    expect((await writes()).filter((w) => w.startsWith('PATCH'))).toHaveLength(3);
    // And terraform sees the change as drift to undo: the door that owns them decides (the
    // runs above synthesized the changed app into cdktf.out; the app is back as it was).
    expect((await run(['synth'])).code).toBe(0);
    const back = await sb.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir });
    expectStatus(back, 2);
    expect(back.output).toContain('Plan: 0 to add, 3 to change, 0 to destroy.');
    expectStatus(await sb.terraform(['apply', '-auto-approve'], { cwd: stackDir }), 0);
  });

  test('GIVEN a fresh runner (no state, no .terraform) THEN ncalc import-blocks makes terraform import every alert and add none', async () => {
    const ids = (await live()).map((a) => a.id).sort((a, b) => a - b);
    expect(ids).toHaveLength(3);
    rmSync(path.join(stackDir, '.terraform'), { recursive: true, force: true });
    rmSync(stateFile, { force: true });
    rmSync(`${stateFile}.backup`, { force: true });

    await emu.control.clearRequests();
    const blocks = await run(['import-blocks']);
    expect(blocks.stderr).toContain('Wrote 3 import blocks to cdktf.out/stacks/prod/networkcalc-imports.tf.');
    expect(blocks.code).toBe(0);
    expect(await writes()).toEqual([]);
    const file = readFileSync(path.join(stackDir, 'networkcalc-imports.tf'), 'utf8');
    const stack = JSON.parse(readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8'));
    const addresses = Object.keys(stack.resource.networkcalc_alert).map((k) => `networkcalc_alert.${k}`);
    for (const a of addresses) expect(file).toContain(`to = ${a}\n`);
    for (const id of ids) expect(file).toContain(`id = "${id}"\n`);
    // To stdout as well.
    const out = await run(['import-blocks', '--no-synth', '--out', '-']);
    expect(out.stdout).toBe(file);
    const doc = JSON.parse((await run(['import-blocks', '--no-synth', '--json'])).stdout);
    expect(doc).toMatchObject({ command: 'import-blocks', files: ['cdktf.out/stacks/prod/networkcalc-imports.tf'] });
    expect(doc.blocks.map((b: { id: number }) => b.id).sort((a: number, b: number) => a - b)).toEqual(ids);

    expectStatus(await sb.terraform(['init'], { cwd: stackDir }), 0);
    const plan = await sb.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir });
    expectStatus(plan, 2);
    expect(plan.output).toContain('Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.');
    const apply = await sb.terraform(['apply', '-auto-approve'], { cwd: stackDir });
    expectStatus(apply, 0);
    expect(apply.output).toContain('Apply complete! Resources: 3 imported, 0 added, 0 changed, 0 destroyed.');
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir }), 0);
    expect((await live()).map((a) => a.id).sort((a, b) => a - b)).toEqual(ids);

    // The state holds them all now: nothing more to import.
    const again = await run(['import-blocks', '--no-synth', '--out', '-']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('No import blocks');
  });
});
