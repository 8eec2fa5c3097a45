import {
  MAX_EXPIRY_DAYS,
  canonicalizeAlert,
  hostNameProblem,
  isValidHostName,
  normalizeHostName,
  parseAlert,
  validateAlert,
} from '../../src/model';

const body = (over: Record<string, unknown>) => ({
  name: 'n',
  type: 'SPF Record',
  filter: 'validity',
  target_type: 'domain',
  target_id: 1,
  ...over,
});
const messages = (over: Record<string, unknown>) => validateAlert(body(over)).map((p) => p.message);

describe('alert names', () => {
  test.each([
    ['\u200b', 'U+200B only'],
    ['\u200b\u200c\u200d\u2060\ufeff', 'zero-width characters and a BOM'],
    ['\u00a0\u200b\u3000', 'U+200B between no-break and ideographic spaces'],
    ['\u00ad', 'a soft hyphen'],
  ])('%p (%s) has no visible character', (name) => {
    expect(messages({ name })).toEqual([
      `name ${JSON.stringify(name)} has no visible character (only blanks or invisible characters such as U+200B); give the alert a readable name`,
    ]);
  });

  // The message shows the name with the character escaped: never raw on a terminal.
  test.each([
    ['a\u0000b', '"a\\u0000b"', 'U+0000', 2],
    ['line\nbreak', '"line\\nbreak"', 'U+000A', 5],
    ['tab\there', '"tab\\there"', 'U+0009', 4],
    ['del\u007f', '"del\\u007f"', 'U+007F', 4],
    ['c1\u0085', '"c1\\u0085"', 'U+0085', 3],
    ['ls\u2028', '"ls\\u2028"', 'U+2028', 3],
  ])('%p contains a control character', (name, shown, code, at) => {
    expect(messages({ name })).toEqual([
      `name ${shown} contains the control character ${code} at position ${at}; names are one line of printable text`,
    ]);
  });

  test.each([['www.example.com cert'], ['Zertifikat für www.bücher.de'], ['⚠️ expiry'], ['a\u200bb'], ['日本語']])(
    '%p is a name',
    (name) => {
      expect(messages({ name })).toEqual([]);
    },
  );

  test('the canonical form trims blanks first, so surrounding blanks are not a problem', () => {
    expect(parseAlert(body({ name: '  spf  ' }))).toMatchObject({ ok: true, alert: { name: 'spf' } });
  });
});

describe('expires in (days)', () => {
  const cert = (filter_value: unknown) => ({
    name: 'c',
    type: 'Certificate (TLS)',
    filter: 'expires in (days)',
    filter_value,
    target_type: 'domain',
    target_id: 1,
  });

  test('long digit strings are never rounded on the way to validation', () => {
    expect(canonicalizeAlert(cert('0099999999999999999')).filter_value).toBe('99999999999999999');
    const result = parseAlert(cert('99999999999999999'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => [p.value, p.message])).toEqual([
      [
        '99999999999999999',
        'filter_value "99999999999999999" is too large for filter "expires in (days)"; give a whole number of days from 1 to 3650 (ten years)',
      ],
    ]);
  });

  test.each([
    [1, true],
    [MAX_EXPIRY_DAYS, true],
    [MAX_EXPIRY_DAYS + 1, false],
    ['021', true],
    [0, false],
  ])('%p days valid: %p', (days, ok) => {
    expect(parseAlert(cert(days)).ok).toBe(ok);
  });
});

describe('host names: one definition', () => {
  test.each([
    'example.com',
    'www.example.com',
    'a-b.example.co.uk',
    'xn--bcher-kva.de',
    '1.example.com',
    `${'a'.repeat(63)}.com`,
  ])('%p is valid', (name) => {
    expect(isValidHostName(name)).toBe(true);
  });

  test.each([
    'example..com',
    'example',
    '.example.com',
    'example.com.',
    'Example.com',
    'example.com:443',
    'https://example.com',
    'ex ample.com',
    '-a.example.com',
    'a-.example.com',
    'example.c-',
    'example.123',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
    '',
    5,
    null,
  ])('%p is not (in canonical form)', (name) => {
    expect(isValidHostName(name)).toBe(false);
  });

  test('user input is normalized first: case, surrounding blanks and a trailing dot do not matter', () => {
    expect(normalizeHostName(' WWW.Example.COM. ')).toBe('www.example.com');
    expect(hostNameProblem('subdomain', ' WWW.Example.COM. ')).toBeNull();
    expect(hostNameProblem('domain', 'Example..com')).toBe(
      'domain name "Example..com" is not valid; give a bare host name such as example.com (labels of letters, digits and hyphens joined by single dots), without scheme, port or path',
    );
    expect(hostNameProblem('subdomain', null)).toBe(
      'subdomain name null is not valid; give a name such as www.example.com',
    );
  });
});
