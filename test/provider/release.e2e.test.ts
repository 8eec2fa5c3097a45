/**
 * The release as the registries and terraform see it: release/build.ts builds linux_amd64 (a
 * standalone executable, no Node.js needed), its zip, manifest, SHA256SUMS and a signature
 * made with a key made here. terraform 1.11 installs it from a network mirror over HTTPS and
 * from a filesystem mirror of the zips, records the checksums of the release, and runs plan,
 * apply, import and destroy against the emulator with no node on PATH.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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
import { artifactNames, buildRelease } from '../../release/build';
import { nodeBinaryOf, platformNamed } from '../../release/platforms';
import { zipOneFile } from '../../release/zip';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { packageHashV1 } from '../../src/install/provider-lock';
import { startProviderMirror, type RunningMirror } from '../helpers/provider-mirror';
import { PROVIDER_VERSION, REPO_ROOT, requireTerraform } from './harness';
import { expectStatus, REQUIRED_PROVIDERS, runCommand } from './nc-harness';

jest.setTimeout(300_000);

const LINUX = platformNamed('linux_amd64');
const NAMES = artifactNames(PROVIDER_VERSION);
const PROVIDER_PATH = 'registry.terraform.io/networkcalc/networkcalc';
const CONFIG = `${REQUIRED_PROVIDERS}
provider "networkcalc" {}

resource "networkcalc_alert" "apex" {
  name         = "apex A"
  type         = "DNS Record"
  subtype      = "A"
  filter       = "equals"
  filter_value = "192.0.2.10"
  target_type  = "domain"
  target_id    = "${DEMO_ACCOUNT.domains['example.com']}"
}
`;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The hashes of our provider in a lock file. */
function lockedHashes(lockFile: string): string[] {
  const text = readFileSync(lockFile, 'utf8');
  const block = text.slice(text.indexOf(`provider "${PROVIDER_PATH}"`));
  return [...block.slice(block.indexOf('hashes'), block.indexOf(']')).matchAll(/"((?:h1|zh):[^"]+)"/g)].map(
    (m) => m[1]!,
  );
}

describe('the release: standalone provider executables as the registries serve them', () => {
  let root: string;
  let release: string;
  let gnupgHome: string;
  let emu: RunningEmulator;
  let mirror: RunningMirror;
  let caFile: string;
  let keyId: string;
  const gpg = (args: string[]) =>
    spawnSync('gpg', ['--batch', ...args], { env: { ...process.env, GNUPGHOME: gnupgHome }, encoding: 'utf8' });

  beforeAll(async () => {
    requireTerraform();
    // A fresh clone has not installed the pinned binaries yet (.ci/run does so before npm test).
    if (!existsSync(nodeBinaryOf(LINUX))) {
      const installed = spawnSync(
        'npm',
        ['ci', '--force', '--no-audit', '--no-fund', '--prefix', path.join(REPO_ROOT, 'release', 'node24')],
        { encoding: 'utf8' },
      );
      if (installed.status !== 0) throw new Error(`npm ci --force --prefix release/node24 failed: ${installed.stderr}`);
    }
    root = mkdtempSync(path.join(tmpdir(), 'nc-release-'));
    gnupgHome = path.join(root, 'gnupg');
    mkdirSync(gnupgHome, { mode: 0o700 });
    const made = gpg([
      '--passphrase',
      '',
      '--quick-gen-key',
      'NetworkCalc Test Release <release@example.invalid>',
      'rsa3072',
      'sign',
      'never',
    ]);
    if (made.status !== 0) throw new Error(`gpg could not make the test key: ${made.stderr}`);
    const fingerprint = /^fpr:+([0-9A-F]+):/m.exec(gpg(['--with-colons', '--list-secret-keys']).stdout)![1]!;
    release = path.join(root, 'release');
    await buildRelease({
      outDir: release,
      platforms: [LINUX],
      signKey: fingerprint,
      env: { ...process.env, GNUPGHOME: gnupgHome },
    });
    emu = await startEmulator({ deleteForm: 'body' });
    const asciiArmor = gpg(['--armor', '--export', fingerprint]).stdout;
    keyId = fingerprint.slice(-16);
    mirror = await startProviderMirror(release, PROVIDER_PATH, { keyId, asciiArmor });
    caFile = path.join(root, 'mirror-ca.pem');
    writeFileSync(caFile, mirror.caPem);
  });
  afterAll(async () => {
    await mirror?.close();
    await emu?.close();
    if (gnupgHome) spawnSync('gpgconf', ['--kill', 'all'], { env: { ...process.env, GNUPGHOME: gnupgHome } });
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('the folder holds the zip, the manifest, SHA256SUMS and its signature, as goreleaser names them', () => {
    const zip = NAMES.zip(LINUX);
    expect(readdirSync(release).sort()).toEqual([NAMES.sums, NAMES.signature, zip, NAMES.manifest].sort());
    expect(readFileSync(path.join(release, NAMES.sums), 'utf8')).toBe(
      [zip, NAMES.manifest].map((f) => `${sha256(path.join(release, f))}  ${f}\n`).join(''),
    );
    expect(JSON.parse(readFileSync(path.join(release, NAMES.manifest), 'utf8'))).toEqual({
      version: 1,
      metadata: { protocol_versions: ['6.0'] },
    });
    // One entry, the executable, with its mode.
    expect(execFileSync('zipinfo', [path.join(release, zip)], { encoding: 'utf8' })).toMatch(
      new RegExp(`\\n-rwxr-xr-x .* ${NAMES.executable(LINUX)}\\n1 file`),
    );
    const verify = gpg(['--verify', path.join(release, NAMES.signature), path.join(release, NAMES.sums)]);
    expect(verify.stderr).toContain('Good signature from "NetworkCalc Test Release');
    expect(verify.status).toBe(0);
    // A checksum changed after signing no longer verifies.
    const tampered = path.join(root, 'tampered_SHA256SUMS');
    writeFileSync(
      tampered,
      readFileSync(path.join(release, NAMES.sums), 'utf8').replace(/^./, (c) => (c === '0' ? '1' : '0')),
    );
    expect(gpg(['--verify', path.join(release, NAMES.signature), tampered]).status).not.toBe(0);
  });

  /** A working directory whose terraform finds only terraform on PATH, with the given CLI configuration. */
  function workspace(name: string, cliConfig: string, extraEnv: Record<string, string> = {}, config = CONFIG) {
    const dir = path.join(root, name);
    const bin = path.join(root, 'bin');
    if (!existsSync(bin)) {
      mkdirSync(bin);
      const terraform = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
      symlinkSync(terraform, path.join(bin, 'terraform'));
    }
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'main.tf'), config);
    writeFileSync(path.join(dir, 'cli.tfrc'), cliConfig);
    const env: NodeJS.ProcessEnv = {
      PATH: bin,
      HOME: root,
      TMPDIR: tmpdir(),
      TF_CLI_CONFIG_FILE: path.join(dir, 'cli.tfrc'),
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
      NETWORKCALC_BASE_URL: emu.url,
      NETWORKCALC_TOKEN: DEMO_ACCOUNT.token,
      ...extraEnv,
    };
    expect(spawnSync('sh', ['-c', 'command -v node'], { env }).status).not.toBe(0);
    const terraform = (args: string[]) =>
      runCommand(path.join(bin, 'terraform'), [...args, '-no-color'], { cwd: dir, env });
    return { dir, terraform, env };
  }

  const zipHash = () => `zh:${sha256(path.join(release, NAMES.zip(LINUX)))}`;
  /** h1: of the zip's contents, unpacked here (what terraform hashes after installing). */
  function unpackedHash(): string {
    const dir = mkdtempSync(path.join(root, 'unpacked-'));
    execFileSync('unzip', ['-q', path.join(release, NAMES.zip(LINUX)), '-d', dir]);
    return packageHashV1(dir);
  }
  const alerts = async () => (await emu.control.state()).accounts.find((a) => a.name === DEMO_ACCOUNT.name)!.alerts;

  test('terraform init from an HTTPS network mirror, then plan, apply, import and destroy with no Node.js on PATH', async () => {
    const cli = `provider_installation {\n  network_mirror {\n    url = "${mirror.url}"\n  }\n}\n`;
    const { dir, terraform } = workspace('network-mirror', cli, { SSL_CERT_FILE: caFile });

    const init = await terraform(['init']);
    expectStatus(init, 0);
    expect(init.output).toContain(`Installed networkcalc/networkcalc v${PROVIDER_VERSION}`);
    expect(mirror.requests).toEqual(
      expect.arrayContaining([
        `/${PROVIDER_PATH}/index.json`,
        `/${PROVIDER_PATH}/${PROVIDER_VERSION}.json`,
        `/${PROVIDER_PATH}/${NAMES.zip(LINUX)}`,
      ]),
    );
    const installed = path.join(
      dir,
      '.terraform',
      'providers',
      PROVIDER_PATH,
      PROVIDER_VERSION,
      LINUX.name,
      NAMES.executable(LINUX),
    );
    expect(readFileSync(installed).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46])); // ELF, not a script
    // terraform checked the zip against the mirror's zh: (the release's SHA256SUMS) and locks its h1:.
    expect(lockedHashes(path.join(dir, '.terraform.lock.hcl'))).toEqual([unpackedHash()]);

    expectStatus(await terraform(['plan', '-detailed-exitcode', '-out=plan.bin']), 2);
    expectStatus(await terraform(['apply', 'plan.bin']), 0);
    const created = await alerts();
    expect(created.map((a) => a.name)).toEqual(['apex A']);

    expectStatus(await terraform(['state', 'rm', 'networkcalc_alert.apex']), 0);
    expectStatus(await terraform(['import', 'networkcalc_alert.apex', String(created[0]!.id)]), 0);
    const plan = await terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 0);
    expect(plan.output).toContain('No changes.');

    expectStatus(await terraform(['destroy', '-auto-approve']), 0);
    expect(await alerts()).toEqual([]);
  });

  test('from a registry serving the release as published: the signature checks out and the lock holds the zh: of SHA256SUMS', async () => {
    const host = 'registry.example.test';
    const cli = `host "${host}" {\n  services = {\n    "providers.v1" = "${mirror.registryUrl}"\n  }\n}\n`;
    const config = CONFIG.replace('source = "networkcalc/networkcalc"', `source = "${host}/networkcalc/networkcalc"`);
    const { dir, terraform } = workspace('registry', cli, { SSL_CERT_FILE: caFile }, config);

    const init = await terraform(['init']);
    expectStatus(init, 0);
    // Self-signed: the key is the author's own, as for every provider outside HashiCorp and its partners.
    expect(init.output).toContain(
      `Installed ${host}/networkcalc/networkcalc v${PROVIDER_VERSION} (self-signed, key ID ${keyId})`,
    );
    // Every line of the signed SHA256SUMS (the zips and the manifest, as for a provider from the registry).
    const sums = readFileSync(path.join(release, NAMES.sums), 'utf8')
      .trim()
      .split('\n')
      .map((line) => `zh:${line.split('  ')[0]}`)
      .sort();
    expect(sums).toContain(zipHash());
    const text = readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8');
    const hashes = [...text.matchAll(/"((?:h1|zh):[^"]+)"/g)].map((m) => m[1]!);
    expect(hashes.filter((h) => h.startsWith('zh:')).sort()).toEqual(sums);
    expect(hashes.filter((h) => h.startsWith('h1:'))).toEqual([unpackedHash()]);
    expect(mirror.requests).toContain(`/files/${NAMES.signature}`);
    expectStatus(await terraform(['plan', '-detailed-exitcode']), 2);
  });

  /** The code blocks of docs/terraform.md's "Install without Node.js", by language. */
  function installDocBlocks(lang: string): string[] {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs', 'terraform.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Install without Node.js'), doc.indexOf('## Installing (offline)'));
    return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
  }

  test("docs/terraform.md's release route as written: check and mirror the zips, CLI configuration, init, providers lock for five platforms", async () => {
    const docMirror = '/opt/terraform-mirror';
    const fsMirror = path.join(root, 'zips');
    // The download: the release, and zips of the other platforms (terraform only hashes them to lock).
    const download = path.join(root, 'download');
    execFileSync('cp', ['-r', release, download]);
    for (const name of ['linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64']) {
      const p = platformNamed(name);
      writeFileSync(path.join(download, NAMES.zip(p)), zipOneFile(NAMES.executable(p), Buffer.from(name)));
    }
    const [check] = installDocBlocks('sh');
    const checked = spawnSync('bash', ['-euo', 'pipefail', '-c', check!.replaceAll(docMirror, fsMirror)], {
      cwd: download,
      env: { ...process.env, GNUPGHOME: gnupgHome },
      encoding: 'utf8',
    });
    expect(checked.stderr).toContain('Good signature');
    expect(checked.status).toBe(0);
    expect(readdirSync(path.join(fsMirror, PROVIDER_PATH))).toHaveLength(5);

    const cli = installDocBlocks('hcl').find((b) => b.startsWith('provider_installation'))!;
    const { dir, terraform, env } = workspace('fs-mirror', cli.replaceAll(docMirror, fsMirror));
    const init = await terraform(['init']);
    expectStatus(init, 0);
    expect(init.output).toContain(`Installed networkcalc/networkcalc v${PROVIDER_VERSION}`);
    expect(lockedHashes(path.join(dir, '.terraform.lock.hcl'))).toEqual([unpackedHash()]);

    rmSync(path.join(dir, '.terraform.lock.hcl'));
    const lock = installDocBlocks('sh').find((b) => b.startsWith('terraform providers lock'))!;
    const locked = await runCommand('/bin/sh', ['-c', lock.replaceAll(docMirror, fsMirror)], { cwd: dir, env });
    expectStatus(locked, 0);
    const hashes = lockedHashes(path.join(dir, '.terraform.lock.hcl'));
    expect(hashes).toHaveLength(5);
    expect(hashes).toContain(unpackedHash());
    expectStatus(await terraform(['plan', '-detailed-exitcode']), 2);
  });
});
