/**
 * `ncalc provider install` (in an app, or with --lock <dir>): records the mirrored provider in
 * the dependency lock file (.terraform.lock.hcl) of the app and of its synthesized stacks, or of
 * a Terraform configuration.
 *
 * `cdktf deploy` / `cdktn deploy` run `terraform providers lock` against the public registry
 * when a stack's lock file lacks a required provider; this provider is not there, so they fail
 * unless given --skip-provider-lock. With the provider already locked they skip that step.
 * Lock files persist across synths (cdktf removes only the directories of vanished stacks).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../support/atomic-write';
import * as path from 'node:path';
import { DEFAULT_SYNTH_TIMEOUT_SECONDS, loadStacks } from '../read/synth';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { PROVIDER_ADDRESS, PROVIDER_SOURCE, PROVIDER_VERSION } from '../schema';

export const LOCK_FILE = '.terraform.lock.hcl';
/** Synthesis time limit, as `ncalc plan` has by default. */

/**
 * terraform's `h1:` hash of an unpacked provider directory (Go's dirhash Hash1): SHA-256 of
 * the sorted lines "<sha256 hex>  <relative path>\n", one per file, in base64.
 */
export function packageHashV1(dir: string): string {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else files.push(r);
    }
  };
  walk('');
  const summary = files
    .sort()
    .map(
      (f) =>
        `${createHash('sha256')
          .update(readFileSync(path.join(dir, f)))
          .digest('hex')}  ${f}\n`,
    )
    .join('');
  return `h1:${createHash('sha256').update(summary).digest('base64')}`;
}

const HEADER =
  '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';
const BLOCK = new RegExp(`^provider "${PROVIDER_ADDRESS.replace(/[./]/g, '\\$&')}" \\{\\n[\\s\\S]*?^\\}\\n?`, 'm');

/**
 * The lock file with this provider's block set to `hash` (one wrapper per version, the same on
 * every machine, so one hash); other providers' blocks are kept.
 */
export function lockFileText(existing: string | undefined, hash: string, constraint?: string): string {
  const block = [
    `provider "${PROVIDER_ADDRESS}" {`,
    `  version     = "${PROVIDER_VERSION}"`,
    ...(constraint ? [`  constraints = ${JSON.stringify(constraint)}`] : []),
    '  hashes = [',
    `    "${hash}",`,
    '  ]',
    '}',
    '',
  ].join('\n');
  if (!existing?.trim()) return `${HEADER}\n${block}`;
  if (BLOCK.test(existing)) return existing.replace(BLOCK, block);
  return `${existing.replace(/\n*$/, '\n')}\n${block}`;
}

interface LockTarget {
  dir: string;
  /** The version constraint the configuration gives the provider, if any. */
  constraint?: string;
}

type RequiredProviders = Record<string, string | { source?: string; version?: string }>;

/** This provider's entry in a configuration's required_providers: found, and its version. */
function requirement(json: unknown): { found: boolean; version?: string } {
  const required = ((json as { terraform?: { required_providers?: RequiredProviders } })?.terraform
    ?.required_providers ?? {}) as RequiredProviders;
  for (const entry of Object.values(required)) {
    const source = typeof entry === 'string' ? undefined : entry.source?.toLowerCase();
    if (source === PROVIDER_SOURCE || source === PROVIDER_ADDRESS)
      return { found: true, version: typeof entry === 'string' ? undefined : entry.version };
  }
  return { found: false };
}

interface Manifest {
  stacks?: Record<string, { workingDirectory?: string }>;
}

/** The directories to lock: each stack of a cdktf/cdktn app (synthesized now) that uses this provider, or one configuration. */
async function lockTargets(dir: string, env: NodeJS.ProcessEnv): Promise<LockTarget[]> {
  if (!existsSync(dir)) throw new ConfigError({ problems: [sentence(`--lock ${dir}: no such directory`)] });
  if (existsSync(path.join(dir, 'cdktf.json'))) {
    const { outdir, stacks } = await loadStacks({
      cwd: dir,
      synth: true,
      timeoutMs: DEFAULT_SYNTH_TIMEOUT_SECONDS * 1000,
      env,
    });
    let manifest: Manifest = {};
    try {
      manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      // loadStacks read it a moment ago; default directories then.
    }
    const targets = stacks.flatMap((s) => {
      const req = requirement(s.json);
      return req.found
        ? [
            {
              dir: path.join(outdir, manifest.stacks?.[s.name]?.workingDirectory ?? path.join('stacks', s.name)),
              constraint: req.version,
            },
          ]
        : [];
    });
    // The app's own lock file, committed with it (cdktf.out usually is not).
    if (targets.length) targets.unshift({ dir, constraint: targets[0]!.constraint });
    if (!targets.length) {
      throw new ConfigError({
        problems: [
          sentence(
            `no stack of the app in ${dir} uses ${PROVIDER_SOURCE} (stacks: ${stacks.map((s) => s.name).join(', ') || 'none'}); add a NetworkcalcAccount to a stack`,
          ),
        ],
      });
    }
    return targets;
  }
  const configs = readdirSync(dir).filter((f) => f.endsWith('.tf') || f.endsWith('.tf.json'));
  if (!configs.length) {
    throw new ConfigError({
      problems: [
        sentence(
          `--lock ${dir}: neither a cdktf app (no cdktf.json) nor a Terraform configuration (no .tf or .tf.json file)`,
        ),
      ],
    });
  }
  let constraint: string | undefined;
  for (const f of configs) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    constraint ??= f.endsWith('.json') ? jsonConstraint(text) : hclConstraint(text);
  }
  return [{ dir, constraint }];
}

function jsonConstraint(text: string): string | undefined {
  try {
    return requirement(JSON.parse(text)).version;
  } catch {
    return undefined; // Not JSON terraform can read either; terraform init will say so.
  }
}

/**
 * The version in `networkcalc = { source = "networkcalc/networkcalc", version = "…" }` (one
 * line or a block). Only recorded for cdktf's lock check; terraform init corrects it anyway.
 */
function hclConstraint(text: string): string | undefined {
  const source = `"(?:${PROVIDER_ADDRESS.split('/')[0]!.replace(/\./g, '\\.')}/)?${PROVIDER_SOURCE}"`;
  const entry = new RegExp(`\\{[^{}]*\\bsource\\s*=\\s*${source}[^{}]*\\}`, 'i').exec(text);
  return entry ? /\bversion\s*=\s*"([^"]*)"/.exec(entry[0])?.[1] : undefined;
}

/** Writes the lock files; returns their paths. `providerDir` holds the installed wrapper. */
export async function writeProviderLocks(
  dir: string,
  providerDir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ files: string[]; hash: string; changed: string[] }> {
  const hash = packageHashV1(providerDir);
  const files: string[] = [];
  const changed: string[] = [];
  for (const target of await lockTargets(dir, env)) {
    const file = path.join(target.dir, LOCK_FILE);
    if (existsSync(file) && statSync(file).isDirectory()) {
      throw new ConfigError({
        problems: [
          sentence(
            `${file} is a directory, not a lock file; remove it (rm -r ${file}) and run ncalc provider install again`,
          ),
        ],
      });
    }
    const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const text = lockFileText(existing, hash, target.constraint);
    if (text !== existing) {
      writeFileAtomicSync(file, text);
      changed.push(file);
    }
    files.push(file);
  }
  return { files, hash, changed };
}
