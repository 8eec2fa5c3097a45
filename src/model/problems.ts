/**
 * One thing wrong, precise enough to fix without reading the docs: the one shape that every
 * reader returns (the alert model, the account rules, the policy reader, construct validation,
 * ncalc reading cdk.tf.json) and every renderer takes: `problemText` and `problemLine` for text,
 * `problemData` for JSON (`--json`, the problems file of a synth, construct errors).
 */
import { quoteText } from '../support/terminal-text';

export interface Problem {
  /**
   * Where: a construct path (`main/Www`), or the place in a document the message is about
   * (`stack main, alert Www`; `checks[0]` within a policy). Absent when the message names its
   * place itself, or when the caller adds it.
   */
  path?: string;
  /**
   * The field at fault as the door names it: the wire name (`subtype`), a construct prop
   * (`dnsRecord.record`), a provider attribute (`max_retries`); relative to `path`. Null when the
   * problem is not one field's. Absent from a problem that is only a sentence (see `sentence`).
   */
  field?: string | null;
  /** The value given; undefined when it was missing or must not be shown (a secret). */
  value?: unknown;
  /** The values allowed, when the field takes one of a fixed set. */
  allowed?: readonly string[];
  /** The full sentence shown to the user. */
  message: string;
  /** The value to write instead, when one value fixes the problem (also said in `message`). */
  fix?: string;
  /** Of an alert's field: `missing` maps to the API's MISSING_VALUES, `invalid` to INVALID_BODY. */
  kind?: 'missing' | 'invalid';
}

/**
 * A problem that is only a sentence (no directory, a setting of the command line, a file that
 * cannot be read): its message names its place itself, it is printed as it is, and a ConfigError
 * made of such problems alone puts no problems as data in `--json` (they would add nothing).
 */
export function sentence(message: string): Problem {
  return { message };
}

/** A problem that is more than a sentence: a reader found it and says its field (null if none). */
export function isPlaced(p: Problem): boolean {
  return p.field !== undefined;
}

/**
 * The one result shape of a reader that gives a value or, instead, the sentence saying why not
 * (credentials of a scope, a --shard): `T | Refused`, told apart by `isRefused`.
 */
export interface Refused {
  problem: string;
}

export function isRefused<T extends object>(result: T | Refused): result is Refused {
  return 'problem' in result;
}

/** A problem of an alert's field, as the model's validation returns it. */
export type AlertProblem = Problem & { field: string; kind: 'missing' | 'invalid' };

/** `stack main, alert Www: name is missing …`: a problem found in a document, as a line. */
export function problemText(p: Pick<Problem, 'path' | 'message'>): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

/** `[main/Www] name is missing …`: a problem of a construct (its path) as a line. */
export function problemLine(p: Pick<Problem, 'path' | 'message'>): string {
  return `[${p.path ?? ''}] ${p.message}`;
}

/**
 * A problem as JSON data: every key present, null for what is not known (no field, a missing or
 * secret value, no fixed set); `fix` only when there is one.
 */
export interface ProblemData {
  /**
   * Construct path, e.g. `alerts/WwwCertificate`, or the place in cdk.tf.json
   * (`stack main, alert Www`); null when the message names its place itself.
   */
  path: string | null;
  /** The prop or attribute at fault, e.g. `dnsRecord.record`; null when the problem is not one field's. */
  field: string | null;
  /** The value given; null when missing, or when it must not be shown (a secret). */
  value: unknown;
  /** The values allowed, when the field takes one of a fixed set; null otherwise. */
  allowed: readonly string[] | null;
  /** The full sentence shown to the user. */
  message: string;
  /** The value to write instead, when one value fixes the problem. */
  fix?: string;
}

export function problemData(p: Problem & { path: string }): ProblemData & { path: string };
export function problemData(p: Problem): ProblemData;
export function problemData(p: Problem): ProblemData {
  return {
    path: p.path ?? null,
    field: p.field ?? null,
    value: p.value === undefined ? null : p.value,
    allowed: p.allowed ?? null,
    message: p.message,
    ...(p.fix !== undefined ? { fix: p.fix } : {}),
  };
}

/** A problem read back from JSON data (a synth's problems file). */
export function fromProblemData(d: ProblemData): Problem {
  return {
    ...(d.path !== null ? { path: d.path } : {}),
    field: d.field,
    ...(d.value !== null ? { value: d.value } : {}),
    ...(d.allowed !== null ? { allowed: d.allowed } : {}),
    message: d.message,
    ...(d.fix !== undefined ? { fix: d.fix } : {}),
  };
}

export function formatValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  if (value === null) return 'null';
  if (typeof value === 'string') return quoteText(value);
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
  readonly problems: AlertProblem[];
  constructor(problems: AlertProblem[], subject?: string) {
    const head = subject ? `${subject}: ` : '';
    super(head + problems.map((p) => p.message).join('; '));
    this.name = 'AlertValidationError';
    this.problems = problems;
  }
}
