/** `ncalc provider install`: layout, wrapper, idempotence, CLI configuration output. */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  cliConfigText,
  installProvider,
  providerInstallCommand,
  terraformPlatform,
  wrapperScript,
} from '../../src/cli/provider-command';
import { REPO_ROOT } from './harness';
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

  test('GIVEN two mirror dirs WHEN installing THEN the same executable wrapper, naming no path of this machine', () => {
    const r = installProvider({ dir, platform: 'linux', arch: 'x64' });
    expect(r.binaryPath).toBe(
      path.join(
        dir,
        'registry.terraform.io/networkcalc/networkcalc/0.1.0/linux_amd64/terraform-provider-networkcalc_v0.1.0',
      ),
    );
    const script = readFileSync(r.binaryPath, 'utf8');
    expect(script).toBe(wrapperScript());
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).not.toContain(dir);
    expect(script).not.toContain(process.execPath);
    expect(script).not.toContain(REPO_ROOT);
    expect(statSync(r.binaryPath).mode & 0o111).toBe(0o111);
    expect(r.changed).toBe(true);
    const other = installProvider({ dir: path.join(dir, 'elsewhere', 'mirror'), platform: 'linux', arch: 'x64' });
    expect(readFileSync(other.binaryPath)).toEqual(readFileSync(r.binaryPath));
  });

  test('GIVEN an installed provider WHEN installing again THEN nothing changes', () => {
    const opts = { dir };
    installProvider(opts);
    const before = statSync(installProvider(opts).binaryPath).mtimeMs;
    const again = installProvider(opts);
    expect(again.changed).toBe(false);
    expect(statSync(again.binaryPath).mtimeMs).toBe(before);
  });

  test('the wrapper runs the package of the nearest node_modules with the node on PATH, and says what to do without one', () => {
    const app = path.join(dir, 'app');
    mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    const { binaryPath } = installProvider({ dir: path.join(app, 'terraform-providers') });
    // Without the package: one line that says what to do (terraform shows the plugin's first line).
    const missing = spawnSync(binaryPath, [], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(
      /^networkcalc provider: cdktf-provider-networkcalc not found: no node_modules\/cdktf-provider-networkcalc above .*, no clone of it \(package.json and dist\/\) above them, nor a global install beside node; run npm install in the app \(in a clone of cdktf-provider-networkcalc: npm ci && npm run build\)\n$/,
    );
    // A global install beside node (<prefix>/bin/node, <prefix>/lib/node_modules) is found too.
    const prefix = path.join(dir, 'prefix');
    mkdirSync(path.join(prefix, 'bin'), { recursive: true });
    mkdirSync(path.join(prefix, 'lib', 'node_modules'), { recursive: true });
    symlinkSync(process.execPath, path.join(prefix, 'bin', 'node'));
    symlinkSync(REPO_ROOT, path.join(prefix, 'lib', 'node_modules', 'cdktf-provider-networkcalc'), 'dir');
    const global = spawnSync(binaryPath, [], { cwd: dir, encoding: 'utf8', env: { PATH: path.join(prefix, 'bin') } });
    expect(global.status).toBe(1);
    expect(global.stdout).not.toContain('no node_modules');
    expect(global.stderr).toContain('plugin');
    symlinkSync(REPO_ROOT, path.join(app, 'node_modules', 'cdktf-provider-networkcalc'), 'dir');
    // Started as terraform does not: the provider's own message, from node on PATH.
    const run = spawnSync(binaryPath, [], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: path.dirname(process.execPath) },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('plugin');
    // A package of another version under this wrapper refuses to serve.
    const stale = spawnSync(process.execPath, [PROVIDER_ENTRY], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, NETWORKCALC_PROVIDER_WRAPPER: '0.0.9' },
    });
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain(
      'the wrapper is for 0.0.9, but the package in node_modules serves 0.1.0; run npx --no-install ncalc provider install',
    );
  });

  test('GIVEN an app WHEN installing without --dir THEN its own mirror, a self-ignoring CLI configuration and its lock file; outside an app, a clear refusal', async () => {
    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'main.tf'), REQUIRED_PROVIDERS);
    const r = await ncalc(['provider', 'install'], { cwd: app, env: cliEnv({}) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const mirror = path.join(app, 'terraform-providers');
    expect(readFileSync(path.join(mirror, '.gitignore'), 'utf8')).toBe('cli.tfrc\n');
    expect(readFileSync(path.join(mirror, 'cli.tfrc'), 'utf8')).toContain(`path    = ${JSON.stringify(mirror)}`);
    expect(r.stdout).toContain(`export TF_CLI_CONFIG_FILE='${path.join(mirror, 'cli.tfrc')}'`);
    // The app has no node_modules yet: the provider would not start, and the output says so.
    expect(r.stdout).toContain(
      `Note: there is no node_modules/cdktf-provider-networkcalc in ${app} or above it (nor a global install), which the provider runs from`,
    );
    const lock = readFileSync(path.join(app, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toMatch(
      /provider "registry\.terraform\.io\/networkcalc\/networkcalc" \{\n {2}version {5}= "0\.1\.0"\n {2}constraints = "0\.1\.0"\n {2}hashes = \[\n {4}"h1:[A-Za-z0-9+/=]+",\n {2}\]\n\}/,
    );
    const again = await ncalc(['provider', 'install'], { cwd: app, env: cliEnv({}) });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Already installed:');
    expect(again.stdout).toContain('.terraform.lock.hcl (unchanged)');

    const outside = await ncalc(['provider', 'install'], { cwd: dir, env: cliEnv({}) });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toBe(
      `Error: ${dir} is neither a cdktf/cdktn app (no cdktf.json) nor a Terraform configuration (no .tf file): run ncalc provider install in the app's directory (or give --lock <app dir>), or --dir <mirror dir> for a mirror elsewhere\n`,
    );
    expect(existsSync(path.join(dir, 'terraform-providers'))).toBe(false);
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
    for (const flag of [
      '--dir <mirror dir>',
      '--print-cli-config',
      '--cli-config <file>',
      'TF_CLI_CONFIG_FILE',
      'git diff --exit-code',
    ])
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
      const installed = installProvider({ dir: path.join(home, '.terraform.d', 'plugins') });
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

describe('--cli-config <file> of the user', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'nc-rc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const theirs = (cache: string) => `# my settings
plugin_cache_dir = ${JSON.stringify(cache)}
credentials "app.terraform.io" {
  token = "secret-token"
}

provider_installation {
  network_mirror {
    url     = "https://mirror.example.com/providers/"
    include = ["registry.terraform.io/*/*"]
  }
  direct {
    exclude = [
      "registry.terraform.io/hashicorp/*",
    ]
  }
}
`;

  test('GIVEN a file with credentials, a cache, a network mirror and direct excludes THEN our mirror is merged in, everything else kept, and terraform init uses it', async () => {
    requireTerraform();
    const cache = path.join(dir, 'cache');
    mkdirSync(cache);
    const rc = path.join(dir, 'my.tfrc');
    writeFileSync(rc, theirs(cache));
    const mirror = path.join(dir, 'mirror');
    const r = await ncalc(['provider', 'install', '--dir', mirror, '--cli-config', rc], { cwd: dir, env: cliEnv({}) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `Added this mirror to the provider_installation of ${rc}; every other setting kept (2 other methods now exclude registry.terraform.io/networkcalc/*).`,
    );
    expect(readFileSync(rc, 'utf8')).toBe(`# my settings
plugin_cache_dir = ${JSON.stringify(cache)}
credentials "app.terraform.io" {
  token = "secret-token"
}

provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(mirror)}
    include = ["registry.terraform.io/networkcalc/*"]
  }
  network_mirror {
    exclude = ["registry.terraform.io/networkcalc/*"]
    url     = "https://mirror.example.com/providers/"
    include = ["registry.terraform.io/*/*"]
  }
  direct {
    exclude = [
      "registry.terraform.io/hashicorp/*",
      "registry.terraform.io/networkcalc/*",
    ]
  }
}
`);
    // Merging again changes nothing.
    const again = await ncalc(['provider', 'install', '--dir', mirror, '--cli-config', rc], {
      cwd: dir,
      env: cliEnv({}),
    });
    expect(again.stdout).toContain(`${rc} already uses this mirror; left as it is.`);

    // Terraform reads the merged file: the provider comes from our mirror (offline), through the cache.
    const work = path.join(dir, 'work');
    mkdirSync(work);
    writeFileSync(path.join(work, 'main.tf'), REQUIRED_PROVIDERS);
    const env = { ...cliEnv({ CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: rc }), HOME: dir };
    const init = await runCommand('terraform', ['init', '-no-color'], { cwd: work, env, timeoutMs: 60_000 });
    expect(init.output).toContain('Installed networkcalc/networkcalc v0.1.0');
    expect(init.status).toBe(0);
    expect(existsSync(path.join(cache, 'registry.terraform.io', 'networkcalc', 'networkcalc'))).toBe(true);
  });

  test('GIVEN a file without provider_installation THEN our block is added after its settings', async () => {
    const rc = path.join(dir, 'my.tfrc');
    writeFileSync(rc, 'plugin_cache_dir = "/tmp/cache"\n');
    const mirror = path.join(dir, 'mirror');
    expect(
      (await ncalc(['provider', 'install', '--dir', mirror, '--cli-config', rc], { cwd: dir, env: cliEnv({}) })).code,
    ).toBe(0);
    expect(readFileSync(rc, 'utf8')).toBe(`plugin_cache_dir = "/tmp/cache"\n\n${cliConfigText(mirror)}`);
  });

  test('GIVEN a file it cannot merge safely THEN refused with what to add, and the file untouched', async () => {
    const rc = path.join(dir, 'my.tfrc');
    const text = 'provider_installation {\n  direct {\n    exclude = concat(["a/b"])\n  }\n}\n';
    writeFileSync(rc, text);
    const mirror = path.join(dir, 'mirror');
    const r = await ncalc(['provider', 'install', '--dir', mirror, '--cli-config', rc], { cwd: dir, env: cliEnv({}) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Error: could not merge the provider mirror into ${rc}: the exclude of the direct block on line 2 of ${rc} is not a plain list of strings. Nothing was written. Add this block to its provider_installation block yourself:`,
    );
    expect(r.stderr).toContain(`    path    = ${JSON.stringify(mirror)}`);
    expect(r.stderr).toContain('and "registry.terraform.io/networkcalc/*" to the exclude list of every other method');
    expect(readFileSync(rc, 'utf8')).toBe(text);
  });
});
