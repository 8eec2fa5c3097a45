import {
  hostNameProblem,
  isValidHostName,
  normalizeHostName,
  normalizePrefix,
  prefixProblem,
  sameHostName,
} from '../../src/model/hostname';

const label = (n: number, c = 'a') => c.repeat(n);

describe('host names (RFC 1035 / 1123)', () => {
  it.each([
    ['example.com'],
    ['a-b.example.com'],
    ['3com.example'],
    [`${label(63)}.com`],
    // 253 characters in all: 4 labels of 61 plus the dots and a 5-character top label.
    [`${label(61)}.${label(61)}.${label(61)}.${label(61)}.abcde`],
  ])('%s is valid', (name) => {
    expect(isValidHostName(name)).toBe(true);
    expect(hostNameProblem('domain', name)).toBeNull();
  });

  it.each([
    [`${label(64)}.com`, 'a label of 64'],
    [`${label(61)}.${label(61)}.${label(61)}.${label(61)}.abcdef`, '254 in all'],
    ['-a.com', 'a leading hyphen'],
    ['a-.com', 'a trailing hyphen'],
    ['a_b.com', 'an underscore'],
    ['a..com', 'an empty label'],
    ['com', 'a single label'],
    ['example.123', 'a numeric top label'],
    ['https://example.com', 'a scheme'],
    ['example.com:443', 'a port'],
  ])('%s is refused (%s), with a sentence naming it', (name) => {
    expect(isValidHostName(normalizeHostName(name))).toBe(false);
    const problem = hostNameProblem('domain', name);
    expect(problem).toContain(JSON.stringify(name));
    expect(problem).toContain('give a bare host name');
  });

  it('ignores case, blanks and a trailing dot', () => {
    expect(normalizeHostName('  WWW.Example.COM. ')).toBe('www.example.com');
    expect(sameHostName('Example.com', 'example.COM.')).toBe(true);
    expect(sameHostName('example.com', 'example.org')).toBe(false);
  });

  it('turns internationalised names into A-labels with the platform IDNA', () => {
    expect(normalizeHostName('Bücher.de')).toBe('xn--bcher-kva.de');
    expect(normalizeHostName('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(isValidHostName(normalizeHostName('bücher.de'))).toBe(true);
    expect(sameHostName('BÜCHER.de', 'xn--bcher-kva.de')).toBe(true);
  });

  it('leaves an all-ASCII numeric name to the LDH rule (never read as an IPv4 address)', () => {
    expect(normalizeHostName('1.2.3')).toBe('1.2.3');
    expect(isValidHostName('1.2.3')).toBe(false);
  });

  it('returns non-strings unchanged', () => {
    expect(normalizeHostName(42)).toBe(42);
    expect(hostNameProblem('domain', undefined)).toContain('null');
  });
});

describe('subdomain prefixes', () => {
  it.each([['www'], ['my.demo'], ['WWW'], ['münchen']])('%s is a valid prefix of example.com', (prefix) => {
    expect(prefixProblem(prefix, 'example.com')).toBeNull();
  });

  it('normalizes like a host name', () => {
    expect(normalizePrefix(' My.Demo. ')).toBe('my.demo');
    expect(normalizePrefix('München')).toBe('xn--mnchen-3ya');
  });

  it.each([
    ['', 'empty'],
    ['-www', 'a leading hyphen'],
    ['a..b', 'an empty label'],
    [label(64), 'a label of 64'],
    [`${label(63)}.${label(63)}.${label(63)}.${label(63)}`, 'a full name past 253'],
  ])('%j is refused (%s), naming the prefix and the domain', (prefix) => {
    const problem = prefixProblem(prefix, 'example.com');
    expect(problem).toContain(JSON.stringify(prefix));
    expect(problem).toContain('example.com');
  });
});
