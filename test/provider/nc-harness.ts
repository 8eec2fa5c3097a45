/**
 * Real terraform against the networkcalc provider and an in-process emulator. The provider
 * is installed with `ncalc provider install`'s own code into a mirror per sandbox.
 * Commands run asynchronously (the emulator answers on this process's event loop) and are
 * bounded by a timeout each.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cliConfigText, installProvider, PACKAGE_NAME } from '../../src/cli/provider-command';
import { requireFreshBuild, requireTerraform, REPO_ROOT, type TfResult } from './harness';

export { requireTerraform, type TfResult };

export const PROVIDER_ENTRY = path.join(REPO_ROOT, 'dist', 'provider', 'bin.js');
const DEFAULT_TIMEOUT_MS = 90_000;

/** terraform and a fresh build of the provider, or a failure saying what is missing (never a skip). */
export function requirePrerequisites(): void {
  requireTerraform();
  requireFreshBuild();
  statSync(PROVIDER_ENTRY);
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  cwd?: string;
}

/** Runs a command asynchronously; kills it (and fails) past the timeout. */
export function runCommand(
  cmd: string,
  args: string[],
  opts: RunOptions & { cwd: string; env: NodeJS.ProcessEnv },
): Promise<TfResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      // The whole process group: terraform's provider children too.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, output: `${stdout}\n${stderr}` });
    });
  });
}

export class NetworkcalcSandbox {
  readonly root: string;
  readonly mirrorDir: string;
  readonly cliConfig: string;
  readonly workDir: string;
  env: NodeJS.ProcessEnv;

  constructor(apiEnv: Record<string, string>, workName = 'work') {
    this.root = mkdtempSync(path.join(tmpdir(), 'nc-tfp-'));
    this.mirrorDir = path.join(this.root, 'mirror');
    // As in an app: the wrapper finds the package in the nearest node_modules above the mirror.
    mkdirSync(path.join(this.root, 'node_modules'));
    symlinkSync(REPO_ROOT, path.join(this.root, 'node_modules', PACKAGE_NAME), 'dir');
    installProvider({ dir: this.mirrorDir });
    this.cliConfig = path.join(this.root, 'terraform.rc');
    writeFileSync(this.cliConfig, cliConfigText(this.mirrorDir));
    this.workDir = path.join(this.root, workName);
    mkdirSync(this.workDir, { recursive: true });
    this.env = { ...process.env };
    for (const k of Object.keys(this.env)) {
      if (k.startsWith('TF_') || k.startsWith('NETWORKCALC_')) delete this.env[k];
    }
    Object.assign(this.env, {
      TF_CLI_CONFIG_FILE: this.cliConfig,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_INPUT: '0',
      NO_COLOR: '1',
      ...apiEnv,
    });
  }

  writeConfig(hcl: string, file = 'main.tf'): void {
    writeFileSync(path.join(this.workDir, file), hcl);
  }

  readState(): string {
    return readFileSync(path.join(this.workDir, 'terraform.tfstate'), 'utf8');
  }

  /** Attributes of one resource instance in the local state. */
  stateOf(address: string): Record<string, unknown> {
    const [type, name] = address.split('.');
    const state = JSON.parse(this.readState()) as {
      resources: { mode: string; type: string; name: string; instances: { attributes: Record<string, unknown> }[] }[];
    };
    const r = state.resources.find((x) => x.mode === 'managed' && x.type === type && x.name === name);
    if (!r) throw new Error(`${address} is not in the state`);
    return r.instances[0]!.attributes;
  }

  terraform(args: string[], opts: RunOptions = {}): Promise<TfResult> {
    return runCommand('terraform', [...args, '-no-color'], {
      cwd: opts.cwd ?? this.workDir,
      env: { ...this.env, ...opts.env },
      timeoutMs: opts.timeoutMs,
    });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function expectStatus(r: TfResult, status: number): void {
  if (r.status !== status) throw new Error(`expected exit ${status}, got ${r.status}:\n${r.output}`);
}

export const REQUIRED_PROVIDERS = `terraform {
  required_providers {
    networkcalc = { source = "networkcalc/networkcalc", version = "0.1.0" }
  }
}
`;
