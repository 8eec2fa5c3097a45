/**
 * Files and directories the commands are given, as sentences: what is wrong with a path and
 * what to do, instead of a system error code (`ENOENT`, `EISDIR`, `ENOTDIR`). Checked before
 * any API call, so a bad path costs nothing and writes nothing.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { onEndingSignal } from '../support/ending-signals';
import { ERRNO_WORDS, fileErrorText } from '../support/file-errors';

export { fileErrorText };

/** Why `dir` cannot be used as a directory (`no such directory`, …), or null when it can. */
export function directoryProblem(dir: string): string | null {
  try {
    return statSync(dir).isDirectory() ? null : 'a file, not a directory';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such directory';
    if (code === 'ENOTDIR') return 'a part of the path is a file, not a directory';
    return ERRNO_WORDS[code ?? ''] ?? (e as Error).message;
  }
}

/**
 * Why a file cannot be written at `file` (`shown` as the user gave it, after `flag`; `example`
 * a file name to suggest), or null when it can: the path is a directory, or its directory does not exist. The directory is not
 * created: a mistyped path would leave directories behind, so the message says how to make it.
 */
export function outputFileProblem(file: string, shown: string, flag: string, example: string): string | null {
  try {
    if (statSync(file).isDirectory())
      return `${flag} ${shown} is a directory; give a file name, such as ${path.join(shown, example)}`;
  } catch {
    // Absent: its directory is checked below.
  }
  const dir = path.dirname(file);
  const problem = directoryProblem(dir);
  if (!problem) return null;
  const shownDir = path.dirname(shown);
  return problem === 'no such directory'
    ? `${flag} ${shown}: the directory ${shownDir} does not exist; create it first (mkdir -p ${shownDir}) or give another path`
    : `${flag} ${shown}: the directory ${shownDir}: ${problem}; give a path in an existing directory`;
}

/**
 * Why a directory cannot be made at `dir` (it is created when missing, with its parents), or
 * null when it can: the path, or a directory above it, is a file.
 */
export function creatableDirectoryProblem(dir: string, shown: string, flag: string): string | null {
  // The nearest part of the path that exists must be a directory.
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code === 'ENOENT' || code === 'ENOTDIR') && path.dirname(at) !== at) continue;
      return `${flag} ${shown}: ${fileErrorText(at, e)}`;
    }
    if (isDirectory) return null;
    const what = at === path.resolve(dir) ? shown : at;
    return `${flag} ${shown}: ${what} is a file, not a directory; give a directory (it is created when missing)`;
  }
}

/**
 * A folder of this run in TMPDIR (`<prefix>XXXXXX`), removed by `remove()` and also when
 * SIGINT or SIGTERM arrives: while an app runs, its own handler stops it and the command ends
 * as usual; at any other time the signal would end ncalc before any `finally`, so the folder
 * is removed first and the signal then ends the process as it would have.
 */
export function scratchDirectory(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const release = onEndingSignal((signal) => {
    // Counted before this listener goes: another listener of this signal (the synth's, say) is
    // called by the same emit and ends ncalc its own way, even if it removes itself first.
    const handledElsewhere = process.listenerCount(signal) > 1;
    remove();
    if (!handledElsewhere) process.kill(process.pid, signal);
  });
  const remove = () => {
    release();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, remove };
}
