/**
 * Files written whole or not at all: a temp file beside the target, written and fsynced, then
 * renamed over it. A crash leaves the old file or the new one, never half of either, and at
 * worst a temp file named as `isTempFileOf` recognises.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  promises as fsp,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode. Default: the mode of the file it replaces; for a new file 0o666 less the umask. */
  mode?: number;
  /**
   * Also fsync the folder after the rename, so that the new name itself survives a crash: for
   * a write that something done next relies on (the emulator empties its journal after it).
   */
  syncDirectory?: boolean;
}

/** A fresh temp name beside `path`: `<path>.<pid>.<8 hex>.tmp`. */
function tempPathFor(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** The file a temp file of this writer was for (`<path>.<pid>.<8 hex>.tmp` → `<path>`); any other path as it is. */
export function fileOfTempPath(p: string): string {
  return p.replace(/\.[0-9]+\.[0-9a-f]{8}\.tmp$/, '');
}

/** True for the name of a temp file a writer of `path` made (and a crash may have left). */
export function isTempFileOf(path: string, name: string): boolean {
  const base = basename(path);
  return name.startsWith(`${base}.`) && /^[0-9]+\.[0-9a-f]{8}\.tmp$/.test(name.slice(base.length + 1));
}

/**
 * Where to write and with which mode. A link is followed, so that its target is replaced and
 * the link stays a link; a file that cannot be written stays so (EACCES, as a plain write).
 */
function target(path: string, options: AtomicWriteOptions): { file: string; mode: number | undefined } {
  let file = path;
  let mode = options.mode;
  try {
    if (lstatSync(path).isSymbolicLink()) file = realpathSync(path);
    const stat = statSync(file);
    if (stat.isFile()) {
      accessSync(file, constants.W_OK);
      mode ??= stat.mode & 0o7777;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  return { file, mode };
}

/** Writes `data` to `path` atomically and durably (see the module comment). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const { file, mode } = target(path, options);
  const tmp = tempPathFor(file);
  try {
    const fd = openSync(tmp, 'wx', mode ?? 0o666);
    try {
      if (mode !== undefined) fchmodSync(fd, mode); // not narrowed by the umask
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  if (options.syncDirectory) {
    const dir = openSync(dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}

/** `writeFileAtomicSync` without blocking the event loop while the disk writes. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { file, mode } = target(path, options);
  const tmp = tempPathFor(file);
  try {
    const handle = await fsp.open(tmp, 'wx', mode ?? 0o666);
    try {
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  if (options.syncDirectory) {
    const dir = await fsp.open(dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
