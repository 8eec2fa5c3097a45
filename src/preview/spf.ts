/**
 * SPF validity as RFC 7208 defines it, judged without a sender. Pure: DNS comes through the
 * `SpfResolver` it is given, so it is tested without the network.
 *
 * The record is parsed whole first (4.6: a syntax error anywhere is a permerror, mechanisms
 * after `all` included), then walked as an evaluation for a sender that no term matches would
 * walk it: every mechanism up to `all` (5.1: what follows is never reached), every include, and
 * the redirect when there is no `all` (6.1). That sender makes the most lookups, so it is the
 * one that meets the limits of 4.6.4: 10 DNS-querying terms, 2 void lookups, 10 MX names.
 *
 * Without a sender some things cannot be known, and are read as follows:
 * - a macro that needs the sender (`%{s}`, `%{l}`, `%{o}`, `%{i}`, `%{p}`, `%{h}`, `%{v}`)
 *   leaves its term's target unknown: the term counts, nothing is looked up; an `include` or
 *   `redirect` so written leaves validity unknown ("cannot evaluate") unless an error is found;
 *   `%{d}` is the domain being checked, so it is expanded;
 * - `ptr` needs the sender's address: it counts, nothing is looked up;
 * - an `a` term queries A for an IPv4 sender and AAAA for an IPv6 one, so void lookups are
 *   counted for each kind of sender, and the record is not valid when either goes over.
 */
import { showBytes } from './dns-text';

export const MAX_DNS_TERMS = 10;
export const MAX_VOID_LOOKUPS = 2;
export const MAX_MX_NAMES = 10;

/**
 * One DNS answer. A TXT record's strings are joined (3.3) and decoded as UTF-8; a byte that is
 * not UTF-8 is kept as U+DC80–U+DCFF (see `decodeCharacterStrings`), which is not ASCII, so such
 * a record is refused like any other non-ASCII one (3.1).
 */
export type SpfAnswer =
  /**
   * `unsent`: the resolver cannot put this name in a query (a domain-spec may hold ":" or "/",
   * which some resolvers refuse): no record, and no void lookup, since nothing was asked.
   */
  | { ok: true; records: string[]; unsent?: boolean }
  /**
   * `nxdomain`: the name does not exist (with an empty answer, a "void lookup"); otherwise a
   * timeout or SERVFAIL, a temperror.
   */
  | { ok: false; nxdomain: boolean; reason: string };

export interface SpfResolver {
  txt(name: string): Promise<SpfAnswer>;
  a(name: string): Promise<SpfAnswer>;
  aaaa(name: string): Promise<SpfAnswer>;
  /** The exchanges' names. */
  mx(name: string): Promise<SpfAnswer>;
}

/** Void lookups counted for an IPv4 and for an IPv6 sender. */
export interface VoidCounts {
  ipv4: number;
  ipv6: number;
}

interface Counts {
  dnsTerms: number;
  voidLookups: VoidCounts;
}

export type SpfVerdict =
  | (Counts & { result: 'valid' })
  /** `reason` names the record and the term; `section` the rule of RFC 7208 it breaks. */
  | (Counts & { result: 'permerror'; reason: string; section: string })
  | { result: 'temperror'; reason: string }
  /** What was checked holds, but a term's target depends on the sender. */
  | (Counts & { result: 'cannot evaluate'; reason: string });

/** `the record …: "a:museum" … (RFC 7208 7.1)`. */
export const permerrorText = (v: { reason: string; section: string }): string => `${v.reason} (RFC 7208 ${v.section})`;

const SPF_PREFIX = /^v=spf1(?: |$)/i;

/** The `v=spf1` records among a name's TXT records (4.5). */
export function spfRecords(txt: readonly string[]): string[] {
  return txt.filter((t) => SPF_PREFIX.test(t));
}

// ---- Syntax (sections 4.6.1, 5, 6, 7.1 and 12) ----

/** A permanent error found while reading the record's syntax; thrown to leave the nested parse. */
class SyntaxProblem extends Error {
  constructor(
    readonly reason: string,
    readonly section: string,
  ) {
    super(reason);
    this.name = 'SyntaxProblem';
  }
}

type MacroToken =
  | { literal: string }
  /** `%{d2r.}`: letter as written (upper case: URL-escaped), right-hand parts, reversal, delimiters. */
  | { letter: string; parts: number | null; reverse: boolean; delimiters: string }
  /** `%%`, `%_`, `%-`. */
  | { escape: '%' | ' ' | '%20' };

/** Letters that only the explanation text may use (7.3): never a domain-spec or a modifier. */
const EXP_ONLY_LETTERS = new Set(['c', 'r', 't']);
const LETTERS = new Set(['s', 'l', 'o', 'd', 'i', 'p', 'h', 'v']);
/** The letters whose value is known without a sender. */
const KNOWN_LETTERS = new Set(['d']);

/** macro-string (7.1): visible ASCII but `%`, and macros; `term` names it in the problem. */
function parseMacroString(s: string, term: string): MacroToken[] {
  const tokens: MacroToken[] = [];
  let literal = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const code = ch.charCodeAt(0);
    if (ch !== '%') {
      // Non-ASCII is refused for the whole record (3.1) before a term is read.
      if (code < 0x21 || code > 0x7e)
        throw new SyntaxProblem(`"${JSON.stringify(term).slice(1, -1)}" contains a control character`, '7.1');
      literal += ch;
      continue;
    }
    if (literal) tokens.push({ literal });
    literal = '';
    const next = s[i + 1];
    if (next === '%' || next === '_' || next === '-') {
      tokens.push({ escape: next === '%' ? '%' : next === '_' ? ' ' : '%20' });
      i++;
      continue;
    }
    const macro = next === '{' ? /^%\{([A-Za-z])(\d*)(r?)([.\-+,/_=]*)\}/i.exec(s.slice(i)) : null;
    if (!macro)
      throw new SyntaxProblem(
        `"${term}" has a "%" that is not followed by "{", "%", "_" or "-" with a valid macro (${JSON.stringify(s.slice(i, i + 6))})`,
        '7.1',
      );
    const letter = macro[1];
    const lower = letter.toLowerCase();
    if (EXP_ONLY_LETTERS.has(lower))
      throw new SyntaxProblem(`"${term}" uses %{${letter}}, a macro letter allowed only in explanation text`, '7.3');
    if (!LETTERS.has(lower)) throw new SyntaxProblem(`"${term}" uses %{${letter}}, which is not a macro letter`, '7.3');
    if (macro[2] !== '' && Number(macro[2]) === 0)
      throw new SyntaxProblem(
        `"${term}" asks for 0 right-hand parts in ${macro[0]}; the number must be nonzero`,
        '7.3',
      );
    tokens.push({
      letter,
      parts: macro[2] === '' ? null : Number(macro[2]),
      reverse: macro[3] !== '',
      delimiters: macro[4] || '.',
    });
    i += macro[0].length - 1;
  }
  if (literal) tokens.push({ literal });
  return tokens;
}

/** toplabel (7.1): letters, digits and inner hyphens, not all digits. */
const TOPLABEL = /^(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;

/** Why `name` (expanded, or the literal end of a domain-spec) does not end in "." toplabel; null if it does. */
function domainEndProblem(end: string): string | null {
  const name = end.endsWith('.') ? end.slice(0, -1) : end;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return `ends in ${JSON.stringify(name)}, a single label: a domain must have a "." and a top label`;
  const top = name.slice(dot + 1);
  if (TOPLABEL.test(top)) return null;
  if (top === '') return 'ends in an empty label';
  if (/^\d+$/.test(top)) return `ends in the all-numeric label ${JSON.stringify(top)}`;
  if (top.startsWith('-') || top.endsWith('-'))
    return `ends in ${JSON.stringify(top)}, a label that starts or ends with a hyphen`;
  return `ends in ${JSON.stringify(top)}, which is not a top label (letters, digits and inner hyphens)`;
}

/** domain-spec = macro-string domain-end (7.1). */
function parseDomainSpec(spec: string, term: string, section: string): MacroToken[] {
  if (spec === '') throw new SyntaxProblem(`"${term}" has an empty domain`, section);
  const tokens = parseMacroString(spec, term);
  const last = tokens[tokens.length - 1];
  if ('literal' in last) {
    const problem = domainEndProblem(last.literal);
    if (problem) throw new SyntaxProblem(`the domain of "${term}" ${problem}`, '7.1');
  }
  return tokens;
}

type MechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

interface Mechanism {
  text: string;
  name: MechanismName;
  /** The domain-spec, when written. */
  domain: MacroToken[] | null;
}

interface ParsedRecord {
  mechanisms: Mechanism[];
  redirect: { text: string; domain: MacroToken[] } | null;
}

const QNUM = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const IP4_NETWORK = new RegExp(`^${QNUM}(?:\\.${QNUM}){3}$`);
/** An ip6-network as RFC 4291 2.2 writes it (an embedded IPv4 address allowed). */
function isIp6Network(s: string): boolean {
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4 && !IP4_NETWORK.test(v4[2])) return false;
  const body = v4 ? `${v4[1]}0:0` : s;
  if (!/^[0-9a-f:]+$/i.test(body) || /:::/.test(body)) return false;
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const parts = halves.flatMap(groups);
  if (parts.some((p) => !/^[0-9a-f]{1,4}$/i.test(p))) return false;
  return halves.length === 2 ? parts.length <= 7 : parts.length === 8;
}
/** ip4-cidr-length and ip6-cidr-length digits: no leading zero. */
const CIDR_DIGITS = '(?:0|[1-9]\\d*)';
const DUAL_CIDR = new RegExp(`^(?:/(${CIDR_DIGITS}))?(?://(${CIDR_DIGITS}))?$`);
const DOMAIN_THEN_CIDR = new RegExp(`^(.*?)((?:/${CIDR_DIGITS})?(?://${CIDR_DIGITS})?)$`, 's');

function checkDualCidr(cidr: string, term: string, section: string): void {
  const c = DUAL_CIDR.exec(cidr);
  if (!c) throw new SyntaxProblem(`"${term}" has a malformed CIDR length ${JSON.stringify(cidr)}`, section);
  if (c[1] !== undefined && Number(c[1]) > 32)
    throw new SyntaxProblem(`"${term}" has an IPv4 CIDR length of ${c[1]}, more than 32`, section);
  if (c[2] !== undefined && Number(c[2]) > 128)
    throw new SyntaxProblem(`"${term}" has an IPv6 CIDR length of ${c[2]}, more than 128`, section);
}

const MECHANISM_SECTION: Record<MechanismName, string> = {
  all: '5.1',
  include: '5.2',
  a: '5.3',
  mx: '5.4',
  ptr: '5.5',
  ip4: '5.6',
  ip6: '5.6',
  exists: '5.7',
};

function parseMechanism(text: string): Mechanism {
  const body = /^[+\-?~]/.test(text) ? text.slice(1) : text;
  const split = /^([^:/]*)(.*)$/s.exec(body)!;
  const name = split[1].toLowerCase() as MechanismName;
  const rest = split[2];
  // Own keys only: "constructor" is no mechanism.
  const section = Object.hasOwn(MECHANISM_SECTION, name) ? MECHANISM_SECTION[name] : undefined;
  if (!section) {
    const shown = /^[\x20-\x7e]*$/.test(text) ? text : JSON.stringify(text).slice(1, -1);
    throw new SyntaxProblem(`"${shown}" is not a known mechanism or modifier`, '4.6.1');
  }
  const needsDomain = () => {
    if (!rest.startsWith(':')) throw new SyntaxProblem(`"${text}" needs ":" and a domain`, section);
    return parseDomainSpec(rest.slice(1), text, section);
  };
  switch (name) {
    case 'all':
      if (rest !== '') throw new SyntaxProblem(`"${text}": "all" takes no argument`, section);
      return { text, name, domain: null };
    case 'include':
    case 'exists':
      return { text, name, domain: needsDomain() };
    case 'ptr':
      return { text, name, domain: rest === '' ? null : needsDomain() };
    case 'a':
    case 'mx': {
      if (!rest.startsWith(':')) {
        checkDualCidr(rest, text, section);
        return { text, name, domain: null };
      }
      // Only a trailing "/digits" is a CIDR length: a domain-spec may hold ":" and "/".
      const [, spec, cidr] = DOMAIN_THEN_CIDR.exec(rest.slice(1))!;
      if (/\/\d+$/.test(spec)) throw new SyntaxProblem(`"${text}" has a malformed CIDR length`, section);
      checkDualCidr(cidr, text, section);
      return { text, name, domain: parseDomainSpec(spec, text, section) };
    }
    case 'ip4': {
      const m = new RegExp(`^:([^/]*)(?:/(${CIDR_DIGITS}))?$`).exec(rest);
      if (!m || !IP4_NETWORK.test(m[1])) throw new SyntaxProblem(`"${text}" is not an IPv4 network`, section);
      if (m[2] !== undefined && Number(m[2]) > 32)
        throw new SyntaxProblem(`"${text}" has a CIDR length of ${m[2]}, more than 32`, section);
      return { text, name, domain: null };
    }
    case 'ip6': {
      const m = new RegExp(`^:(.*?)(?:/(${CIDR_DIGITS}))?$`, 's').exec(rest);
      if (!m || !isIp6Network(m[1])) throw new SyntaxProblem(`"${text}" is not an IPv6 network`, section);
      if (m[2] !== undefined && Number(m[2]) > 128)
        throw new SyntaxProblem(`"${text}" has a CIDR length of ${m[2]}, more than 128`, section);
      return { text, name, domain: null };
    }
  }
}

const MODIFIER = /^([A-Za-z][A-Za-z0-9_.-]*)=(.*)$/s;

/** The whole record's syntax (4.6), or the first problem. */
function parseRecord(record: string): ParsedRecord {
  const mechanisms: Mechanism[] = [];
  let redirect: ParsedRecord['redirect'] = null;
  let exp = false;
  // An SPF record is 7-bit ASCII (3.1); undecodable bytes are U+DC80–U+DCFF, so caught here too.
  const nonAscii = /[\u{80}-\u{10ffff}]/u.exec(record)?.[0];
  if (nonAscii) {
    const shown = showBytes(nonAscii);
    const what =
      shown !== nonAscii
        ? `the byte ${shown}, not UTF-8`
        : `U+${nonAscii.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new SyntaxProblem(`the record contains ${what}, and SPF records are 7-bit ASCII`, '3.1');
  }
  // Terms are separated by spaces only (4.6.1): any other byte belongs to a term.
  for (const text of record.split(' ').slice(1)) {
    if (text === '') continue;
    const modifier = MODIFIER.exec(text);
    if (!modifier) {
      mechanisms.push(parseMechanism(text));
      continue;
    }
    const name = modifier[1].toLowerCase();
    const value = modifier[2];
    if (name === 'redirect' || name === 'exp') {
      if ((name === 'redirect' && redirect) || (name === 'exp' && exp))
        throw new SyntaxProblem(`"${name}=" appears more than once`, '6');
      const domain = parseDomainSpec(value, text, name === 'redirect' ? '6.1' : '6.2');
      if (name === 'redirect') redirect = { text, domain };
      else exp = true;
    } else {
      // unknown-modifier = name "=" macro-string: ignored, but well-formed (6).
      parseMacroString(value, text);
    }
  }
  return { mechanisms, redirect };
}

/** Why a record is not well-formed (with the section), or null: syntax only, no lookup. */
export function spfSyntaxProblem(record: string): { reason: string; section: string } | null {
  if (!SPF_PREFIX.test(record)) return { reason: 'the record does not start with "v=spf1"', section: '4.5' };
  try {
    parseRecord(record);
    return null;
  } catch (e) {
    if (e instanceof SyntaxProblem) return { reason: e.reason, section: e.section };
    throw e;
  }
}

// ---- Expansion (7.3, 7.4) ----

/** RFC 3986 unreserved characters stay; upper-case macros escape the rest (7.3). */
const urlEscape = (s: string) =>
  Array.from(new TextEncoder().encode(s))
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** The target name of a domain-spec, or the sender macro it depends on. */
function expand(tokens: MacroToken[], domain: string): { name: string } | { needs: string } {
  let out = '';
  for (const t of tokens) {
    if ('literal' in t) out += t.literal;
    else if ('escape' in t) out += t.escape;
    else {
      if (!KNOWN_LETTERS.has(t.letter.toLowerCase())) return { needs: `%{${t.letter}}` };
      let parts = domain.split(new RegExp(`[${t.delimiters.replace(/[-\\\]^]/g, '\\$&')}]`));
      if (t.reverse) parts = parts.reverse();
      if (t.parts !== null) parts = parts.slice(-t.parts);
      const value = parts.join('.');
      out += t.letter === t.letter.toUpperCase() ? urlEscape(value) : value;
    }
  }
  let name = out.replace(/\.$/, '');
  // Longer than 253 characters: left-hand labels are dropped (7.3).
  while (name.length > 253 && name.includes('.')) name = name.slice(name.indexOf('.') + 1);
  return { name: name.toLowerCase() };
}

// ---- The walk ----

const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

type Stop = { result: 'permerror'; reason: string; section: string } | { result: 'temperror'; reason: string };

class Walk {
  dnsTerms = 0;
  voidLookups: VoidCounts = { ipv4: 0, ipv6: 0 };
  /** The first include or redirect whose target depends on the sender. */
  unknownTarget: string | null = null;
  constructor(readonly resolver: SpfResolver) {}

  private counts(): Counts {
    return { dnsTerms: this.dnsTerms, voidLookups: { ...this.voidLookups } };
  }

  /** The verdict for a record of `domain`. */
  async verdict(domain: string, record: string): Promise<SpfVerdict> {
    const stop = await this.record(domain, record);
    if (stop?.result === 'temperror') return stop;
    if (stop) return { ...stop, ...this.counts() };
    if (this.unknownTarget)
      return {
        result: 'cannot evaluate',
        reason: `${this.unknownTarget} names a domain that depends on the sender, so what it adds is not known`,
        ...this.counts(),
      };
    return { result: 'valid', ...this.counts() };
  }

  private async record(domain: string, record: string): Promise<Stop | null> {
    let parsed: ParsedRecord;
    try {
      parsed = parseRecord(record);
    } catch (e) {
      if (!(e instanceof SyntaxProblem)) throw e;
      return { result: 'permerror', reason: `the SPF record of ${domain}: ${e.reason}`, section: e.section };
    }
    for (const m of parsed.mechanisms) {
      // `all` always matches: nothing after it is evaluated (5.1), and redirect is ignored (6.1).
      if (m.name === 'all') return null;
      const stop = await this.mechanism(domain, m);
      if (stop) return stop;
    }
    if (!parsed.redirect) return null;
    const { text, domain: spec } = parsed.redirect;
    const over = this.countTerm(domain, text);
    if (over) return over;
    return this.follow(domain, text, spec, '6.1');
  }

  private countTerm(domain: string, text: string): Stop | null {
    this.dnsTerms++;
    return this.dnsTerms > MAX_DNS_TERMS
      ? {
          result: 'permerror',
          reason: `more than ${MAX_DNS_TERMS} DNS-querying terms (include, a, mx, ptr, exists, redirect): the ${ordinal(this.dnsTerms)} is "${text}" in the record of ${domain}`,
          section: '4.6.4',
        }
      : null;
  }

  private countVoid(domain: string, text: string, what: string, families: Array<keyof VoidCounts>): Stop | null {
    for (const f of families) this.voidLookups[f]++;
    const over = families.find((f) => this.voidLookups[f] > MAX_VOID_LOOKUPS);
    if (!over) return null;
    const sender = families.length === 2 ? '' : ` for an ${over === 'ipv4' ? 'IPv4' : 'IPv6'} sender`;
    return {
      result: 'permerror',
      reason: `more than ${MAX_VOID_LOOKUPS} void lookups (no record or NXDOMAIN)${sender}: the ${ordinal(this.voidLookups[over])} is "${text}" in the record of ${domain}, ${what}`,
      section: '4.6.4',
    };
  }

  /** The target of a term: its domain-spec expanded, or the domain itself; null when it needs the sender. */
  private target(domain: string, m: { domain: MacroToken[] | null; text: string }): string | Stop | null {
    if (!m.domain) return domain;
    const e = expand(m.domain, domain);
    if ('needs' in e) return null;
    // A domain-spec ends in a top label after expansion too (7.1).
    const problem = domainEndProblem(e.name);
    if (problem)
      return {
        result: 'permerror',
        reason: `the domain of "${m.text}" in the record of ${domain} expands to ${JSON.stringify(e.name)}, which ${problem}`,
        section: '7.1',
      };
    return e.name;
  }

  private async mechanism(domain: string, m: Mechanism): Promise<Stop | null> {
    if (m.name === 'ip4' || m.name === 'ip6') return null;
    const over = this.countTerm(domain, m.text);
    if (over) return over;
    // ptr needs the sender's address (5.5); it only counts.
    if (m.name === 'ptr') return null;
    if (m.name === 'include') return this.follow(domain, m.text, m.domain!, '5.2');
    const target = this.target(domain, m);
    if (target === null) return null;
    if (typeof target !== 'string') return target;
    const temp = (a: SpfAnswer): Stop | null =>
      !a.ok && !a.nxdomain ? { result: 'temperror', reason: a.reason } : null;
    const isVoid = (a: SpfAnswer) => (a.ok ? a.records.length === 0 && !a.unsent : true);
    if (m.name === 'mx') {
      const mx = await this.resolver.mx(target);
      const failed = temp(mx);
      if (failed) return failed;
      if (isVoid(mx)) return this.countVoid(domain, m.text, `${target} has no MX record`, ['ipv4', 'ipv6']);
      const n = mx.ok ? mx.records.length : 0;
      if (n > MAX_MX_NAMES)
        return {
          result: 'permerror',
          reason: `"${m.text}" in the record of ${domain}: ${target} has ${n} MX records, more than ${MAX_MX_NAMES}`,
          section: '4.6.4',
        };
      return null;
    }
    if (m.name === 'exists') {
      // exists always queries A, whatever the sender (5.7).
      const a = await this.resolver.a(target);
      return (
        temp(a) ?? (isVoid(a) ? this.countVoid(domain, m.text, `${target} has no A record`, ['ipv4', 'ipv6']) : null)
      );
    }
    // a: A for an IPv4 sender, AAAA for an IPv6 one (5.3).
    const [a, aaaa] = await Promise.all([this.resolver.a(target), this.resolver.aaaa(target)]);
    const failed = temp(a) ?? temp(aaaa);
    if (failed) return failed;
    const families: Array<keyof VoidCounts> = [];
    if (isVoid(a)) families.push('ipv4');
    if (isVoid(aaaa)) families.push('ipv6');
    if (!families.length) return null;
    const what =
      families.length === 2
        ? `${target} has no address record`
        : `${target} has no ${families[0] === 'ipv4' ? 'A' : 'AAAA'} record`;
    return this.countVoid(domain, m.text, what, families);
  }

  /** include (5.2) and redirect (6.1): the target's one SPF record, walked in turn. */
  private async follow(domain: string, text: string, spec: MacroToken[], section: string): Promise<Stop | null> {
    const target = this.target(domain, { domain: spec, text });
    if (target === null) {
      this.unknownTarget ??= `"${text}" in the record of ${domain}`;
      return null;
    }
    if (typeof target !== 'string') return target;
    const answer = await this.resolver.txt(target);
    if (!answer.ok && !answer.nxdomain) return { result: 'temperror', reason: answer.reason };
    const records = answer.ok ? spfRecords(answer.records) : [];
    if (records.length === 0)
      return {
        result: 'permerror',
        reason: `"${text}" in the record of ${domain} names ${target}, which has no v=spf1 record${answer.ok ? '' : ' (NXDOMAIN)'}`,
        section,
      };
    if (records.length > 1)
      return {
        result: 'permerror',
        reason: `"${text}" in the record of ${domain} names ${target}, which has ${records.length} v=spf1 records`,
        section: '4.5',
      };
    return this.record(target, records[0]);
  }
}

/** The validity of `record`, published at `domain` (ASCII), with `resolver` for its lookups. */
export function checkSpfRecord(domain: string, record: string, resolver: SpfResolver): Promise<SpfVerdict> {
  return new Walk(resolver).verdict(domain.toLowerCase().replace(/\.$/, ''), record);
}

export type SpfOutcome =
  /** The one record and its verdict. */
  | { found: 'one'; record: string; verdict: SpfVerdict }
  /** No v=spf1 record ("none", 4.5), or two or more (a permerror, 4.5). */
  | { found: 'none' | 'several'; records: string[]; problem: string }
  /** The TXT lookup of the domain itself failed, or the domain does not exist. */
  | { found: 'failed'; reason: string; nxdomain: boolean };

/** The SPF record of `host` (ASCII) and its verdict. */
export async function checkSpf(host: string, resolver: SpfResolver): Promise<SpfOutcome> {
  const txt = await resolver.txt(host);
  if (!txt.ok) return { found: 'failed', reason: txt.reason, nxdomain: txt.nxdomain };
  const own = spfRecords(txt.records);
  if (own.length === 0) return { found: 'none', records: own, problem: `${host} has no v=spf1 record` };
  if (own.length > 1)
    return {
      found: 'several',
      records: own,
      problem: permerrorText({
        reason: `${host} has ${own.length} v=spf1 records; exactly one is allowed`,
        section: '4.5',
      }),
    };
  return { found: 'one', record: own[0], verdict: await checkSpfRecord(host, own[0], resolver) };
}
