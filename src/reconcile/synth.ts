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
const SECRET_NAME = /TOKEN|SECRET|PASSW|PRIVATE|API_?KEY|CREDENTIAL/i;

/** Masks the values of secret-looking environment variables in text from the app. */
export function redactEnvSecrets(text: string, env: NodeJS.ProcessEnv): string {
  const secrets = Object.entries(env)
    .filter(([k, v]) => SECRET_NAME.test(k) && v !== undefined && v.trim().length >= 4)
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
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, { cwd, env: childEnv, shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    // Kept generously and cut only after masking, so a cut never leaves part of a secret.
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-1_000_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      // The shell's children too: kill the process group.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new ConfigError([`synth: the app "${command}" did not finish within ${Math.round(timeoutMs / 1000)} s; raise --synth-timeout or check the app`]));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new ConfigError([`synth: could not run "${command}": ${e.message}`]));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else {
        const tail = redactEnvSecrets(output, env).slice(-8000).trim();
        reject(new ConfigError([redactEnvSecrets(`synth: the app "${command}" exited with code ${code}; its output ends with:\n${indent(tail)}`, env)]));
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
