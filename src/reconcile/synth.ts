import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { StackDocument } from './desired';

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

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
    throw new ConfigError([`${file} is not valid JSON (${(e as Error).message}); ${fix}`]);
  }
}

function readCdktfJson(cwd: string): CdktfJson | null {
  const file = path.join(cwd, 'cdktf.json');
  return existsSync(file) ? readJson<CdktfJson>(file, 'fix it') : null;
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
  const names: string[] = [];
  try {
    const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as Manifest;
    for (const [name, entry] of Object.entries(manifest.stacks ?? {})) {
      const file = path.join(outdir, entry.synthesizedStackPath ?? path.join('stacks', name, 'cdk.tf.json'));
      const json = JSON.parse(readFileSync(file, 'utf8')) as { provider?: { networkcalc?: Array<Record<string, unknown>> } };
      for (const p of json.provider?.networkcalc ?? []) {
        for (const key of ['token_env', 'client_id_env', 'client_secret_env']) if (typeof p[key] === 'string') names.push(p[key] as string);
      }
    }
  } catch {
    // No earlier output, or not ours: the name pattern alone applies.
  }
  return names;
}

/**
 * Masks, in text from the app, the values of environment variables that hold secrets: those
 * whose names look like it, the NETWORKCALC_* ones, and those named in `alsoNames`.
 */
export function redactEnvSecrets(text: string, env: NodeJS.ProcessEnv, alsoNames: readonly string[] = []): string {
  const named = new Set(alsoNames);
  const secrets = Object.entries(env)
    .filter(([k, v]) => (SECRET_NAME.test(k) || k.startsWith('NETWORKCALC_') || named.has(k)) && k !== 'NETWORKCALC_BASE_URL' && v !== undefined && v.trim().length >= 4)
    .map(([, v]) => v!.trim())
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out;
}

/** Runs the app like `cdktf synth` does: through a shell, with CDKTF_OUTDIR set, bounded in time. */
async function runApp(command: string, cwd: string, outdir: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  const childEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('TF_VAR_')));
  childEnv.CDKTF_OUTDIR = outdir;
  childEnv.CDKTF_CONTINUE_SYNTH_ON_ERROR_ANNOTATIONS = 'true';
  const context = env.CDKTF_CONTEXT_JSON ? JSON.parse(env.CDKTF_CONTEXT_JSON) : {};
  childEnv.CDKTF_CONTEXT_JSON = JSON.stringify(context);
  const secretNames = namedSecretVariables(outdir);
  await new Promise<void>((resolve, reject) => {
    // Its own process group, so that a timeout or Ctrl-C ends the shell and all it started.
    const child = spawn(command, { cwd, env: childEnv, shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    // In its own group the app does not get the terminal's Ctrl-C: pass it on, then stop.
    const onSignal = (signal: NodeJS.Signals) => {
      killGroup();
      reject(new ConfigError([`synth: interrupted (${signal}); the app was stopped and nothing was changed`]));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const done = () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
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
      reject(new ConfigError([`synth: the app "${command}" did not finish within ${Math.round(timeoutMs / 1000)} s; raise --synth-timeout or check the app`]));
    }, timeoutMs);
    child.on('error', (e) => {
      done();
      reject(new ConfigError([`synth: could not run "${command}": ${e.message}`]));
    });
    child.on('close', (code) => {
      done();
      if (code === 0) resolve();
      else {
        const tail = redactEnvSecrets(output, env, secretNames).slice(-8000).trim();
        reject(new ConfigError([redactEnvSecrets(`synth: the app "${command}" exited with code ${code}; its output ends with:\n${indent(tail)}`, env, secretNames)]));
      }
    });
  });
}

const indent = (s: string) => s.split('\n').map((l) => `    ${l}`).join('\n');

interface Manifest {
  stacks?: Record<string, { name?: string; synthesizedStackPath?: string; annotations?: Array<{ level?: string; message?: string; constructPath?: string }> }>;
}

/** Synthesizes (unless told not to) and reads the selected stacks' cdk.tf.json. */
export async function loadStacks(options: SynthOptions): Promise<{ outdir: string; stacks: StackDocument[] }> {
  const cfg = readCdktfJson(options.cwd);
  const outdir = outDirOf(options);
  if (options.synth) {
    const app = options.app ?? cfg?.app;
    if (!app) {
      throw new ConfigError([
        cfg ? `cdktf.json in ${options.cwd} has no "app"; add one or pass --app` : `no cdktf.json in ${options.cwd}; run ncalc in the app's directory, or pass --app "<command>" (or --no-synth to read ${path.relative(options.cwd, outdir) || outdir})`,
      ]);
    }
    await runApp(app, options.cwd, outdir, options.env, options.timeoutMs);
  }
  const manifestFile = path.join(outdir, 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new ConfigError([`${manifestFile} does not exist; synthesize first (drop --no-synth) or point --out at the synthesized output`]);
  }
  const manifest = readJson<Manifest>(manifestFile, 'synthesize again');
  const entries = Object.entries(manifest.stacks ?? {});
  const problems: string[] = [];
  for (const [name, entry] of entries) {
    for (const a of entry.annotations ?? []) {
      if (a.level === '@cdktf/error') problems.push(`stack ${name}: ${a.constructPath ?? ''}: ${a.message ?? 'error'}`);
    }
  }
  const wanted = options.stacks?.length ? options.stacks : null;
  if (wanted) {
    const unknown = wanted.filter((w) => !entries.some(([n]) => n === w));
    if (unknown.length) problems.push(`unknown stack ${unknown.join(', ')}; the app has ${entries.map(([n]) => n).join(', ') || 'no stacks'}`);
  }
  if (problems.length) throw new ConfigError(problems);
  const stacks: StackDocument[] = [];
  for (const [name, entry] of entries) {
    if (wanted && !wanted.includes(name)) continue;
    const file = path.join(outdir, entry.synthesizedStackPath ?? path.join('stacks', name, 'cdk.tf.json'));
    if (!existsSync(file)) throw new ConfigError([`stack ${name}: ${file} is missing; synthesize again`]);
    stacks.push({ name, json: readJson<Record<string, unknown>>(file, 'synthesize again') });
  }
  return { outdir, stacks };
}
