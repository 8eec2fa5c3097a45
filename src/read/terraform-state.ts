/**
 * The local Terraform states of an app's stacks, read only, for the alerts they hold: what the
 * Terraform door owns and `ncalc` must leave alone (src/plan/terraform-held.ts).
 *
 * Where a stack's state is: its local backend's `path` in the synthesized JSON (cdktf and CDK
 * Terrain write the absolute `<app>/terraform.<stack>.tfstate` there by default; a relative
 * path is relative to the stack's working directory, `<out>/stacks/<stack>`, where terraform
 * runs); a local backend without `path`, terraform's `terraform.tfstate` in that directory; no
 * backend block at all, `<app>/terraform.<stack>.tfstate`; a local backend's other workspaces,
 * `<workspace_dir, default terraform.tfstate.d>/<workspace>/terraform.tfstate` in that
 * directory. Another backend's states are read with terraform (src/read/terraform-backends.ts). Nothing of a state but the alerts' addresses, ids and names is kept, so no value of
 * it (a secret in another resource) can reach an output.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import type { HeldAlert } from '../plan/types';
import { jsonKind } from '../support/describe';
import { isObject } from '../support/json';
import type { StackDocument } from './desired';

const ALERT_TYPE = 'networkcalc_alert';
/** The target resources a state may hold: ncalc deletes none of them behind Terraform's back. */
const TARGET_KINDS: Readonly<Record<string, 'domain' | 'subdomain'>> = {
  networkcalc_domain: 'domain',
  networkcalc_subdomain: 'subdomain',
};
const TARGET_TYPES: readonly string[] = Object.keys(TARGET_KINDS);
/** A declared target (networkcalc_domain / networkcalc_subdomain) a state holds, not an alert. */
export const isHeldTarget = (h: HeldAlert): boolean => h.kind !== undefined;
/** What a state is read for unless told otherwise: alerts and targets. */
const HELD_TYPES: readonly string[] = [ALERT_TYPE, ...TARGET_TYPES];

/** Where one stack's local state would be, if it has one. */
export interface StateLocation {
  stack: string;
  file: string;
}

/** The local state file of each stack that has a local backend (or none: cdktf's default). */
export function stateLocations(stacks: readonly StackDocument[], appDir: string, outdir: string): StateLocation[] {
  const out: StateLocation[] = [];
  for (const s of stacks) {
    const terraform = s.json.terraform;
    const backend = isObject(terraform) ? terraform.backend : undefined;
    const workDir = path.join(outdir, 'stacks', s.name);
    if (!isObject(backend)) {
      out.push({ stack: s.name, file: path.join(appDir, `terraform.${s.name}.tfstate`) });
      continue;
    }
    const local = backend.local;
    if (!isObject(local)) continue; // another backend: src/read/terraform-backends.ts
    const given = typeof local.path === 'string' && local.path.trim() !== '' ? local.path : 'terraform.tfstate';
    out.push({ stack: s.name, file: path.resolve(workDir, given) });
    const workspaces =
      typeof local.workspace_dir === 'string' && local.workspace_dir ? local.workspace_dir : WORKSPACES;
    out.push(...workspaceStates(s.name, path.resolve(workDir, workspaces)));
  }
  return out;
}

/**
 * True when nothing is at `file` (ENOENT, ENOTDIR), told without an exception: most stacks
 * have no state and no workspace folder, and the error object of a failed read or readdir
 * (with its stack trace) cost about 25 µs each, 0.5 s of CPU at 10,000 stacks. Any other
 * failure is left to the read that follows, which reports it.
 */
function absent(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/** Where a local backend keeps the states of workspaces other than default (its `workspace_dir`). */
const WORKSPACES = 'terraform.tfstate.d';

/** The state of each workspace in a local backend's workspace folder; none when it has none. */
function workspaceStates(stack: string, dir: string): StateLocation[] {
  if (absent(dir)) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().map((w) => ({ stack, file: path.join(dir, w, 'terraform.tfstate') }));
}

/** `provider["registry.terraform.io/networkcalc/networkcalc"].prod` → `networkcalc.prod`. */
function providerKeyOf(provider: unknown): string {
  const m = typeof provider === 'string' ? /^provider\["[^"]*"\](?:\.([A-Za-z0-9_-]+))?$/.exec(provider) : null;
  return m?.[1] ? `networkcalc.${m[1]}` : 'networkcalc';
}

function idOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^[0-9]+$/.test(value.trim()) && Number.isSafeInteger(Number(value)))
    return Number(value);
  return null;
}

/**
 * The alerts one state file holds; none when the file does not exist (or is empty, as
 * terraform may leave it). A file that is not a Terraform state is an error naming it; its
 * content is never quoted (a state may hold secrets).
 */
export function readStateFile(location: StateLocation, types: readonly string[] = HELD_TYPES): HeldAlert[] {
  const { file, stack } = location;
  if (absent(file)) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new ConfigError({
      problems: [
        sentence(
          `the Terraform state of stack ${stack}, ${file}, cannot be read (${code ?? 'error'}); make it readable, or pass --ignore-terraform-state`,
        ),
      ],
    });
  }
  return heldInState(text, file, stack, types);
}

/**
 * The alerts a state's text holds (`file`: where it is, a path or a backend and workspace;
 * `stack` null: a configuration outside the app); none when it is empty. Text that is not a Terraform state is an error naming it.
 */
export function heldInState(
  text: string,
  file: string,
  stack: string | null,
  types: readonly string[] = HELD_TYPES,
): HeldAlert[] {
  if (text.trim() === '') return [];
  const whose = stack === null ? 'a Terraform configuration outside the app' : `stack ${stack}`;
  const notState = (why: string) =>
    new ConfigError({
      problems: [
        sentence(
          `${file} (the Terraform state of ${whose}) ${why}, so ncalc cannot tell which alerts Terraform holds; restore it (terraform state pull), move it away if it is not a state, or pass --ignore-terraform-state`,
        ),
      ],
    });
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text, which may hold a secret.
    throw notState('is not JSON');
  }
  if (!isObject(state)) throw notState(`holds ${jsonKind(state)}, not a state`);
  if (state.version !== 4)
    throw notState(`is a state of format version ${JSON.stringify(state.version ?? null)}, not 4`);
  const resources = state.resources ?? [];
  if (!Array.isArray(resources)) throw notState('has no list of resources');
  const held: HeldAlert[] = [];
  for (const r of resources) {
    if (!isObject(r) || r.mode !== 'managed' || typeof r.name !== 'string') continue;
    if (typeof r.type !== 'string' || !types.includes(r.type)) continue;
    const kind = TARGET_KINDS[r.type];
    const base = `${typeof r.module === 'string' ? `${r.module}.` : ''}${r.type}.${r.name}`;
    const providerKey = providerKeyOf(r.provider);
    for (const instance of Array.isArray(r.instances) ? r.instances : []) {
      if (!isObject(instance)) continue;
      const attributes = isObject(instance.attributes) ? instance.attributes : {};
      const key = instance.index_key;
      held.push({
        file,
        stack,
        ...(kind ? { kind } : {}),
        providerKey,
        address: key === undefined ? base : `${base}[${JSON.stringify(key)}]`,
        id: idOf(attributes.id),
        name: typeof attributes.name === 'string' ? attributes.name : null,
      });
    }
  }
  return held;
}

/**
 * Every alert (or resource of `types`) the local states of these stacks hold; one error
 * listing every state that cannot be read.
 */
export function readTerraformStates(
  stacks: readonly StackDocument[],
  appDir: string,
  outdir: string,
  types: readonly string[] = HELD_TYPES,
): HeldAlert[] {
  const held: HeldAlert[] = [];
  const problems: string[] = [];
  for (const location of stateLocations(stacks, appDir, outdir)) {
    try {
      held.push(...readStateFile(location, types));
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length)
    throw new ConfigError({
      problems: problems.map(sentence),
      summary: 'a Terraform state of the app cannot be read; nothing was called.',
    });
  return held;
}
