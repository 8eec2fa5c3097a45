/**
 * Reading what a synth wrote: the manifest and each stack's `cdk.tf.json`, strictly, the stacks
 * asked for or all of them.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { type StackDocument } from './desired';
import { jsonKind } from '../support/describe';
import { isObject } from '../support/json';

export function readJson<T>(file: string, fix: string, missing?: () => string): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    // One read, no existsSync before it: a missing file is told apart by its error code.
    if (missing !== undefined && (e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ConfigError({ problems: [sentence(missing())] });
    throw e;
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new ConfigError({ problems: [sentence(`${file} is not valid JSON (${(e as Error).message}); ${fix}`)] });
  }
}

/**
 * Reads a synthesized output: `manifest.json` and the `cdk.tf.json` of each selected stack,
 * strictly (an entry of the wrong shape is an error naming the file and the field, never
 * skipped), and the error annotations cdktf recorded. The one reader of cdktf output.
 */
export function readSynthesized(outdir: string, wanted: readonly string[] | null = null): { stacks: StackDocument[] } {
  const manifestFile = path.join(outdir, 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new ConfigError({
      problems: [
        sentence(
          `${manifestFile} does not exist; synthesize first (drop --no-synth) or point --out at the synthesized output`,
        ),
      ],
    });
  }
  const manifest = readJson<unknown>(manifestFile, 'synthesize again');
  const bad = (where: string, v: unknown, expected: string) =>
    `${manifestFile}: ${where} is ${jsonKind(v)}; expected ${expected} (synthesize again)`;
  if (!isObject(manifest)) throw new ConfigError({ problems: [sentence(bad('the document', manifest, 'an object'))] });
  const rawStacks = manifest.stacks ?? {};
  if (!isObject(rawStacks))
    throw new ConfigError({ problems: [sentence(bad('stacks', rawStacks, 'an object of stacks by name'))] });
  const problems: string[] = [];
  const entries: Array<[string, string]> = [];
  for (const [name, entry] of Object.entries(rawStacks)) {
    if (!isObject(entry)) {
      problems.push(bad(`stacks.${name}`, entry, 'an object'));
      continue;
    }
    const rel = entry.synthesizedStackPath ?? path.join('stacks', name, 'cdk.tf.json');
    if (typeof rel !== 'string') {
      problems.push(bad(`stacks.${name}.synthesizedStackPath`, rel, 'a path'));
      continue;
    }
    const file = path.resolve(outdir, rel);
    const inside = path.relative(outdir, file);
    if (inside.startsWith('..') || path.isAbsolute(inside)) {
      problems.push(
        `${manifestFile}: stacks.${name}.synthesizedStackPath ${JSON.stringify(rel)} is outside the output directory; synthesize again`,
      );
      continue;
    }
    const annotations = entry.annotations ?? [];
    if (!Array.isArray(annotations)) {
      problems.push(bad(`stacks.${name}.annotations`, annotations, 'a list'));
      continue;
    }
    for (const a of annotations) {
      if (isObject(a) && a.level === '@cdktf/error')
        problems.push(
          `stack ${name}: ${typeof a.constructPath === 'string' ? a.constructPath : ''}: ${typeof a.message === 'string' ? a.message : 'error'}`,
        );
    }
    entries.push([name, file]);
  }
  const chosen = wanted ? new Set(wanted) : null;
  if (wanted) {
    const names = new Set(entries.map(([n]) => n));
    const unknown = wanted.filter((w) => !names.has(w));
    if (unknown.length)
      problems.push(
        `unknown stack ${unknown.join(', ')}; the app has ${entries.map(([n]) => n).join(', ') || 'no stacks'}`,
      );
  }
  if (problems.length) throw new ConfigError({ problems: problems.map(sentence) });
  const stacks: StackDocument[] = [];
  for (const [name, file] of entries) {
    if (chosen && !chosen.has(name)) continue;
    const missing = () => `stack ${name}: ${file} is missing; synthesize again`;
    stacks.push({ name, json: readJson<Record<string, unknown>>(file, 'synthesize again', missing) });
  }
  return { stacks };
}
