import type { ClientFactory } from '../plan/types';
import { terminalSafe } from '../support/terminal-text';

/** The one prefix of every error line of the CLI, usage errors included (as terraform writes them). */
export const ERROR_PREFIX = 'Error: ';

export interface OutStream {
  /** `done`: called once the chunk is handed on (as Node's streams do). */
  write(chunk: string, done?: () => void): unknown;
  isTTY?: boolean;
}

/**
 * Writes `text`; when the stream says to wait (`false`: a pipe whose reader is slower keeps
 * what it is given in memory), a promise of its being handed on.
 */
export function written(stream: OutStream, text: string): Promise<void> | undefined {
  let done!: () => void;
  const handedOn = new Promise<void>((resolve) => (done = resolve));
  return stream.write(text, () => done()) === false ? handedOn : undefined;
}

/** Everything a command touches outside itself, so tests can run the CLI in-process. */
export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where SIGINT / SIGTERM arrive (the process; an emitter in tests). */
  signals?: NodeJS.EventEmitter;
  /** Replaces the real API client (tests). */
  clientFactory?: ClientFactory;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signals: process,
  };
}

/** Colour only on a terminal, and never with NO_COLOR (https://no-color.org) or --no-color. */
export function useColor(stream: OutStream, env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/**
 * The same streams with every write passed through `terminalSafe`: no control character from
 * a name, record or message of the service reaches the terminal raw, whatever printed it.
 */
export function terminalSafeIO(io: CliIO): CliIO {
  const safe = (stream: OutStream): OutStream => ({
    write: (chunk: string, done?: () => void) => stream.write(terminalSafe(chunk), done),
    get isTTY() {
      return stream.isTTY;
    },
  });
  return { ...io, stdout: safe(io.stdout), stderr: safe(io.stderr) };
}
