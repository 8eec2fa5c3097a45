import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CDKTF_CLI_RUNS } from '../package/user-app';

const ROOT = path.resolve(__dirname, '..', '..');
const CDKTF = path.join(ROOT, 'node_modules', '.bin', 'cdktf');

/** Values set in the environment during synth; none may appear in any output file. */
const SECRETS = {
  NETWORKCALC_TOKEN: 'sekret-xyz',
  // The emulator's demo account credentials.
  NETWORKCALC_CLIENT_ID: 'demo-client',
  NETWORKCALC_CLIENT_SECRET: 'demo-secret',
  PROD_NETWORKCALC_TOKEN: 'sekret-xyz-prod',
  STAGING_NETWORKCALC_TOKEN: 'demo-token',
};

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : [full];
  });
}

/** Temporary output directories, removed after each test. */
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `cdktf synth` in `cwd` into a fresh directory, offline, with secrets in the environment. */
function cdktfSynth(cwd: string): { outdir: string; stacks: Record<string, any> } {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'ncalc-example-'));
  temps.push(temp);
  const outdir = path.join(temp, 'cdktf.out');
  // Where cdktf-cli cannot run, the app runs as the CLI runs it: the "app" command of
  // cdktf.json in a shell, told the output directory.
  const app = (JSON.parse(fs.readFileSync(path.join(cwd, 'cdktf.json'), 'utf8')) as { app: string }).app;
  const [cmd, args] = CDKTF_CLI_RUNS ? [CDKTF, ['synth', '--output', outdir]] : ['sh', ['-c', app]];
  const result = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...SECRETS, CDKTF_OUTDIR: outdir, CHECKPOINT_DISABLE: '1', CI: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 90_000,
    killSignal: 'SIGKILL',
  });
  if (result.status !== 0) {
    throw new Error(
      `cdktf synth in ${path.relative(ROOT, cwd) || '.'} failed (${result.error ?? result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  const stacks: Record<string, any> = {};
  const stacksDir = path.join(outdir, 'stacks');
  for (const name of fs.readdirSync(stacksDir)) {
    stacks[name] = JSON.parse(fs.readFileSync(path.join(stacksDir, name, 'cdk.tf.json'), 'utf8'));
  }
  return { outdir, stacks };
}

function expectNoSecrets(outdir: string): void {
  const all = files(outdir);
  expect(all.length).toBeGreaterThan(0);
  for (const file of all) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [name, value] of Object.entries(SECRETS)) {
      if (text.includes(value)) throw new Error(`${path.relative(outdir, file)} contains the value of ${name}`);
    }
  }
}

const alertsOf = (stack: any): any[] => Object.values(stack.resource?.networkcalc_alert ?? {});

describe('examples synthesize with `cdktf synth` (their app command where cdktf-cli cannot run), offline, without leaking secrets', () => {
  test('quickstart, from its folder', () => {
    const { outdir, stacks } = cdktfSynth(path.join(ROOT, 'examples', 'quickstart'));
    expect(Object.keys(stacks)).toEqual(['quickstart']);
    const stack = stacks.quickstart;

    expect(stack.terraform.required_providers).toEqual({
      networkcalc: { source: 'networkcalc/networkcalc', version: '~> 0.1' },
    });
    expect(stack.provider.networkcalc).toEqual([
      {
        token_env: 'NETWORKCALC_TOKEN',
        client_id_env: 'NETWORKCALC_CLIENT_ID',
        client_secret_env: 'NETWORKCALC_CLIENT_SECRET',
        ownership: 'exclusive',
      },
    ]);
    const alerts = alertsOf(stack);
    expect(alerts).toHaveLength(10);
    const kinds = alerts.map((a) => `${a.type}/${a.subtype ?? '-'}/${a.filter}`).sort();
    expect(new Set(kinds)).toEqual(
      new Set([
        'DNS Record/A/equals',
        'DNS Record/MX/contains',
        'DNS Record/TXT/contains',
        'SPF Record/-/validity',
        'Certificate (TLS)/-/expires in (days)',
      ]),
    );
    expect(alerts.filter((a) => a.filter === 'expires in (days)').every((a) => a.filter_value === '21')).toBe(true);
    const names = (kind: string) => Object.values(stack.data[kind]).map((d: any) => d.name);
    expect(names('networkcalc_domain')).toEqual(['example.com']);
    expect(names('networkcalc_subdomain')).toEqual(['www.example.com']);
    expect(Object.values(stack.resource.networkcalc_report_trigger)).toHaveLength(1);
    expectNoSecrets(outdir);
  });

  test('multi-account: a stack per account, own credentials, one override', () => {
    const { outdir, stacks } = cdktfSynth(path.join(ROOT, 'examples', 'multi-account'));
    expect(Object.keys(stacks).sort()).toEqual(['prod', 'staging']);
    expect(stacks.prod.provider.networkcalc[0].token_env).toBe('PROD_NETWORKCALC_TOKEN');
    expect(stacks.staging.provider.networkcalc[0].token_env).toBe('STAGING_NETWORKCALC_TOKEN');

    const baseline = (stack: any) =>
      alertsOf(stack)
        .filter((a) => !a.name.startsWith('example.org'))
        .map((a) => a.name)
        .sort();
    expect(baseline(stacks.prod)).toEqual(baseline(stacks.staging));
    expect(baseline(stacks.prod)).toHaveLength(7);

    const certDays = (stack: any) =>
      alertsOf(stack)
        .filter((a) => a.name.endsWith('.com certificate expiry'))
        .map((a) => a.filter_value);
    expect(certDays(stacks.prod)).toEqual(['30', '30']);
    expect(certDays(stacks.staging)).toEqual(['21', '21']);
    expect(alertsOf(stacks.staging).some((a) => a.name === 'example.org certificate expiry')).toBe(true);
    expectNoSecrets(outdir);
  });

  test('repository root: cdktf.json synthesizes the quickstart', () => {
    const { outdir, stacks } = cdktfSynth(ROOT);
    expect(Object.keys(stacks)).toEqual(['quickstart']);
    expectNoSecrets(outdir);
  });
});
