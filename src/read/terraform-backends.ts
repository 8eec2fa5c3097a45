/**
 * The Terraform states of stacks whose backend is not local (s3, pg, http, gcs, azurerm, remote,
 * …), read the way terraform itself reads them: with terraform, in the stack's working directory
 * (`<out>/stacks/<stack>`, with the backend block just synthesized), for every workspace the
 * backend has. A directory terraform has not initialised for that backend is initialised first
 * (`terraform init`, as a deploy does: the providers come from terraform's own configuration).
 * An app without such a backend starts no process.
 *
 * Each state is pulled (`terraform state pull`) and read like a local state file
 * (src/read/terraform-state.ts): only the alerts' addresses, ids and names are kept. The
 * backend's credentials are terraform's own (the environment, its CLI configuration); a
 * state that cannot be read is an error naming the stack, the backend and the fix.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import type { HeldAlert } from '../plan/types';
import { isObject } from '../support/json';
import { Limiter } from '../support/limiter';
import type { StackDocument } from './desired';
import { heldInState } from './terraform-state';

/**
 * One stack's backend other than local, or a Terraform configuration outside the app
 * (src/read/terraform-configurations.ts: `stack` null, its backend whatever its files say).
 */
export interface BackendSource {
  stack: string | null;
  type: string;
  /** The stack's working directory, or the outside configuration's directory. */
  dir: string;
}

/** Whose state a source is, for sentences: `stack web`, or the outside configuration's directory. */
export const sourceName = (source: BackendSource) =>
  source.stack === null ? `the Terraform configuration ${source.dir}` : `stack ${source.stack}`;

/** Backends pulled at once: each is a few terraform processes. */
const BACKENDS_AT_ONCE = 8;
/** The longest one terraform command may take (init of a backend that does not answer). */
const TERRAFORM_TIMEOUT_MS = 120_000;

/** The stacks whose backend is neither local nor absent. */
export function backendSources(stacks: readonly StackDocument[], outdir: string): BackendSource[] {
  const out: BackendSource[] = [];
  for (const s of stacks) {
    const terraform = s.json.terraform;
    const backend = isObject(terraform) ? terraform.backend : undefined;
    if (!isObject(backend)) continue;
    for (const type of Object.keys(backend)) {
      if (type !== 'local') out.push({ stack: s.name, type, dir: path.join(outdir, 'stacks', s.name) });
    }
  }
  return out;
}

/** What reading the backends' states took: for the plan's line on it. */
export interface BackendRead {
  /** The alerts and the declared targets (networkcalc_domain / networkcalc_subdomain, with a `kind`) the states hold. */
  held: HeldAlert[];
  /** States read (one per workspace of each backend). */
  states: number;
  backends: number;
  ms: number;
  /** Time spent per terraform command (`init`, `workspace`, `state`), summed over the processes. */
  commandMs: Record<string, number>;
  /**
   * Stacks whose state terraform could not read, each with the sentence that names its backend
   * and the fix: ncalc refuses to write to those stacks' accounts only (stack null: an outside
   * configuration, which may hold alerts of any account: every account refuses).
   */
  unreadable: { stack: string | null; problem: string }[];
}

type Run = (args: string[], env: NodeJS.ProcessEnv) => Promise<string>;

/** terraform in `dir`; rejects with the first `Error:` line terraform printed (never a value of the state). */
function terraformIn(dir: string, baseEnv: NodeJS.ProcessEnv, commandMs: Record<string, number>): Run {
  return (args, extra) => {
    const started = Date.now();
    const timed = new Promise<string>((resolve, reject) => {
      const env: NodeJS.ProcessEnv = {
        ...baseEnv,
        ...extra,
        TF_IN_AUTOMATION: '1',
        TF_INPUT: '0',
        CHECKPOINT_DISABLE: '1',
      };
      if (!extra.TF_WORKSPACE) delete env.TF_WORKSPACE;
      execFile(
        'terraform',
        args,
        { cwd: dir, env, timeout: TERRAFORM_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error('ENOENT'));
          // terraform colours state pull's errors (it takes no -no-color).
          // eslint-disable-next-line no-control-regex
          const plain = `${stderr}\n${stdout}`.replace(/\u001b\[[0-9;]*m/g, '');
          const lines = plain
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l !== '');
          const line = /Error: *(.+)/.exec(plain)?.[1]?.trim() ?? lines[lines.length - 1];
          reject(new Error(line ?? (err.killed ? 'terraform timed out' : `terraform ${args[0]} failed`)));
        },
      );
    });
    const count = () => (commandMs[args[0]!] = (commandMs[args[0]!] ?? 0) + Date.now() - started);
    return timed.finally(count);
  };
}

/** The workspaces `terraform workspace list` shows. */
function workspacesOf(listing: string): string[] {
  const names = listing
    .split('\n')
    .map((l) => l.replace(/^\*/, '').trim())
    .filter((l) => l !== '');
  return names.length ? names : ['default'];
}

/**
 * `terraform workspace list`; a backend without workspaces (http) has the default one only. A
 * directory not initialised for this backend (a fresh checkout, or a backend block changed
 * since) is initialised, then listed again.
 */
async function workspaceList(terraform: Run, init: boolean): Promise<string> {
  const list = async () => {
    try {
      return await terraform(['workspace', 'list', '-no-color'], {});
    } catch (err) {
      if (err instanceof Error && /workspaces not supported/i.test(err.message)) return 'default';
      throw err;
    }
  };
  try {
    return await list();
  } catch (err) {
    if (!init || (err instanceof Error && err.message === 'ENOENT')) throw err;
    await terraform(['init', '-input=false', '-no-color', '-reconfigure'], {});
    return list();
  }
}

async function pullBackend(
  source: BackendSource,
  env: NodeJS.ProcessEnv,
  commandMs: Record<string, number>,
): Promise<{ held: HeldAlert[]; states: number }> {
  const terraform = terraformIn(source.dir, env, commandMs);
  // A configuration outside the app is someone else's folder: read as it is, never initialised.
  const listing = await workspaceList(terraform, source.stack !== null);
  const workspaces = workspacesOf(listing);
  const held: HeldAlert[] = [];
  for (const workspace of workspaces) {
    const text = await terraform(['state', 'pull'], { TF_WORKSPACE: workspace });
    const label =
      source.stack === null
        ? `${source.dir}, workspace ${workspace}`
        : `backend "${source.type}" of stack ${source.stack}, workspace ${workspace}`;
    held.push(...heldInState(text, label, source.stack));
  }
  return { held, states: workspaces.length };
}

function unreadable(source: BackendSource, err: unknown): string {
  const why = err instanceof Error ? err.message : String(err);
  const cause = why.replace(/[.\s]+$/, '');
  if (source.stack === null) {
    const fix =
      why === 'ENOENT'
        ? 'terraform is not on PATH: install terraform (1.5 or later), which reads it with the backend block of the configuration'
        : /init/i.test(why)
          ? `terraform could not read it (${cause}): run terraform init in ${source.dir}, as for a plan there (ncalc does not initialise a configuration outside the app)`
          : `terraform could not read it (${cause}): give ncalc the backend's credentials, the same environment terraform applies that configuration with`;
    return `the Terraform state of ${sourceName(source)}, which may hold alerts of any account of the app, cannot be read: ${fix}; or pass --ignore-terraform-state`;
  }
  const fix =
    why === 'ENOENT'
      ? "terraform is not on PATH: install terraform (1.5 or later), which reads it with the stack's backend block"
      : `terraform could not read it (${cause}): give ncalc the backend's credentials, the same environment terraform deploys with`;
  return `the Terraform state of stack ${source.stack} is kept in its "${source.type}" backend, and ${fix}; or pass --ignore-terraform-state`;
}

/**
 * Every alert the states of these backends hold, pulled in parallel, and the stacks whose state
 * terraform could not read (for their accounts to refuse alone); one error listing every state
 * that was read but is not valid. No backend: nothing runs.
 */
export async function readBackendStates(
  sources: readonly BackendSource[],
  env: NodeJS.ProcessEnv,
): Promise<BackendRead> {
  const started = Date.now();
  const commandMs: Record<string, number> = {};
  if (!sources.length) return { held: [], states: 0, backends: 0, ms: 0, commandMs, unreadable: [] };
  const limiter = new Limiter(BACKENDS_AT_ONCE);
  const problems: string[] = [];
  const cannotRead: BackendRead['unreadable'] = [];
  const held: HeldAlert[] = [];
  let states = 0;
  await Promise.all(
    sources.map((source) =>
      limiter.run(async () => {
        try {
          const read = await pullBackend(source, env, commandMs);
          held.push(...read.held);
          states += read.states;
        } catch (err) {
          if (err instanceof ConfigError) problems.push(...err.problems);
          else cannotRead.push({ stack: source.stack, problem: unreadable(source, err) });
        }
      }),
    ),
  );
  if (problems.length)
    throw new ConfigError({
      problems: problems.map(sentence),
      summary: 'a Terraform state of the app cannot be read; nothing was called.',
    });
  return {
    held,
    states,
    backends: sources.length,
    ms: Date.now() - started,
    commandMs,
    unreadable: cannotRead,
  };
}
