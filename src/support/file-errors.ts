/**
 * Failed file operations as words for people, instead of a system code (`ENOENT`, `EACCES`):
 * the one table every front door uses, and a directory maker that fails with such an error.
 */
import { mkdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileOfTempPath } from './atomic-write';

/** What the system errors of file operations mean, for people. */
export const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'has a file where a directory should be',
  EISDIR: 'is a directory',
  EACCES: 'is not accessible (permission denied)',
  EPERM: 'is not accessible (operation not permitted)',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'is on a full disk',
  EEXIST: 'already exists',
  ELOOP: 'is a loop of symbolic links',
  ENAMETOOLONG: 'has too long a name',
};

/** `<shown> <words>` for a failed file operation: the path and what the system said, in words. */
export function fileErrorText(shown: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words = code ? ERRNO_WORDS[code] : undefined;
  return words ? `${shown} ${words}` : `${shown}: ${(e as Error).message}`;
}

/** Whether `e` is a system error of a file operation (it has a code and names its path). */
export function isFileError(e: unknown): e is NodeJS.ErrnoException & { code: string; path: string } {
  return (
    e instanceof Error &&
    typeof (e as NodeJS.ErrnoException).code === 'string' &&
    typeof (e as NodeJS.ErrnoException).path === 'string'
  );
}

/**
 * `mkdir -p dir`, one level at a time: Node's recursive mkdir never returns for a path under
 * /proc (it retries the ENOENT forever). A file where a directory should be fails with
 * ENOTDIR naming that file; any other failure is the system's error, naming its path.
 */
export function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (e) {
      // ENOTDIR: a file further up, found when the walk reaches it.
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(at) === at) throw e;
      missing.push(at);
      continue;
    }
    if (isDirectory) break;
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/**
 * A failed file operation as one sentence: the path it failed on (an atomic write's temp file
 * named as the file it was for) and what the system said, in words, then `fix`; null for
 * anything that is not a file error.
 */
export function fileErrorSentence(e: unknown, fix: string): string | null {
  if (!isFileError(e)) return null;
  return `${fileErrorText(fileOfTempPath(e.path), e)}; ${fix}`;
}
