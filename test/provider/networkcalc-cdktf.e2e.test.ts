import { stripVTControlCharacters } from 'node:util';
/**
 * examples/quickstart through cdktf-cli (deploy, then diff), with the provider from a
 * filesystem mirror and the API of the emulator. The app is copied to a temporary
 * directory so the run leaves nothing behind in the repository.
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { CDKTF_CLI_RUNS } from '../package/user-app';
import { REPO_ROOT } from './harness';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites, runCommand } from './nc-harness';

jest.setTimeout(240_000);

const CDKTF = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdktf');
const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const plain = (text: string) => stripVTControlCharacters(text).replace(/\s+/g, ' ');

// cdktf-cli does not run on Node 23 or later: .ci/run runs this file on its Node 22 tier.
(CDKTF_CLI_RUNS ? describe : describe.skip)('cdktf deploy and diff of examples/quickstart', () => {
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

  const cdktf = (...args: string[]) => runCommand(CDKTF, args, { cwd: appDir, env: sb.env, timeoutMs: 150_000 });

  test('cdktf deploy creates the ten alerts and the report', async () => {
    const r = await cdktf('deploy', '--auto-approve', '--skip-provider-lock');
    expectStatus(r, 0);
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

  test('cdktf diff then plans only the report (its triggers hold timestamp())', async () => {
    const r = await cdktf('diff', '--skip-provider-lock');
    expectStatus(r, 0);
    const out = plain(r.output);
    expect(out).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
    expect(out).toMatch(/networkcalc_report_trigger\.Report_\w+ (\(Report\/Resource\) )?must be replaced/);
    expect(out).not.toMatch(/networkcalc_alert\.\w+ (\([^)]*\) )?(will|must) be/);
  });
});
