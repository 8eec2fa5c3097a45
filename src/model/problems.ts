/** One thing wrong with an alert, precise enough to fix without reading the docs. */
export interface Problem {
  /**
   * Where in the document the message starts from, e.g. `checks[0]` for a field of a policy's
   * first check; absent when the message names its place itself. Shown before the message.
   */
  path?: string;
  /** Wire name of the field, e.g. `subtype` (relative to `path`). */
  field: string;
  /** The value given (undefined when the field was missing). */
  value: unknown;
  /** Allowed values, when the field takes one of a fixed set. */
  allowed?: readonly string[];
  /** The full sentence shown to the user. */
  message: string;
  /** `missing` maps to the API's MISSING_VALUES, `invalid` to INVALID_BODY. */
  kind: 'missing' | 'invalid';
}

/** A problem as one line: its path, if any, before the message (`checks[0]: subtype "SRV" is not valid …`). */
export function problemText(p: Pick<Problem, 'path' | 'message'>): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

export function formatValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  // A hand-edited JSON value: shown as JSON with its kind, never "[object Object]".
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    const shown = json.length > 60 ? `${json.slice(0, 59)}…` : json;
    return `${shown} (${Array.isArray(value) ? 'a list' : 'an object'})`;
  }
  return String(value);
}

/** Thrown where a caller asked for a valid alert and got problems instead. */
export class AlertValidationError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[], subject?: string) {
    const head = subject ? `${subject}: ` : '';
    super(head + problems.map((p) => p.message).join('; '));
    this.name = 'AlertValidationError';
    this.problems = problems;
  }
}
