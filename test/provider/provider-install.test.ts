/** `ncalc provider install`: layout, wrapper, idempotence, CLI configuration output. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { installProvider, providerInstallCommand, terraformPlatform } from '../../src/cli/provider-command';
import { cliEnv, ncalc } from '../cli/support';
import { PROVIDER_ENTRY, REQUIRED_PROVIDERS, requireTerraform, runCommand } from './nc-harness';

describe('ncalc provider install', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'nc-install-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const capture = () => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } },
    };
  };

  test('GIVEN a mirror dir WHEN installing THEN an executable wrapper execs node on the compiled provider', () => {
    const r = installProvider({
      dir,
      entry: '/opt/pkg/dist/provider/bin.js',
      node: '/usr/bin/node',
      platform: 'linux',
      arch: 'x64',
    });
    expect(r.binaryPath).toBe(
      path.join(
        dir,
        'registry.terraform.io/networkcalc/networkcalc/0.1.0/linux_amd64/terraform-provider-networkcalc_v0.1.0',
      ),
    );
    expect(readFileSync(r.binaryPath, 'utf8')).toBe(
      `#!/bin/sh\nexec '/usr/bin/node' '/opt/pkg/dist/provider/bin.js' "$@"\n`,
    );
    expect(statSync(r.binaryPath).mode & 0o111).toBe(0o111);
    expect(r.changed).toBe(true);
  });

  test('GIVEN an installed provider WHEN installing again THEN nothing changes', () => {
    const opts = { dir, entry: '/opt/pkg/dist/provider/bin.js', node: '/usr/bin/node' };
    installProvider(opts);
    const before = statSync(installProvider(opts).binaryPath).mtimeMs;
    const again = installProvider(opts);
    expect(again.changed).toBe(false);
    expect(statSync(again.binaryPath).mtimeMs).toBe(before);
  });

  test('platform names follow terraform', () => {
    expect(terraformPlatform('darwin', 'arm64')).toBe('darwin_arm64');
    expect(terraformPlatform('linux', 'arm64')).toBe('linux_arm64');
    expect(() => terraformPlatform('win32', 'x64')).toThrow(/shell script/);
  });

  test('--print-cli-config prints only the CLI configuration on stdout; --cli-config writes it', () => {
    const { out, io } = capture();
    const file = path.join(dir, 'conf', 'terraform.rc');
    expect(providerInstallCommand(io, { dir, printCliConfig: true, cliConfig: file })).toBe(0);
    const expected = `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(dir)}
    include = ["registry.terraform.io/networkcalc/*"]
  }
  direct {
    exclude = ["registry.terraform.io/networkcalc/*"]
  }
}
`;
    expect(out.stdout).toBe(expected);
    expect(out.stderr).toMatch(/^Installed networkcalc\/networkcalc v0\.1\.0 at /);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  test('the default output explains TF_CLI_CONFIG_FILE', () => {
    const { out, io } = capture();
    expect(providerInstallCommand(io, { dir })).toBe(0);
    expect(out.stdout).toContain('TF_CLI_CONFIG_FILE');
    expect(out.stdout).toContain('provider_installation {');
    const second = capture();
    providerInstallCommand(second.io, { dir });
    expect(second.out.stdout).toMatch(/^Already installed:/);
  });

  test('--help documents the flags', async () => {
    const r = await ncalc(['provider', 'install', '--help'], { cwd: dir, env: cliEnv({}) });
    expect(r.code).toBe(0);
    for (const flag of ['--dir <mirror dir>', '--print-cli-config', '--cli-config <file>', 'TF_CLI_CONFIG_FILE'])
      expect(r.stdout).toContain(flag);
  });

  test('a failed install is exit code 1 of the program, with the reason', async () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const r = await ncalc(['provider', 'install', '--dir', path.join(blocker, 'mirror')], {
      cwd: dir,
      env: cliEnv({}),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toBe('');
  });
});

describe('the default directory', () => {
  test('GIVEN an install into ~/.terraform.d/plugins THEN terraform init finds it without any CLI configuration', async () => {
    requireTerraform();
    const home = mkdtempSync(path.join(tmpdir(), 'nc-home-'));
    try {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        CHECKPOINT_DISABLE: '1',
        TF_IN_AUTOMATION: '1',
      };
      const installed = installProvider({ dir: path.join(home, '.terraform.d', 'plugins'), entry: PROVIDER_ENTRY });
      expect(installed.binaryPath.startsWith(path.join(home, '.terraform.d', 'plugins', 'registry.terraform.io'))).toBe(
        true,
      );
      const work = path.join(home, 'work');
      mkdirSync(work);
      writeFileSync(path.join(work, 'main.tf'), REQUIRED_PROVIDERS);
      const r = await runCommand('terraform', ['init', '-no-color'], { cwd: work, env, timeoutMs: 60_000 });
      expect(r.output).toContain('Installed networkcalc/networkcalc v0.1.0');
      expect(r.status).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
