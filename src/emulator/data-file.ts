import { randomBytes } from 'node:crypto';
import {
  closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EmulatorState } from './state';

/** The data file holds client secrets and tokens: only its owner reads it. */
export const DATA_FILE_MODE = 0o600;

export class DataFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFileError';
  }
}

/** Reads a saved state; refuses anything that does not look like one rather than overwrite it. */
export function readStateFile(path: string): EmulatorState | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DataFileError(`data file ${path} is not valid JSON (${(err as Error).message}); move it away or give another --data file`);
  }
  const s = parsed as Partial<EmulatorState> | null;
  if (!s || s.format !== 'networkcalc-emulator-state' || s.version !== 1 || !Array.isArray(s.accounts)) {
    throw new DataFileError(`data file ${path} is not an emulator state file (format "networkcalc-emulator-state", version 1)`);
  }
  return s as EmulatorState;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Names of the temporary files writeStateFile uses for `path`: `<name>.<pid>.<8 hex>.tmp`. */
function tempFilePattern(path: string): RegExp {
  return new RegExp(`^${escapeRegExp(basename(path))}\\.[0-9]+\\.[0-9a-f]{8}\\.tmp$`);
}

/**
 * Writes the whole state: a new temp file (owner-only from its creation), fsync, rename. A
 * crash leaves the old or the new file, and at worst a temp file the next start removes.
 */
export function writeStateFile(path: string, state: EmulatorState): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', DATA_FILE_MODE);
    try {
      writeSync(fd, JSON.stringify(state, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Removes the temp files a crashed writer of `path` left. Only called with the lock held, so
 * no live writer of this data file can own one. Returns the names removed.
 */
export function removeStaleTempFiles(path: string): string[] {
  const dir = dirname(path);
  if (!existsSync(dir)) return [];
  const pattern = tempFilePattern(path);
  const removed = readdirSync(dir).filter((name) => pattern.test(name));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file holds; undefined when it is gone; null when it holds no pid. */
function lockHolder(lockPath: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError(`cannot read the lock file ${lockPath} (${(err as Error).message})`);
  }
  // A positive pid only: process.kill(0 or -n) would signal whole process groups.
  return /^[1-9][0-9]{0,9}\n?$/.test(text) ? Number(text.trim()) : null;
}

/**
 * One emulator per data file: `<data file>.lock`, created with O_EXCL, holds the pid of the
 * emulator using it. A lock whose process is gone (a crash, kill -9) is taken over; a lock
 * that holds no pid is left alone, since it cannot be told from one being written.
 */
export class DataFileLock {
  private released = false;

  private constructor(readonly dataFile: string, readonly lockPath: string) {}

  static acquire(dataFile: string): DataFileLock {
    const lockPath = `${dataFile}.lock`;
    mkdirSync(dirname(dataFile), { recursive: true });
    // Two rounds: create, or find a stale lock, remove it and create once more.
    for (let round = 0; round < 2; round++) {
      try {
        const fd = openSync(lockPath, 'wx', DATA_FILE_MODE);
        try {
          writeSync(fd, `${process.pid}\n`);
        } finally {
          closeSync(fd);
        }
        return new DataFileLock(dataFile, lockPath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new DataFileError(`cannot create the lock file ${lockPath} (${(err as Error).message})`);
        }
      }
      const holder = lockHolder(lockPath);
      if (holder === undefined) continue; // released in between: try again
      if (holder === null) {
        throw new DataFileError(
          `the lock file ${lockPath} of data file ${dataFile} holds no pid; if no emulator uses ${dataFile}, delete the lock file`);
      }
      if (processAlive(holder)) {
        throw new DataFileError(
          `data file ${dataFile} is in use by another emulator (pid ${holder}, lock file ${lockPath}); stop it or give another --data file`);
      }
      // Stale. Another starter may have taken it over since we read it: remove only what we read.
      if (lockHolder(lockPath) === holder) rmSync(lockPath, { force: true });
    }
    const holder = lockHolder(lockPath);
    throw new DataFileError(
      `data file ${dataFile} is in use by another emulator that is starting (pid ${holder ?? 'unknown'}, lock file ${lockPath})`);
  }

  /** Removes the lock, if it is still ours. Safe to call twice. */
  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      if (lockHolder(this.lockPath) === process.pid) rmSync(this.lockPath, { force: true });
    } catch {
      // Unreadable now: left in place; once this process is gone the next start takes it over.
    }
  }
}
