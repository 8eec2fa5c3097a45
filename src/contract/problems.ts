/**
 * Construct validation problems as data, and the file through which a synth run by `ncalc`
 * hands them over. Free of cdktf, so that `ncalc` reads them without loading it.
 */
import { isObject } from '../support/json';
import { writeFileSync } from 'node:fs';
import type { ProblemData } from '../model/problems';
import type { Environment } from '../public-types';

/**
 * One thing wrong with a construct of the app, as data (`NetworkcalcValidationError.problems`,
 * the problems file, `--json`): the model's `Problem` in its JSON form.
 */
export type ConstructProblem = ProblemData & { path: string };

/**
 * Set by `ncalc` in the environment of the app it synthesizes: a file to which a failing
 * validation writes `{"problems": ConstructProblem[]}`, so that `ncalc` shows them (and puts
 * them in `--json`) instead of the app's output.
 */
export const PROBLEMS_FILE_ENV = 'NCALC_SYNTH_PROBLEMS_FILE';

/** Best effort: the error thrown says the same to whoever runs the app. */
export function writeProblemsFile(problems: readonly ConstructProblem[], env: Environment = process.env): void {
  const file = env[PROBLEMS_FILE_ENV];
  if (!file) return;
  try {
    writeFileSync(
      file,
      JSON.stringify({ problems }, (_k, v: unknown) =>
        typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol' ? String(v) : v,
      ),
    );
  } catch {
    // Not writable: ncalc falls back to the app's output.
  }
}

/** The problems of a problems file's text; null when it is not one (then the app's output is shown). */
export function parseProblemsFile(text: string): ConstructProblem[] | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(doc) || !Array.isArray(doc.problems) || doc.problems.length === 0) return null;
  const out: ConstructProblem[] = [];
  for (const p of doc.problems) {
    if (!isObject(p) || typeof p.path !== 'string' || typeof p.message !== 'string') return null;
    out.push({
      path: p.path,
      field: typeof p.field === 'string' ? p.field : null,
      value: p.value === undefined ? null : p.value,
      allowed: Array.isArray(p.allowed) ? p.allowed.map(String) : null,
      message: p.message,
      ...(typeof p.fix === 'string' ? { fix: p.fix } : {}),
    });
  }
  return out;
}
