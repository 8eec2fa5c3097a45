import { isPlaced, problemText, type Problem } from '../model/problems';

/**
 * The app or its settings are not valid: every problem found, before any API call. Each front
 * door prints the problems as lines (and `--json` puts them in as data).
 */
export class ConfigError extends Error {
  /** Every problem as the line printed for it. */
  readonly problems: string[];
  /**
   * The problems as data, one per line of `problems`, when a reader found them (at least one
   * says its field, src/model/problems.ts `isPlaced`); undefined when all are sentences.
   */
  readonly details: Problem[] | undefined;
  /**
   * What went wrong, in one sentence above the problems, when it is not "the configuration is
   * not valid" (no credentials, no directory, nothing to report).
   */
  readonly summary: string | undefined;
  readonly #found: readonly Problem[];
  readonly #line: (p: Problem) => string;

  /**
   * `problems`: every problem found (`sentence(...)` for one that is only a sentence). `line`:
   * how each is printed, `problemText` (`place: message`) unless the problems are the app's
   * constructs' (`problemLine`, `[main/Www] message`).
   */
  constructor({ problems, summary, line = problemText }: ConfigErrorInit) {
    const lines = problems.map(line);
    super(lines.join('\n'));
    this.name = 'ConfigError';
    this.problems = lines;
    this.details = problems.some(isPlaced) ? [...problems] : undefined;
    this.summary = summary;
    this.#found = problems;
    this.#line = line;
  }

  /** The same error with `from` written `to` in every message: a path the user does not know. */
  replacing(from: string, to: string): ConfigError {
    return new ConfigError({
      problems: this.#found.map((p) => ({ ...p, message: p.message.split(from).join(to) })),
      summary: this.summary,
      line: this.#line,
    });
  }
}

export interface ConfigErrorInit {
  problems: readonly Problem[];
  summary?: string;
  line?: (p: Problem) => string;
}
