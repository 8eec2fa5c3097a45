import { escapeControls, quoteText, terminalSafe } from '../../src/support/terminal-text';
import { code, md } from '../../src/render/markdown';
import { COLOR } from '../../src/render/style';

/** Every character that must never reach a terminal raw: C0, DEL, C1, bidi controls, line separators. */
const UNSAFE_CHARS = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029',
];
const RAW = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

describe('escapeControls / quoteText', () => {
  test('GIVEN each unsafe character THEN it is shown as its JSON escape and nothing raw is left', () => {
    for (const c of UNSAFE_CHARS) {
      const shown = escapeControls(`a${c}b`);
      expect(shown).not.toMatch(RAW);
      // The escape reads back as the character (JSON's own escapes).
      expect(JSON.parse(`"${shown}"`)).toBe(`a${c}b`);
    }
    expect(escapeControls('bell\u0007 esc\u001b[2J nl\n')).toBe('bell\\u0007 esc\\u001b[2J nl\\n');
  });

  test('GIVEN printable text, accents and emoji THEN it is unchanged', () => {
    for (const s of ['www.example.com', 'Zertifikat für bücher.de', '⚠️ expiry', '日本語', 'a\\u0007b']) {
      expect(escapeControls(s)).toBe(s);
    }
  });

  test('GIVEN a name with C1, DEL and an override THEN quoteText is JSON that reads back exactly', () => {
    const name = 'x\u0085\u007f\u202e\u0007"';
    const q = quoteText(name);
    expect(q).toBe('"x\\u0085\\u007f\\u202e\\u0007\\""');
    expect(JSON.parse(q)).toBe(name);
  });
});

describe('terminalSafe (every write of ncalc)', () => {
  test("GIVEN ncalc's own colours, progress erase, CRLF and tabs THEN they stay raw", () => {
    const own = `${COLOR.green('+')} ${COLOR.bold('x')} ${COLOR.dim('y')}\r\u001b[K\tz\r\n`;
    expect(terminalSafe(own)).toBe(own);
  });

  test('GIVEN any other control THEN it is escaped: a title change, a clear screen, a bare CR, OSC 52', () => {
    expect(terminalSafe('\u001b]0;pwned\u0007')).toBe('\\u001b]0;pwned\\u0007');
    expect(terminalSafe('\u001b[2J\u001b[8m')).toBe('\\u001b[2J\\u001b[8m');
    expect(terminalSafe('ok\rfake')).toBe('ok\\rfake');
    expect(terminalSafe('\u009b31m\u202eevil')).toBe('\\u009b31m\\u202eevil');
  });

  test('GIVEN JSON holding raw C1, DEL and bidi characters THEN the escaped JSON has the exact same value', () => {
    const doc = { name: 'a\u0085\u007f\u202e\u2028b', nested: ['\u0000'] };
    const safe = terminalSafe(JSON.stringify(doc, null, 2) + '\n');
    expect(safe.replace(/\n/g, '')).not.toMatch(RAW);
    expect(JSON.parse(safe)).toEqual(doc);
  });
});

describe('markdown cells', () => {
  test('GIVEN a name that would end the cell, the row, the code span or open a comment THEN the row stays one row', () => {
    const name = 'a|b`c\nd\u0007<!--';
    const row = `| ${code(name)} | ${md(name)} |`;
    expect(row).not.toMatch(RAW);
    expect(row).toBe("| `a\\|b'c\\nd\\u0007<!--` | a\\|b`c d\\u0007&lt;!-- |");
    // Two cell separators only: every pipe inside is escaped.
    expect(row.match(/(?<!\\)\|/g)).toHaveLength(3);
  });
});
