/**
 * Text from outside (alert names, domains, filter values, DNS records, the service's error
 * messages) never reaches a terminal raw: a control character in it could move the cursor,
 * retitle the window, set the clipboard or reorder what the user reads. Each such character
 * is shown as its JSON escape (`\u0007`, `\n`), which a JSON or TypeScript reader (and HCL)
 * decodes back to the same character, so escaped JSON and code keep their exact values.
 */

/**
 * C0 (NUL, BEL, ESC …), DEL and C1; the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069, which reorder what follows them); and the line and
 * paragraph separators U+2028 / U+2029 (line breaks in JavaScript and on some terminals).
 */
const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

const escapeChar = (c: string): string => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A value within a line of text: every unsafe character (line breaks included) as its escape. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** A value quoted as a JSON string that holds no unsafe character (`JSON.parse` reads it back exactly). */
export function quoteText(value: string): string {
  return escapeControls(JSON.stringify(value));
}

/**
 * What may stay raw in output written to a terminal: line breaks (`\n`, `\r\n`) and tabs,
 * the colours ncalc itself writes (bold, dim, red, green, yellow, cyan and their resets) and
 * the progress line's "back to the start, erase the line". Every other unsafe character is
 * escaped.
 */
const OUTPUT =
  // eslint-disable-next-line no-control-regex -- ncalc's own sequences, matched to keep them
  /(\r\n|\n|\t|\r\u001b\[K|\u001b\[(?:1|2|22|31|32|33|36|39)m)|[\p{Cc}\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

/** A character OUTPUT escapes or keeps as one of ncalc's own sequences, other than `\n` and `\t`. */
const MAYBE_UNSAFE = /[^\P{Cc}\n\t]|[\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

/**
 * A chunk of output for stdout or stderr, the last guard under every renderer: text, markdown,
 * JSON and exported code alike. Values are escaped where they are shown as well (quoted names,
 * markdown cells), so a name cannot pass as one of ncalc's own colours.
 */
export function terminalSafe(chunk: string): string {
  // Without a character OUTPUT could escape (beside line breaks and tabs, kept as they are), the
  // chunk is already safe: no callback per line of a long document.
  if (!MAYBE_UNSAFE.test(chunk)) return chunk;
  return chunk.replace(OUTPUT, (c, own: string | undefined) => own ?? escapeChar(c));
}
