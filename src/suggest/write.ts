/**
 * `--write`: the suggested edits applied to the app's files, all or nothing. Every file is
 * checked before any is written: unchanged since the suggestions were made, writable, and
 * tracked by git (so the edit can be reviewed and undone) unless forced.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, renameSync, statSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { applyEdits } from './patch';
import type { SourceSnapshot, Suggestion, TextEdit } from './types';

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

export function writeSuggestions(
  dir: string,
  suggestions: readonly Suggestion[],
  snapshots: readonly SourceSnapshot[],
  options: { force?: boolean } = {},
): WriteResult {
  const byFile = new Map<string, TextEdit[]>();
  for (const s of suggestions) {
    if (!s.edits.length || !s.file) continue;
    if (!byFile.has(s.file)) byFile.set(s.file, []);
    byFile.get(s.file)!.push(...s.edits);
  }
  const files = [...byFile.keys()].sort();
  const problems: string[] = [];
  const tracked = options.force ? null : gitTracked(dir, files);
  const next = new Map<string, string>();
  for (const file of files) {
    const path = join(dir, file);
    const snapshot = snapshots.find((s) => s.file === file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      problems.push(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      continue;
    }
    if (!snapshot || snapshot.changedSincePlan || sha256(text) !== snapshot.sha256) {
      problems.push(`${file} changed since the drift was checked; run ncalc drift --suggest again`);
      continue;
    }
    try {
      accessSync(path, constants.W_OK);
    } catch {
      problems.push(`${file} is read-only; make it writable, or apply the diff by hand`);
      continue;
    }
    if (!options.force && !tracked?.has(file)) {
      problems.push(
        `${file} is not tracked by git, so the edit could not be reviewed or undone; commit it first, or give --force`,
      );
      continue;
    }
    try {
      next.set(file, applyEdits(text, byFile.get(file)!));
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message}`);
    }
  }
  if (problems.length) return { written: [], problems };
  for (const [file, text] of next) {
    const path = join(dir, file);
    // A temp file renamed over the original: a crash leaves the old file or the new one, never half.
    const temp = join(dirname(path), `.${basename(path)}.ncalc-${process.pid}.tmp`);
    try {
      writeFileSync(temp, text, { flag: 'wx' });
      chmodSync(temp, statSync(path).mode & 0o7777);
      renameSync(temp, path);
    } catch (e) {
      rmSync(temp, { force: true });
      throw e;
    }
  }
  return { written: [...next.keys()], problems: [] };
}
