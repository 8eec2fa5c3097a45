/** How messages name a value and where it stands, in every front door's words. */

/** `an array`, `a string`, `null` …: what a JSON value is, for messages. */
export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'undefined' ? 'nothing' : `a ${typeof v}`;
}

/**
 * What a user gave, for messages: `a string "x"`, `a number 5`, `a boolean true`, `an empty
 * array`, `an array`, `an object`, `null`, `nothing`. A scalar shows its value; an array or
 * object only its kind, which is what is wrong with it where a message asks for another.
 */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return `a string ${JSON.stringify(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `${jsonKind(v)} ${String(v)}`;
  if (Array.isArray(v) && v.length === 0) return 'an empty array';
  return jsonKind(v);
}

/** A JSON path for messages: `resource.networkcalc_alert.Www`, `provider.networkcalc[1]`, `data.x["a b"]`. */
export function jsonPath(...parts: Array<string | number>): string {
  return parts
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(p)
          ? `${i ? '.' : ''}${p}`
          : `[${JSON.stringify(p)}]`,
    )
    .join('');
}
