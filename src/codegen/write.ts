/**
 * `--write`: the suggested edits applied to the app's files, all or nothing. Every file is
 * checked before any is written: unchanged since the suggestions were made, writable, and
 * tracked by git (so the edit can be reviewed and undone) unless forced.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, isAbsolute, sep } from 'node:path';
import { writeFileAtomicSync } from '../support/atomic-write';
import { applyEdits, unifiedDiff } from './patch';
import type { SourceSnapshot, Suggestion, TextEdit } from './suggestion';

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface WriteResult {
  /** Files written, relative to the project directory. */
  written: string[];
  /** Problems that stopped the write; nothing was written when there are any. */
  problems: string[];
}

/** Files under git in `dir`, or null when `dir` is not in a work tree (or git is missing). */
function gitTracked(dir: string, files: readonly string[]): Set<string> | null {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--', ...files], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Set(out.split('\0').filter(Boolean));
  } catch {
    return null;
  }
}

/** The top of the git work tree holding `dir`, or `dir` itself outside one; real paths. */
function repositoryRoot(dir: string): string {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (top) return realpathSync(top);
  } catch {
    // Not in a work tree (or no git): the project directory is the boundary.
  }
  return realpathSync(dir);
}

const isInside = (root: string, file: string) => {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/** Writable by us, and not marked read-only for everyone (root may write anywhere; a cleared mode is still a no). */
function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
  } catch {
    return false;
  }
  return (statSync(file).mode & 0o222) !== 0;
}

interface FileEdits {
  file: string;
  /** Where the file really is (links followed): the path written. */
  real: string;
  /** The content the edits were computed on (checked against its snapshot). */
  text: string;
  edits: TextEdit[];
}

/** Every file with edits, read and checked; `forWrite` adds the checks a write needs. */
function gather(
  dir: string,
  suggestions: readonly Suggestion[],
  snapshots: readonly SourceSnapshot[],
  options: { force?: boolean; forWrite: boolean },
): { files: FileEdits[]; problems: string[] } {
  const byFile = new Map<string, TextEdit[]>();
  // Suggestions in one file may share an edit (the import both new declarations need): once.
  const seen = new Set<string>();
  for (const s of suggestions) {
    if (!s.edits.length || !s.file) continue;
    if (!byFile.has(s.file)) byFile.set(s.file, []);
    for (const e of s.edits) {
      const key = `${s.file}\0${e.start}\0${e.end}\0${e.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      byFile.get(s.file)!.push(e);
    }
  }
  const names = [...byFile.keys()].sort();
  const problems: string[] = [];
  const tracked = options.forWrite && !options.force ? gitTracked(dir, names) : null;
  const root = options.forWrite && names.length ? repositoryRoot(dir) : null;
  const files: FileEdits[] = [];
  for (const file of names) {
    const full = join(dir, file);
    let real = full;
    try {
      real = realpathSync(full);
    } catch {
      // Unreadable: reported by the read below.
    }
    // Writes never leave the repository, --force or not: a link to a file elsewhere (or a path
    // with ..) would change a file that git diff cannot show.
    if (root && !isInside(root, real)) {
      problems.push(
        `${file} ${real === full ? 'is' : `is a link to ${real}, which is`} outside the repository ${root}; ncalc writes only inside it (--force does not change that): apply the diff to that file by hand`,
      );
      continue;
    }
    const snapshot = snapshots.find((s) => s.file === file);
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch (e) {
      problems.push(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      continue;
    }
    if (!snapshot || snapshot.changedSincePlan || sha256(text) !== snapshot.sha256) {
      problems.push(`${file} changed since the drift was checked; run ncalc drift --suggest again`);
      continue;
    }
    if (options.forWrite) {
      if (!writable(full)) {
        problems.push(`${file} is read-only; make it writable, or apply the diff by hand`);
        continue;
      }
      if (!options.force && !tracked?.has(file)) {
        problems.push(
          `${file} is not tracked by git, so the edit could not be reviewed or undone; commit it first, or give --force`,
        );
        continue;
      }
    }
    files.push({ file, real, text, edits: byFile.get(file)! });
  }
  return { files, problems };
}

/** All the edits as one patch, a diff per file (`git apply` from the project directory). */
export function combinedPatch(
  dir: string,
  suggestions: readonly Suggestion[],
  snapshots: readonly SourceSnapshot[],
): string {
  return gather(dir, suggestions, snapshots, { forWrite: false })
    .files.map((f) => unifiedDiff(f.file.split(sep).join('/'), f.text, f.edits))
    .join('');
}

export function writeSuggestions(
  dir: string,
  suggestions: readonly Suggestion[],
  snapshots: readonly SourceSnapshot[],
  options: { force?: boolean } = {},
): WriteResult {
  const { files, problems } = gather(dir, suggestions, snapshots, { ...options, forWrite: true });
  const next = new Map<FileEdits, string>();
  for (const f of files) {
    try {
      next.set(f, applyEdits(f.text, f.edits));
    } catch (e) {
      problems.push(`${f.file}: ${(e as Error).message}`);
    }
  }
  if (problems.length) return { written: [], problems };
  for (const [{ real: path }, text] of next) {
    // The link's target inside the repository is written; the link stays a link. A crash
    // leaves the old file or the new one, never half; the file keeps its mode.
    writeFileAtomicSync(path, text);
  }
  return { written: [...next.keys()].map((f) => f.file), problems: [] };
}
