import { problemText, type Problem } from '../model/problems';

/**
 * The app or its settings are not valid: every problem found, before any API call. Each front
 * door prints the problems as lines (and `--json` puts them in as data).
 */
export class ConfigError extends Error {
  /** Every problem as the line printed for it. */
  readonly problems: string[];
  /**
   * The problems as data, one per line of `problems`, when they were found as `Problem`s (the
   * app's constructs, cdk.tf.json); undefined when only sentences were given.
   */
  readonly details: Problem[] | undefined;
  /**
   * What went wrong, in one sentence above the problems, when it is not "the configuration is
   * not valid" (no credentials, no directory, nothing to report).
   */
  readonly summary: string | undefined;
  /**
   * `problems`: sentences, or `Problem`s (printed by `problemText`). `details`: the problems as
   * data when `problems` are lines made of them already (the app's construct problems).
   */
  constructor(problems: ReadonlyArray<string | Problem>, details?: readonly Problem[], summary?: string) {
    const lines = problems.map((p) => (typeof p === 'string' ? p : problemText(p)));
    super(lines.join('\n'));
    this.name = 'ConfigError';
    this.problems = lines;
    this.details = details
      ? [...details]
      : problems.some((p) => typeof p !== 'string')
        ? problems.map((p) => (typeof p === 'string' ? { field: null, message: p } : p))
        : undefined;
    this.summary = summary;
  }
}
