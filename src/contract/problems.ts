/**
 * Construct validation problems as data, and the file through which a synth run by `ncalc`
 * hands them over (src/contract/handoff.ts).
 */
import { AppHandoff } from './handoff';
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
export const SYNTH_PROBLEMS = new AppHandoff<ConstructProblem>('NCALC_SYNTH_PROBLEMS_FILE', 'problems', (p) =>
  typeof p.path !== 'string' || typeof p.message !== 'string'
    ? null
    : {
        path: p.path,
        field: typeof p.field === 'string' ? p.field : null,
        value: p.value === undefined ? null : p.value,
        allowed: Array.isArray(p.allowed) ? p.allowed.map(String) : null,
        message: p.message,
        ...(typeof p.fix === 'string' ? { fix: p.fix } : {}),
      },
);

export const PROBLEMS_FILE_ENV = SYNTH_PROBLEMS.variable;

/** Best effort: the error thrown says the same to whoever runs the app. */
export function writeProblemsFile(problems: readonly ConstructProblem[], env: Environment = process.env): void {
  const file = SYNTH_PROBLEMS.fileIn(env);
  if (file) SYNTH_PROBLEMS.write(file, problems);
}

/** The problems of a problems file; null when it holds none or is not one (then the app's output is shown). */
export function readProblemsFile(file: string): ConstructProblem[] | null {
  const problems = SYNTH_PROBLEMS.read(file);
  return problems?.length ? problems : null;
}
