/**
 * One account rule, every front door: a provider block with max_retries = 50 (Terraform
 * allows 1 to 20) and timeout_seconds = 7200 (at most 3600) is refused, with the same
 * sentence in the door's own names, by the constructs at synth, by `ncalc plan` and
 * `ncalc export` reading cdk.tf.json, and by the provider when Terraform configures it
 * (test/provider runs that door through real terraform). No API is called: each refuses
 * before reaching one.
 */
import { TerraformStack } from 'cdktf';
import { NetworkcalcAccount } from '../../src/constructs';
import { configureProvider } from '../../src/provider/provider-config';
import { Diagnostics } from '../../src/provider/diagnostics';
import { exportHcl, exportTypeScript, type ExportInput } from '../../src/codegen/export';
import { FixtureApp, alert, cliEnv, ncalc, stack } from '../cli/support';
import { listFiles, synthError, tempApp } from '../constructs/support';

const RETRIES =
  'max_retries 50 is not valid; give a whole number from 1 to 20 (attempts per request, the first included)';
const TIMEOUT = 'timeout_seconds 7200 is not valid; give a number of seconds more than 0 and at most 3600';

// Nothing listens there: a door that called the API would fail differently.
const env = cliEnv({ NETWORKCALC_TOKEN: 'unused-token', NETWORKCALC_BASE_URL: 'http://127.0.0.1:9' });

const apps: FixtureApp[] = [];
afterAll(() => {
  for (const a of apps.splice(0)) a.remove();
});

function badApp(): FixtureApp {
  const a = new FixtureApp({
    main: stack({ provider: { max_retries: 50, timeout_seconds: 7200 }, alerts: { A: alert({ name: 'a' }) } }),
  });
  apps.push(a);
  return a;
}

test('the constructs refuse it at synth, naming their props', () => {
  const { app, outdir } = tempApp();
  new NetworkcalcAccount(new TerraformStack(app, 'main'), 'Account', { maxRetries: 50, timeoutSeconds: 7200 });
  const message = synthError(app);
  expect(message).toContain(`[main/Account] ${RETRIES.replace('max_retries', 'maxRetries')}`);
  expect(message).toContain(`[main/Account] ${TIMEOUT.replace('timeout_seconds', 'timeoutSeconds')}`);
  expect(listFiles(outdir).filter((f) => f.endsWith('cdk.tf.json'))).toEqual([]);
});

test('the constructs write valid values to the provider block', () => {
  const { app } = tempApp();
  const account = new NetworkcalcAccount(new TerraformStack(app, 'main'), 'Account', {
    maxRetries: 20,
    timeoutSeconds: 3600,
  });
  expect(synthError(app)).toBe('');
  expect(account).toMatchObject({ maxRetries: 20, timeoutSeconds: 3600 });
});

test('ncalc plan refuses it before any API call', async () => {
  const r = await ncalc(['plan', '--no-color'], { cwd: badApp().dir, env });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`stack main, provider networkcalc: ${RETRIES}`);
  expect(r.stderr).toContain(`stack main, provider networkcalc: ${TIMEOUT}`);
  expect(r.stderr).not.toMatch(/127\.0\.0\.1:9|UNREACHABLE|ECONNREFUSED/);
});

test('ncalc export of that account refuses it instead of exporting defaults', async () => {
  const a = badApp();
  const r = await ncalc(['export', '--account', 'default'], { cwd: a.dir, env });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Error: export failed; nothing was written.');
  expect(r.stderr).toContain(`stack main, provider networkcalc: ${RETRIES}`);
  expect(r.stdout).toBe('');
});

test('the provider refuses it when Terraform configures it, on the attribute', async () => {
  const diagnostics = new Diagnostics();
  const data = await configureProvider(
    { config: { max_retries: 50, timeout_seconds: 7200 }, terraformVersion: 'test', diagnostics },
    { NETWORKCALC_TOKEN: 'unused-token' },
  );
  expect(data).toBeUndefined();
  expect(diagnostics.items).toEqual([
    expect.objectContaining({ summary: 'Invalid max_retries', detail: `${RETRIES}.`, path: ['max_retries'] }),
    expect.objectContaining({ summary: 'Invalid timeout_seconds', detail: `${TIMEOUT}.`, path: ['timeout_seconds'] }),
  ]);
});

test('ncalc export writes a valid max_retries and timeout_seconds into the code it exports', () => {
  const account = {
    alias: null,
    baseUrl: null,
    tokenEnv: 'NETWORKCALC_TOKEN',
    clientIdEnv: 'NETWORKCALC_CLIENT_ID',
    clientSecretEnv: 'NETWORKCALC_CLIENT_SECRET',
    ownership: 'exclusive' as const,
    prefix: null,
    maxRetries: 3,
    timeoutSeconds: 90,
  };
  const input: ExportInput = {
    account,
    live: [],
    domains: [],
    stackName: 'main',
    importFrom: 'cdktf-provider-networkcalc',
    cdkLibrary: 'cdktf',
    label: 'main',
  };
  expect(exportTypeScript(input)).toContain('      maxRetries: 3,\n      timeoutSeconds: 90,\n');
  expect(exportHcl(input)).toMatch(/\n {2}max_retries += 3\n {2}timeout_seconds += 90\n/);
});

test('ncalc export of an environment prefix reads its base URL by the same rules; a blank --base-url is refused, not taken as the default', async () => {
  const dir = badApp().dir;
  const bad = await ncalc(['export', '--account', 'ACME', '--base-url', 'ftp://acme.example'], {
    cwd: dir,
    env: { ...env, ACME_TOKEN: 't' },
  });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain(
    'base URL "ftp://acme.example" (from --base-url) is not an http(s) URL such as https://networkcalc.com; fix --base-url',
  );
  const blank = await ncalc(['export', '--account', 'ACME', '--base-url', ''], {
    cwd: dir,
    env: { ...env, ACME_TOKEN: 't' },
  });
  expect(blank.code).toBe(1);
  expect(blank.stderr).toContain('base URL "" (from --base-url) is not an http(s) URL');
});
