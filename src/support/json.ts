/** A JSON object as parsed: fields not yet checked. */
export type Json = Record<string, unknown>;

/** A JSON object (not null, not an array): the one guard every reader of parsed JSON uses. */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
