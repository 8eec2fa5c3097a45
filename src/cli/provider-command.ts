/**
 * `ncalc provider install`: puts this package's Terraform provider into a filesystem mirror,
 * so terraform (and cdktf) install it offline. By default the mirror is the app's own
 * (`terraform-providers/` next to cdktf.json or the .tf files) and its lock file is written:
 * the wrapper names no path of the machine, so the lock file is the same everywhere and is
 * committed with the app. Another mirror (e.g. ~/.terraform.d/plugins) with --dir.
 */
import { hasTerraformFiles } from '../read/terraform-configurations';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../support/atomic-write';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../contract/config-error';
import {
  PROVIDER_ADDRESS,
  PROVIDER_NAMESPACE,
  PROVIDER_SOURCE,
  PROVIDER_TYPE,
  PROVIDER_VERSION,
  terraformSchemaJson,
} from '../schema';
import { mergeCliConfig } from '../install/cli-config';
import { creatableDirectoryProblem } from './files';
import type { CliIO } from './io';
import { JsonCapture } from './json-capture';
import { defineAction } from './contract';
import { EXIT, isExpectedError } from './pipeline';
import { ExpectedError } from '../support/expected-error';
import { LOCK_FILE, writeProviderLocks } from '../install/provider-lock';
import { fileErrorSentence, isFileError } from '../support/file-errors';
import { fileOfTempPath } from '../support/atomic-write';

const HOST = 'registry.terraform.io';
/** An implied local mirror of terraform: found even without any CLI configuration. */
export const DEFAULT_MIRROR_DIR = path.join(homedir(), '.terraform.d', 'plugins');
/** The mirror of an app, next to its cdktf.json or .tf files: the same bytes on every machine. */
export const APP_MIRROR_DIR = 'terraform-providers';
/** The CLI configuration written into an app's mirror; it names this machine's path, so the mirror's .gitignore leaves it out. */
export const APP_CLI_CONFIG = 'cli.tfrc';
/** The npm package whose provider the wrapper runs. */
export const PACKAGE_NAME = 'cdktf-provider-networkcalc';
/** Set by the wrapper for the provider, which refuses to serve under another version's name. */
export const WRAPPER_VERSION_ENV = 'NETWORKCALC_PROVIDER_WRAPPER';

export interface InstallOptions {
  /** Mirror directory. @default ~/.terraform.d/plugins */
  dir?: string;
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
    throw new ExpectedError(
      `the provider wrapper is a shell script; ${platform} is not supported (use Linux, macOS or a BSD, or the standalone provider of a release: docs/terraform.md, "Install without Node.js")`,
    );
  const cpu = ({ x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' } as Record<string, string>)[arch];
  if (!cpu) throw new ExpectedError(`no terraform platform name for CPU architecture ${arch}`);
  return `${os}_${cpu}`;
}

/** The filesystem_mirror block of our provider (and the direct exclusion that goes with it). */
export const PROVIDER_INCLUDE = `${HOST}/${PROVIDER_NAMESPACE}/*`;

export function cliConfigText(mirrorDir: string): string {
  return [
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${JSON.stringify(mirrorDir)}`,
    `    include = [${JSON.stringify(PROVIDER_INCLUDE)}]`,
    '  }',
    '  direct {',
    `    exclude = [${JSON.stringify(PROVIDER_INCLUDE)}]`,
    '  }',
    '}',
    '',
  ].join('\n');
}

/**
 * The wrapper terraform runs. It names no path of this machine: it finds this package in the
 * nearest node_modules above its own location (an app's mirror) or above terraform's working
 * directory (or a clone of the package itself there), else installed globally beside node, and node on PATH ($NETWORKCALC_NODE overrides). So its bytes, and the `h1:`
 * checksum in .terraform.lock.hcl, are one per version. Only shell built-ins: no PATH needed
 * but node's. `exec`: terraform may SIGKILL the provider; no shell must survive as an orphan.
 */
export function wrapperScript(): string {
  const rel = `node_modules/${PACKAGE_NAME}/dist/provider/bin.js`;
  return [
    '#!/bin/sh',
    `# Terraform provider ${PROVIDER_SOURCE} ${PROVIDER_VERSION}, written by "ncalc provider install".`,
    `# Runs the provider of the npm package ${PACKAGE_NAME} found in the nearest node_modules`,
    '# above this file or above the working directory (else a global install beside node), with',
    '# the node on PATH ($NETWORKCALC_NODE overrides). It names no path of any machine: its',
    '# checksum is the same everywhere.',
    'node=${NETWORKCALC_NODE:-node}',
    // A clone of the package itself (its examples run from there): package.json names it.
    'is_package() {',
    '  [ -f "$1/package.json" ] && [ -f "$1/dist/provider/bin.js" ] || return 1',
    '  while IFS= read -r line; do',
    `    case $line in *'"name": "${PACKAGE_NAME}"'*) return 0 ;; esac`,
    '  done < "$1/package.json"',
    '  return 1',
    '}',
    'find_provider() {',
    '  dir=$1',
    '  while [ -n "$dir" ]; do',
    `    if [ -f "$dir/${rel}" ]; then`,
    `      provider="$dir/${rel}"`,
    '      return 0',
    '    fi',
    '    if is_package "$dir"; then',
    '      provider="$dir/dist/provider/bin.js"',
    '      return 0',
    '    fi',
    '    dir=${dir%/*}',
    '  done',
    '  return 1',
    '}',
    'case $0 in */*) here=${0%/*} ;; *) here=. ;; esac',
    'here=$(cd "$here" && pwd -P) || here=',
    // npm's global prefix is node's by default: <prefix>/bin/node, <prefix>/lib/node_modules.
    // The global install is looked up at its one place, not walked up from: node may itself sit
    // inside some clone (a Node.js unpacked into a project), which is not the install meant.
    'if ! find_provider "$here" && ! find_provider "$(pwd -P)" &&',
    `  ! { nodebin=$(command -v "$node") && global="\${nodebin%/bin/*}/lib/${rel}" && [ -f "$global" ] && provider=$global; }; then`,
    // On stdout, one line: terraform shows it ("Unrecognized remote plugin message: …").
    `  echo "networkcalc provider: ${PACKAGE_NAME} not found: no node_modules/${PACKAGE_NAME} above $here or $(pwd -P), no clone of it (package.json and dist/) above them, nor a global install beside $node; run npm install in the app (in a clone of ${PACKAGE_NAME}: npm ci && npm run build)"`,
    '  exit 1',
    'fi',
    `${WRAPPER_VERSION_ENV}=${PROVIDER_VERSION} exec "$node" "$provider" "$@"`,
    '',
  ].join('\n');
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Installs (or confirms) the wrapper; writes nothing when it is already as wanted. */
export function installProvider(opts: InstallOptions = {}): InstallResult {
  const mirrorDir = path.resolve(opts.dir ?? DEFAULT_MIRROR_DIR);
  const binDir = path.join(
    mirrorDir,
    HOST,
    PROVIDER_NAMESPACE,
    PROVIDER_TYPE,
    PROVIDER_VERSION,
    terraformPlatform(opts.platform, opts.arch),
  );
  const binaryPath = path.join(binDir, `terraform-provider-${PROVIDER_TYPE}_v${PROVIDER_VERSION}`);
  const script = wrapperScript();
  let changed = true;
  if (existsSync(binaryPath) && readFileSync(binaryPath, 'utf8') === script) {
    changed = false;
  } else {
    mkdirSync(binDir, { recursive: true });
    writeFileAtomicSync(binaryPath, script, { mode: 0o755 });
  }
  chmodSync(binaryPath, 0o755);
  return { mirrorDir, binaryPath, changed, cliConfig: cliConfigText(mirrorDir) };
}

interface ProviderInstallFlags {
  /** A mirror directory instead of the app's own (terraform-providers/ in the app). */
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

/** A cdktf/cdktn app or a Terraform configuration: a directory with an app to lock. */
export function isAppOrConfig(dir: string): boolean {
  return existsSync(path.join(dir, 'cdktf.json')) || hasTerraformFiles(dir);
}

/** A clone of this package, as the wrapper recognises one: package.json names it, dist/ is built. */
function isPackageClone(dir: string): boolean {
  if (!existsSync(path.join(dir, 'dist', 'provider', 'bin.js'))) return false;
  try {
    return readFileSync(path.join(dir, 'package.json'), 'utf8').includes(`"name": "${PACKAGE_NAME}"`);
  } catch {
    return false;
  }
}

/** Whether the wrapper finds this package from `dir`, as it looks: the nearest node_modules above. */
function packageAbove(dir: string): boolean {
  // A global install beside node (npm's default prefix), as the wrapper's last resort.
  const global = path.join(path.dirname(path.dirname(process.execPath)), 'lib');
  if (existsSync(path.join(global, 'node_modules', PACKAGE_NAME, 'dist', 'provider', 'bin.js'))) return true;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules', PACKAGE_NAME, 'dist', 'provider', 'bin.js'))) return true;
    if (isPackageClone(d)) return true;
    if (path.dirname(d) === d) return false;
  }
}

/** Where an install goes: the app's own mirror unless --dir names another. */
function installTarget(io: ProviderCommandIO, flags: ProviderInstallFlags): { mirrorDir: string; appDir?: string } {
  const cwd = path.resolve(io.cwd ?? process.cwd());
  const lockDir = flags.lock === undefined ? undefined : path.resolve(cwd, flags.lock);
  if (flags.dir !== undefined) return { mirrorDir: path.resolve(cwd, flags.dir), appDir: lockDir };
  const appDir = lockDir ?? cwd;
  if (!isAppOrConfig(appDir)) {
    throw new ExpectedError(
      `${appDir} is neither a cdktf/cdktn app (no cdktf.json) nor a Terraform configuration (no .tf file): run ncalc provider install in the app's directory (or give --lock <app dir>), or --dir <mirror dir> for a mirror elsewhere`,
    );
  }
  return { mirrorDir: path.join(appDir, APP_MIRROR_DIR), appDir };
}

/** Writes `text` to `file` unless it already holds it; true when written. */
function writeIfChanged(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomicSync(file, text);
  return true;
}

/** `--cli-config <file>`: a new file, or our mirror merged into the user's; never their settings lost. */
function writeCliConfig(file: string, mirrorDir: string): string {
  if (existsSync(file) && statSync(file).isDirectory())
    throw new ExpectedError(`--cli-config ${file} is a directory; give a file`);
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (existing === undefined || existing.trim() === '') {
    writeIfChanged(file, cliConfigText(mirrorDir));
    return `Wrote the terraform CLI configuration to ${file}.`;
  }
  const merged = mergeCliConfig(existing, file, mirrorDir, PROVIDER_INCLUDE, PROVIDER_ADDRESS);
  if (!merged.ok) {
    throw new ExpectedError(
      `could not merge the provider mirror into ${file}: ${merged.reason}. Nothing was written. Add this block to its provider_installation block yourself:\n\n` +
        `  filesystem_mirror {\n    path    = ${JSON.stringify(mirrorDir)}\n    include = [${JSON.stringify(PROVIDER_INCLUDE)}]\n  }\n\n` +
        `and "${PROVIDER_INCLUDE}" to the exclude list of every other method (direct, network_mirror).`,
    );
  }
  if (!merged.changed) return `${file} already uses this mirror; left as it is.`;
  writeFileAtomicSync(file, merged.text);
  return `Added this mirror to the provider_installation of ${file}; every other setting kept${merged.excluded ? ` (${merged.excluded} other method${merged.excluded === 1 ? '' : 's'} now exclude ${PROVIDER_INCLUDE})` : ''}.`;
}

/** Runs `provider install` without the lock files; returns the exit code. */
export function providerInstallCommand(io: ProviderCommandIO, flags: ProviderInstallFlags): number {
  let result: InstallResult;
  let appDir: string | undefined;
  let cliConfigFile: string | undefined;
  let cliConfigNote: string | undefined;
  try {
    const target = installTarget(io, flags);
    const problem = creatableDirectoryProblem(target.mirrorDir, flags.dir ?? target.mirrorDir, '--dir');
    if (problem) throw new ExpectedError(problem);
    appDir = target.appDir;
    result = installProvider({ dir: target.mirrorDir });
    if (flags.dir === undefined) {
      // The app's mirror: the same bytes everywhere, except the CLI configuration naming this
      // machine's path, which its own .gitignore leaves out.
      writeIfChanged(path.join(result.mirrorDir, '.gitignore'), `${APP_CLI_CONFIG}\n`);
      cliConfigFile = path.join(result.mirrorDir, APP_CLI_CONFIG);
      writeIfChanged(cliConfigFile, result.cliConfig);
    }
    if (flags.cliConfig) {
      cliConfigFile = path.resolve(io.cwd ?? process.cwd(), flags.cliConfig);
      cliConfigNote = writeCliConfig(cliConfigFile, result.mirrorDir);
    }
  } catch (err) {
    if (!isExpectedError(err)) throw err; // a bug: the commands' one error path reports it
    const cliConfig = cliConfigFile !== undefined && isFileError(err) && fileOfTempPath(err.path) === cliConfigFile;
    const sentence = fileErrorSentence(
      err,
      cliConfig
        ? `make it writable, or give --cli-config a file that can be written`
        : `make it writable, or give --dir a directory that can be written`,
    );
    io.stderr.write(`Error: ${sentence ?? (err instanceof Error ? err.message : String(err))}\n`);
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
  if (cliConfigFile) {
    if (cliConfigNote) lines.push(cliConfigNote);
    lines.push(`Point terraform (and cdktf) at it with:\n\n  export TF_CLI_CONFIG_FILE=${shellQuote(cliConfigFile)}\n`);
  } else {
    lines.push(
      'Terraform CLI configuration for this mirror (put it in a file and set TF_CLI_CONFIG_FILE to that file,',
      'or use --cli-config <file> to have it written, or merged into your own):\n',
      result.cliConfig,
    );
  }
  if (result.mirrorDir === DEFAULT_MIRROR_DIR) {
    lines.push(
      '~/.terraform.d/plugins is also searched by terraform when the CLI configuration has no provider_installation block.\n',
    );
  }
  if (appDir && !packageAbove(appDir)) {
    lines.push(
      `Note: there is no node_modules/${PACKAGE_NAME} in ${appDir} or above it (nor a global install), which the provider runs from: install the package in the app (npm install ${PACKAGE_NAME}) before running terraform.\n`,
    );
  }
  if (!appDir) {
    lines.push(
      'Then, in a configuration with  required_providers { networkcalc = { source = "networkcalc/networkcalc" } }:',
      '  terraform init && terraform plan',
      'For cdktf deploy or cdktn deploy, lock the provider in the app: ncalc provider install --lock <app dir>',
    );
  }
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** `provider install`, then the lock files of the app; returns the exit code. */
export async function providerInstallAndLockCommand(
  io: ProviderCommandIO,
  flags: ProviderInstallFlags,
): Promise<number> {
  const code = providerInstallCommand(io, flags);
  if (code !== 0) return code;
  const { mirrorDir, appDir } = installTarget(io, flags);
  if (!appDir) return 0;
  // With --print-cli-config stdout carries only the configuration.
  const out = flags.printCliConfig ? io.stderr : io.stdout;
  try {
    // Installed a moment ago, so this only locates the wrapper.
    const { binaryPath } = installProvider({ dir: mirrorDir });
    const { files, hash, changed } = await writeProviderLocks(appDir, path.dirname(binaryPath), io.env ?? process.env);
    out.write(
      `\n${changed.length ? 'Locked' : 'Already locked:'} ${PROVIDER_SOURCE} ${PROVIDER_VERSION} (${hash}) in\n${files.map((f) => `  ${path.relative(appDir, f) || f}${changed.includes(f) ? '' : ' (unchanged)'}\n`).join('')}` +
        `The checksum is the same on every machine: commit ${LOCK_FILE} with the app, and check in CI that this command leaves it unchanged.\n` +
        `Run this again after upgrading ${PACKAGE_NAME}, and after adding or renaming a stack.\n`,
    );
    return 0;
  } catch (err) {
    if (!isExpectedError(err)) throw err; // a bug: the commands' one error path reports it
    const sentence = fileErrorSentence(err, `make it writable (the lock file is written there), then run this again`);
    const problems =
      err instanceof ConfigError ? err.problems : [sentence ?? (err instanceof Error ? err.message : String(err))];
    io.stderr.write(
      `Error: could not lock the provider in ${appDir}:\n${problems.map((p) => `  ${p.replace(/\n/g, '\n  ')}`).join('\n')}\n`,
    );
    return 1;
  }
}

/** `ncalc provider install` and `ncalc provider schema`. */
export function register(program: Command, io: CliIO): void {
  const json = new JsonCapture(io);
  const provider = program
    .command('provider')
    .description('The Terraform provider of this package: install it for offline use, print its schema.');
  const install = provider
    .command('install')
    .description(
      `Install the networkcalc/networkcalc v${PROVIDER_VERSION} Terraform provider for offline use: into the app's own mirror (${APP_MIRROR_DIR}/) and its lock file, run in the app's directory.`,
    )
    .option(
      '--dir <mirror dir>',
      `a mirror directory instead of the app's ${APP_MIRROR_DIR}/ (e.g. ~/.terraform.d/plugins)`,
    )
    .option('--print-cli-config', 'print only the terraform CLI configuration on stdout (messages go to stderr)')
    .option(
      '--cli-config <file>',
      'also write the terraform CLI configuration to this file; an existing file keeps every setting, the mirror is merged into it',
    )
    .option(
      '--lock <dir>',
      'the app to lock (default: the current directory): .terraform.lock.hcl of the cdktf/cdktn app in <dir> and of each of its stacks (synthesized first), or of the Terraform configuration in <dir>',
    )
    .addHelpText(
      'after',
      `\nIn the app's directory (cdktf.json, or .tf files):\n` +
        `  ncalc provider install\n  export TF_CLI_CONFIG_FILE=$PWD/${APP_MIRROR_DIR}/${APP_CLI_CONFIG}\n  cdktf deploy            # or terraform init && terraform apply\n` +
        `\nThe provider is a small shell script that runs this package's provider from the app's node_modules with the node on PATH:\n` +
        `  ${APP_MIRROR_DIR}/${HOST}/${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}/${PROVIDER_VERSION}/<os>_<arch>/terraform-provider-${PROVIDER_TYPE}_v${PROVIDER_VERSION}\n` +
        `It names no path, so its checksum in ${LOCK_FILE} is the same on every machine: commit the lock file.\n` +
        `${APP_MIRROR_DIR}/${APP_CLI_CONFIG} names this machine's path; the mirror's .gitignore leaves it out.\n` +
        '\nCI: run it, then check that it changed nothing:\n  npx --no-install ncalc provider install && git diff --exit-code -- .terraform.lock.hcl\n',
    )
    .option('--json', 'a JSON result on stdout: {"status": "ok", "messages": [...]}, or the error document')
    .addHelpText('after', '\nExit codes:\n  0  installed (or already installed)\n  1  error');
  defineAction(install, async (flags: ProviderInstallFlags & { json?: boolean }) => {
    if (flags.json) json.capture();
    const code = await providerInstallAndLockCommand(json.io, flags);
    if (flags.json) json.emit('provider install', code);
    return code;
  });
  defineAction(
    provider
      .command('schema')
      .description('Print the provider schema in the format of `terraform providers schema -json`.')
      // Like `terraform providers schema -json`: JSON is its only format.
      .option('--json', 'the schema as JSON (its only format)'),
    () => {
      io.stdout.write(JSON.stringify(terraformSchemaJson(), null, 2) + '\n');
      return Promise.resolve(EXIT.OK);
    },
  );
}
