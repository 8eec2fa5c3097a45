/**
 * The README's "Install in your own app" and "Apply with `ncalc`" steps, and docs/install.md's
 * install lines, run as written (bash), their shell blocks read from the markdown itself: the
 * packed tarball installed into a fresh app folder beside the CDK library the lines name (from
 * the registry, so compat tier; npm cache `.cache/npm`), the app holding only what the README
 * tells users to write (`cdktf.json`, `main.ts` from its "Declare alerts" blocks), then `npx
 * --no-install ncalc validate/plan/apply` against the emulator started as docs/emulator.md says.
 * Only the docs' `<...>` placeholders are substituted, and the port the emulator printed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { blocksUnder, snippetsOf } from './doc-snippets';
import { appEnv, NPM_CACHE, packTarball } from './support';
import { CDKTN_CLI_RUNS } from './user-app';

jest.setTimeout(600_000);

interface Run {
  status: number | null;
  out: string;
}

let root: string;
let clone: string;
let tarball: string;
let emulator: ChildProcess | undefined;

/** Runs `script` with bash in `cwd`, as a user's shell would, with npm's cache of the compat tier. */
function bash(script: string, cwd: string, env: Record<string, string> = {}): Run {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    killSignal: 'SIGKILL',
    env: appEnv({
      npm_config_cache: NPM_CACHE,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...env,
    }),
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const expectOk = (r: Run, what: string) => {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.out}`);
};

/** The lines of a block that are commands (comments after them kept: bash ignores them). */
const commands = (block: string) => block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'ncalc-readme-'));
  clone = path.join(root, 'clone');
  mkdirSync(clone);
  tarball = packTarball(clone);
});
afterAll(() => {
  if (emulator?.pid && emulator.exitCode === null) process.kill(-emulator.pid, 'SIGTERM');
  rmSync(root, { recursive: true, force: true });
});

/** Starts the emulator with the line of docs/emulator.md that asks for a free port; its printed base URL. */
function startDocEmulator(cwd: string): Promise<string> {
  const line = commands(blocksUnder('docs/emulator.md', 'Run it')[0]!).find((l) => l.includes('--port 0'))!;
  expect(line).toMatch(/^npx --no-install ncalc emulator --port 0 +# a free port \(printed\)$/);
  const child = spawn('bash', ['-c', `exec ${line}`], {
    cwd,
    env: appEnv({ npm_config_cache: NPM_CACHE, npm_config_update_notifier: 'false' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  emulator = child;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the emulator printed no URL in 60 s:\n${out}`)), 60_000);
    const seen = (d: Buffer) => {
      out += d.toString();
      const url = /^ {2}NETWORKCALC_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`the emulator exited ${code}:\n${out}`)));
  });
}

describe('README "Install in your own app", then "Apply with ncalc", in a fresh app', () => {
  let app: string;

  test('the first line packs the tarball the README names', () => {
    const [install] = blocksUnder('README.md', 'Install in your own app (CDK Terrain, or cdktf)');
    const first = commands(install!)[0]!;
    expect(first).toMatch(/&& npm pack +# writes cdktf-provider-networkcalc-0\.1\.0\.tgz$/);
    expect(path.basename(tarball)).toBe('cdktf-provider-networkcalc-0.1.0.tgz');
    expect(readdirSync(clone)).toEqual(['cdktf-provider-networkcalc-0.1.0.tgz']);
  });

  test("its install lines (CDK Terrain's, and tsx) install into an empty folder", () => {
    const [install] = blocksUnder('README.md', 'Install in your own app (CDK Terrain, or cdktf)');
    const lines = commands(install!);
    expect(lines[1]).toBe('cd <your app>');
    // The CDK Terrain line and the tsx line; the cdktf line is the other choice ("or cdktf").
    const chosen = lines.slice(2).filter((l) => !l.includes('# or cdktf'));
    expect(chosen).toHaveLength(2);
    app = path.join(root, 'app');
    mkdirSync(app);
    const script = [`cd ${app}`, ...chosen.map((l) => l.replaceAll('<clone>', clone))].join('\n');
    const r = bash(script, root);
    expectOk(r, 'the install lines');
    expect(r.out).toMatch(/added \d+ packages/);
    const pkg = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['cdktf-provider-networkcalc', 'cdktn', 'constructs']);
    expect(pkg.dependencies['cdktf-provider-networkcalc']).toBe('file:../clone/cdktf-provider-networkcalc-0.1.0.tgz');
    expect(pkg.dependencies.cdktn).toMatch(/^\^0\.24\.\d+$/);
    expect(pkg.dependencies.constructs).toBe('~10.7');
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['tsx', 'typescript']);
  });

  test('with the cdktf.json and main.ts the README shows, validate, plan and apply against the emulator', async () => {
    const [cdktfJson] = blocksUnder('README.md', 'Install in your own app (CDK Terrain, or cdktf)', 'json');
    expect(JSON.parse(cdktfJson!)).toEqual({ language: 'typescript', app: 'npx tsx main.ts' });
    writeFileSync(path.join(app, 'cdktf.json'), `${cdktfJson}\n`);
    const [declare] = snippetsOf('README.md');
    // The AlertPolicy block ("continues") joins the app before its `app.synth();`, so its alerts are planned.
    expect(declare!.source).toContain('new AlertPolicy(stack, ');
    expect(declare!.source.trimEnd().endsWith('\n\napp.synth();')).toBe(true);
    expect(declare!.source.match(/app\.synth\(\)/g)).toHaveLength(1);
    writeFileSync(path.join(app, 'main.ts'), declare!.source);

    const url = await startDocEmulator(app);
    // docs/emulator.md's "Point the product at it", on the port the emulator printed.
    const [point] = blocksUnder('docs/emulator.md', 'Run it').slice(1);
    const pointed = commands(point!).map((l) => l.replace('http://127.0.0.1:8787', url));
    expect(pointed).toEqual([
      `export NETWORKCALC_BASE_URL=${url}`,
      'export NETWORKCALC_TOKEN=demo-token           # or NETWORKCALC_CLIENT_ID=demo-client NETWORKCALC_CLIENT_SECRET=demo-secret',
    ]);

    const [steps] = blocksUnder('README.md', 'Apply with `ncalc`');
    const line = (cmd: string) => commands(steps!).find((l) => l.startsWith(`npx --no-install ncalc ${cmd} `))!;
    // The README's first line sets the token ("..."): the emulator's lines above set it instead.
    expect(commands(steps!)[0]).toMatch(/^export NETWORKCALC_TOKEN=\.\.\. /);
    const run = (l: string) => bash([...pointed, l].join('\n'), app);

    const validate = run(line('validate'));
    expectOk(validate, 'ncalc validate');
    expect(validate.out).toBe(
      'The configuration is valid: 3 alerts, 1 report trigger and 1 alert policy in 1 stack (1 provider configuration). No API call was made.\n',
    );

    const plan = run(line('plan'));
    expectOk(plan, 'ncalc plan');
    expect(plan.out).toContain('+ alert "www A record"');
    expect(plan.out).toContain('+ alert "example.com SPF validity"');
    expect(plan.out).toContain('+ alert "www certificate expiry"');
    // The policy: 2 checks × the demo account's 4 targets, less the 2 the alerts above already are.
    const policy = [...plan.out.matchAll(/^ {2}\+ alert "(.+)" \(alerts\/Baseline\)$/gm)].map((m) => m[1]);
    expect(policy.sort()).toEqual([
      'SPF validity · example.org',
      'SPF validity · mail.example.com',
      'SPF validity · www.example.com',
      'certificate expiry · example.com',
      'certificate expiry · example.org',
      'certificate expiry · mail.example.com',
    ]);
    expect(plan.out).toContain(
      'Plan: 9 to create, 0 to update, 0 to delete.\nCoverage: no gaps; every target of the policies has its alerts (0 live, 8 made by apply).\n',
    );

    // "asks first": with no terminal it refuses and says what to do.
    const asks = run(line('apply'));
    expect(asks.status).toBe(1);
    expect(asks.out).toContain(
      'Error: refusing to apply without confirmation: standard input is not a terminal. Review the plan above and run again with --auto-approve.',
    );
    const apply = run(`${line('apply').replace(/ +#.*$/, '')} --auto-approve`);
    expectOk(apply, 'ncalc apply --auto-approve');
    expect(apply.out).toContain('Apply complete: 9 created, 0 updated, 0 deleted, 0 failed.\n');

    const again = run(line('plan'));
    expectOk(again, 'ncalc plan after apply');
    expect(again.out).toContain('  No changes. 9 alerts in sync.\n');
    expect(again.out).toContain(
      'Plan: 0 to create, 0 to update, 0 to delete.\nCoverage: no gaps; every target of the policies has its alerts (8 live, 0 made by apply).\n',
    );
    const drift = run(line('drift'));
    expectOk(drift, 'ncalc drift --format markdown');
    expect(drift.out).toContain('✅ **In sync**: 9 alerts match the code.\n');
  });
});

test("docs/install.md's CDK Terrain lines install the package and cdktn-cli into an empty folder", () => {
  const [block] = blocksUnder('docs/install.md', 'Installing');
  const lines = block!.split('\n');
  const cdktn = lines.slice(lines.indexOf('# CDK Terrain') + 1, lines.indexOf('# cdktf') - 1);
  expect(cdktn).toHaveLength(2);
  const dir = path.join(root, 'install-md-app');
  mkdirSync(dir);
  const r = bash([`cd ${dir}`, ...cdktn.map((l) => l.replaceAll('<clone>', clone))].join('\n'), root);
  expectOk(r, "docs/install.md's lines");
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(pkg.dependencies).toEqual({
    'cdktf-provider-networkcalc': 'file:../clone/cdktf-provider-networkcalc-0.1.0.tgz',
    cdktn: expect.stringMatching(/^\^0\.24\.\d+$/),
    constructs: '~10.7',
  });
  expect(Object.keys(pkg.devDependencies)).toEqual(['cdktn-cli']);
  // cdktn-cli runs on Node 22.19 or newer, as the line's comment says.
  if (!CDKTN_CLI_RUNS) return;
  const version = bash('npx --no-install cdktn --version', dir);
  expectOk(version, 'cdktn --version');
  expect(version.out.trim()).toMatch(/^0\.24\.\d+$/);
});
