/**
 * What the one-owner suites share: working directories initialised once per suite (terraform
 * init per directory, the provider from one mirror), resets between tests, terraform as a
 * process that a test can SIGKILL, and the states read back for the assertions every test
 * makes: no id held by two states, no alert deleted by a state that did not hold it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunningEmulator } from '../../src/emulator';
import { JOURNAL_PREFIX } from '../../src/provider/create-journal';
import { alive, waitFor } from '../helpers/processes';
import { expectStatus, type NetworkcalcSandbox, REQUIRED_PROVIDERS, type TfResult } from './nc-harness';

export const alertHcl = (address: string, name: string, extra = '') => `
resource "networkcalc_alert" "${address}" {
  ${extra}
  name         = ${name}
  type         = "DNS Record"
  subtype      = "A"
  filter       = "equals"
  filter_value = "192.0.2.1"
  target_type  = "domain"
  target_id    = 1
}
`;

export const configOf = (...resources: string[]) =>
  `${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resources.join('')}`;

/** Working directories of one sandbox, each initialised once. */
export async function initDirs(sb: NetworkcalcSandbox, names: string[]): Promise<string[]> {
  const dirs = names.map((n) => path.join(sb.root, n));
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    writeConfig(dir, configOf());
    expectStatus(await sb.terraform(['init'], { cwd: dir }), 0);
  }
  return dirs;
}

export const writeConfig = (dir: string, hcl: string) => writeFileSync(path.join(dir, 'main.tf'), hcl);

/** A directory as after init: no state, no workspace but default, no create journal, no lock. */
export function resetDir(dir: string): void {
  for (const f of ['terraform.tfstate', 'terraform.tfstate.backup', '.terraform.tfstate.lock.info', 'tests'])
    rmSync(path.join(dir, f), { recursive: true, force: true });
  rmSync(path.join(dir, 'terraform.tfstate.d'), { recursive: true, force: true });
  const data = path.join(dir, '.terraform');
  rmSync(path.join(data, 'environment'), { force: true });
  for (const f of readdirSync(data)) if (f.startsWith(JOURNAL_PREFIX)) rmSync(path.join(data, f), { force: true });
}

/** The alert ids a state holds (`workspace` other than default: terraform.tfstate.d). */
export function heldIds(dir: string, workspace = 'default'): string[] {
  const file =
    workspace === 'default'
      ? path.join(dir, 'terraform.tfstate')
      : path.join(dir, 'terraform.tfstate.d', workspace, 'terraform.tfstate');
  if (!existsSync(file)) return [];
  let state: { resources?: { type: string; instances: { attributes: { id: unknown } }[] }[] };
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as typeof state;
  } catch {
    return []; // being written (terraform truncates, then writes)
  }
  return (state.resources ?? [])
    .filter((r) => r.type === 'networkcalc_alert')
    .flatMap((r) => r.instances.map((i) => String(i.attributes.id)));
}

/** Every id held by more than one of these states (expected empty). */
export function sharedIds(states: string[][]): string[] {
  const seen = new Map<string, number>();
  for (const ids of states) for (const id of new Set(ids)) seen.set(id, (seen.get(id) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}

/** Ids of alerts deleted (DELETE answered OK) since the log was cleared. */
export async function deletedIds(emu: RunningEmulator): Promise<string[]> {
  return (await emu.control.requests())
    .filter((q) => q.method === 'DELETE' && q.status === 200)
    .map((q) => {
      const fromPath = /\/api\/alerts\/(\d+)/.exec(q.path)?.[1];
      const fromQuery = /alert_id=(\d+)/.exec(q.query)?.[1];
      return fromPath ?? fromQuery ?? '?';
    });
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  done: Promise<TfResult>;
}

/** terraform as its own process group, to be SIGKILLed with its provider processes. */
export function startTerraform(
  sb: NetworkcalcSandbox,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Running {
  const child = spawn('terraform', [...args, '-no-color'], {
    cwd,
    env: { ...sb.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => killGroup(child), 120_000);
  const done = new Promise<TfResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr, output: `${stdout}\n${stderr}` });
    });
  });
  return { child, output: () => `${stdout}\n${stderr}`, done };
}

export function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * SIGKILL to terraform alone, as a cancelled CI job does; its provider processes leave by
 * themselves (they watch for being re-parented) and remove their sockets. The group is
 * killed only if they do not within 10 s.
 */
export async function killTerraform(run: Running): Promise<TfResult> {
  run.child.kill('SIGKILL');
  const result = await run.done;
  try {
    await waitFor('provider processes gone', () => !groupAlive(run.child), 10_000);
  } finally {
    killGroup(run.child);
  }
  return result;
}

/** Whether any process of terraform's group is alive. */
export function groupAlive(child: ChildProcess): boolean {
  return alive(-child.pid!);
}

/** Whitespace folded, as terraform wraps diagnostics. */
export const flat = (text: string) => text.replace(/\s+/g, ' ');
