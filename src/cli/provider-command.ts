/**
 * `ncalc provider install`: puts this package's Terraform provider into a filesystem mirror,
 * so terraform (and cdktf) install it offline, and prints the CLI configuration that uses it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../reconcile/synth';
import { PROVIDER_NAMESPACE, PROVIDER_SOURCE, PROVIDER_TYPE, PROVIDER_VERSION, terraformSchemaJson } from '../schema';
import { creatableDirectoryProblem } from './files';
import { writeProviderLocks } from './provider-lock';

const HOST = 'registry.terraform.io';
/** An implied local mirror of terraform: found even without any CLI configuration. */
export const DEFAULT_MIRROR_DIR = path.join(homedir(), '.terraform.d', 'plugins');

export interface InstallOptions {
  /** Mirror directory. @default ~/.terraform.d/plugins */
  dir?: string;
  /** Provider entry script to run. @default the compiled provider of this package */
  entry?: string;
  /** Node binary the wrapper execs. @default the node running this command */
  node?: string;
  platform?: NodeJS.Platform;
  arch?: string;
}

export interface InstallResult {
  mirrorDir: string;
  binaryPath: string;
  /** false when an identical wrapper was already in place. */
  changed: boolean;
  cliConfig: string;
}

/** terraform's <os>_<arch> for this machine. */
export function terraformPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = ({ linux: 'linux', darwin: 'darwin', freebsd: 'freebsd', openbsd: 'openbsd' } as Record<string, string>)[
    platform
  ];
  if (!os)
    throw new Error(`the provider wrapper is a shell script; ${platform} is not supported (use Linux, macOS or a BSD)`);
  const cpu = ({ x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' } as Record<string, string>)[arch];
  if (!cpu) throw new Error(`no terraform platform name for CPU architecture ${arch}`);
  return `${os}_${cpu}`;
}

/** The compiled provider entry of this installed package. */
export function providerEntry(): string {
  // From dist/cli this is dist/provider/bin.js; from src/cli (tests) the build in dist as well.
  const candidates = [
    path.resolve(__dirname, '..', 'provider', 'bin.js'),
    path.resolve(__dirname, '..', '..', 'dist', 'provider', 'bin.js'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found)
    throw new Error(
      `the compiled provider is missing (looked for ${candidates.join(', ')}); build the package first (npm run build)`,
    );
  return found;
}

export function cliConfigText(mirrorDir: string): string {
  const include = `${HOST}/${PROVIDER_NAMESPACE}/*`;
  return [
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${JSON.stringify(mirrorDir)}`,
    `    include = [${JSON.stringify(include)}]`,
    '  }',
    '  direct {',
    `    exclude = [${JSON.stringify(include)}]`,
    '  }',
    '}',
    '',
  ].join('\n');
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Installs (or confirms) the wrapper; writes nothing when it is already as wanted. */
export function installProvider(opts: InstallOptions = {}): InstallResult {
  const mirrorDir = path.resolve(opts.dir ?? DEFAULT_MIRROR_DIR);
  const entry = path.resolve(opts.entry ?? providerEntry());
  const node = opts.node ?? process.execPath;
  const binDir = path.join(
    mirrorDir,
    HOST,
    PROVIDER_NAMESPACE,
    PROVIDER_TYPE,
    PROVIDER_VERSION,
    terraformPlatform(opts.platform, opts.arch),
  );
  const binaryPath = path.join(binDir, `terraform-provider-${PROVIDER_TYPE}_v${PROVIDER_VERSION}`);
  // exec: terraform may SIGKILL the provider; no shell must survive it as an orphan.
  const script = `#!/bin/sh\nexec ${shellQuote(node)} ${shellQuote(entry)} "$@"\n`;
  let changed = true;
  if (existsSync(binaryPath) && readFileSync(binaryPath, 'utf8') === script) {
    changed = false;
  } else {
    mkdirSync(binDir, { recursive: true });
    writeFileSync(binaryPath, script);
  }
  chmodSync(binaryPath, 0o755);
  return { mirrorDir, binaryPath, changed, cliConfig: cliConfigText(mirrorDir) };
}

interface ProviderInstallFlags {
  dir?: string;
  printCliConfig?: boolean;
  cliConfig?: string;
  /** An app directory (cdktf.json) or a Terraform configuration whose lock file to write. */
  lock?: string;
}

export interface ProviderCommandIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  /** For synthesizing an app with --lock; default: this process's. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Runs `provider install`; returns the exit code. */
export function providerInstallCommand(io: ProviderCommandIO, flags: ProviderInstallFlags): number {
  let result: InstallResult;
  try {
    const problem = creatableDirectoryProblem(
      flags.dir ?? DEFAULT_MIRROR_DIR,
      flags.dir ?? DEFAULT_MIRROR_DIR,
      '--dir',
    );
    if (problem) throw new Error(problem);
    result = installProvider({ dir: flags.dir });
    if (flags.cliConfig) {
      const file = path.resolve(flags.cliConfig);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, result.cliConfig);
    }
  } catch (err) {
    io.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const status = `${result.changed ? 'Installed' : 'Already installed:'} ${PROVIDER_NAMESPACE}/${PROVIDER_TYPE} v${PROVIDER_VERSION} at ${result.binaryPath}\n`;
  if (flags.printCliConfig) {
    // stdout carries only the configuration, so it can be redirected into a file.
    io.stderr.write(status);
    io.stdout.write(result.cliConfig);
    return 0;
  }
  const lines = [status];
  if (flags.cliConfig) {
    lines.push(
      `Wrote the terraform CLI configuration to ${path.resolve(flags.cliConfig)}. Use it with:\n\n  export TF_CLI_CONFIG_FILE=${shellQuote(path.resolve(flags.cliConfig))}\n`,
    );
  } else {
    lines.push(
      'Terraform CLI configuration for this mirror (put it in a file and set TF_CLI_CONFIG_FILE to that file,',
      'or use --cli-config <file> to have it written):\n',
      result.cliConfig,
    );
  }
  if (result.mirrorDir === DEFAULT_MIRROR_DIR) {
    lines.push(
      '~/.terraform.d/plugins is also searched by terraform when the CLI configuration has no provider_installation block.\n',
    );
  }
  lines.push(
    'Then, in a configuration with  required_providers { networkcalc = { source = "networkcalc/networkcalc" } }:',
    '  terraform init && terraform plan',
    `If terraform had already locked an earlier install, run terraform init -upgrade.`,
  );
  if (!flags.lock)
    lines.push(
      'For cdktf deploy or cdktn deploy without --skip-provider-lock, lock the provider in the app: ncalc provider install --lock <app dir>',
    );
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** `provider install`, then with --lock the lock files; returns the exit code. */
export async function providerInstallAndLockCommand(
  io: ProviderCommandIO,
  flags: ProviderInstallFlags,
): Promise<number> {
  const code = providerInstallCommand(io, flags);
  if (code !== 0 || !flags.lock) return code;
  // With --print-cli-config stdout carries only the configuration.
  const out = flags.printCliConfig ? io.stderr : io.stdout;
  const dir = path.resolve(io.cwd ?? process.cwd(), flags.lock);
  try {
    // Installed a moment ago, so this only locates the wrapper.
    const { binaryPath } = installProvider({ dir: flags.dir });
    const { files, hash } = await writeProviderLocks(dir, path.dirname(binaryPath), io.env ?? process.env);
    out.write(
      `\nLocked ${PROVIDER_SOURCE} ${PROVIDER_VERSION} (${hash}) in\n${files.map((f) => `  ${path.relative(dir, f) || f}\n`).join('')}` +
        `so cdktf deploy and cdktn deploy in ${dir} run without --skip-provider-lock (terraform still finds the provider through the mirror above).\n` +
        'Run this again when the package or node moves, and after renaming a stack.\n',
    );
    return 0;
  } catch (err) {
    const problems = err instanceof ConfigError ? err.problems : [err instanceof Error ? err.message : String(err)];
    io.stderr.write(
      `Error: could not lock the provider in ${dir}:\n${problems.map((p) => `  ${p.replace(/\n/g, '\n  ')}`).join('\n')}\n`,
    );
    return 1;
  }
}

/** `ncalc provider install` and `ncalc provider schema`. */
/** `onExit` receives the command's exit code (the program returns it; nothing here exits). */
export function registerProviderCommand(program: Command, io: ProviderCommandIO, onExit: (code: number) => void): void {
  const provider = program
    .command('provider')
    .description('The Terraform provider of this package: install it for offline use, print its schema.');
  provider
    .command('install')
    .description(
      `Install the networkcalc/networkcalc v${PROVIDER_VERSION} Terraform provider into a filesystem mirror, for offline use.`,
    )
    .option('--dir <mirror dir>', 'mirror directory', DEFAULT_MIRROR_DIR)
    .option('--print-cli-config', 'print only the terraform CLI configuration on stdout (messages go to stderr)')
    .option('--cli-config <file>', 'also write the terraform CLI configuration to this file')
    .option(
      '--lock <dir>',
      'also record the provider in .terraform.lock.hcl: of each stack of the cdktf/cdktn app in <dir> (synthesized first), or of the Terraform configuration in <dir>',
    )
    .addHelpText(
      'after',
      `\nThe provider is a small shell script that runs this package's provider with the node running this command:\n` +
        `  <dir>/${HOST}/${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}/${PROVIDER_VERSION}/<os>_<arch>/terraform-provider-${PROVIDER_TYPE}_v${PROVIDER_VERSION}\n` +
        'Running it again changes nothing unless the package or node moved.\n' +
        '\nExample:\n  ncalc provider install --dir ./terraform-mirror --cli-config ./terraform.rc\n  export TF_CLI_CONFIG_FILE=$PWD/terraform.rc\n  terraform init\n' +
        '\nA cdktf or cdktn app, deployed without --skip-provider-lock:\n  ncalc provider install --lock .\n  cdktf deploy\n',
    )
    .action(async (flags: ProviderInstallFlags) => {
      onExit(await providerInstallAndLockCommand(io, flags));
    });
  provider
    .command('schema')
    .description('Print the provider schema in the format of `terraform providers schema -json`.')
    .action(() => {
      io.stdout.write(JSON.stringify(terraformSchemaJson(), null, 2) + '\n');
    });
}
