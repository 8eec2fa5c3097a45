/**
 * RFC 7208 validity, judged without a sender, by the pure checker over a zone held in memory
 * (its resolver interface is the whole of its contact with DNS). The cases are those of the
 * public SPF test suite (pyspf's rfc7208-tests.yml) that a check without a sender can judge,
 * described here in our own words, plus the cases of the issue; one row per rule.
 */
import { checkSpf, checkSpfRecord, spfSyntaxProblem, type SpfAnswer, type SpfResolver } from '../../src/preview';

interface Entry {
  TXT?: string[];
  A?: string[];
  AAAA?: string[];
  MX?: string[];
  /** Every lookup of the name times out. */
  timeout?: boolean;
}

/** A resolver over `zone`: a name not in it does not exist. Counts the lookups asked. */
function zoneResolver(zone: Record<string, Entry>): SpfResolver & { asked: string[] } {
  const asked: string[] = [];
  const answer =
    (kind: 'TXT' | 'A' | 'AAAA' | 'MX') =>
    async (name: string): Promise<SpfAnswer> => {
      asked.push(`${kind} ${name}`);
      const e = zone[name];
      if (!e) return { ok: false, nxdomain: true, reason: `${name} does not exist (NXDOMAIN)` };
      if (e.timeout) return { ok: false, nxdomain: false, reason: `no answer for ${name}` };
      return { ok: true, records: e[kind] ?? [] };
    };
  return { asked, txt: answer('TXT'), a: answer('A'), aaaa: answer('AAAA'), mx: answer('MX') };
}

/** A zone where every name a record below may name has what a valid record needs. */
const ZONE: Record<string, Entry> = {
  'example.com': { A: ['192.0.2.1'], AAAA: ['2001:db8::1'], MX: ['mx.example.com'] },
  'mx.example.com': { A: ['192.0.2.2'], AAAA: ['2001:db8::2'] },
  'mail.example.com': { A: ['192.0.2.3'], AAAA: ['2001:db8::3'], MX: ['mx.example.com'] },
  'foo:bar/baz.example.com': { A: ['192.0.2.4'], AAAA: ['2001:db8::4'] },
  'foo.example.xn--zckzah': { A: ['192.0.2.5'], AAAA: ['2001:db8::5'] },
  'macro%percent  space%20url-space.example.com': { A: ['192.0.2.6'], AAAA: ['2001:db8::6'] },
  'ok.example.com': { TXT: ['v=spf1 -all'] },
  'spf.example.com': { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] },
  'spf.example.com.d.spf.example.com': { TXT: ['v=spf1 -all'] },
  'two.example.com': { TXT: ['v=spf1 -all', 'V=SPF1 ?all'] },
  'nospf.example.com': { TXT: ['hello'] },
  'bad.example.com': { TXT: ['v=spf1 a:abc.123 -all'] },
  'slow.example.com': { timeout: true },
};

const judge = (record: string, zone = ZONE, domain = 'spf.example.com') =>
  checkSpfRecord(domain, record, zoneResolver(zone));

describe('syntax: every term well-formed, anywhere in the record', () => {
  test.each([
    // [what the rule says, record, RFC 7208 section of the permerror]
    ['an unknown term after "all" is still an error', 'v=spf1 ip4:192.0.2.1 -all moo', '4.6.1'],
    ['a modifier name cannot hold "/"', 'v=spf1 moo.cow/far_out=man:dog/cat -all', '4.6.1'],
    ['a modifier name cannot hold ":"', 'v=spf1 moo.cow:far_out=man:dog/cat -all', '4.6.1'],
    ['redirect is a modifier, written with "="', 'v=spf1 ip4:192.0.2.1 redirect:ok.example.com', '4.6.1'],
    ['a modifier name starts with a letter', 'v=spf1 1up=foo', '4.6.1'],
    ['a modifier needs a name', 'v=spf1 =all', '4.6.1'],
    ['a name of an object property is no mechanism', 'v=spf1 constructor toString:x.example.com', '4.6.1'],
    ['terms are separated by spaces, not a carriage return', 'v=spf1 a:mail.example.com\rptr -all', '7.1'],
    ['terms are separated by spaces, not a line feed', 'v=spf1 ip4:192.0.2.5\n include:ok.example.com ~all', '5.6'],
    ['"all." is no mechanism', 'v=spf1 -all.', '4.6.1'],
    ['all takes no argument', 'v=spf1 -all:foobar', '5.1'],
    ['all takes no CIDR length', 'v=spf1 -all/8', '5.1'],
    ['include needs ":" and a domain', 'v=spf1 include +all', '5.2'],
    ['include needs a domain after ":"', 'v=spf1 include: -all', '5.2'],
    ['include takes no CIDR length', 'v=spf1 include:ok.example.com/24 -all', '7.1'],
    ['a: needs a domain after ":"', 'v=spf1 a:', '5.3'],
    ['a: IPv4 length at most 32', 'v=spf1 a/33 -all', '5.3'],
    ['a: IPv6 length at most 128', 'v=spf1 a//129 -all', '5.3'],
    ['a: the IPv6 length follows "//"', 'v=spf1 a/24/64 -all', '5.3'],
    ['mx: needs a domain after ":"', 'v=spf1 mx: -all', '5.4'],
    ['mx: IPv4 length at most 32', 'v=spf1 mx/33 -all', '5.4'],
    ['mx: IPv6 length at most 128', 'v=spf1 mx//129 -all', '5.4'],
    ['ptr takes no CIDR length', 'v=spf1 ptr/0 -all', '5.5'],
    ['ptr: needs a domain after ":"', 'v=spf1 ptr:', '5.5'],
    ['ip4 needs an address', 'v=spf1 ip4', '5.6'],
    ['ip4 length at most 32', 'v=spf1 ip4:192.0.2.4/33 -all', '5.6'],
    ['ip4 length without a leading zero', 'v=spf1 ip4:192.0.2.4/032 -all', '5.6'],
    ['ip4 takes no dual length', 'v=spf1 ip4:192.0.2.4//32', '5.6'],
    ['ip4 takes no port', 'v=spf1 ip4:192.0.2.4:8080', '5.6'],
    ['ip4 has all four parts', 'v=spf1 ip4:192.0.2', '5.6'],
    ['ip6 needs an address, also after all', 'v=spf1 -all ip6', '5.6'],
    ['ip6 length at most 128', 'v=spf1 ip6:::1.1.1.1/129', '5.6'],
    ['ip6 takes no dual length', 'v=spf1 ip6:::1.1.1.1//33', '5.6'],
    ['ip6 address as RFC 4291 writes it', 'v=spf1 ip6::CAFE::BABE', '5.6'],
    ['exists needs ":" and a domain', 'v=spf1 exists', '5.7'],
    ['exists needs a domain after ":"', 'v=spf1 exists:', '5.7'],
    ['exists takes no CIDR length', 'v=spf1 exists:mail.example.com/24', '7.1'],
    ['redirect at most once', 'v=spf1 redirect=ok.example.com -all redirect=ok.example.com', '6'],
    ['exp at most once', 'v=spf1 exp=ok.example.com -all exp=ok.example.com', '6'],
    ['redirect needs a domain', 'v=spf1 ?all redirect=', '6.1'],
    ['exp needs a domain', 'v=spf1 exp= -all', '6.2'],
    ['an unknown modifier holds a macro-string', 'v=spf1 -all foo=%abc', '7.1'],
  ])('%s: %j is a permerror', async (_rule, record, section) => {
    expect(await judge(record)).toMatchObject({ result: 'permerror', section });
  });

  test.each([
    ['terms may be separated by several spaces', 'v=spf1 a  -all'],
    ['a record may end in spaces', 'v=spf1 a -all '],
    ['a record may have no term', 'v=spf1'],
    ['a modifier name holds letters, digits, "-", "_" and "."', 'v=spf1 moo.cow-far_out=man:dog/cat ip4:1.2.3.4 -all'],
    ['an unknown modifier is ignored', 'v=spf1 default=pass'],
    ['an unknown modifier may hold any visible character', 'v=spf1 default=+'],
    ['all may appear twice', 'v=spf1 all -all'],
    ['the version and the names ignore case', 'V=SpF1 IP4:192.0.2.1 A MX ~ALL'],
    ['a: an IPv6 length alone', 'v=spf1 a//33 -all'],
    ['a: both lengths', 'v=spf1 a/24//64 -all'],
    ['a: lengths of 0', 'v=spf1 a/0 mx//0 -all'],
    ['ip4 with a length of 0 and of 32', 'v=spf1 ip4:1.1.1.1/0 ip4:192.0.2.4/32 -all'],
    ['ip6 with an embedded IPv4 address', 'v=spf1 ip6:::1.1.1.1/0'],
    ['ip6 with a length over 32', 'v=spf1 ip6:Cafe:Babe:8000::/33'],
    ['ip6 in full', 'v=spf1 ip6:2001:db8:0:0:0:0:0:1 -all'],
    ['only a trailing "/digits" is a length: ":" and "/" may be in the domain', 'v=spf1 a:foo:bar/baz.example.com'],
    ['a top label may hold inner hyphens', 'v=spf1 a:foo.example.xn--zckzah -all'],
    ['a domain may end in a dot', 'v=spf1 include:ok.example.com. -all'],
    ['%%, %_ and %- are literal escapes', 'v=spf1 a:macro%%percent%_%_space%-url-space.example.com -all'],
    ['a macro may end a domain', 'v=spf1 a:%{H} -all'],
    ['transformers and delimiters', 'v=spf1 exists:%{i}.%{l2r-}.user.%{d2} exists:%{l2r+-}.user.%{d2}'],
    ['exp may use the sender in its domain', 'v=spf1 -all exp=msg.%{D2}'],
  ])('%s: %j is valid', async (_rule, record) => {
    expect(await judge(record)).toMatchObject({ result: 'valid' });
  });
});

describe('domain-spec: ends in a top label, after expansion too (7.1)', () => {
  test.each([
    ['a top label is not only a name: "foo-bar" has no dot', 'v=spf1 a:foo-bar -all'],
    ['a top label is not all digits', 'v=spf1 a:111.222.33.44'],
    ['a top label is not all digits after a name', 'v=spf1 a:abc.123'],
    ['mx too', 'v=spf1 mx:abc.123'],
    ['a top label does not start with a hyphen', 'v=spf1 a:example.-com'],
    ['mx too: no leading hyphen', 'v=spf1 mx:example.-com'],
    ['a lone top label is not a domain', 'v=spf1 a:museum'],
    ['a lone top label with a trailing dot is not one either', 'v=spf1 a:museum.'],
    ['":" is not in a top label, so a port is an error', 'v=spf1 a:example.com:8080'],
    ['mx with a port', 'v=spf1 mx:example.com:8080'],
    ['a NUL octet is not in a top label', 'v=spf1 a:foo.example.com\u0000'],
    ['redirect=-all is not a domain', 'v=spf1 redirect=-all ?all'],
    ['exp=-all is not a domain', 'v=spf1 exp=-all'],
    ['a domain that expands to a single label', 'v=spf1 a:%{d1r} -all'],
  ])('%s: %j', async (_rule, record) => {
    expect(await judge(record)).toMatchObject({ result: 'permerror', section: '7.1' });
  });

  test('the reason names the term and what is wrong', async () => {
    expect(await judge('v=spf1 a:abc.123')).toMatchObject({
      reason: 'the SPF record of spf.example.com: the domain of "a:abc.123" ends in the all-numeric label "123"',
    });
    expect(await judge('v=spf1 a:%{d1r} -all')).toMatchObject({
      reason:
        'the domain of "a:%{d1r}" in the record of spf.example.com expands to "spf", which ends in "spf", a single label: a domain must have a "." and a top label',
    });
  });
});

describe('macros (7.1, 7.3)', () => {
  test.each([
    ['"%" must be followed by "{", "%", "_" or "-"', 'v=spf1 -exists:%(ir).sbl.example.com ?all', '7.1'],
    ['also inside a name', 'v=spf1 exists:foo%(ir).sbl.example.com ?all', '7.1'],
    ['a "%" before the dot', 'v=spf1 exists:foo%.sbl.example.com ?all', '7.1'],
    ['a "%" at the end', 'v=spf1 a:foo.example.com%', '7.1'],
    ['an unclosed macro', 'v=spf1 a:%{d.example.com', '7.1'],
    ['a letter that is not a macro letter', 'v=spf1 a:%{a}.example.com -all', '7.3'],
    ['%{r} belongs to explanation text, not to an exp domain', 'v=spf1 -all exp=%{r}.example.com', '7.3'],
    ['%{c} neither', 'v=spf1 a:%{c}.example.com -all', '7.3'],
    ['%{t} neither', 'v=spf1 -all foo=%{t}', '7.3'],
    ['zero right-hand parts', 'v=spf1 a:%{d0}.example.com -all', '7.3'],
  ])('%s: %j', async (_rule, record, section) => {
    expect(await judge(record)).toMatchObject({ result: 'permerror', section });
  });

  test('%{d} is the domain being checked: expanded and looked up; a sender macro is counted, not looked up', async () => {
    const r = zoneResolver(ZONE);
    const v = await checkSpfRecord('spf.example.com', 'v=spf1 redirect=%{d}.d.spf.example.com.', r);
    expect(v).toMatchObject({ result: 'valid', dnsTerms: 1 });
    expect(r.asked).toEqual(['TXT spf.example.com.d.spf.example.com']);
    const s = zoneResolver(ZONE);
    expect(
      await checkSpfRecord('spf.example.com', 'v=spf1 exists:%{i}.bl.example.com a:%{l}.example.com -all', s),
    ).toMatchObject({
      result: 'valid',
      dnsTerms: 2,
    });
    expect(s.asked).toEqual([]);
  });

  test('an include or redirect whose domain needs the sender leaves validity unknown, unless an error is found', async () => {
    expect(await judge('v=spf1 include:%{l}.users.example.com -all')).toMatchObject({
      result: 'cannot evaluate',
      reason:
        '"include:%{l}.users.example.com" in the record of spf.example.com names a domain that depends on the sender, so what it adds is not known',
    });
    expect(await judge('v=spf1 include:%{l}.users.example.com include:bad.example.com -all')).toMatchObject({
      result: 'permerror',
      section: '7.1',
    });
  });
});

describe('record selection and text (3.1, 4.5)', () => {
  test('a record is 7-bit ASCII: a decoded non-ASCII character or an undecodable byte is a permerror', async () => {
    expect(await judge('v=spf1 a:\ufeffgarbage.example.net -all')).toMatchObject({
      result: 'permerror',
      section: '3.1',
      reason: 'the SPF record of spf.example.com: the record contains U+FEFF, and SPF records are 7-bit ASCII',
    });
    // 0x96, not UTF-8, as the TXT decoding keeps it.
    expect(await judge('v=spf1 a:example.com \udc96all')).toMatchObject({
      result: 'permerror',
      section: '3.1',
      reason:
        'the SPF record of spf.example.com: the record contains the byte \\x96, not UTF-8, and SPF records are 7-bit ASCII',
    });
  });

  test('exactly one v=spf1 record: none is "none", two (any case) a permerror; other records are ignored', async () => {
    const zone: Record<string, Entry> = {
      ...ZONE,
      'one.test': { TXT: ['v=spf10', 'v=spf1 -all', 'caf\udce9 text'] },
      'two.test': { TXT: ['v=spf1 -all', 'V=sPf1 +all'] },
      'none.test': { TXT: ['v=spf10 -all'] },
    };
    expect(await checkSpf('one.test', zoneResolver(zone))).toMatchObject({
      found: 'one',
      record: 'v=spf1 -all',
      verdict: { result: 'valid' },
    });
    expect(await checkSpf('two.test', zoneResolver(zone))).toEqual({
      found: 'several',
      records: ['v=spf1 -all', 'V=sPf1 +all'],
      problem: 'two.test has 2 v=spf1 records; exactly one is allowed (RFC 7208 4.5)',
    });
    expect(await checkSpf('none.test', zoneResolver(zone))).toMatchObject({ found: 'none' });
    expect(await checkSpf('slow.example.com', zoneResolver(zone))).toMatchObject({ found: 'failed', nxdomain: false });
    expect(await checkSpf('nx.test', zoneResolver(zone))).toMatchObject({ found: 'failed', nxdomain: true });
  });

  test('spfSyntaxProblem judges the text alone', () => {
    expect(spfSyntaxProblem('v=spf1 a:foo:bar/baz.example.com -all')).toBeNull();
    expect(spfSyntaxProblem('v=spf1 a:example.com:8080')).toEqual({
      reason:
        'the domain of "a:example.com:8080" ends in "com:8080", which is not a top label (letters, digits and inner hyphens)',
      section: '7.1',
    });
    expect(spfSyntaxProblem('spf1 -all')).toMatchObject({ section: '4.5' });
  });
});

describe('evaluation: all, include, redirect (5.1, 5.2, 6.1)', () => {
  test('mechanisms after all are not evaluated, and redirect is ignored when there is an all', async () => {
    const r = zoneResolver(ZONE);
    expect(await checkSpfRecord('spf.example.com', 'v=spf1 -all include:missing.example', r)).toMatchObject({
      result: 'valid',
      dnsTerms: 0,
    });
    expect(await checkSpfRecord('spf.example.com', 'v=spf1 ?all redirect=missing.example', r)).toMatchObject({
      result: 'valid',
    });
    expect(r.asked).toEqual([]);
  });

  test.each([
    ['an include whose domain has no SPF record', 'v=spf1 include:nospf.example.com -all', '5.2'],
    ['an include whose domain does not exist', 'v=spf1 include:missing.example -all', '5.2'],
    ['an include whose record is not valid', 'v=spf1 include:bad.example.com -all', '7.1'],
    ['an include whose domain has two SPF records', 'v=spf1 include:two.example.com -all', '4.5'],
    ['a redirect whose domain has no SPF record', 'v=spf1 redirect=nospf.example.com', '6.1'],
    ['a redirect whose domain does not exist', 'v=spf1 redirect=erehwon.example.com', '6.1'],
  ])('%s: permerror', async (_rule, record, section) => {
    expect(await judge(record)).toMatchObject({ result: 'permerror', section });
  });

  test('a lookup that times out is a temperror, not a verdict', async () => {
    expect(await judge('v=spf1 include:slow.example.com -all')).toEqual({
      result: 'temperror',
      reason: 'no answer for slow.example.com',
    });
    expect(await judge('v=spf1 exists:slow.example.com -all')).toMatchObject({ result: 'temperror' });
    // A syntax error anywhere is found before any lookup.
    expect(await judge('v=spf1 include:slow.example.com -all moo')).toMatchObject({ result: 'permerror' });
  });
});

describe('limits (4.6.4)', () => {
  const terms = (n: number, term = 'a') => Array.from({ length: n }, () => term).join(' ');

  test('10 DNS-querying terms are allowed; the 11th is a permerror, however they are spread over includes', async () => {
    expect(await judge(`v=spf1 ${terms(5, 'a mx')} ip4:192.0.2.1 -all`, ZONE, 'example.com')).toMatchObject({
      result: 'valid',
      dnsTerms: 10,
    });
    expect(await judge(`v=spf1 ${terms(5, 'a mx')} ptr ip4:192.0.2.1 -all`, ZONE, 'example.com')).toMatchObject({
      result: 'permerror',
      section: '4.6.4',
      reason:
        'more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect): the 11th is "ptr" in the record of example.com',
    });
    const zone: Record<string, Entry> = {
      ...ZONE,
      'inc.example.com': { TXT: [`v=spf1 ${terms(8)}`], A: ['192.0.2.9'], AAAA: ['2001:db8::9'] },
    };
    expect(await judge('v=spf1 a include:inc.example.com -all', zone, 'example.com')).toMatchObject({
      result: 'valid',
      dnsTerms: 10,
    });
    // Judged for a sender that no term matches: ip4 does not stop the walk.
    expect(await judge('v=spf1 a include:inc.example.com ip4:192.0.2.4 mx -all', zone, 'example.com')).toMatchObject({
      result: 'permerror',
      section: '4.6.4',
    });
  });

  test('include and redirect loops end at the limit', async () => {
    const zone: Record<string, Entry> = {
      'e1.test': { TXT: ['v=spf1 ip4:192.0.2.1 redirect=e1.test'] },
      'e2.test': { TXT: ['v=spf1 include:e3.test'] },
      'e3.test': { TXT: ['v=spf1 include:e2.test'] },
    };
    expect(await checkSpf('e1.test', zoneResolver(zone))).toMatchObject({
      verdict: { result: 'permerror', section: '4.6.4', dnsTerms: 11 },
    });
    expect(await checkSpf('e2.test', zoneResolver(zone))).toMatchObject({
      verdict: { result: 'permerror', section: '4.6.4', dnsTerms: 11 },
    });
  });

  test('at most 10 MX names for an mx term', async () => {
    const mx = (n: number) => Array.from({ length: n }, (_, i) => `mx${i}.example.com`);
    const zone: Record<string, Entry> = { ...ZONE, 'ten.test': { MX: mx(10) }, 'eleven.test': { MX: mx(11) } };
    expect(await judge('v=spf1 mx:ten.test -all', zone)).toMatchObject({ result: 'valid' });
    expect(await judge('v=spf1 mx:eleven.test -all', zone)).toMatchObject({
      result: 'permerror',
      section: '4.6.4',
      reason: '"mx:eleven.test" in the record of spf.example.com: eleven.test has 11 MX records, more than 10',
    });
  });

  test('2 void lookups are allowed, the 3rd is a permerror; an a term counts for the kind of sender it lacks', async () => {
    expect(await judge('v=spf1 a:err.example.com a:err1.example.com ?all')).toMatchObject({
      result: 'valid',
      voidLookups: { ipv4: 2, ipv6: 2 },
    });
    expect(await judge('v=spf1 a:err.example.com mx:err1.example.com exists:err2.example.com ?all')).toMatchObject({
      result: 'permerror',
      section: '4.6.4',
      reason:
        'more than 2 void lookups (no record or NXDOMAIN): the 3rd is "exists:err2.example.com" in the record of spf.example.com, err2.example.com has no A record',
    });
    const zone: Record<string, Entry> = {
      'v4.test': { A: ['192.0.2.1'] },
      'v4b.test': { A: ['192.0.2.2'] },
      'v4c.test': { A: ['192.0.2.3'] },
    };
    expect(await judge('v=spf1 a:v4.test a:v4b.test -all', zone)).toMatchObject({
      result: 'valid',
      voidLookups: { ipv4: 0, ipv6: 2 },
    });
    expect(await judge('v=spf1 a:v4.test a:v4b.test a:v4c.test -all', zone)).toMatchObject({
      result: 'permerror',
      reason:
        'more than 2 void lookups (no record or NXDOMAIN) for an IPv6 sender: the 3rd is "a:v4c.test" in the record of spf.example.com, v4c.test has no AAAA record',
    });
  });
});
