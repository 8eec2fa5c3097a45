import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { PROBLEMS_FILE_ENV, readProblemsFile, type ConstructProblem } from '../contract/problems';
import { fromProblemData, problemLine, sentence } from '../model/problems';
import { declaredScopes, type StackDocument } from './desired';
import { jsonKind } from '../support/describe';
import { isObject } from '../support/json';
import { ENV } from '../accounts/environment';
import { fileErrorText, isFileError, makeDirectories } from '../support/file-errors';
import { SYNTH_PART_ENV, synthPartText } from '../contract/synth-parts';
import { SOURCE_LOCATIONS_ENV } from '../contract/source-locations';
import { mergeParts, synthWorkerCount } from './synth-workers';

/** How long an app may take to synthesize unless told otherwise: 1,000 stacks of 100 alerts fit. */
export const DEFAULT_SYNTH_TIMEOUT_SECONDS = 600;

export type { ConstructProblem };

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
}

function readJson<T>(file: string, fix: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new ConfigError({ problems: [sentence(`${file} is not valid JSON (${(e as Error).message}); ${fix}`)] });
  }
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
  if (problems.length) throw new ConfigError({ problems: problems.map(sentence) });
  return cfg as CdktfJson;
}

export function outDirOf(options: Pick<SynthOptions, 'cwd' | 'out'>): string {
  const cfg = readCdktfJson(options.cwd);
  return path.resolve(options.cwd, options.out ?? cfg?.output ?? 'cdktf.out');
}

/** Names of environment variables whose values are secrets, whatever the app calls them. */
const SECRET_NAME = /TOKEN|SECRET|PASS|PRIVATE|KEY|AUTH|CREDENTIAL/i;

/**
 * The credential variables the stacks of an earlier synth name (token_env,
 * client_secret_env, …): when the app fails now, its new output cannot tell us, but these
 * are the names a user chose for their secrets. Best effort; nothing if unreadable.
 */
function namedSecretVariables(outdir: string): string[] {
  try {
    const { stacks } = readSynthesized(outdir);
    return (declaredScopes(stacks) ?? [])
      .flatMap((s) => [s.tokenEnv, s.clientIdEnv, s.clientSecretEnv])
      .filter((n): n is string => n !== null);
  } catch {
    // No earlier output, or not ours: the name pattern alone applies.
    return [];
  }
}

/**
 * Masks, in text from the app, the values of environment variables that hold secrets: those
 * whose names look like it, the NETWORKCALC_* ones, and those named in `alsoNames`.
 */
export function redactEnvSecrets(text: string, env: NodeJS.ProcessEnv, alsoNames: readonly string[] = []): string {
  const named = new Set(alsoNames);
  const secrets = Object.entries(env)
    .filter(
      ([k, v]) =>
        (SECRET_NAME.test(k) || k.startsWith('NETWORKCALC_') || named.has(k)) &&
        k !== ENV.baseUrl &&
        v !== undefined &&
        v.trim().length >= 4,
    )
    .map(([, v]) => v!.trim())
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out;
}

/** Runs the app like `cdktf synth` does: through a shell, with CDKTF_OUTDIR set, bounded in time. */
async function runApp(
  command: string,
  cwd: string,
  outdir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  earlierOutdir: string,
  cancel?: AbortSignal,
): Promise<void> {
  // The constructs write their problems here when the app fails validation (see constructs/problems.ts).
  const problemsDir = mkdtempSync(path.join(tmpdir(), 'ncalc-problems-'));
  try {
    await runAppWith(
      command,
      cwd,
      outdir,
      env,
      timeoutMs,
      path.join(problemsDir, 'problems.json'),
      earlierOutdir,
      cancel,
    );
  } finally {
    rmSync(problemsDir, { recursive: true, force: true });
  }
}

/** The construct problems the app reported, as a ConfigError; null when it reported none. */
function constructProblems(file: string): ConfigError | null {
  const problems = readProblemsFile(file);
  return problems ? new ConfigError({ problems: problems.map(fromProblemData), line: problemLine }) : null;
}

/**
 * The app's environment: ncalc's without TF_VAR_ values, the output directory and problems file
 * it writes to, and synth settings.
 */
function appEnvironment(env: NodeJS.ProcessEnv, outdir: string, problemsFile: string): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('TF_VAR_')));
  childEnv.CDKTF_OUTDIR = outdir;
  childEnv[PROBLEMS_FILE_ENV] = problemsFile;
  childEnv.CDKTF_CONTINUE_SYNTH_ON_ERROR_ANNOTATIONS = 'true';
  const context: unknown = env.CDKTF_CONTEXT_JSON ? JSON.parse(env.CDKTF_CONTEXT_JSON) : {};
  childEnv.CDKTF_CONTEXT_JSON = JSON.stringify(context);
  // The creation stack of every token (cdktn) is shown only by an error of cdktn's own, and
  // costs about a tenth of a large synth; the app's own setting wins.
  childEnv.CDKTN_DISABLE_CREATION_STACK ??= 'true';
  return childEnv;
}

/** A run of the app that ncalc stopped (a timeout, an interruption), as one sentence. */
const stopped = (message: string) => new ConfigError({ problems: [sentence(message)] });

/** An app that exited with `code` (not for invalid constructs): the end of its output, secrets masked. */
function appFailed(
  command: string,
  code: number | null,
  output: string,
  env: NodeJS.ProcessEnv,
  earlierOutdir: string,
): ConfigError {
  // Read only now (a run that succeeds never needs them): the app wrote its own copy, not the earlier output.
  const secretNames = namedSecretVariables(earlierOutdir);
  const tail = redactEnvSecrets(output, env, secretNames).slice(-8000).trim();
  const cause = causeLine(tail);
  const message = `synth: the app "${command}" exited with code ${code}${cause ? `: ${cause}` : ''}; its output ends with:\n${indent(tail)}`;
  return new ConfigError({ problems: [sentence(redactEnvSecrets(message, env, secretNames))] });
}

/** Errors after which nothing is run again (a timeout, an interruption), unlike a failed part of a synth. */
const stopping = new WeakSet<Error>();
const stops = (e: ConfigError): ConfigError => (stopping.add(e), e);

/**
 * Runs the app once. `cancel` (another part of the synth failed) kills its process group as a
 * timeout does; the run then rejects once the app has ended, so nothing of it writes on.
 */
async function runAppWith(
  command: string,
  cwd: string,
  outdir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  problemsFile: string,
  earlierOutdir: string,
  cancel?: AbortSignal,
): Promise<void> {
  const childEnv = appEnvironment(env, outdir, problemsFile);
  await new Promise<void>((resolve, reject) => {
    // Its own process group, so that a timeout or Ctrl-C ends the shell and all it started.
    const child = spawn(command, {
      cwd,
      env: childEnv,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    // Its own group also means it outlives ncalc killed with SIGKILL (no handler runs then).
    const watchdog = child.pid !== undefined && process.platform !== 'win32' ? groupWatchdog(child.pid) : null;
    // In its own group the app does not get the terminal's Ctrl-C: pass it on, then stop.
    const onSignal = (signal: NodeJS.Signals) => {
      killGroup();
      reject(stops(stopped(`synth: interrupted (${signal}); the app was stopped and nothing was changed`)));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    cancel?.addEventListener('abort', killGroup, { once: true });
    const done = () => {
      watchdog?.release();
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      cancel?.removeEventListener('abort', killGroup);
    };
    // Kept generously and cut only after masking, so a cut never leaves part of a secret.
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-1_000_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      killGroup();
      const seconds = Math.round(timeoutMs / 1000);
      reject(
        stops(
          stopped(
            `synth: the app "${command}" did not finish within ${seconds} s; raise --synth-timeout or check the app`,
          ),
        ),
      );
    }, timeoutMs);
    child.on('error', (e) => {
      done();
      reject(new ConfigError({ problems: [sentence(`synth: could not run "${command}": ${e.message}`)] }));
    });
    child.on('close', (code) => {
      done();
      if (code === 0) resolve();
      else if (cancel?.aborted)
        reject(stopped(`synth: the app "${command}" was stopped: another part of the synth failed`));
      // Invalid constructs: their own list, without the app's output (a stack trace says nothing more).
      else reject(constructProblems(problemsFile) ?? appFailed(command, code, output, env, earlierOutdir));
    });
  });
}

/**
 * A small shell, in a session of its own, that kills the process group `pgid` when ncalc
 * ends without saying it is done: it reads one line from a pipe whose only writer is ncalc,
 * and the kernel closes that pipe however ncalc ends (SIGKILL, a crash, a CI runner that kills
 * the step), so the read returns at end of file and the shell kills the app's group.
 * `release()` (the app has ended) sends the line and the shell leaves without killing.
 */
function groupWatchdog(pgid: number): { release(): void } {
  const shell = spawn(
    '/bin/sh',
    ['-c', 'read -r _ || kill -KILL "-$1" 2>/dev/null', 'ncalc-synth-watchdog', String(pgid)],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    },
  );
  // Neither the shell nor its pipe keeps ncalc running; an error means no watchdog, not a failed synth.
  shell.on('error', () => {});
  shell.stdin?.on('error', () => {});
  shell.unref();
  (shell.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    release: () => {
      shell.stdin?.end('done\n');
    },
  };
}

/**
 * The line of an app's output that says what went wrong (`Error: Cannot find module '…/mian.ts'`,
 * `TypeError: …`), shown first; the Node stack around it stays below. The first such line: a
 * later one is usually a consequence. Null when the output has none.
 */
export function causeLine(output: string): string | null {
  const m = /^[ \t]*((?:Uncaught )?[A-Z]?[A-Za-z]*(?:Error|Exception)(?: \[[A-Z0-9_]+\])?: \S.*)$/m.exec(output);
  return m ? m[1]!.trim() : null;
}

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/**
 * Reads a synthesized output: `manifest.json` and the `cdk.tf.json` of each selected stack,
 * strictly (an entry of the wrong shape is an error naming the file and the field, never
 * skipped), and the error annotations cdktf recorded. The one reader of cdktf output.
 */
export function readSynthesized(outdir: string, wanted: readonly string[] | null = null): { stacks: StackDocument[] } {
  const manifestFile = path.join(outdir, 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new ConfigError({
      problems: [
        sentence(
          `${manifestFile} does not exist; synthesize first (drop --no-synth) or point --out at the synthesized output`,
        ),
      ],
    });
  }
  const manifest = readJson<unknown>(manifestFile, 'synthesize again');
  const bad = (where: string, v: unknown, expected: string) =>
    `${manifestFile}: ${where} is ${jsonKind(v)}; expected ${expected} (synthesize again)`;
  if (!isObject(manifest)) throw new ConfigError({ problems: [sentence(bad('the document', manifest, 'an object'))] });
  const rawStacks = manifest.stacks ?? {};
  if (!isObject(rawStacks))
    throw new ConfigError({ problems: [sentence(bad('stacks', rawStacks, 'an object of stacks by name'))] });
  const problems: string[] = [];
  const entries: Array<[string, string]> = [];
  for (const [name, entry] of Object.entries(rawStacks)) {
    if (!isObject(entry)) {
      problems.push(bad(`stacks.${name}`, entry, 'an object'));
      continue;
    }
    const rel = entry.synthesizedStackPath ?? path.join('stacks', name, 'cdk.tf.json');
    if (typeof rel !== 'string') {
      problems.push(bad(`stacks.${name}.synthesizedStackPath`, rel, 'a path'));
      continue;
    }
    const file = path.resolve(outdir, rel);
    if (path.relative(outdir, file).startsWith('..') || path.isAbsolute(path.relative(outdir, file))) {
      problems.push(
        `${manifestFile}: stacks.${name}.synthesizedStackPath ${JSON.stringify(rel)} is outside the output directory; synthesize again`,
      );
      continue;
    }
    const annotations = entry.annotations ?? [];
    if (!Array.isArray(annotations)) {
      problems.push(bad(`stacks.${name}.annotations`, annotations, 'a list'));
      continue;
    }
    for (const a of annotations) {
      if (isObject(a) && a.level === '@cdktf/error')
        problems.push(
          `stack ${name}: ${typeof a.constructPath === 'string' ? a.constructPath : ''}: ${typeof a.message === 'string' ? a.message : 'error'}`,
        );
    }
    entries.push([name, file]);
  }
  if (wanted) {
    const unknown = wanted.filter((w) => !entries.some(([n]) => n === w));
    if (unknown.length)
      problems.push(
        `unknown stack ${unknown.join(', ')}; the app has ${entries.map(([n]) => n).join(', ') || 'no stacks'}`,
      );
  }
  if (problems.length) throw new ConfigError({ problems: problems.map(sentence) });
  const stacks: StackDocument[] = [];
  for (const [name, file] of entries) {
    if (wanted && !wanted.includes(name)) continue;
    if (!existsSync(file))
      throw new ConfigError({ problems: [sentence(`stack ${name}: ${file} is missing; synthesize again`)] });
    stacks.push({ name, json: readJson<Record<string, unknown>>(file, 'synthesize again') });
  }
  return { stacks };
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
