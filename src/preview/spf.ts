/**
 * SPF validity as RFC 7208 defines it, checked without a sender: the record is walked as an
 * evaluation that never matches would walk it (every term, every include, the redirect), which
 * is the case that meets the limits. The first problem found is named.
 *
 * - exactly one `v=spf1` record (4.5: none is "none", two or more are a permerror);
 * - every term well-formed (4.6.1, 5, 6): known mechanisms with their arguments, `redirect`
 *   and `exp` at most once;
 * - at most 10 terms that query DNS (`include`, `a`, `mx`, `ptr`, `exists`, `redirect`),
 *   counted over the whole walk, includes and redirects included (4.6.4);
 * - at most 2 void lookups, answers with no record or NXDOMAIN (4.6.4);
 * - at most 10 MX records for an `mx` term (4.6.4);
 * - every `include` and `redirect` names a domain that has an SPF record (5.2, 6.1).
 */
import { isIP } from 'node:net';
import type { DnsAnswer, Lookups } from './lookups';

export const MAX_DNS_TERMS = 10;
export const MAX_VOID_LOOKUPS = 2;
export const MAX_MX_RECORDS = 10;

/** `11th`, `3rd`. */
const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

export type SpfOutcome =
  /** The records were read; `problem` is null for a valid record. */
  | { ok: true; record: string | null; problem: string | null; dnsTerms: number; voidLookups: number }
  /** A lookup failed (timeout, SERVFAIL: a temperror): validity is unknown. */
  | { ok: false; reason: string };

const SPF_PREFIX = /^v=spf1(?: |$)/i;

/** The `v=spf1` records among a name's TXT records. */
export function spfRecords(txt: readonly string[]): string[] {
  return txt.filter((t) => SPF_PREFIX.test(t));
}

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
const QUERYING = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
const MODIFIER = /^([a-z][a-z0-9._-]*)=(.*)$/i;
const DOMAIN_SPEC = /^[\x21-\x7e]+$/;
const CIDR4 = /^\/(\d{1,2})$/;
const DUAL_CIDR = /^(?:\/(\d{1,2}))?(?:\/\/(\d{1,3}))?$/;

interface Term {
  text: string;
  kind: 'mechanism' | 'modifier';
  name: string;
  /** The domain-spec, where the term has one. */
  domain: string | null;
}

/** The terms of one record, or the first syntax problem. */
function parseTerms(record: string): { terms: Term[] } | { problem: string } {
  const terms: Term[] = [];
  const seen = new Set<string>();
  for (const text of record.split(' ').slice(1)) {
    if (text === '') continue;
    const modifier = MODIFIER.exec(text);
    if (modifier) {
      const name = modifier[1].toLowerCase();
      const value = modifier[2];
      if ((name === 'redirect' || name === 'exp') && seen.has(name))
        return { problem: `"${name}=" appears twice (at most once, RFC 7208 6)` };
      seen.add(name);
      if ((name === 'redirect' || name === 'exp') && !DOMAIN_SPEC.test(value))
        return { problem: `"${text}" has no valid domain` };
      terms.push({ text, kind: 'modifier', name, domain: name === 'redirect' ? value : null });
      continue;
    }
    const body = /^[+\-~?]/.test(text) ? text.slice(1) : text;
    const m = /^([a-z0-9]+)(:[^/]*)?(\/.*)?$/i.exec(body);
    const name = m?.[1].toLowerCase() ?? '';
    if (!m || !MECHANISMS.has(name)) return { problem: `"${text}" is not a known mechanism or modifier` };
    const arg = m[2]?.slice(1);
    const cidr = m[3] ?? '';
    const bad = () => ({ problem: `"${text}" is malformed` });
    switch (name) {
      case 'all':
        if (arg !== undefined || cidr) return bad();
        break;
      case 'include':
      case 'exists':
        if (!arg || cidr || !DOMAIN_SPEC.test(arg)) return { problem: `"${text}" needs a domain` };
        break;
      case 'ptr':
        if (cidr || (arg !== undefined && !DOMAIN_SPEC.test(arg))) return bad();
        break;
      case 'a':
      case 'mx': {
        if (arg !== undefined && !DOMAIN_SPEC.test(arg)) return bad();
        const c = DUAL_CIDR.exec(cidr);
        if (!c || Number(c[1] ?? 0) > 32 || Number(c[2] ?? 0) > 128) return bad();
        break;
      }
      case 'ip4': {
        const c = cidr ? CIDR4.exec(cidr) : null;
        if (!arg || isIP(arg) !== 4 || (cidr && (!c || Number(c[1]) > 32)))
          return { problem: `"${text}" is not an IPv4 network` };
        break;
      }
      case 'ip6': {
        const c = cidr ? /^\/(\d{1,3})$/.exec(cidr) : null;
        // ip6 addresses contain colons: take everything after "ip6:" up to the prefix length.
        const address = body.slice(body.indexOf(':') + 1).replace(/\/\d+$/, '');
        if (isIP(address) !== 6 || (cidr && (!c || Number(c[1]) > 128)))
          return { problem: `"${text}" is not an IPv6 network` };
        break;
      }
    }
    terms.push({ text, kind: 'mechanism', name, domain: name === 'ip6' ? null : (arg ?? null) });
  }
  return { terms };
}

/** `has no record` for a void answer, the failure for one that failed, null for records. */
function voidOrFailure(answer: DnsAnswer): 'void' | { reason: string } | null {
  if (answer.ok) return answer.records.length ? null : 'void';
  return answer.nxdomain ? 'void' : { reason: answer.reason };
}

/** Checks the SPF record of `host` (ASCII). */
export async function checkSpf(host: string, lookups: Lookups): Promise<SpfOutcome> {
  const txt = await lookups.dns(host, 'TXT');
  // A target that does not exist is not evaluated, as for DNS Record alerts (docs/architecture.md).
  if (!txt.ok) return { ok: false, reason: txt.reason };
  const own = txt.ok ? spfRecords(txt.records) : [];
  const state = { dnsTerms: 0, voidLookups: 0 };
  const done = (problem: string | null) => ({
    ok: true as const,
    record: own.length === 1 ? own[0] : null,
    problem,
    dnsTerms: state.dnsTerms,
    voidLookups: state.voidLookups,
  });
  if (own.length === 0) return done(`${host} has no v=spf1 record`);
  if (own.length > 1) return done(`${host} has ${own.length} v=spf1 records; exactly one is allowed (RFC 7208 4.5)`);

  /** Walks one record; returns the first problem, or a lookup failure. */
  const walk = async (domain: string, record: string, depth: number): Promise<string | { reason: string } | null> => {
    const parsed = parseTerms(record);
    if ('problem' in parsed) return `the SPF record of ${domain}: ${parsed.problem}`;
    const hasAll = parsed.terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
    for (const term of parsed.terms) {
      const querying = term.kind === 'mechanism' ? QUERYING.has(term.name) : term.name === 'redirect' && !hasAll;
      if (!querying) continue;
      state.dnsTerms++;
      if (state.dnsTerms > MAX_DNS_TERMS)
        return `more than ${MAX_DNS_TERMS} DNS-querying terms (include, a, mx, ptr, exists, redirect): the ${ordinal(state.dnsTerms)} is "${term.text}" in the record of ${domain} (RFC 7208 4.6.4)`;
      const target = (term.domain ?? domain).toLowerCase().replace(/\.$/, '');
      // A macro (%{i}, %{s} …) expands only for a real sender; the term still counts.
      if (target.includes('%') || term.name === 'ptr') continue;
      const countVoid = (what: string): string | null => {
        state.voidLookups++;
        return state.voidLookups > MAX_VOID_LOOKUPS
          ? `more than ${MAX_VOID_LOOKUPS} void lookups (no record or NXDOMAIN): the ${ordinal(state.voidLookups)} is "${term.text}" in the record of ${domain}, ${what} (RFC 7208 4.6.4)`
          : null;
      };
      if (term.name === 'include' || term.name === 'redirect') {
        if (depth >= MAX_DNS_TERMS) continue;
        const answer = await lookups.dns(target, 'TXT');
        const v = voidOrFailure(answer);
        if (v && v !== 'void') return v;
        const records = answer.ok ? spfRecords(answer.records) : [];
        if (v === 'void') {
          const over = countVoid(`${target} has no TXT record`);
          if (over) return over;
        }
        if (records.length !== 1)
          return `"${term.text}" in the record of ${domain} ${records.length ? `names ${target}, which has ${records.length} v=spf1 records` : `does not resolve: ${target} has no v=spf1 record`} (RFC 7208 ${term.name === 'include' ? '5.2' : '6.1'})`;
        const inner = await walk(target, records[0], depth + 1);
        if (inner) return inner;
        continue;
      }
      if (term.name === 'mx') {
        const mx = await lookups.mx(target);
        if (!mx.ok && !mx.nxdomain) return { reason: mx.reason };
        const n = mx.ok ? mx.records.length : 0;
        if (n === 0) {
          const over = countVoid(`${target} has no MX record`);
          if (over) return over;
        } else if (n > MAX_MX_RECORDS)
          return `"${term.text}" in the record of ${domain}: ${target} has ${n} MX records, more than ${MAX_MX_RECORDS} (RFC 7208 4.6.4)`;
        continue;
      }
      // a, exists: an address lookup.
      const v = voidOrFailure(await lookups.dns(target, 'A'));
      if (v && v !== 'void') return v;
      if (v === 'void') {
        const over = countVoid(`${target} has no A record`);
        if (over) return over;
      }
    }
    return null;
  };
  const found = await walk(host, own[0], 0);
  if (found && typeof found === 'object') return { ok: false, reason: found.reason };
  return done(found);
}
