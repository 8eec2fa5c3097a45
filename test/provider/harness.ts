/**
 * Drives the real terraform binary against a provider script, offline: the script is
 * installed into a filesystem mirror as networkcalc/networkcalc 0.1.0 and terraform is
 * pointed at it with its own CLI config.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { requireBuild } from '../helpers/build';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const PROVIDER_VERSION = '0.1.0';
const COMMAND_TIMEOUT_MS = 90_000;

/** Fails (never skips) when terraform is missing. */
export function requireTerraform(): string {
  const r = spawnSync('terraform', ['version'], { encoding: 'utf8', timeout: 20_000 });
  if (r.error || r.status !== 0) {
    throw new Error(
      'terraform is not on PATH (or does not run): these tests drive the real terraform binary. ' +
        `Install terraform >= 1.11 and retry. (${r.error?.message ?? r.stderr})`,
    );
  }
  return r.stdout.split('\n')[0]!;
}

/** Fails when dist/provider is missing or stale: terraform runs the compiled provider. */
export function requireFreshBuild(): void {
  requireBuild('dist/provider/bin.js');
}

export interface TfResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout + stderr, for assertions and failure messages. */
  output: string;
}

export class TerraformSandbox {
  readonly root: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(providerScript: string) {
    this.root = mkdtempSync(path.join(tmpdir(), 'nc-tf-'));
    const mirror = path.join(this.root, 'mirror');
    const binDir = path.join(
      mirror,
      'registry.terraform.io',
      'networkcalc',
      'networkcalc',
      PROVIDER_VERSION,
      'linux_amd64',
    );
    mkdirSync(binDir, { recursive: true });
    const wrapper = path.join(binDir, `terraform-provider-networkcalc_v${PROVIDER_VERSION}`);
    // exec: no shell survives as an orphan if terraform kills the provider.
    writeFileSync(
      wrapper,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(providerScript)} "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const cliConfig = path.join(this.root, 'terraformrc');
    writeFileSync(
      cliConfig,
      `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["networkcalc/networkcalc"]\n  }\n  direct {\n    exclude = ["networkcalc/networkcalc"]\n  }\n}\n`,
    );
    this.workDir = path.join(this.root, 'work');
    mkdirSync(this.workDir);
    this.env = {
      ...process.env,
      TF_CLI_CONFIG_FILE: cliConfig,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_INPUT: '0',
      NO_COLOR: '1',
    };
    for (const k of ['TF_LOG', 'TF_LOG_PATH', 'TF_DATA_DIR', 'TF_PLUGIN_CACHE_DIR', 'TF_WORKSPACE']) delete this.env[k];
  }

  writeConfig(hcl: string, file = 'main.tf'): void {
    writeFileSync(path.join(this.workDir, file), hcl);
  }

  run(...args: string[]): TfResult {
    const r = spawnSync('terraform', [...args, '-no-color'], {
      cwd: this.workDir,
      env: this.env,
      encoding: 'utf8',
      timeout: COMMAND_TIMEOUT_MS,
    });
    if (r.error) throw new Error(`terraform ${args.join(' ')}: ${r.error.message}`);
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, output: `${r.stdout}\n${r.stderr}` };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
