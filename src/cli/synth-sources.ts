/**
 * What `drift --suggest` needs from a synth it did not run: where each construct was declared
 * (recorded by the app, see constructs/source-locations.ts) and the content of those files
 * then. `ncalc synth` writes them into its output; a shard that reads that output checks the
 * files are unchanged, so a suggestion never edits code the output did not come from.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SOURCE_LOCATIONS, parseSourceLocations, type SourceLocation } from '../contract/source-locations';
import { ConfigError } from '../contract/config-error';
import { sentence } from '../model/problems';
import { sha256 } from '../codegen/write';
import { writeFileAtomicSync } from '../support/atomic-write';

/** In the synthesized output, beside manifest.json. */
export const SOURCES_FILE = 'ncalc-sources.json';

/** Relative to the app's directory when inside it (the output travels to another checkout). */
const relativeTo = (dir: string, file: string) => {
  const rel = path.relative(dir, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
};

/**
 * Writes the locations the app recorded (in `locationsFile`) and the sha256 of every file they
 * name into `outdir`. Best effort: without it, `drift --suggest --no-synth` says what is missing.
 */
export function writeSynthSources(appDir: string, outdir: string, locationsFile: string): void {
  const locations = SOURCE_LOCATIONS.read(locationsFile);
  if (!locations) return;
  const sources: Record<string, string> = {};
  for (const file of new Set(locations.map((l) => l.file))) {
    try {
      sources[relativeTo(appDir, file)] = sha256(readFileSync(file, 'utf8'));
    } catch {
      // Not readable now: a suggestion for it would fail its own checks anyway.
    }
  }
  const doc = { locations: locations.map((l) => ({ ...l, file: relativeTo(appDir, l.file) })), sources };
  const target = path.join(outdir, SOURCES_FILE);
  try {
    writeFileAtomicSync(target, JSON.stringify(doc));
  } catch {
    // Best effort (see above).
  }
}

/**
 * The locations recorded by `ncalc synth` in `outdir`, with paths in `appDir`; null when the
 * output has none. Throws a ConfigError naming each source file that changed since.
 */
export function readSynthSources(appDir: string, outdir: string): SourceLocation[] | null {
  let text: string;
  try {
    text = readFileSync(path.join(outdir, SOURCES_FILE), 'utf8');
  } catch {
    return null;
  }
  const locations = parseSourceLocations(text);
  if (!locations) return null;
  const { sources } = JSON.parse(text) as { sources?: Record<string, unknown> };
  const changed: string[] = [];
  for (const [file, hash] of Object.entries(sources ?? {})) {
    let now: string | null = null;
    try {
      now = sha256(readFileSync(path.resolve(appDir, file), 'utf8'));
    } catch {
      // gone: changed
    }
    if (now !== hash) changed.push(file);
  }
  if (changed.length)
    throw new ConfigError({
      problems: [
        sentence(
          `${changed.join(', ')} changed since ncalc synth wrote ${outdir}; --suggest would edit code the output did not come from: run ncalc synth again (or drop --no-synth)`,
        ),
      ],
    });
  return locations.map((l) => ({ ...l, file: path.resolve(appDir, l.file) }));
}
