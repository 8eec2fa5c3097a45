/**
 * The synth of a run: cdktf.json read, the output directory chosen, the app run once
 * (synth-run.ts) or spread over several runs and merged (synth-workers.ts) into a directory of
 * this run's own, then published, and the stacks read back (synth-output.ts).
 */
import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { type ConstructProblem } from '../contract/problems';
import { sentence } from '../model/problems';
import { type StackDocument } from './desired';
import { jsonKind } from '../support/describe';
import { isObject } from '../support/json';
import { fileErrorText, isFileError, makeDirectories } from '../support/file-errors';
import { SYNTH_PART_ENV, synthPartText } from '../contract/synth-parts';
import { SOURCE_LOCATIONS_ENV } from '../contract/source-locations';
import { mergeParts, synthWorkerCount } from './synth-workers';
import { runApp, stopping } from './synth-run';
import { readSynthesized, readJson } from './synth-output';

/** How long an app may take to synthesize unless told otherwise: 1,000 stacks of 100 alerts fit. */
export const DEFAULT_SYNTH_TIMEOUT_SECONDS = 600;

export type { ConstructProblem };
export { causeLine, redactEnvSecrets } from './synth-run';
export { readSynthesized } from './synth-output';

export interface SynthOptions {
  /** Directory holding cdktf.json. */
  cwd: string;
  /** Overrides cdktf.json `app`. */
  app?: string;
  /** Output directory; default cdktf.json `output`, then cdktf.out. */
  out?: string;
  /** Read an existing output instead of running the app. */
  synth: boolean;
  timeoutMs: number;
  /** Processes to spread the synth over (--synth-workers); default NCALC_SYNTH_WORKERS, then 1. */
  workers?: number;
  env: NodeJS.ProcessEnv;
  /** Selected stack names; all when empty. */
  stacks?: string[];
}

interface CdktfJson {
  app?: string;
  output?: string;
  /** ncalc's own settings. */
  networkcalc?: { terraformConfigurations?: string[] };
}

/** `"networkcalc": {"terraformConfigurations": [...]}`: a list of directories, or a sentence on what is wrong. */
function networkcalcProblem(file: string, v: unknown): string | null {
  if (v === undefined) return null;
  const example = 'such as {"terraformConfigurations": ["../infra/alerts"]}';
  if (!isObject(v)) return `${file}: "networkcalc" is ${jsonKind(v)}; expected an object ${example}`;
  for (const key of Object.keys(v))
    if (key !== 'terraformConfigurations')
      return `${file}: "networkcalc" has no setting ${JSON.stringify(key)}; the one setting is "terraformConfigurations"`;
  const dirs = v.terraformConfigurations;
  if (dirs !== undefined && (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string' || d.trim() === '')))
    return `${file}: "networkcalc"."terraformConfigurations" is ${jsonKind(dirs)}; expected a list of directories (relative to the app), ${example.replace('such as ', 'as in ')}`;
  return null;
}

function readCdktfJson(cwd: string): CdktfJson | null {
  const file = path.join(cwd, 'cdktf.json');
  if (!existsSync(file)) return null;
  const cfg = readJson<unknown>(file, 'fix it');
  if (!isObject(cfg))
    throw new ConfigError({
      problems: [sentence(`${file} holds ${jsonKind(cfg)}; expected an object such as {"app": "npx tsx main.ts"}`)],
    });
  const problems: string[] = [];
  for (const key of ['app', 'output'] as const) {
    const v = (cfg as Record<string, unknown>)[key];
    if (v !== undefined && (typeof v !== 'string' || v.trim() === ''))
      problems.push(
        `${file}: "${key}" is ${jsonKind(v)}${typeof v === 'string' ? ' (empty)' : ''}; expected ${key === 'app' ? 'the command that synthesizes the app' : 'a directory'}`,
      );
  }
  const networkcalc = networkcalcProblem(file, (cfg as Record<string, unknown>).networkcalc);
  if (networkcalc) problems.push(networkcalc);
  if (problems.length) throw new ConfigError({ problems: problems.map(sentence) });
  return cfg as CdktfJson;
}

/**
 * The Terraform configurations outside the app that cdktf.json names
 * (`"networkcalc": {"terraformConfigurations": [...]}`), resolved against the app's directory.
 */
export function terraformConfigurationsOf(cwd: string): string[] {
  const cfg = readCdktfJson(cwd);
  return (cfg?.networkcalc?.terraformConfigurations ?? []).map((d) => path.resolve(cwd, d));
}

export function outDirOf(options: Pick<SynthOptions, 'cwd' | 'out'>): string {
  const cfg = readCdktfJson(options.cwd);
  return path.resolve(options.cwd, options.out ?? cfg?.output ?? 'cdktf.out');
}

/**
 * Runs the app into a directory of this run's own, inside the output directory (so on the
 * same file system), and reads the stacks from there: runs started at once from one checkout (the
 * shards of a CI matrix on one machine) never read each other's half-written files. The
 * output is then moved into the output directory, for --no-synth and for tools that read it.
 * An app that ignores CDKTF_OUTDIR and writes the output directory itself is read from
 * there, as before.
 */
async function synthesizeOwnCopy(app: string, options: SynthOptions, outdir: string): Promise<StackDocument[]> {
  // Inside the output directory: on its file system, and ignored wherever the output is.
  const own = ownOutputDirectory(outdir);
  const wanted = options.stacks?.length ? options.stacks : null;
  try {
    const workers = options.workers ?? synthWorkerCount(options.env);
    if (!(workers > 1 && (await synthesizeInParts(app, options, own, outdir, workers))))
      await runApp(app, options.cwd, own, options.env, options.timeoutMs, outdir);
    if (!existsSync(path.join(own, 'manifest.json')) && existsSync(path.join(outdir, 'manifest.json')))
      return readSynthesized(outdir, wanted).stacks;
    let stacks: StackDocument[];
    try {
      stacks = readSynthesized(own, wanted).stacks;
    } catch (e) {
      // Messages name the output directory the user knows, not this run's copy.
      if (e instanceof ConfigError) throw e.replacing(own, outdir);
      throw e;
    }
    publish(own, outdir);
    return stacks;
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
}

/**
 * Runs the app as `count` processes at once, each writing its part of the stacks
 * (contract/synth-parts.ts), and merges their outputs into `own`: true when that gave the
 * output of one process. False (`own` emptied) when a part failed or the parts do not merge:
 * the caller then runs the app once, which gives the output, or the errors, of one process.
 * The first part to fail stops the others at once: their output would be thrown away.
 * A timeout or an interruption ends the synth.
 */
async function synthesizeInParts(
  app: string,
  options: SynthOptions,
  own: string,
  earlierOutdir: string,
  count: number,
): Promise<boolean> {
  const parts = Array.from({ length: count }, (_, i) => path.join(own, `.part-${i + 1}`));
  const failed = new AbortController();
  // One listener per part; more than ten parts is no leak.
  setMaxListeners(count, failed.signal);
  const runs = await Promise.allSettled(
    parts.map(async (dir, i) => {
      const env: NodeJS.ProcessEnv = { ...options.env, [SYNTH_PART_ENV]: synthPartText({ index: i + 1, count }) };
      // Every part makes every construct: one of them records where they are declared.
      if (i > 0) delete env[SOURCE_LOCATIONS_ENV];
      try {
        await runApp(app, options.cwd, dir, env, options.timeoutMs, earlierOutdir, failed.signal);
      } catch (e) {
        failed.abort();
        throw e;
      }
    }),
  );
  for (const r of runs)
    if (r.status === 'rejected' && r.reason instanceof Error && stopping.has(r.reason)) throw r.reason;
  const merged = runs.every((r) => r.status === 'fulfilled') && mergeParts(parts, own);
  if (merged) for (const dir of parts) rmSync(dir, { recursive: true, force: true });
  else {
    rmSync(own, { recursive: true, force: true });
    mkdirSync(own);
  }
  return merged;
}

/** This run's directory inside `outdir` (made when missing); a path that cannot be used is a sentence. */
function ownOutputDirectory(outdir: string): string {
  try {
    makeDirectories(outdir);
    return mkdtempSync(path.join(outdir, '.ncalc-run-'));
  } catch (e) {
    if (!isFileError(e)) throw e;
    const reason =
      e.code === 'ENOTDIR' || e.code === 'EEXIST' ? `${e.path} is a file, not a directory` : fileErrorText(e.path, e);
    throw new ConfigError({
      problems: [
        sentence(
          `cannot write the synthesized output to ${outdir}: ${reason}; give --out a directory that can be written (it is made when missing)`,
        ),
      ],
      summary: 'the app was not synthesized; nothing was changed.',
    });
  }
}

/**
 * Moves a finished output into the output directory file by file, each in one rename: a
 * reader never sees half a file, and what else the directory holds (a stack's .terraform)
 * stays. Best effort: runs of one app write the same content, so a file another run put
 * there a moment before is as good.
 */
function publish(own: string, outdir: string): void {
  for (const entry of readdirSync(own, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(outdir, path.relative(own, from));
    try {
      mkdirSync(path.dirname(to), { recursive: true });
      renameSync(from, to);
    } catch {
      // Left for the next synth; this run has read its own copy already.
    }
  }
}

/** Synthesizes (unless told not to) and reads the selected stacks' cdk.tf.json. */
export async function loadStacks(options: SynthOptions): Promise<{ outdir: string; stacks: StackDocument[] }> {
  const cfg = readCdktfJson(options.cwd);
  const outdir = outDirOf(options);
  if (options.synth) {
    const app = options.app ?? cfg?.app;
    if (!app) {
      throw new ConfigError({
        problems: [
          sentence(
            cfg
              ? `cdktf.json in ${options.cwd} has no "app"; add one or pass --app`
              : `no cdktf.json in ${options.cwd}; run ncalc in the app's directory, or pass --app "<command>" (or --no-synth to read ${path.relative(options.cwd, outdir) || outdir})`,
          ),
        ],
      });
    }
    return { outdir, stacks: await synthesizeOwnCopy(app, options, outdir) };
  }
  const { stacks } = readSynthesized(outdir, options.stacks?.length ? options.stacks : null);
  return { outdir, stacks };
}
