/**
 * Types the published declarations use where they would otherwise name a CDK library's or
 * Node's own types. An app has cdktn or cdktf, not both, and may compile with `"types": []`:
 * a declaration that imported 'cdktf' or used `NodeJS.ProcessEnv` would fail its type-check
 * (test/package/consumer-types.compat.test.ts compiles such apps against the packed package).
 */

/**
 * A value resolved at synth time (a CDK token): what cdktf 0.21's and cdktn's `IResolvable`
 * share, so that either library accepts it where it takes a token.
 */
export interface IResolvable {
  /** Where the token was created, for error messages. */
  readonly creationStack: string[];
  /** The value at synth time (the CDK passes its resolve context). */
  resolve(context: unknown): unknown;
  /** The token as a string, to embed in other strings. */
  toString(): string;
}

/** Environment variables by name (process.env, or a test's own). */
export type Environment = Readonly<Record<string, string | undefined>>;
