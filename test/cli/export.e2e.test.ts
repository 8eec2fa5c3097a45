import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, ROOT, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator();
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-export-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An app directory around an exported main.ts; resolves cdktf (the CDK library of this repository: hence `--cdk cdktf`) from here. */
function appAround(): NodeJS.ProcessEnv {
  writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({ language: 'typescript', app: `"${process.execPath}" "${TSX}" main.ts` }),
  );
  return { NODE_PATH: path.join(ROOT, 'node_modules') };
}

async function seedAccount() {
  const c = emulator().control;
  await c.createAlert('demo', {
    name: 'example.com A',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.1',
    target: 'example.com',
  });
  await c.createAlert('demo', {
    name: 'www "quoted" ${x}',
    type: 'DNS Record',
    subtype: 'TXT',
    filter: 'does not contain',
    filter_value: 'v=spf1 ${y}',
    target: 'www.example.com',
  });
  await c.createAlert('demo', { name: 'spf', type: 'SPF Record', filter: 'validity', target: 'example.org' });
  await c.createAlert('demo', {
    name: 'spf include',
    type: 'SPF Record',
    filter: 'contains',
    filter_value: 'include:_spf.example.com',
    target: 'mail.example.com',
  });
  await c.createAlert('demo', {
    name: 'cert',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: '14',
    target: 'www.example.com',
  });
  await c.createAlert('demo', {
    name: 'cert subject',
    type: 'Certificate (TLS)',
    filter: 'subject',
    filter_value: 'CN=example.com',
    target: 'example.com',
  });
  await c.createAlert('demo', { name: 'spf', type: 'SPF Record', filter: 'validity', target: 'example.com' });
}

it('export writes a runnable stack; planning it shows no changes', async () => {
  await seedAccount();
  const env = cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...appAround() });
  const ex = await ncalc(
    [
      'export',
      '--cdk',
      'cdktf',
      '--account',
      'NETWORKCALC',
      '--out',
      'main.ts',
      '--hcl',
      '--import-from',
      path.join(ROOT, 'src'),
    ],
    { cwd: dir, env },
  );
  expect(ex.stderr).toContain('Exported 6 alerts of account NETWORKCALC to main.ts and main.tf.');
  expect(ex.stderr).toMatch(/not exported: alert \d+ "spf": a second alert of this name/);
  expect(ex.code).toBe(0);

  const ts = readFileSync(path.join(dir, 'main.ts'), 'utf8');
  expect(ts).toContain("target: AlertTarget.subdomain('www.example.com'),");
  expect(ts).toContain('certificate: { expiresInDays: 14 }');
  expect(ts).toContain("spfRecord: { filter: 'validity' }");
  expect(ts).not.toContain('demo-token');

  const hcl = readFileSync(path.join(dir, 'main.tf'), 'utf8');
  expect(hcl).toMatch(/import \{\n {2}to = networkcalc_alert.example_com_a\n {2}id = "\d+"\n\}/);
  expect(hcl).toContain('target_id    = data.networkcalc_subdomain.www_example_com.id');
  expect(hcl).toContain('filter_value = "v=spf1 $${y}"');

  // The duplicate is the only difference: exclusive ownership deletes it.
  const plan = await ncalc(['plan', '--json'], { cwd: dir, env });
  expect(plan.stderr).toBe('');
  const doc = JSON.parse(plan.stdout);
  expect(doc.summary).toMatchObject({ create: 0, update: 0, delete: 1, unchanged: 6 });
  expect(doc.accounts[0].changes[0]).toMatchObject({ action: 'delete', reason: 'duplicate', name: 'spf' });
}, 60_000);

it('without duplicates, export → plan is a no-op (exit 0 with --detailed-exitcode)', async () => {
  const c = emulator().control;
  await c.createAlert('demo', {
    name: 'a',
    type: 'DNS Record',
    subtype: 'MX',
    filter: 'contains',
    filter_value: 'mail',
    target: 'example.com',
  });
  await c.createAlert('demo', {
    name: 'b',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: '30',
    target: 'mail.example.com',
  });
  const env = cliEnv({ ACME_TOKEN: 'demo-token', ACME_BASE_URL: emulator().url, ...appAround() });
  const ex = await ncalc(
    ['export', '--cdk', 'cdktf', '--account', 'ACME', '--out', 'main.ts', '--import-from', path.join(ROOT, 'src')],
    {
      cwd: dir,
      env,
    },
  );
  expect(ex.code).toBe(0);
  const ts = readFileSync(path.join(dir, 'main.ts'), 'utf8');
  expect(ts).toContain("tokenEnv: 'ACME_TOKEN'");
  const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: dir, env });
  expect(plan.stdout).toContain('No changes. 2 alerts in sync.');
  expect(plan.code).toBe(0);
}, 60_000);

it('an unknown account name says what to set', async () => {
  const r = await ncalc(['export', '--cdk', 'cdktf', '--account', 'NOPE'], { cwd: dir, env: cliEnv({}) });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('neither NOPE_TOKEN nor NOPE_CLIENT_ID is set');
});

it('a refused token: the advice names the variables of --account, not the defaults', async () => {
  const r = await ncalc(['export', '--cdk', 'cdktf', '--account', 'ACME'], {
    cwd: dir,
    env: cliEnv({ ACME_TOKEN: 'wrong', NETWORKCALC_BASE_URL: emulator().url }),
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(
    /NOT_AUTHORIZED \(HTTP 401\): .*set ACME_TOKEN to a valid access token, or set ACME_CLIENT_ID and ACME_CLIENT_SECRET/,
  );
  // The code once.
  expect(r.stderr.match(/NOT_AUTHORIZED/g)).toHaveLength(1);
  expect(r.stderr).not.toContain('NETWORKCALC_TOKEN');
});

it('--account as a provider alias: its variables and prefix scope carry over', async () => {
  const c = emulator().control;
  await c.createAlert('demo', {
    name: 'team-mx',
    type: 'DNS Record',
    subtype: 'MX',
    filter: 'contains',
    filter_value: 'mail',
    target: 'example.org',
  });
  await c.createAlert('demo', { name: 'other', type: 'SPF Record', filter: 'validity', target: 'example.com' });
  const source = new FixtureApp({
    main: stack({
      provider: { alias: 'team', token_env: 'TEAM_TOKEN', ownership: 'prefix', ownership_prefix: 'team-' },
    }),
  });
  const env = cliEnv({ TEAM_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...appAround() });
  const ex = await ncalc(
    [
      'export',
      '--cdk',
      'cdktf',
      '--account',
      'team',
      '-C',
      source.dir,
      '--out',
      path.join(dir, 'main.ts'),
      '--import-from',
      path.join(ROOT, 'src'),
    ],
    { cwd: dir, env },
  );
  source.remove();
  expect(ex.stderr).toContain('Exported 1 alert of account team (stack main)');
  const ts = readFileSync(path.join(dir, 'main.ts'), 'utf8');
  expect(ts).toContain("alias: 'team'");
  expect(ts).toContain("tokenEnv: 'TEAM_TOKEN'");
  expect(ts).toContain("ownership: Ownership.prefix('team-')");
  expect(ts).toContain("target: AlertTarget.domain('example.org')");
  expect(ts).not.toContain("'other'");
  const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: dir, env });
  expect(plan.stdout).toContain('No changes. 1 alert in sync.');
  expect(plan.code).toBe(0);
}, 60_000);

it('an account exported with --base-url is written with that base URL, so its plan reaches the same account', async () => {
  await seedAccount();
  // No NETWORKCALC_BASE_URL: only --base-url says where the account is.
  const env = cliEnv({ NETWORKCALC_TOKEN: 'demo-token', ...appAround() });
  const ex = await ncalc(
    [
      'export',
      '--cdk',
      'cdktf',
      '--account',
      'NETWORKCALC',
      '--base-url',
      emulator().url,
      '--out',
      'main.ts',
      '--import-from',
      path.join(ROOT, 'src'),
    ],
    { cwd: dir, env },
  );
  expect(ex.code).toBe(0);
  expect(readFileSync(path.join(dir, 'main.ts'), 'utf8')).toContain(`baseUrl: '${emulator().url}'`);
  const plan = await ncalc(['plan'], { cwd: dir, env });
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  expect(plan.stdout).toContain(`— ${emulator().url} (token`);
  // The seeded second "spf" is not exported, so the plan deletes it: nothing else differs.
  expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete.');
}, 60_000);

it('--with-targets declares the domains and subdomains, the alerts referring to them; planning it shows no changes', async () => {
  const c = emulator().control;
  await c.createAlert('demo', {
    name: 'apex mx',
    type: 'DNS Record',
    subtype: 'MX',
    filter: 'contains',
    filter_value: 'mail',
    target: 'example.com',
  });
  await c.createAlert('demo', {
    name: 'www cert',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value: '30',
    target: 'www.example.com',
  });
  const [demo] = (await c.state()).accounts.filter((a) => a.name === 'demo');
  const env = cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...appAround() });
  const ex = await ncalc(
    [
      'export',
      '--cdk',
      'cdktf',
      '--with-targets',
      '--out',
      'main.ts',
      '--hcl',
      '--import-from',
      path.join(ROOT, 'src'),
    ],
    { cwd: dir, env },
  );
  const targets = demo!.domains.length + demo!.subdomains.length;
  expect(ex.stderr).toContain(`Exported 2 alerts and ${targets} domains and subdomains of account NETWORKCALC`);
  expect(ex.code).toBe(0);

  const ts = readFileSync(path.join(dir, 'main.ts'), 'utf8');
  const com = demo!.domains.find((d) => d.domain === 'example.com')!;
  const www = demo!.subdomains.find((s) => s.domain_id === com.id && s.prefix === 'www')!;
  expect(ts).toContain("const exampleCom = new Domain(this, 'ExampleCom', { name: 'example.com' });");
  expect(ts).toContain(
    "const wwwExampleCom = new Subdomain(this, 'WwwExampleCom', { domain: exampleCom, prefix: 'www' });",
  );
  expect(ts).toContain('target: exampleCom,');
  expect(ts).toContain('target: wwwExampleCom,');
  expect(ts).not.toContain('AlertTarget');

  const hcl = readFileSync(path.join(dir, 'main.tf'), 'utf8');
  expect(hcl).toContain(`import {\n  to = networkcalc_domain.example_com\n  id = "${com.id}"\n}`);
  expect(hcl).toContain('resource "networkcalc_domain" "example_com" {\n  name = "example.com"\n}');
  expect(hcl).toContain(`import {\n  to = networkcalc_subdomain.www_example_com\n  id = "${www.id}"\n}`);
  expect(hcl).toContain(
    'resource "networkcalc_subdomain" "www_example_com" {\n  domain_id = networkcalc_domain.example_com.id\n  prefix    = "www"\n}',
  );
  expect(hcl).toContain('target_id    = networkcalc_subdomain.www_example_com.id');
  expect(hcl).not.toContain('data "networkcalc_');

  // The declared targets exist: nothing to create, the alerts in sync.
  const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: dir, env });
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain('No changes. 2 alerts in sync.');
  expect(plan.stdout).not.toContain('+ domain');
  expect(plan.code).toBe(0);
}, 60_000);
