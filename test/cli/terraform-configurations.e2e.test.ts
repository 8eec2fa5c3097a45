/**
 * A Terraform configuration outside the app (a folder of .tf files applied with plain
 * terraform) that manages an alert of the app's account: the app's exclusive ownership would
 * delete it. Named with --terraform-config or in cdktf.json, its state is read with the real
 * terraform, whatever its backend (local, http here): plan names it, apply and destroy refuse
 * and write nothing. One that cannot be read (its backend not initialised, its server gone)
 * refuses the account before any call to it, naming the folder and the fix;
 * --ignore-terraform-state overrides. import-blocks writes no block for an alert of the app that
 * such a configuration imported. A name that is not a configuration is refused before any call.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from '../provider/nc-harness';
import { startHttpStateServer, type HttpStateServer } from '../helpers/state-backends';
import { cliEnv, ncalc, writeCdktnApp } from './support';

jest.setTimeout(240_000);

const MAIN = `const cdktn = require('cdktn');
const { Alert, AlertTarget, NetworkcalcAccount } = require('cdktf-provider-networkcalc');
const app = new cdktn.App();
const stack = new cdktn.TerraformStack(app, 'prod');
new NetworkcalcAccount(stack, 'Account');
new Alert(stack, 'Alert', {
  name: 'app alert',
  target: AlertTarget.domain('example.com'),
  dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.1' },
});
app.synth();
`;

/** A configuration of one alert in the demo account's example.com (domain 1), with this backend block. */
const outsideConfig = (
  name: string,
  backend = '',
  value = '192.0.2.7',
) => `${REQUIRED_PROVIDERS.replace('terraform {', `terraform {\n${backend}`)}
provider "networkcalc" {}

resource "networkcalc_alert" "outside" {
  name         = "${name}"
  type         = "DNS Record"
  subtype      = "A"
  filter       = "equals"
  filter_value = "${value}"
  target_type  = "domain"
  target_id    = 1
}
`;

describe('ncalc beside a Terraform configuration outside the app', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let http: HttpStateServer;
  let app: string;
  const env = () => cliEnv({ NETWORKCALC_TOKEN: DEMO_ACCOUNT.token, NETWORKCALC_BASE_URL: emu.url });
  const run = (args: string[]) => ncalc(args, { cwd: app, env: env() });
  const live = async () =>
    (await new NetworkCalcClient({ baseUrl: emu.url, token: DEMO_ACCOUNT.token }).listAlerts())
      .map((a) => a.name)
      .sort();
  const apiCalls = async () => (await emu.control.requests()).filter((r) => r.path.startsWith('/api/'));
  const writes = async () => (await apiCalls()).filter((r) => r.method !== 'GET');

  /** A folder next to the app, terraform applied there (init first). */
  async function applied(name: string, hcl: string): Promise<string> {
    const dir = path.join(sb.root, 'infra', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'main.tf'), hcl);
    expectStatus(await sb.terraform(['init'], { cwd: dir }), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve'], { cwd: dir }), 0);
    return dir;
  }

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'path' });
    http = await startHttpStateServer();
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token }, 'app');
    app = sb.workDir;
    writeCdktnApp(sb.root, app, MAIN);
    const first = await run(['apply', '--auto-approve']);
    expect(first.code).toBe(0);
  });
  afterAll(async () => {
    sb?.dispose();
    await http?.close();
    await emu?.close();
  });

  /** Plan names the configuration; apply and destroy --all-in-scope refuse and write nothing. */
  async function refused(args: string[], dir: string, alert: string): Promise<void> {
    await emu.control.clearRequests();
    const plan = await run(['plan', ...args]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(
      `the Terraform state of the configuration ${dir}, workspace default (outside the app) holds 1 alert this plan would delete: "${alert}"`,
    );
    expect(plan.stderr).toMatch(/Read 1 Terraform state of 1 Terraform configuration outside the app in \d+\.\d s\./);
    const apply = await run(['apply', '--auto-approve', ...args]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      'Error: refusing to apply: Terraform holds some of these alerts; nothing was changed.',
    );
    const destroy = await run(['destroy', '--all-in-scope', '--auto-approve', ...args]);
    expect(destroy.code).toBe(1);
    expect(destroy.stderr).toContain('Error: refusing to destroy: Terraform holds some of these alerts');
    expect(await writes()).toEqual([]);
    expect(await live()).toContain(alert);
  }

  test('a local state in another folder: unnamed, apply would delete its alert; named with the flag or in cdktf.json, plan names it and apply and destroy refuse', async () => {
    const dir = await applied('alerts', outsideConfig('outside alert'));
    expect(await live()).toEqual(['app alert', 'outside alert']);
    // Not named: ncalc cannot know, and exclusive ownership plans the delete.
    const blind = await run(['plan']);
    expect(blind.code).toBe(0);
    expect(blind.stdout).toMatch(/- .*outside alert/);
    expect(blind.stdout).not.toContain('outside the app');

    await refused(['--terraform-config', '../infra/alerts'], dir, 'outside alert');
    const cdktfJson = path.join(app, 'cdktf.json');
    const before = readFileSync(cdktfJson, 'utf8');
    try {
      writeFileSync(
        cdktfJson,
        JSON.stringify({ ...JSON.parse(before), networkcalc: { terraformConfigurations: ['../infra/alerts'] } }),
      );
      await refused([], dir, 'outside alert');
      // Named twice (cdktf.json and the flag): read once.
      await refused(['--terraform-config', dir], dir, 'outside alert');
    } finally {
      writeFileSync(cdktfJson, before);
    }
    // Applied by its own door: the configuration destroys what it holds.
    expectStatus(await sb.terraform(['destroy', '-auto-approve'], { cwd: dir }), 0);
    expect(await live()).toEqual(['app alert']);
  });

  test('an http backend: not initialised, or its server gone, it refuses the account naming the folder and the fix; read, plan names it; --ignore-terraform-state overrides', async () => {
    const backend = `  backend "http" {\n    address = "${http.url('outside')}"\n  }\n`;
    const dir = await applied('remote', outsideConfig('remote alert', backend));
    expect(http.stored('outside')).toContain('networkcalc_alert');
    await refused(['--terraform-config', dir], dir, 'remote alert');

    // A fresh checkout of the folder: ncalc does not initialise someone else's configuration.
    const fresh = path.join(sb.root, 'infra', 'fresh');
    mkdirSync(fresh);
    writeFileSync(path.join(fresh, 'main.tf'), outsideConfig('remote alert', backend));
    await emu.control.clearRequests();
    const uninitialised = await run(['apply', '--auto-approve', '--terraform-config', fresh]);
    expect(uninitialised.code).toBe(1);
    expect(uninitialised.stdout + uninitialised.stderr).toContain(
      `the Terraform state of the Terraform configuration ${fresh}, which may hold alerts of any account of the app, cannot be read: terraform could not read it (Backend initialization required, please run "terraform init"): run terraform init in ${fresh}`,
    );
    expect(uninitialised.stderr).toMatch(
      /Could not read the Terraform states of 1 Terraform configuration outside the app \(\d+\.\d s\): each account they guard fails with the reason\./,
    );
    expect(await apiCalls()).toEqual([]);

    // The state server gone: the same refusal, saying to give the backend's credentials.
    await http.close();
    const gone = await run(['apply', '--auto-approve', '--terraform-config', dir]);
    expect(gone.code).toBe(1);
    expect(gone.stdout + gone.stderr).toContain(
      `the Terraform state of the Terraform configuration ${dir}, which may hold alerts of any account of the app, cannot be read: terraform could not read it`,
    );
    expect(gone.stdout + gone.stderr).toContain('or pass --ignore-terraform-state');
    expect(await apiCalls()).toEqual([]);
    expect(await live()).toEqual(['app alert', 'remote alert']);

    // --ignore-terraform-state: not read, and ncalc's exclusive ownership deletes the alert.
    const forced = await run(['apply', '--auto-approve', '--ignore-terraform-state', '--terraform-config', dir]);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(await live()).toEqual(['app alert']);
  });

  test('import-blocks writes no block for an alert of the app that an outside configuration imported', async () => {
    const client = new NetworkCalcClient({ baseUrl: emu.url, token: DEMO_ACCOUNT.token });
    const id = (await client.listAlerts()).find((a) => a.name === 'app alert')!.id;
    const dir = path.join(sb.root, 'infra', 'adopted');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'main.tf'), outsideConfig('app alert', '', '192.0.2.1'));
    expectStatus(await sb.terraform(['init'], { cwd: dir }), 0);
    expectStatus(await sb.terraform(['import', 'networkcalc_alert.outside', String(id)], { cwd: dir }), 0);
    try {
      const blind = await run(['import-blocks', '--no-synth', '--out', '-']);
      expect(blind.code).toBe(0);
      expect(blind.stdout).toContain(`id = "${id}"`);
      const named = await run(['import-blocks', '--no-synth', '--out', '-', '--terraform-config', dir]);
      expect(named.code).toBe(0);
      expect(named.stdout).toBe('');
      expect(named.stderr).toContain(
        'No import blocks: every live alert the app declares is held by a Terraform state',
      );
    } finally {
      expectStatus(await sb.terraform(['state', 'rm', 'networkcalc_alert.outside'], { cwd: dir }), 0);
    }
  });

  test('a name that is not a Terraform configuration is refused before any call', async () => {
    await emu.control.clearRequests();
    const missing = await run(['plan', '--terraform-config', '../nowhere']);
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toContain(
      `--terraform-config ../nowhere: ${path.join(sb.root, 'nowhere')} is not a directory; name the folder of the Terraform configuration`,
    );
    const empty = path.join(sb.root, 'empty');
    mkdirSync(empty);
    const noFiles = await run(['plan', '--terraform-config', empty]);
    expect(noFiles.code).toBe(1);
    expect(noFiles.stdout + noFiles.stderr).toContain(`holds no .tf or .tf.json file`);
    const cdktfJson = path.join(app, 'cdktf.json');
    const before = readFileSync(cdktfJson, 'utf8');
    try {
      writeFileSync(
        cdktfJson,
        JSON.stringify({ ...JSON.parse(before), networkcalc: { terraformConfigurations: 'x' } }),
      );
      const bad = await run(['plan']);
      expect(bad.code).toBe(1);
      expect(bad.stdout + bad.stderr).toContain('"networkcalc"."terraformConfigurations" is a string');
    } finally {
      writeFileSync(cdktfJson, before);
    }
    expect(await apiCalls()).toEqual([]);
  });
});
