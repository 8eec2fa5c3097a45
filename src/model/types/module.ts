/**
 * What one alert type is, everywhere it differs from the others: the shape every module of
 * `src/model/types/` has (one per type of the v1.9 interface), gathered in `ALERT_TYPE_MODULES`.
 * Free of every other part of the project, so each layer reads its part from the one table.
 */

/** An alert's wire fields that say what is checked. */
export interface CheckFields {
  readonly type?: unknown;
  readonly subtype?: unknown;
  readonly filter?: unknown;
  readonly filter_value?: unknown;
}

/** The check of an `Alert`'s props mapped to wire fields (values passed through for the model to judge). */
export interface CheckBody {
  /** subtype, filter and filter_value as the props give them (absent: not set). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Which prop each wire field came from, for messages. */
  readonly sources: Readonly<Record<string, string>>;
  /** Contradictions the wire fields cannot show. */
  readonly problems: readonly string[];
}

export interface AlertTypeModule<T extends string = string, P extends string = string> {
  readonly type: T;
  /** Allowed subtypes (the matrix row of section 2.4); an empty list: the type takes no subtype. */
  readonly subtypes: readonly string[];
  readonly filters: readonly string[];
  /** The prop of `AlertProps` (and of a policy check) that declares an alert of this type. */
  readonly prop: P;
  /** The label a policy check gets when none is given: from what it checks, not its value. */
  defaultLabel(check: CheckFields): string;
  /** The construct prop's object (the value of `prop`) as wire fields. */
  body(check: Readonly<Record<string, unknown>>): CheckBody;
  /** The wire fields as the fields of `prop`, in the order a declaration lists them (export, suggestions). */
  props(a: { subtype: string | null; filter: string; filter_value: string }): Record<string, string | number>;
  /** Whether the preview's data of an alert of this type carries the certificate a host serves (the report's certificate cells). */
  readonly servesCertificate: boolean;
}
