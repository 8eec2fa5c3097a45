/**
 * The working directory's own local states, read only: the address at which the current
 * workspace holds an alert (for messages: a `moved` block to suggest), and which other
 * workspace of this directory holds one (an import refused). Terraform tells a provider no
 * resource address and no other state, so they are read from the local backend's files:
 * `terraform.tfstate` (or the backend's `path`) for the default workspace,
 * `terraform.tfstate.d/<workspace>/terraform.tfstate` for the others; with any other backend
 * they are unknown (docs/terraform.md, "What the provider cannot see").
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { backendOf, currentWorkspace, dataDirOf } from './create-journal';

interface StateFile {
  resources?: {
    module?: string;
    mode?: string;
    type?: string;
    name?: string;
    instances?: { index_key?: string | number; attributes?: { id?: unknown } }[];
  }[];
}

/** One workspace's local state file. */
interface LocalState {
  workspace: string;
  file: string;
}

const WORKSPACES_DIR = 'terraform.tfstate.d';

/** The local state files of this working directory, the current workspace's first; none with another backend. */
function localStates(env: NodeJS.ProcessEnv, cwd: string): { current: LocalState; others: LocalState[] } | undefined {
  const dataDir = dataDirOf(env, cwd);
  const backend = backendOf(dataDir);
  if (backend !== undefined && backend.type !== 'local') return undefined;
  const configured = (backend?.config as { path?: unknown } | undefined)?.path;
  const fileOf = (workspace: string) =>
    workspace === 'default'
      ? path.resolve(cwd, typeof configured === 'string' && configured ? configured : 'terraform.tfstate')
      : path.resolve(cwd, WORKSPACES_DIR, workspace, 'terraform.tfstate');
  const current = currentWorkspace(dataDir, env);
  let named: string[] = [];
  try {
    named = readdirSync(path.resolve(cwd, WORKSPACES_DIR));
  } catch {
    // no workspace but default
  }
  const others = ['default', ...named]
    .filter((w) => w !== current)
    .map((workspace) => ({ workspace, file: fileOf(workspace) }));
  return { current: { workspace: current, file: fileOf(current) }, others };
}

/** The address at which a state file holds `id` of `type`, if it does. */
function addressIn(file: string, type: string, id: string): string | undefined {
  const state = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
  for (const r of state.resources ?? []) {
    if (r.mode !== 'managed' || r.type !== type) continue;
    for (const i of r.instances ?? []) {
      if (String(i.attributes?.id) !== id) continue;
      const key = i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`;
      return `${r.module ? `${r.module}.` : ''}${type}.${r.name}${key}`;
    }
  }
  return undefined;
}

/** `addressIn`, undefined when the file is absent or being written (the message then names the address generically). */
function tryAddressIn(file: string, type: string, id: string): string | undefined {
  try {
    return addressIn(file, type, id);
  } catch {
    return undefined;
  }
}

export function localAddressOf(
  type: string,
  id: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | undefined {
  try {
    const states = localStates(env, cwd);
    return states && tryAddressIn(states.current.file, type, id);
  } catch {
    return undefined; // no data directory terraform can read
  }
}

/** Which state of this working directory holds `id`: the current one (at an address) or another workspace's. */
export type LocalHolder = { workspace: string; current: boolean; address: string };

export function localHolderOf(
  type: string,
  id: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): LocalHolder | undefined {
  let states: ReturnType<typeof localStates>;
  try {
    states = localStates(env, cwd);
  } catch {
    return undefined;
  }
  if (!states) return undefined;
  for (const s of [states.current, ...states.others]) {
    const address = tryAddressIn(s.file, type, id);
    if (address) return { workspace: s.workspace, current: s === states.current, address };
  }
  return undefined;
}
