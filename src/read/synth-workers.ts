/**
 * One synth spread over worker processes of the app (contract/synth-parts.ts): each writes
 * its part of the stacks into a directory of its own, and the parts are merged into the
 * output one process gives, byte for byte. The merge refuses (and the caller synthesizes in
 * one process) whatever it cannot prove to be that output: a part without a manifest (an app
 * that ignores CDKTF_OUTDIR), a file two parts wrote differently (an app that is not the same
 * on every run), manifests that disagree.
 */
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { sentence } from '../model/problems';
import { ConfigError } from '../contract/config-error';
import { isObject, type Json } from '../support/json';

/** How many processes a synth is spread over: a number, or `auto` (the cores, at most 8); default 1. */
export const SYNTH_WORKERS_ENV = 'NCALC_SYNTH_WORKERS';

const MAX_AUTO_WORKERS = 8;

/** What NCALC_SYNTH_WORKERS and --synth-workers take, for the sentence that refuses another value. */
export const SYNTH_WORKERS_VALUES = `a whole number of at least 1 (1: one process) or auto (one per core, at most ${MAX_AUTO_WORKERS})`;

/** The processes `value` asks for (a number, or `auto`: the cores, at most 8); null when it is neither. */
export function parseSynthWorkers(value: string, cores: number = availableParallelism()): number | null {
  const raw = value.trim();
  if (raw === 'auto') return Math.max(1, Math.min(cores, MAX_AUTO_WORKERS));
  return /^\d{1,3}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}

/** The processes NCALC_SYNTH_WORKERS asks for; 1 when unset. */
export function synthWorkerCount(env: NodeJS.ProcessEnv, cores: number = availableParallelism()): number {
  const raw = env[SYNTH_WORKERS_ENV]?.trim();
  if (!raw) return 1;
  const n = parseSynthWorkers(raw, cores);
  if (n === null)
    throw new ConfigError({
      problems: [
        sentence(
          `${SYNTH_WORKERS_ENV}=${JSON.stringify(raw)} is not a number of processes; set it to ${SYNTH_WORKERS_VALUES}`,
        ),
      ],
    });
  return n;
}

/** JSON as cdktf writes its files (safe-stable-stringify, indent 2): keys sorted, whatever they are. */
export function stableJson(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const inner = indent + '  ';
    return `[\n${value.map((v) => inner + (v === undefined ? 'null' : stableJson(v, inner))).join(',\n')}\n${indent}]`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    if (!keys.length) return '{}';
    const inner = indent + '  ';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${stableJson(value[k], inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const MANIFEST = 'manifest.json';

/**
 * Moves the parts' outputs (`parts`, in order) into `outdir` as one output; false, leaving
 * `outdir` to be emptied, when they do not make one.
 */
export function mergeParts(parts: readonly string[], outdir: string): boolean {
  const manifests: Json[] = [];
  for (const part of parts) {
    const file = path.join(part, MANIFEST);
    if (!existsSync(file)) return false;
    const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isObject(doc) || !isObject(doc.stacks)) return false;
    manifests.push(doc);
  }
  const merged = mergeManifests(manifests);
  if (!merged) return false;
  for (const part of parts)
    for (const entry of readdirSync(part, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const from = path.join(entry.parentPath, entry.name);
      const rel = path.relative(part, from);
      if (rel === MANIFEST) continue;
      const to = path.join(outdir, rel);
      if (existsSync(to)) {
        // Written by every part (a stack without NetworkCalc constructs): the same bytes, or no merge.
        if (!readFileSync(to).equals(readFileSync(from))) return false;
        continue;
      }
      mkdirSync(path.dirname(to), { recursive: true });
      renameSync(from, to);
    }
  writeFileSync(path.join(outdir, MANIFEST), stableJson(merged));
  return true;
}

/** One manifest listing every part's stacks; null when two parts say different things. */
function mergeManifests(manifests: readonly Json[]): Json | null {
  const stacks: Json = {};
  const first = manifests[0]!;
  for (const m of manifests) {
    const { stacks: own, ...rest } = m;
    const { stacks: _firstStacks, ...firstRest } = first;
    if (stableJson(rest) !== stableJson(firstRest)) return null;
    for (const [name, entry] of Object.entries(own as Json)) {
      if (name in stacks && stableJson(stacks[name]) !== stableJson(entry)) return null;
      stacks[name] = entry;
    }
  }
  return { ...first, stacks };
}
