/**
 * The address at which the working directory's own state holds an alert, for messages only
 * (a `moved` block to suggest). Terraform tells a provider no resource address, so it is read
 * from the local state file of the current workspace; with any other backend it is unknown.
 */
import { readFileSync } from 'node:fs';
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

export function localAddressOf(
  type: string,
  id: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | undefined {
  try {
    const dataDir = dataDirOf(env, cwd);
    const backend = backendOf(dataDir);
    if (backend !== undefined && backend.type !== 'local') return undefined;
    const configured = (backend?.config as { path?: unknown } | undefined)?.path;
    const workspace = currentWorkspace(dataDir, env);
    const file =
      workspace === 'default'
        ? path.resolve(cwd, typeof configured === 'string' && configured ? configured : 'terraform.tfstate')
        : path.resolve(cwd, 'terraform.tfstate.d', workspace, 'terraform.tfstate');
    const state = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
    for (const r of state.resources ?? []) {
      if (r.mode !== 'managed' || r.type !== type) continue;
      for (const i of r.instances ?? []) {
        if (String(i.attributes?.id) !== id) continue;
        const key = i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`;
        return `${r.module ? `${r.module}.` : ''}${type}.${r.name}${key}`;
      }
    }
  } catch {
    // No local state, or one terraform is writing: the message names the address generically.
  }
  return undefined;
}
