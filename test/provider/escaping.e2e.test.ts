/**
 * `ncalc` and Terraform read one synthesized JSON the same way, also when alert names and
 * values hold `${` or `%{`: an account managed by hand is exported to a cdktf app, `ncalc plan`
 * finds it in sync, and Terraform, given import blocks for the same alerts, validates the
 * JSON, plans to import them with nothing to change, and the next plan is empty.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ROOT, cliEnv, ncalcProcess } from '../cli/support';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';

jest.setTimeout(240_000);

const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const ALERTS = [
  {
    name: 'template ${var.x}',
    type: 'SPF Record',
    filter: 'contains',
    filter_value: 'v=spf1 "quoted" ${x}',
    target: 'example.com',
  },
  {
    name: '%{ if x }',
    type: 'DNS Record',
    subtype: 'TXT',
    filter: 'does not contain',
    filter_value: '$${already} %%{y} %{ endif }',
    target: 'www.example.com',
  },
];

let emu: RunningEmulator;
let sandbox: NetworkcalcSandbox;
let app: string;

beforeAll(async () => {
  requirePrerequisites();
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) throw new Error('build first: npm run build');
  emu = await startEmulator({ port: 0 });
  // GIVEN alerts created by hand whose name and value Terraform would read as templates
  for (const a of ALERTS) await emu.control.createAlert('demo', a);
  sandbox = new NetworkcalcSandbox({ ACME_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emu.url });
  // An app directory importing this package by its name, as a user's app does.
  app = mkdtempSync(path.join(tmpdir(), 'nc-escaping-'));
  mkdirSync(path.join(app, 'node_modules'));
  symlinkSync(ROOT, path.join(app, 'node_modules', 'cdktf-provider-networkcalc'), 'dir');
  writeFileSync(
    path.join(app, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: `"${process.execPath}" "${TSX}" app.ts` }),
  );
});
afterAll(async () => {
  sandbox?.dispose();
  if (app) rmSync(app, { recursive: true, force: true });
  await emu?.close();
});

const liveAlerts = async () => {
  const state = (await emu.control.state()) as {
    accounts: { name: string; alerts: { id: number; name: string; filter_value: string }[] }[];
  };
  return state.accounts.find((a) => a.name === 'demo')!.alerts;
};

it('export → synth: ncalc plan is in sync, and terraform validates, imports without changes, then plans nothing', async () => {
  const env = cliEnv({
    ACME_TOKEN: 'demo-token',
    NETWORKCALC_BASE_URL: emu.url,
    NODE_PATH: path.join(ROOT, 'node_modules'),
  });

  // WHEN the account is exported as a cdktf app and planned by ncalc (which synthesizes it)
  const ex = await ncalcProcess(['export', '--account', 'ACME', '--out', 'app.ts'], { cwd: app, env });
  expect(ex.stderr).toContain('Exported 2 alerts');
  expect(ex.code).toBe(0);
  const ts = readFileSync(path.join(app, 'app.ts'), 'utf8');
  expect(ts).toContain("from 'cdktf-provider-networkcalc'");
  expect(ts).toContain("name: 'template ${var.x}',");
  expect(ts.slice(ts.indexOf('*/'))).not.toContain('`'); // plain string literals, no template literals
  const plan = await ncalcProcess(['plan', '--detailed-exitcode'], { cwd: app, env });
  expect(plan.stdout).toContain('No changes. 2 alerts in sync.');
  expect(plan.code).toBe(0);

  // THEN terraform reads the same values: importing the live alerts changes nothing
  const stacks = path.join(app, 'cdktf.out', 'stacks');
  const [stackName] = readdirSync(stacks);
  const stackDir = path.join(stacks, stackName);
  const json = JSON.parse(readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8'));
  const resources = json.resource.networkcalc_alert as Record<string, { name: string; filter_value: string }>;
  const live = await liveAlerts();
  const imports = Object.entries(resources).map(([logicalId, r]) => {
    const name = r.name.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{');
    return { to: `networkcalc_alert.${logicalId}`, id: String(live.find((a) => a.name === name)!.id) };
  });
  writeFileSync(path.join(stackDir, 'imports.tf.json'), JSON.stringify({ import: imports }));
  expectStatus(await sandbox.terraform(['init'], { cwd: stackDir }), 0);
  expectStatus(await sandbox.terraform(['validate'], { cwd: stackDir }), 0);
  const tfPlan = await sandbox.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir });
  expectStatus(tfPlan, 2);
  expect(tfPlan.stdout).toContain('Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.');
  // (import with nothing to change: the configuration's values equal the live literals)
  expect(tfPlan.stdout).toMatch(/name += "template \$\{var\.x\}"/);
  expect(tfPlan.stdout).toMatch(/filter_value += "v=spf1 \\"quoted\\" \$\{x\}"/);
  expectStatus(await sandbox.terraform(['apply', '-auto-approve'], { cwd: stackDir }), 0);
  expectStatus(await sandbox.terraform(['plan', '-detailed-exitcode'], { cwd: stackDir }), 0);

  // AND the JSON holds the literals escaped
  expect(
    Object.values(resources)
      .map((r) => r.name)
      .sort(),
  ).toEqual(['%%{ if x }', 'template $${var.x}']);

  // AND the account still holds exactly the two alerts, with their literal values
  const after = await liveAlerts();
  expect(after.map((a) => [a.name, a.filter_value]).sort()).toEqual(ALERTS.map((a) => [a.name, a.filter_value]).sort());
  const again = await ncalcProcess(['plan', '--detailed-exitcode', '--no-synth'], { cwd: app, env });
  expect(again.stdout).toContain('No changes. 2 alerts in sync.');
});
