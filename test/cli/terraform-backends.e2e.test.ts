/**
 * Both doors on one account, whatever the backend: a CDK Terrain app whose stack keeps its
 * state in a real backend (an `http` state server, PostgreSQL and an S3-compatible server, all
 * run by the test; a
 * local backend with its own path and two workspaces), applied by the real terraform. Then
 * `ncalc plan` names the state and how long reading the states took, and `ncalc apply` and
 * `ncalc destroy` refuse to write to the alerts it holds, writing nothing; a backend that
 * cannot be read refuses that stack's account before any call to it, naming the backend and
 * the fix, while another account of the run is applied.
 */
import { renameSync } from 'node:fs';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from '../provider/nc-harness';
import {
  postgresBinDir,
  S3_CREDENTIALS,
  startHttpStateServer,
  startPostgres,
  startS3Server,
  type HttpStateServer,
} from '../helpers/state-backends';
import { cliEnv, ncalc, writeCdktnApp } from './support';

jest.setTimeout(240_000);

/** The stack's backend comes from BACKEND (a cdktn backend class) and BACKEND_CONFIG (its props). */
const MAIN = `const cdktn = require('cdktn');
const { Alert, AlertTarget, NetworkcalcAccount } = require('cdktf-provider-networkcalc');
const app = new cdktn.App();
const stack = new cdktn.TerraformStack(app, 'prod');
new cdktn[process.env.BACKEND](stack, JSON.parse(process.env.BACKEND_CONFIG));
new NetworkcalcAccount(stack, 'Account');
for (const n of [1, 2])
  new Alert(stack, 'Alert' + n, {
    name: 'prod alert ' + n,
    target: AlertTarget.domain('example.com'),
    dnsRecord: { record: 'A', filter: 'equals', value: process.env.ALERT_VALUE || '192.0.2.1' },
  });
// DEV_URL: a second stack on a second account (no backend), for a run of two accounts.
if (process.env.DEV_URL) {
  const dev = new cdktn.TerraformStack(app, 'dev');
  new NetworkcalcAccount(dev, 'Account', { baseUrl: process.env.DEV_URL });
  new Alert(dev, 'Alert', {
    name: 'dev alert',
    target: AlertTarget.domain('example.com'),
    dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.1' },
  });
}
app.synth();
`;

type Runner = (more?: Record<string, string>) => (args: string[]) => ReturnType<typeof ncalc>;

describe('ncalc beside a Terraform state in any backend', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let http: HttpStateServer;
  let app: string;
  const stackDir = () => path.join(app, 'cdktf.out', 'stacks', 'prod');
  const live = () => new NetworkCalcClient({ baseUrl: emu.url, token: DEMO_ACCOUNT.token }).listAlerts();
  const writes = async () =>
    (await emu.control.requests()).filter((r) => r.path.startsWith('/api/') && r.method !== 'GET');

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'path' });
    http = await startHttpStateServer();
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token }, 'app');
    app = sb.workDir;
    writeCdktnApp(sb.root, app, MAIN);
  });
  beforeEach(() => emu.control.reset());
  afterAll(async () => {
    sb?.dispose();
    await http?.close();
    await emu?.close();
  });

  /** The app's environment with this backend (and `more`). */
  const appEnv = (backend: string, config: unknown, more: Record<string, string> = {}) =>
    cliEnv({
      NETWORKCALC_TOKEN: DEMO_ACCOUNT.token,
      NETWORKCALC_BASE_URL: emu.url,
      BACKEND: backend,
      BACKEND_CONFIG: JSON.stringify(config),
      ...more,
    });

  /**
   * Synthesizes the app with this backend, and terraform applies the stack (with the backend's
   * `secrets` in its environment); ncalc with the app's environment, `secrets` and `more`.
   */
  async function deployed(backend: string, config: unknown, secrets: Record<string, string> = {}): Promise<Runner> {
    const env = (more: Record<string, string> = {}) => appEnv(backend, config, { ...secrets, ...more });
    const synth = await ncalc(['synth'], { cwd: app, env: env() });
    expect(synth.stderr).toBe('');
    expect(synth.code).toBe(0);
    expectStatus(await sb.terraform(['init', '-reconfigure'], { cwd: stackDir(), env: secrets }), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve'], { cwd: stackDir(), env: secrets }), 0);
    expect(await live()).toHaveLength(2);
    await emu.control.clearRequests();
    return (more = {}) =>
      (args: string[]) =>
        ncalc(args, { cwd: app, env: env(more) });
  }

  /** plan names the state and the time; apply and destroy refuse and write nothing; import-blocks writes no block. */
  async function refusedBeside(run: Runner, label: string, backend = true): Promise<void> {
    const changed = run({ ALERT_VALUE: '192.0.2.9' });
    const plan = await changed(['plan']);
    expect(plan.stderr).toMatch(/^(Read .*\n)?$/);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`the Terraform state ${label} (stack prod) holds 2 alerts this plan would change`);
    // Local files cost no process, and say nothing of it.
    if (backend) expect(plan.stdout + plan.stderr).toMatch(/Read \d+ Terraform states? of 1 backend in \d+(\.\d)? s/);
    else expect(plan.stdout + plan.stderr).not.toContain('Terraform states of');
    const apply = await changed(['apply', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      'Error: refusing to apply: Terraform holds some of these alerts; nothing was changed.',
    );
    const destroy = await run()(['destroy', '--stack', 'prod', '--auto-approve']);
    expect(destroy.code).toBe(1);
    expect(destroy.stderr).toContain('Error: refusing to destroy: Terraform holds some of these alerts');
    expect(destroy.stderr).toContain(`the Terraform state ${label} (stack prod) holds 2 alerts this plan would delete`);
    // import-blocks writes no block for an alert this state holds.
    const blocks = await run()(['import-blocks', '--no-synth', '--out', '-']);
    expect(blocks.code).toBe(0);
    expect(blocks.stdout).toBe('');
    expect(blocks.stderr).toContain('No import blocks: every live alert the app declares is held by a Terraform state');
    expect(await writes()).toEqual([]);
    expect(await live()).toHaveLength(2);
  }

  test('an http backend: plan names it, apply and destroy refuse; an unreachable one refuses only the account of that stack, before any call to it', async () => {
    const run = await deployed('HttpBackend', { address: http.url('prod') });
    expect(http.stored('prod')).toContain('networkcalc_alert');
    await refusedBeside(run, 'backend "http" of stack prod, workspace default');
    const gone = await startHttpStateServer();
    const unreachable = gone.url('prod');
    await gone.close();
    // Beside a second account (stack dev, a second service): only prod's account refuses.
    const dev = await startEmulator({ deleteForm: 'path' });
    try {
      const env = appEnv('HttpBackend', { address: unreachable }, { DEV_URL: dev.url });
      await emu.control.clearRequests();
      const apply = await ncalc(['apply', '--auto-approve'], { cwd: app, env });
      expect(apply.code).toBe(1);
      const said = apply.stdout + apply.stderr;
      expect(said).toContain(
        'the Terraform state of stack prod is kept in its "http" backend, and terraform could not read it',
      );
      expect(said).toContain('--ignore-terraform-state');
      expect(apply.stderr).toMatch(
        /Could not read the Terraform states of 1 backend \(\d+\.\d s\): each account they guard fails with the reason\./,
      );
      expect((await emu.control.requests()).filter((r) => r.path.startsWith('/api/'))).toEqual([]);
      const devAlerts = await new NetworkCalcClient({ baseUrl: dev.url, token: DEMO_ACCOUNT.token }).listAlerts();
      expect(devAlerts.map((a) => a.name)).toEqual(['dev alert']);
      // --ignore-terraform-state: the state is not read, and prod's account is applied (nothing to change).
      const ignored = await ncalc(['apply', '--auto-approve', '--ignore-terraform-state'], { cwd: app, env });
      expect(ignored.stderr).toBe('');
      expect(ignored.code).toBe(0);
      expect(ignored.stdout).not.toContain('CONFIG_ERROR');
      expect(await live()).toHaveLength(2);
    } finally {
      await dev.close();
    }
  });

  test('a pg backend on a real PostgreSQL, with a second workspace: every workspace is read', async () => {
    const bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (.ci/run does)');
    const pg = await startPostgres(bin);
    try {
      const run = await deployed('PgBackend', { connStr: pg.connString });
      expectStatus(await sb.terraform(['workspace', 'new', 'staging'], { cwd: stackDir() }), 0);
      await refusedBeside(run, 'backend "pg" of stack prod, workspace default');
      const plan = await run({ ALERT_VALUE: '192.0.2.9' })(['plan']);
      expect(plan.stdout + plan.stderr).toContain('Read 2 Terraform states of 1 backend');
    } finally {
      pg.stop();
    }
  });

  test('an s3 backend on an S3-compatible server, with a second workspace; without credentials it refuses', async () => {
    // s3rver: terraform 1.11's s3 backend (AWS SDK for Go v2) stores, lists and reads its states
    // there with path-style addresses and the checks against AWS itself turned off.
    const s3 = await startS3Server();
    try {
      const config = {
        bucket: s3.bucket,
        key: 'prod.tfstate',
        region: 'us-east-1',
        usePathStyle: true,
        skipCredentialsValidation: true,
        skipRequestingAccountId: true,
        skipMetadataApiCheck: true,
        skipRegionValidation: true,
        endpoints: { s3: s3.endpoint },
      };
      const run = await deployed('S3Backend', config, S3_CREDENTIALS);
      expectStatus(await sb.terraform(['workspace', 'new', 'staging'], { cwd: stackDir(), env: S3_CREDENTIALS }), 0);
      expect(s3.keys()).toEqual(['env:/staging/prod.tfstate', 'prod.tfstate']);
      await refusedBeside(run, 'backend "s3" of stack prod, workspace default');
      const plan = await run({ ALERT_VALUE: '192.0.2.9' })(['plan']);
      expect(plan.stdout + plan.stderr).toContain('Read 2 Terraform states of 1 backend');
      // No credentials in the environment: the state cannot be read, and nothing is written.
      await emu.control.clearRequests();
      const apply = await ncalc(['apply', '--auto-approve'], { cwd: app, env: appEnv('S3Backend', config) });
      expect(apply.code).toBe(1);
      expect(apply.stdout).toContain(
        'the Terraform state of stack prod is kept in its "s3" backend, and terraform could not read it',
      );
      expect(apply.stdout).toContain('--ignore-terraform-state');
      expect((await emu.control.requests()).filter((r) => r.path.startsWith('/api/'))).toEqual([]);
      expect(await live()).toHaveLength(2);
    } finally {
      await s3.close();
    }
  });

  test('a local backend with its own path, and a second workspace there: both are read', async () => {
    const run = await deployed('LocalBackend', { path: 'states/prod.tfstate' });
    const file = path.join(stackDir(), 'states', 'prod.tfstate');
    await refusedBeside(run, file, false);
    // The state moved to a second workspace (as `terraform workspace new -state` would): found there.
    expectStatus(await sb.terraform(['workspace', 'new', 'blue'], { cwd: stackDir() }), 0);
    const blue = path.join(stackDir(), 'terraform.tfstate.d', 'blue', 'terraform.tfstate');
    renameSync(file, blue);
    await refusedBeside(run, blue, false);
  });
});
