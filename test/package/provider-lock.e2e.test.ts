/**
 * `ncalc provider install --lock <dir>`: the lock file it writes is the one terraform writes
 * for the mirrored provider, terraform init accepts it, and an app's stacks get one each.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { terraformPlatform } from '../../src/cli/provider-command';
import { lockFileText } from '../../src/install/provider-lock';
import { FixtureApp, cliEnv, ncalc, stack } from '../cli/support';
import { requireBuild } from '../helpers/build';
import { expectStatus, requireTerraform, runCommand } from '../provider/nc-harness';

const LOCK = '.terraform.lock.hcl';
const hashesOf = (text: string) => [...text.matchAll(/"(h1:[^"]+)"/g)].map((m) => m[1]);

let root: string;
beforeAll(() => {
  requireBuild('dist/provider/bin.js');
});
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'nc-lock-'));
});
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

const REQUIRED =
  'terraform {\n  required_providers {\n    networkcalc = { source = "networkcalc/networkcalc", version = "~> 0.1" }\n  }\n}\n';

test('GIVEN a Terraform configuration WHEN locking THEN the hash is the one terraform computes, and terraform init accepts the file as it is', async () => {
  requireTerraform();
  const mirror = path.join(root, 'mirror');
  const rc = path.join(root, 'terraform.rc');
  const mine = path.join(root, 'mine');
  const theirs = path.join(root, 'theirs');
  for (const d of [mine, theirs]) {
    mkdirSync(d);
    writeFileSync(path.join(d, 'main.tf'), REQUIRED);
  }

  const r = await ncalc(['provider', 'install', '--dir', mirror, '--cli-config', rc, '--lock', 'mine'], {
    cwd: root,
    env: cliEnv({}),
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Locked networkcalc/networkcalc 0.1.0 (h1:`);
  const written = readFileSync(path.join(mine, LOCK), 'utf8');

  const env = { ...cliEnv({ CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: rc }), HOME: root };
  const tf = await runCommand(
    'terraform',
    ['providers', 'lock', `-fs-mirror=${mirror}`, `-platform=${terraformPlatform()}`, 'networkcalc/networkcalc'],
    { cwd: theirs, env },
  );
  expectStatus(tf, 0);
  expect(written).toBe(readFileSync(path.join(theirs, LOCK), 'utf8'));

  expectStatus(await runCommand('terraform', ['init', '-input=false', '-no-color'], { cwd: mine, env }), 0);
  expect(readFileSync(path.join(mine, LOCK), 'utf8')).toBe(written);
});

test('GIVEN an app WHEN locking THEN each stack using the provider gets its lock, other providers are kept, and a second run changes nothing', async () => {
  const app = new FixtureApp({
    web: stack({ provider: {}, alerts: { a: { name: 'a' } } }),
    other: { terraform: { required_providers: { random: { source: 'hashicorp/random' } } } },
  });
  try {
    const stackDir = path.join(app.dir, 'cdktf.out', 'stacks', 'web');
    mkdirSync(stackDir, { recursive: true });
    const random =
      'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n  hashes = [\n    "h1:random",\n  ]\n}\n';
    writeFileSync(path.join(stackDir, LOCK), `# header\n\n${random}`);

    const args = ['provider', 'install', '--dir', path.join(root, 'mirror'), '--lock', app.dir];
    const first = await ncalc(args, { cwd: root, env: cliEnv({}) });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const text = readFileSync(path.join(stackDir, LOCK), 'utf8');
    expect(text).toContain(random);
    expect(text).toMatch(
      /provider "registry\.terraform\.io\/networkcalc\/networkcalc" \{\n {2}version {5}= "0\.1\.0"\n {2}constraints = "~> 0\.1"\n {2}hashes = \[\n {4}"h1:[A-Za-z0-9+/]{43}=",\n {2}\]\n\}\n/,
    );
    expect(existsSync(path.join(app.dir, 'cdktf.out', 'stacks', 'other', LOCK))).toBe(false);

    const second = await ncalc(args, { cwd: root, env: cliEnv({}) });
    expect(second.code).toBe(0);
    expect(readFileSync(path.join(stackDir, LOCK), 'utf8')).toBe(text);
  } finally {
    app.remove();
  }
});

test("a new hash replaces the old one in place; the file stays in terraform's format", () => {
  const first = lockFileText(undefined, 'h1:one', '~> 0.1');
  expect(first.startsWith('# This file is maintained automatically by "terraform init".\n')).toBe(true);
  const other = 'provider "registry.terraform.io/hashicorp/null" {\n  version = "3.2.0"\n}\n';
  const withOther = `${first}\n${other}`;
  const next = lockFileText(withOther, 'h1:two', '~> 0.1');
  expect(hashesOf(next)).toEqual(['h1:two']);
  expect(next).toBe(withOther.replace('h1:one', 'h1:two'));
});

test('GIVEN a directory that is neither an app nor a configuration, or an app without the provider THEN a clear error and exit 1', async () => {
  mkdirSync(path.join(root, 'empty'));
  const none = await ncalc(['provider', 'install', '--dir', path.join(root, 'mirror'), '--lock', 'empty'], {
    cwd: root,
    env: cliEnv({}),
  });
  expect(none.code).toBe(1);
  expect(none.stderr).toContain(
    'neither a cdktf app (no cdktf.json) nor a Terraform configuration (no .tf or .tf.json file)',
  );
  expect(none.stderr).not.toMatch(/\n\s+at /);

  const app = new FixtureApp({
    other: { terraform: { required_providers: { random: { source: 'hashicorp/random' } } } },
  });
  try {
    const r = await ncalc(['provider', 'install', '--dir', path.join(root, 'mirror'), '--lock', app.dir], {
      cwd: root,
      env: cliEnv({}),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no stack of the app');
    expect(r.stderr).toContain('uses networkcalc/networkcalc (stacks: other); add a NetworkcalcAccount to a stack');
  } finally {
    app.remove();
  }
});
