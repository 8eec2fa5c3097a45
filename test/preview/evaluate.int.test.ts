/**
 * Alerts evaluated against a local DNS server (dns-packet, UDP on 127.0.0.1) and local TLS
 * servers with certificates made in the test (node-forge): no internet. Every result is
 * asserted with the values observed.
 */
import { canonicalAlert, type AlertSpec } from '../../src/model';
import { Lookups, evaluateAlert, largestQuietThreshold, maxLifetimeDays, type Evaluation } from '../../src/preview';
import { startDnsServer, type RunningDns, type Zone } from '../helpers/dns-server';
import {
  REFUSES,
  SERVES,
  SERVES_V6,
  STALLS,
  lifetimeCertificate,
  startTlsServers,
  type RunningTls,
} from '../helpers/tls-servers';

const ZONE: Zone = {
  'mail.test': {
    A: ['192.0.2.10'],
    MX: [
      { exchange: 'mx2.mail.test', priority: 20 },
      { exchange: 'mx1.mail.test', priority: 10 },
    ],
    TXT: ['v=spf1 ip4:192.0.2.0/24 mx -all', 'google-site-verification=abc'],
  },
  'mx1.mail.test': { A: ['192.0.2.11'] },
  'mx2.mail.test': { A: ['192.0.2.12'] },
  'www.mail.test': { CNAME: 'cdn.mail.test' },
  'cdn.mail.test': { CNAME: 'edge.cdn.test' },
  'edge.cdn.test': { A: ['192.0.2.20', '192.0.2.21'] },
  'xn--bcher-kva.test': { A: ['192.0.2.30'] },
  'empty.test': { TXT: ['hello'] },
  // SPF records that break each limit of RFC 7208.
  'two-spf.test': { TXT: ['v=spf1 -all', 'v=spf1 ip4:192.0.2.1 -all'] },
  'bad-syntax.test': { TXT: ['v=spf1 ip4:300.1.1.1 -all'] },
  'unknown-term.test': { TXT: ['v=spf1 ip4:192.0.2.1 foo:bar -all'] },
  'too-many.test': {
    TXT: [`v=spf1 ${[1, 2, 3, 4, 5, 6].map((i) => `include:i${i}.spf.test`).join(' ')} -all`],
  },
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`i${i}.spf.test`, { TXT: ['v=spf1 a:ok.spf.test -all'] }])),
  'ok.spf.test': { A: ['192.0.2.40'], AAAA: ['2001:db8::40'] },
  'voids.test': { TXT: ['v=spf1 a:nx1.spf.test mx:ok.spf.test a:nx3.spf.test -all'] },
  'dangling.test': { TXT: ['v=spf1 include:empty.test -all'] },
  'redirect-gone.test': { TXT: ['v=spf1 redirect=gone.spf.test'] },
  'valid.test': { TXT: ['v=spf1 include:i1.spf.test mx:mail.test ip6:2001:db8::/32 ~all'] },
  // The classes preview judged wrongly before RFC 7208 was followed to the letter.
  'after-all.test': { TXT: ['v=spf1 -all include:missing.spf.test'] },
  'colon.test': { TXT: ['v=spf1 a:foo:bar/baz.mail.test -all'] },
  'port.test': { TXT: ['v=spf1 a:mail.test:8080 -all'] },
  'numeric.test': { TXT: ['v=spf1 a:abc.123 -all'] },
  'macro.test': { TXT: ['v=spf1 exists:%{a}.mail.test -all'] },
  'sender.test': { TXT: ['v=spf1 include:%{l}._spf.mail.test -all'] },
  'spf-bytes.test': { TXT: [[Buffer.from('v=spf1 a:mail.test '), Buffer.from([0x96]), Buffer.from('all')]] },
  // TXT as bytes: UTF-8, a character split between two strings, a byte that is not UTF-8.
  'cafe.test': { TXT: ['owner=café'] },
  'split.test': { TXT: [[Buffer.from('owner=caf'), Buffer.from([0xc3]), Buffer.from([0xa9])]] },
  'latin1.test': { TXT: [[Buffer.from('owner=caf'), Buffer.from([0xe9]), Buffer.from(' ok')]] },
  // A chain of 20 CNAMEs, and a loop.
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`hop${i}.test`, { CNAME: `hop${i + 1}.test` }])),
  'hop20.test': { A: ['192.0.2.50'] },
  'loop1.test': { CNAME: 'loop2.test' },
  'loop2.test': { CNAME: 'loop1.test' },
  // Only an IPv6 address, served on ::1.
  'v6only.test': { AAAA: [SERVES_V6] },
  // TLS: 127.0.0.1 serves by SNI, .2 stalls the handshake, .3 refuses.
  ...Object.fromEntries(
    ['c47', 'c100', 'c200', 'c398', 'expired', 'selfsigned', 'other'].map((h) => [`${h}.test`, { A: [SERVES] }]),
  ),
  'shop.wild.test': { A: [SERVES] },
  'stall.test': { A: [STALLS] },
  'refuse.test': { A: [REFUSES] },
  'slow.test': { silent: true },
  'broken.test': { servfail: true },
};

let dns: RunningDns;
let tls: RunningTls;

beforeAll(async () => {
  dns = await startDnsServer(ZONE);
  tls = await startTlsServers(
    {
      // 47-day certificate, 7.5 days left; 100-day, 90.5 left; 200-day, 50.5 left; 398-day, 10.5 left.
      'c47.test': lifetimeCertificate('c47.test', 47, 39.5),
      'c100.test': lifetimeCertificate('c100.test', 100, 9.5, { subject: { O: 'Example Org' } }),
      'c200.test': lifetimeCertificate('c200.test', 200, 149.5),
      'c398.test': lifetimeCertificate('c398.test', 398, 387.5),
      'expired.test': lifetimeCertificate('expired.test', 90, 100.5),
      'selfsigned.test': lifetimeCertificate('selfsigned.test', 90, 0.5, { selfSigned: true }),
      '*.wild.test': lifetimeCertificate('*.wild.test', 90, 0.5),
      'nomatch.test': lifetimeCertificate('nomatch.test', 90, 0.5),
      'v6only.test': lifetimeCertificate('v6only.test', 90, 30.5),
    },
    { ipv6: true },
  );
});
afterAll(async () => {
  await Promise.all([dns?.close(), tls?.close()]);
});

const lookups = (more: Partial<ConstructorParameters<typeof Lookups>[0]> = {}) =>
  new Lookups({ resolver: dns.address, tlsPort: tls.port, timeoutMs: 800, ...more });

function spec(fields: Partial<AlertSpec>): AlertSpec {
  return canonicalAlert({
    name: 'x',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.10',
    target_type: 'domain',
    target_id: 1,
    ...fields,
  });
}

const evaluate = (host: string | null, fields: Partial<AlertSpec>, l = lookups()) =>
  evaluateAlert(spec(fields), host, l, new Date());

const brief = (e: Evaluation) => ({ state: e.state, text: e.state === 'unknown' ? e.reason : e.observed });

describe('DNS Record alerts', () => {
  test('MX: every comparison, with the records found in priority order', async () => {
    const mx = { subtype: 'MX' };
    expect(brief(await evaluate('mail.test', { ...mx, filter: 'equals', filter_value: 'mx2.example.net' }))).toEqual({
      state: 'quiet',
      text: 'MX is mx1.mail.test, mx2.mail.test, not "mx2.example.net"',
    });
    expect(brief(await evaluate('mail.test', { ...mx, filter: 'equals', filter_value: 'MX1.mail.test.' }))).toEqual({
      state: 'fires',
      text: 'MX is mx1.mail.test, mx2.mail.test; one equals "MX1.mail.test."',
    });
    expect(
      brief(await evaluate('mail.test', { ...mx, filter: 'does not equal', filter_value: 'mx3.mail.test' })),
    ).toEqual({ state: 'fires', text: 'MX is mx1.mail.test, mx2.mail.test, not "mx3.mail.test"' });
    expect(brief(await evaluate('mail.test', { ...mx, filter: 'contains', filter_value: 'mail.test' }))).toEqual({
      state: 'fires',
      text: 'MX is mx1.mail.test, mx2.mail.test; one contains "mail.test"',
    });
    expect(brief(await evaluate('mail.test', { ...mx, filter: 'does not contain', filter_value: 'google' }))).toEqual({
      state: 'fires',
      text: 'MX is mx1.mail.test, mx2.mail.test; none contains "google"',
    });
  });

  test('A through a CNAME chain; CNAME; TXT compared as written; a name without the record', async () => {
    const a = await evaluate('www.mail.test', { filter: 'equals', filter_value: '192.0.2.21' });
    expect(brief(a)).toEqual({
      state: 'fires',
      text: 'A is 192.0.2.20, 192.0.2.21; one equals "192.0.2.21" (via CNAME cdn.mail.test → edge.cdn.test)',
    });
    expect(a.data).toEqual({ records: ['192.0.2.20', '192.0.2.21'], cname_chain: ['cdn.mail.test', 'edge.cdn.test'] });
    expect(
      brief(await evaluate('www.mail.test', { subtype: 'CNAME', filter: 'equals', filter_value: 'cdn.example.net' })),
    ).toEqual({ state: 'quiet', text: 'CNAME is cdn.mail.test, not "cdn.example.net"' });
    expect(
      brief(await evaluate('mail.test', { subtype: 'TXT', filter: 'contains', filter_value: 'SITE-verification' })),
    ).toEqual({
      state: 'quiet',
      text: 'TXT is "v=spf1 ip4:192.0.2.0/24 mx -all", "google-site-verification=abc"; none contains "SITE-verification"',
    });
    expect(
      brief(await evaluate('empty.test', { subtype: 'MX', filter: 'does not equal', filter_value: 'mx.test' })),
    ).toEqual({ state: 'fires', text: 'no MX record, not "mx.test"' });
  });

  test('TXT is UTF-8: split strings are joined as bytes; a byte that is not UTF-8 is shown as \\xNN and equals no text', async () => {
    const txt = (host: string, filter_value: string) =>
      evaluate(host, { subtype: 'TXT', filter: 'equals', filter_value });
    expect(brief(await txt('cafe.test', 'owner=café'))).toEqual({
      state: 'fires',
      text: 'TXT is "owner=café"; equals "owner=café"',
    });
    expect((await txt('split.test', 'owner=café')).state).toBe('fires');
    const latin1 = await txt('latin1.test', 'owner=café ok');
    expect(brief(latin1)).toEqual({ state: 'quiet', text: 'TXT is "owner=caf\\xe9 ok", not "owner=café ok"' });
    expect(latin1.data.records).toEqual(['owner=caf\\xe9 ok']);
    expect((await txt('latin1.test', 'owner=caf\\xe9 ok')).state).toBe('quiet');
  });

  test('a chain of 20 CNAMEs is longer than 8 hops, not a loop; a real loop is named', async () => {
    const long = await evaluate('hop0.test', { filter: 'equals', filter_value: '192.0.2.50' });
    expect(brief(long)).toEqual({
      state: 'fires',
      text: `A is 192.0.2.50; equals "192.0.2.50" (via CNAME ${Array.from({ length: 8 }, (_, i) => `hop${i + 1}.test`).join(' → ')}, longer than 8 hops)`,
    });
    const loop = await evaluate('loop1.test', { filter: 'equals', filter_value: '192.0.2.50' });
    expect(brief(loop)).toEqual({
      state: 'unknown',
      text: "the resolver answered SERVFAIL for loop1.test (the name's servers failed or DNSSEC did not validate); its CNAME chain is a loop: loop1.test → loop2.test → loop1.test",
    });
  });

  test('IDN names are looked up in punycode', async () => {
    const e = await evaluate('bücher.test', { filter: 'equals', filter_value: '192.0.2.30' });
    expect(brief(e)).toEqual({ state: 'fires', text: 'A is 192.0.2.30; equals "192.0.2.30"' });
    expect(e.data.ascii_host).toBe('xn--bcher-kva.test');
  });

  test('a name that does not exist, SERVFAIL, a resolver that never answers: cannot evaluate, with why', async () => {
    expect(brief(await evaluate('nx.test', {}))).toEqual({
      state: 'unknown',
      text: 'nx.test does not exist (NXDOMAIN)',
    });
    expect(brief(await evaluate('broken.test', {}))).toEqual({
      state: 'unknown',
      text: "the resolver answered SERVFAIL for broken.test (the name's servers failed or DNSSEC did not validate)",
    });
    const started = Date.now();
    expect(brief(await evaluate('slow.test', {}, lookups({ timeoutMs: 300 })))).toEqual({
      state: 'unknown',
      text: `${dns.address} did not answer for slow.test within 300 ms`,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(brief(await evaluate(null, {}))).toEqual({
      state: 'unknown',
      text: expect.stringContaining('the name of domain 1 is not known'),
    });
  });
});

describe('SPF Record alerts', () => {
  const spf = (host: string, filter = 'validity', filter_value = '') =>
    evaluate(host, { type: 'SPF Record', subtype: null, filter, filter_value });

  test('a valid record: quiet, with its counts', async () => {
    const e = await spf('valid.test');
    expect(brief(e)).toEqual({
      state: 'quiet',
      text: 'SPF is valid (3 DNS-querying terms, 0 void lookups): "v=spf1 include:i1.spf.test mx:mail.test ip6:2001:db8::/32 ~all"',
    });
    expect(e.data).toMatchObject({ result: 'valid', dns_terms: 3, void_lookups: { ipv4: 0, ipv6: 0 } });
    // An a term whose name has no AAAA record is a void lookup for an IPv6 sender.
    expect((await spf('mail.test')).observed).toBe(
      'SPF is valid (1 DNS-querying term, 0 void lookups): "v=spf1 ip4:192.0.2.0/24 mx -all"',
    );
  });

  test('mechanisms after all are not evaluated; ":" and "/" may be in a domain: quiet', async () => {
    expect(brief(await spf('after-all.test'))).toEqual({
      state: 'quiet',
      text: 'SPF is valid (0 DNS-querying terms, 0 void lookups): "v=spf1 -all include:missing.spf.test"',
    });
    expect((await spf('colon.test')).state).toBe('quiet');
  });

  test('a domain that ends in no top label, a bad macro, bytes that are not ASCII: fires, naming the rule', async () => {
    expect(brief(await spf('port.test'))).toEqual({
      state: 'fires',
      text: 'SPF is not valid: the SPF record of port.test: the domain of "a:mail.test:8080" ends in "test:8080", which is not a top label (letters, digits and inner hyphens) (RFC 7208 7.1)',
    });
    expect((await spf('numeric.test')).observed).toMatch(/all-numeric label "123" \(RFC 7208 7\.1\)$/);
    expect((await spf('macro.test')).observed).toBe(
      'SPF is not valid: the SPF record of macro.test: "exists:%{a}.mail.test" uses %{a}, which is not a macro letter (RFC 7208 7.3)',
    );
    const bytes = await spf('spf-bytes.test');
    expect(brief(bytes)).toEqual({
      state: 'fires',
      text: 'SPF is not valid: the SPF record of spf-bytes.test: the record contains the byte \\x96, not UTF-8, and SPF records are 7-bit ASCII (RFC 7208 3.1)',
    });
    expect(bytes.data.record).toBe('v=spf1 a:mail.test \\x96all');
  });

  test('an include whose domain depends on the sender: cannot evaluate, with why', async () => {
    expect(brief(await spf('sender.test'))).toEqual({
      state: 'unknown',
      text: 'SPF validity depends on the sender: "include:%{l}._spf.mail.test" in the record of sender.test names a domain that depends on the sender, so what it adds is not known',
    });
  });

  test.each([
    ['two-spf.test', 'two-spf.test has 2 v=spf1 records; exactly one is allowed (RFC 7208 4.5)'],
    ['empty.test', 'empty.test has no v=spf1 record'],
    ['bad-syntax.test', 'the SPF record of bad-syntax.test: "ip4:300.1.1.1" is not an IPv4 network (RFC 7208 5.6)'],
    [
      'unknown-term.test',
      'the SPF record of unknown-term.test: "foo:bar" is not a known mechanism or modifier (RFC 7208 4.6.1)',
    ],
    [
      'too-many.test',
      'more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect): the 11th is "include:i6.spf.test" in the record of too-many.test (RFC 7208 4.6.4)',
    ],
    [
      'voids.test',
      'more than 2 void lookups (no record or NXDOMAIN): the 3rd is "a:nx3.spf.test" in the record of voids.test, nx3.spf.test has no address record (RFC 7208 4.6.4)',
    ],
    [
      'dangling.test',
      '"include:empty.test" in the record of dangling.test names empty.test, which has no v=spf1 record (RFC 7208 5.2)',
    ],
    [
      'redirect-gone.test',
      '"redirect=gone.spf.test" in the record of redirect-gone.test names gone.spf.test, which has no v=spf1 record (NXDOMAIN) (RFC 7208 6.1)',
    ],
  ])('validity of %s fires, naming the first problem', async (host, problem) => {
    expect(brief(await spf(host))).toEqual({ state: 'fires', text: `SPF is not valid: ${problem}` });
  });

  test('a target that does not exist cannot be evaluated, as for DNS Record alerts', async () => {
    expect(brief(await spf('nx.test'))).toEqual({ state: 'unknown', text: 'nx.test does not exist (NXDOMAIN)' });
  });

  test('comparisons on the one v=spf1 record; none to compare is a reason', async () => {
    expect(brief(await spf('mail.test', 'contains', 'IP4:192.0.2.0/24'))).toEqual({
      state: 'fires',
      text: 'SPF is "v=spf1 ip4:192.0.2.0/24 mx -all"; contains "IP4:192.0.2.0/24"',
    });
    expect(brief(await spf('mail.test', 'equals', 'v=spf1 -all'))).toEqual({
      state: 'quiet',
      text: 'SPF is "v=spf1 ip4:192.0.2.0/24 mx -all", not "v=spf1 -all"',
    });
    expect(brief(await spf('two-spf.test', 'contains', '-all'))).toEqual({
      state: 'unknown',
      text: 'there is no single SPF record to compare: two-spf.test has 2 v=spf1 records; exactly one is allowed (RFC 7208 4.5)',
    });
  });
});

describe('Certificate (TLS) alerts', () => {
  const expiry = (host: string, days: number, l = lookups()) =>
    evaluate(
      host,
      { type: 'Certificate (TLS)', subtype: null, filter: 'expires in (days)', filter_value: String(days) },
      l,
    );
  const date = (daysFromNow: number) => new Date(Date.now() + daysFromNow * 86_400_000).toISOString().slice(0, 10);

  test('days until notAfter against the threshold, and the renewal point of each lifetime', async () => {
    const c47 = await expiry('c47.test', 21);
    expect(brief(c47)).toEqual({
      state: 'fires',
      text: `expires ${date(7.5)}, in 7 days; threshold 21 [does not verify: its chain ends in a root this machine does not trust (SELF_SIGNED_CERT_IN_CHAIN)]`,
    });
    expect(c47.data).toMatchObject({
      subject: 'CN=c47.test',
      lifetime_days: 47,
      self_signed: false,
      name_matches: true,
    });
    expect(c47.warning).toBe(
      'threshold 21 fires before the renewal of this 47-day certificate at a third of its lifetime left (15.7 days): it fires every cycle; 15 or less fires only when renewal fails',
    );
    expect(c47.suggestedDays).toBe(15);
    const c100 = await expiry('c100.test', 21);
    expect(c100.state).toBe('quiet');
    expect(c100.observed).toMatch(new RegExp(`^expires ${date(90.5)}, in 90 days; threshold 21`));
    expect(c100.warning).toBeNull();
    expect((await expiry('c100.test', 34)).suggestedDays).toBe(33);
    const c200 = await expiry('c200.test', 30);
    expect([c200.state, c200.observed.slice(0, 40), c200.warning]).toEqual([
      'quiet',
      `expires ${date(50.5)}, in 50 days; threshold 30`.slice(0, 40),
      null,
    ]);
    expect((await expiry('c200.test', 67)).suggestedDays).toBe(66);
    const c398 = await expiry('c398.test', 14);
    expect([c398.state, c398.observed.startsWith(`expires ${date(10.5)}, in 10 days; threshold 14`)]).toEqual([
      'fires',
      true,
    ]);
    expect(c398.data.lifetime_days).toBe(398);
    expect((await expiry('c398.test', 140)).suggestedDays).toBe(132);
    expect([47, 100, 200, 398].map(largestQuietThreshold)).toEqual([15, 33, 66, 132]);
  });

  test('expired, self-signed, wildcard, a name the certificate does not cover', async () => {
    expect((await expiry('expired.test', 7)).observed).toMatch(
      new RegExp(`^expired ${date(-10.5)}, 10 days ago; threshold 7`),
    );
    expect((await expiry('expired.test', 7)).state).toBe('fires');
    const self = await expiry('selfsigned.test', 30);
    expect(self.state).toBe('quiet');
    expect(self.observed).toMatch(/; threshold 30 \[self-signed\]$/);
    expect(self.data).toMatchObject({ self_signed: true, verification_error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const wild = await evaluate('shop.wild.test', {
      type: 'Certificate (TLS)',
      subtype: null,
      filter: 'subject',
      filter_value: 'CN=*.wild.test',
    });
    expect(brief(wild)).toEqual({
      state: 'fires',
      text: 'subject is "CN=*.wild.test", which matches "CN=*.wild.test" [does not verify: its chain ends in a root this machine does not trust (SELF_SIGNED_CERT_IN_CHAIN)]',
    });
    expect(wild.data).toMatchObject({ alt_names: ['*.wild.test'], name_matches: true });
    // other.test gets the server's default certificate (c47.test's).
    const other = await evaluate('other.test', {
      type: 'Certificate (TLS)',
      subtype: null,
      filter: 'subject',
      filter_value: 'other.test',
    });
    expect(brief(other)).toEqual({
      state: 'quiet',
      text: 'subject is "CN=c47.test", not "other.test" [does not cover other.test]',
    });
    const org = await evaluate('c100.test', {
      type: 'Certificate (TLS)',
      subtype: null,
      filter: 'subject',
      filter_value: 'o = example org',
    });
    expect(org.state).toBe('fires');
  });

  test('a host with only an AAAA record: its certificate is read over IPv6', async () => {
    const v6 = await expiry('v6only.test', 30);
    expect(v6.state).toBe('quiet');
    expect(v6.observed).toMatch(new RegExp(`^expires ${date(59.5)}, in 59 days; threshold 30`));
    expect(tls.handshakes).toContain('v6only.test');
    expect(brief(await expiry('empty.test', 30))).toEqual({
      state: 'unknown',
      text: 'empty.test has no A or AAAA record to connect to',
    });
  });

  test('a handshake that stalls, a refused connection, a host without an address: reasons, in bounded time', async () => {
    const started = Date.now();
    const l = lookups({ timeoutMs: 400 });
    const [stall, refuse, nx] = await Promise.all([
      expiry('stall.test', 21, l),
      expiry('refuse.test', 21, l),
      expiry('nx.test', 21, l),
    ]);
    expect(brief(stall)).toEqual({
      state: 'unknown',
      text: `stall.test (${STALLS}:${tls.port}) did not complete a TLS handshake within 400 ms`,
    });
    expect(brief(refuse)).toEqual({
      state: 'unknown',
      text: `refuse.test (${REFUSES}:${tls.port}) refused the connection (nothing listens on port ${tls.port})`,
    });
    expect(brief(nx)).toEqual({ state: 'unknown', text: 'nx.test does not exist (NXDOMAIN)' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('the SC-081v3 schedule', () => {
    expect(
      ['2026-03-14', '2026-03-15', '2027-03-14', '2027-03-15', '2029-03-15'].map((d) =>
        maxLifetimeDays(new Date(`${d}T12:00:00Z`)),
      ),
    ).toEqual([398, 200, 200, 100, 47]);
  });
});

describe('lookups', () => {
  test('each host and kind is asked once per run, however many alerts need it', async () => {
    const l = lookups();
    const before = dns.queries.length;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        evaluate('mail.test', { subtype: 'MX', filter: 'contains', filter_value: `mx${i}` }, l),
      ),
    );
    expect(dns.queries.slice(before).sort()).toEqual(['CNAME mail.test', 'MX mail.test']);
    expect(l.sent.dns).toBe(2);
  });

  test('a resolver that refuses (nothing listens): a clear reason for every alert, quickly', async () => {
    // UDP to a port where nothing listens: the ICMP answer is a refusal.
    const l = lookups({ resolver: `127.0.0.1:${tls.port}`, timeoutMs: 200 });
    const started = Date.now();
    const results = await Promise.all(['a.test', 'b.test'].map((h) => evaluate(h, {}, l)));
    expect(results.map(brief)).toEqual(
      Array(2).fill({
        state: 'unknown',
        text: `127.0.0.1:${tls.port} refused the connection; check --resolver or the network`,
      }),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a resolver that never answers: after 3 timeouts in a row no more lookups are sent', async () => {
    const silent = await startDnsServer({}, { silent: true });
    try {
      const l = lookups({ resolver: silent.address, timeoutMs: 200, concurrency: 2 });
      const started = Date.now();
      const hosts = Array.from({ length: 50 }, (_, i) => `h${i}.test`);
      const results = await Promise.all(hosts.map((h) => evaluate(h, {}, l)));
      expect(results[0].reason).toBe(`${silent.address} did not answer for h0.test within 200 ms`);
      expect(results[49].reason).toBe(
        `${silent.address} did not answer 3 lookups in a row (200 ms each), so no more were sent; check the network or give --resolver`,
      );
      // At most the lookups in flight when the third timed out were sent.
      expect(l.sent.dns).toBeLessThanOrEqual(4);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });
});
