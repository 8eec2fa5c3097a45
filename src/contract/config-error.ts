import type { ConstructProblem } from './problems';

/**
 * The app or its settings are not valid: every problem found, before any API call. Each front
 * door prints the problems as lines (and `--json` the construct problems as data).
 */
export class ConfigError extends Error {
  readonly problems: string[];
  /** The problems of the app's constructs as data, when its synth reported them (for `--json`). */
  readonly details: ConstructProblem[] | undefined;
  /**
   * What went wrong, in one sentence above the problems, when it is not "the configuration is
   * not valid" (no credentials, no directory, nothing to report).
   */
  readonly summary: string | undefined;
  constructor(problems: string[], details?: ConstructProblem[], summary?: string) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
    this.details = details;
    this.summary = summary;
  }
}
