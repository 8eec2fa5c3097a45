/**
 * Drift turned into code: for each alert whose live settings differ from the app, the edit
 * to the app's own source that adopts the live state, or one line saying why there is none.
 */

/** One replacement in a file: the text between `start` and `end` (UTF-16 offsets) becomes `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** What a suggestion is about, from the code's point of view. */
export type SuggestionKind =
  /** Declared and live, settings differ: the props to change. */
  | 'changed'
  /** Live, not declared (outside the app, or renamed): a declaration to add. */
  | 'undeclared'
  /** Declared, deleted live: re-create on apply, or delete the declaration. */
  | 'deleted';

/**
 * A suggestion for one alert. `edits` (with `diff`, their unified diff) is present when the
 * change is a literal edit of one file; otherwise `reason` says where the value comes from
 * and what it should be, in one line.
 */
export interface Suggestion {
  kind: SuggestionKind;
  /** The account's label, as the drift report names it. */
  account: string;
  /** The alert's name (live name for `undeclared`). */
  alert: string;
  /** Construct path (`main/WwwA`) or Terraform address (`networkcalc_alert.www_a`); null when undeclared. */
  path: string | null;
  /** The file the edit is in or the value comes from, relative to the project directory. */
  file: string | null;
  /** 1-based line in `file`. */
  line: number | null;
  /** One line for people: what changes, or why no edit is offered. */
  summary: string;
  /** The edits that make the code match the account; empty when none can be made. */
  edits: TextEdit[];
  /** Unified diff of `edits` (git apply -p1 from the project directory); null without edits. */
  diff: string | null;
  /** Set when the suggestion is about a domain or subdomain (`alert` is then its name), not an alert. */
  target?: 'domain' | 'subdomain';
}

/** What a file looked like when the suggestions were made, so that a write can refuse a file changed since. */
export interface SourceSnapshot {
  /** Relative to the project directory. */
  file: string;
  /** SHA-256 of the content the edits were computed on. */
  sha256: string;
  /** Set when the file was modified after the configuration was read (during the synth or the plan). */
  changedSincePlan?: boolean;
}
