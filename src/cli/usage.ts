/**
 * A command line that asks for something impossible (a bad flag value, flags that exclude each
 * other): reported as a usage error, like commander's own, not as an invalid configuration.
 */
export class UsageError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.name = 'UsageError';
    this.problems = problems;
  }
}

/** The line commander prints after its own usage errors; ours end the same way. */
export const USAGE_HINT = '(run with --help for usage)';
