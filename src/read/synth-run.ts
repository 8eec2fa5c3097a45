/**
 * Running the app once: its environment (the output directory, the problems file, no secret
 * named where it writes), the process group bounded in time and stopped on a signal, and what a
 * failed run says (its construct problems, or the line of its output that names the cause).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { onEndingSignal } from '../support/ending-signals';
import { PROBLEMS_FILE_ENV, readProblemsFile } from '../contract/problems';
import { fromProblemData, problemLine, sentence } from '../model/problems';
import { declaredScopes } from './desired';
import { ENV } from '../accounts/environment';
import { readSynthesized } from './synth-output';

/** Names of environment variables whose values are secrets, whatever the app calls them. */
export const SECRET_NAME = /TOKEN|SECRET|PASS|PRIVATE|KEY|AUTH|CREDENTIAL/i;

/**
 * The credential variables the stacks of an earlier synth name (token_env,
 * client_secret_env, …): when the app fails now, its new output cannot tell us, but these
 * are the names a user chose for their secrets. Best effort; nothing if unreadable.
 */
export function namedSecretVariables(outdir: string): string[] {
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
export async function runApp(
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
export function constructProblems(file: string): ConfigError | null {
  const problems = readProblemsFile(file);
  return problems ? new ConfigError({ problems: problems.map(fromProblemData), line: problemLine }) : null;
}

/**
 * The app's environment: ncalc's without TF_VAR_ values, the output directory and problems file
 * it writes to, and synth settings.
 */
export function appEnvironment(env: NodeJS.ProcessEnv, outdir: string, problemsFile: string): NodeJS.ProcessEnv {
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
export const stopped = (message: string) => new ConfigError({ problems: [sentence(message)] });

/** An app that exited with `code` (not for invalid constructs): the end of its output, secrets masked. */
export function appFailed(
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
export const stopping = new WeakSet<Error>();
export const stops = (e: ConfigError): ConfigError => (stopping.add(e), e);

/**
 * Runs the app once. `cancel` (another part of the synth failed) kills its process group as a
 * timeout does; the run then rejects once the app has ended, so nothing of it writes on.
 */
export async function runAppWith(
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
    const releaseSignals = onEndingSignal((signal) => {
      killGroup();
      reject(stops(stopped(`synth: interrupted (${signal}); the app was stopped and nothing was changed`)));
    });
    cancel?.addEventListener('abort', killGroup, { once: true });
    const done = () => {
      watchdog?.release();
      clearTimeout(timer);
      releaseSignals();
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
export function groupWatchdog(pgid: number): { release(): void } {
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

export const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
