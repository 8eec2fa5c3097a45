/** DNS text (TXT records) as bytes: decoded for comparison, escaped for people. */

/**
 * A TXT record's text: its character-strings (RFC 1035 3.3.14: bytes) joined with nothing
 * between them (RFC 7208 3.3; the join is on bytes, so a character split across two strings is
 * whole again), then decoded as UTF-8, strictly. A byte that is not part of valid UTF-8 becomes
 * U+DC80–U+DCFF (0x80–0xFF; the "surrogateescape" of Python): no text equals it, it is not
 * ASCII for SPF, and `showBytes` writes it as `\xNN`. Node hands each string over as Latin-1
 * (one character per byte), so the bytes are exactly recovered.
 */
export function decodeCharacterStrings(latin1: readonly string[]): string {
  const bytes = Buffer.from(latin1.join(''), 'latin1');
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const n = utf8SequenceLength(bytes, i);
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + bytes[i]);
      i++;
    } else {
      out += bytes.toString('utf8', i, i + n);
      i += n;
    }
  }
  return out;
}

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629 table), 0 when there is none. */
function utf8SequenceLength(b: Buffer, i: number): number {
  const b0 = b[i];
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Text for people: the bytes `decodeCharacterStrings` could not decode as `\xNN`. */
export const showBytes = (s: string): string =>
  // `u`: a surrogate of a well-formed pair is not one of them.
  s.replace(/[\u{dc80}-\u{dcff}]/gu, (c) => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16).padStart(2, '0')}`);

/**
 * `"owner=caf\xe9"`: text in double quotes, escaped as JSON escapes it, with an undecodable
 * byte as `\xNN` (JSON would write `\udce9`).
 */
export const quoteText = (s: string): string =>
  JSON.stringify(s).replace(
    /(?<!\\)((?:\\\\)*)\\u(dc[89a-f][0-9a-f])/g,
    (_, pre: string, hex: string) => `${pre}\\x${hex.slice(2)}`,
  );
