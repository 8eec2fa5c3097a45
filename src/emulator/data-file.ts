import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  promises as fsp,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { isTempFileOf, writeFileAtomic } from '../support/atomic-write';
import { applyChange, type Change, type EmulatorState } from './state';

/** The data file holds client secrets and tokens: only its owner reads it. */
export const DATA_FILE_MODE = 0o600;

export class DataFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFileError';
  }
}

/** The journal beside a data file: the changes made since the data file was written. */
export function journalPath(dataFile: string): string {
  return `${dataFile}.journal`;
}

/** A saved state and the number of the last journal entry it includes. */
export interface SavedState {
  state: EmulatorState;
  /** Journal entries up to this number are in `state`; replay starts after it. */
  seq: number;
}

/** One line of the journal: the changes one request made, numbered from 1 without gaps. */
export interface JournalEntry {
  seq: number;
  changes: Change[];
}

/** Reads a saved state; refuses anything that does not look like one rather than overwrite it. */
export function readStateFile(path: string): SavedState | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DataFileError(
      `data file ${path} is not valid JSON (${(err as Error).message}); move it away or give another --data file`,
    );
  }
  const s = parsed as (Partial<EmulatorState> & { journal_seq?: unknown }) | null;
  if (!s || s.format !== 'networkcalc-emulator-state' || s.version !== 1 || !Array.isArray(s.accounts)) {
    throw new DataFileError(
      `data file ${path} is not an emulator state file (format "networkcalc-emulator-state", version 1)`,
    );
  }
  // Files written before the journal existed have no journal_seq: nothing of a journal is in them.
  const seq = typeof s.journal_seq === 'number' ? s.journal_seq : 0;
  delete s.journal_seq;
  return { state: s as EmulatorState, seq };
}

/** The text of a saved state that includes the journal up to entry `seq`. */
export function stateFileText(state: EmulatorState, seq: number): string {
  const { format, version, ...rest } = state;
  return JSON.stringify({ format, version, journal_seq: seq, ...rest }, null, 2) + '\n';
}

/**
 * The entries of a journal, in order. The last line is ignored when it is incomplete or
 * unreadable: a crash while it was written (its request was never answered). Any other
 * unreadable line is damage, and an error.
 */
export function readJournal(path: string): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DataFileError(`cannot read the journal ${path} (${(err as Error).message})`);
  }
  const lines = text.split('\n');
  const entries: JournalEntry[] = [];
  lines.forEach((line, i) => {
    if (line === '' && i === lines.length - 1) return;
    let entry: JournalEntry | undefined;
    try {
      const parsed = JSON.parse(line) as Partial<JournalEntry>;
      if (Number.isSafeInteger(parsed.seq) && Array.isArray(parsed.changes)) entry = parsed as JournalEntry;
    } catch {
      // unreadable: torn when it is the last line
    }
    const last = i === lines.length - 1 || (i === lines.length - 2 && lines[i + 1] === '');
    if (entry) entries.push(entry);
    else if (!last)
      throw new DataFileError(
        `the journal ${path} is damaged at line ${i + 1}; move it away (the changes it holds are lost) or give another --data file`,
      );
  });
  return entries;
}

/**
 * What a start finds: the saved state with the journal's later entries replayed on top, in
 * order. Entries the state already includes (a crash between writing the state and emptying
 * the journal) are skipped; a journal that does not continue the state is refused.
 */
export function loadDataFile(path: string): SavedState | undefined {
  const saved = readStateFile(path);
  const journal = journalPath(path);
  const entries = readJournal(journal);
  if (!saved) {
    if (entries.length)
      throw new DataFileError(`the journal ${journal} has no data file ${path} beside it; move the journal away`);
    return undefined;
  }
  for (const entry of entries) {
    if (entry.seq <= saved.seq) continue;
    if (entry.seq !== saved.seq + 1) {
      throw new DataFileError(
        `the journal ${journal} does not continue the data file ${path} (entry ${entry.seq} after ${saved.seq}); move the journal away`,
      );
    }
    try {
      for (const change of entry.changes) applyChange(saved.state, change);
    } catch (err) {
      throw new DataFileError(
        `the journal ${journal} entry ${entry.seq} does not apply to ${path} (${(err as Error).message}); move the journal away`,
      );
    }
    saved.seq = entry.seq;
  }
  return saved;
}

/**
 * Writes a whole state: a new temp file (owner-only from its creation), fsync, rename, fsync
 * of the folder (so the rename is durable before the journal is emptied). A crash leaves the
 * old or the new file, and at worst a temp file the next start removes.
 */
export async function writeStateFile(path: string, text: string): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text, { mode: DATA_FILE_MODE, syncDirectory: true });
}

/**
 * Removes the temp files a crashed writer of `path` left. Only called with the lock held, so
 * no live writer of this data file can own one. Returns the names removed.
 */
export function removeStaleTempFiles(path: string): string[] {
  const dir = dirname(path);
  if (!existsSync(dir)) return [];
  const removed = readdirSync(dir).filter((name) => isTempFileOf(path, name));
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

  private constructor(
    readonly dataFile: string,
    readonly lockPath: string,
  ) {}

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
          `the lock file ${lockPath} of data file ${dataFile} holds no pid; if no emulator uses ${dataFile}, delete the lock file`,
        );
      }
      if (processAlive(holder)) {
        throw new DataFileError(
          `data file ${dataFile} is in use by another emulator (pid ${holder}, lock file ${lockPath}); stop it or give another --data file`,
        );
      }
      // Stale. Another starter may have taken it over since we read it: remove only what we read.
      if (lockHolder(lockPath) === holder) rmSync(lockPath, { force: true });
    }
    const holder = lockHolder(lockPath);
    throw new DataFileError(
      `data file ${dataFile} is in use by another emulator that is starting (pid ${holder ?? 'unknown'}, lock file ${lockPath})`,
    );
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
