import { stripVTControlCharacters } from 'node:util';
/**
 * examples/quickstart through cdktf-cli (deploy, then diff), with the provider installed in the
 * app by `ncalc provider install` (its own mirror and lock files) and the API of the emulator. The app is copied to a temporary
 * directory so the run leaves nothing behind in the repository.
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { CDKTF_CLI_RUNS } from '../package/user-app';
import { REPO_ROOT } from './harness';
import { ncalc } from '../cli/support';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites, runCommand } from './nc-harness';

jest.setTimeout(240_000);

const CDKTF = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdktf');
const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const plain = (text: string) => stripVTControlCharacters(text).replace(/\s+/g, ' ');

// cdktf-cli does not run on Node 23 or later: .ci/run runs this file on its Node 22 tier. The
// title of the skipped suite says so in the output of the run.
const TITLE = 'cdktf deploy and diff of examples/quickstart';
(CDKTF_CLI_RUNS ? describe : describe.skip)(
  CDKTF_CLI_RUNS ? TITLE : `${TITLE} (cdktf-cli runs only on Node 22 and earlier; .ci/run runs it on its Node 22 tier)`,
  () => {
    let emu: RunningEmulator;
    let sb: NetworkcalcSandbox;
    let appDir: string;

    beforeAll(async () => {
      requirePrerequisites();
      emu = await startEmulator();
      sb = new NetworkcalcSandbox(
        { NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token, CI: '1' },
        'quickstart',
      );
      appDir = sb.workDir;
      copyFileSync(path.join(REPO_ROOT, 'examples', 'quickstart', 'main.ts'), path.join(appDir, 'main.ts'));
      // The app imports the package by name, as users do; here it resolves to this checkout.
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(appDir, 'node_modules'), 'dir');
      writeFileSync(
        path.join(appDir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'commonjs',
            moduleResolution: 'node',
            strict: true,
            esModuleInterop: true,
            skipLibCheck: true,
            paths: { 'cdktf-provider-networkcalc': [path.join(REPO_ROOT, 'src')] },
          },
        }),
      );
      writeFileSync(
        path.join(appDir, 'cdktf.json'),
        JSON.stringify({
          language: 'typescript',
          app: `${TSX} main.ts`,
          output: 'cdktf.out',
          sendCrashReports: 'false',
          terraformProviders: [],
          terraformModules: [],
          context: {},
        }),
      );
      mkdirSync(path.join(appDir, 'cdktf.out'), { recursive: true });
    });
    afterAll(async () => {
      sb?.dispose();
      await emu?.close();
    });

    const cdktf = (...args: string[]) =>
      runCommand(CDKTF, args, {
        cwd: appDir,
        env: { ...sb.env, TF_CLI_CONFIG_FILE: path.join(appDir, 'terraform-providers', 'cli.tfrc') },
        timeoutMs: 150_000,
      });

    test('ncalc provider install in the app, then cdktf deploy (no --skip-provider-lock) creates the ten alerts and the report', async () => {
      const install = await ncalc(['provider', 'install'], { cwd: appDir, env: sb.env });
      expect(install.stderr).toBe('');
      expect(install.code).toBe(0);
      expect(install.stdout).toContain('cdktf.out/stacks/quickstart/.terraform.lock.hcl');
      const r = await cdktf('deploy', '--auto-approve');
      expectStatus(r, 0);
      expect(plain(r.output)).not.toContain('Could not retrieve providers for locking');
      expect(plain(r.output)).toContain('Apply complete! Resources: 11 added, 0 changed, 0 destroyed.');
      expect(plain(r.output)).toMatch(/ReportUrl = "?http:\/\/127\.0\.0\.1:\d+\/reports\//);
      const alerts = (await emu.control.state()).accounts[0]!.alerts;
      expect(alerts).toHaveLength(10);
      expect(alerts.find((a) => a.name === 'www.example.com certificate expiry')).toMatchObject({
        target_type: 'subdomain',
        target_id: 2,
        filter_value: '21',
      });
    });

    test('then cdktf diff plans nothing, and terraform plan -detailed-exitcode exits 0: the report trigger is left alone', async () => {
      const r = await cdktf('diff');
      expectStatus(r, 0);
      const out = plain(r.output);
      expect(out).toContain('No changes.');
      expect(out).not.toMatch(/must be replaced|will be (created|updated|destroyed)/);
      const plan = await sb.terraform(['plan', '-detailed-exitcode'], {
        cwd: path.join(appDir, 'cdktf.out', 'stacks', 'quickstart'),
        env: { TF_CLI_CONFIG_FILE: path.join(appDir, 'terraform-providers', 'cli.tfrc') },
      });
      expectStatus(plan, 0);
    });
  },
);
