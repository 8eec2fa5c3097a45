/**
 * One alert's condition evaluated now, from this machine: fires now, quiet, or cannot be
 * evaluated (and why), always with what was observed. The readings of the interface that this
 * rests on are in docs/architecture.md ("Preview").
 */
import type { AlertSpec, AlertType } from '../model';
import { quoteText, showBytes } from './dns-text';
import { MAX_CNAME_HOPS, asciiHost, type DnsKind, type Lookups } from './lookups';
import {
  DAY_MS,
  firesBeforeRenewal,
  isoDate,
  largestQuietThreshold,
  lifetimeDays,
  renewalDaysLeft,
} from '../model/renewal';
import { checkSpf, permerrorText, type SpfVerdict, type VoidCounts } from './spf';
import type { ObservedCertificate } from './tls';

export type PreviewState = 'fires' | 'quiet' | 'unknown';

export interface Evaluation {
  state: PreviewState;
  /** What was observed, in words ("MX is mx1.example.net, not mx2.example.net"). */
  observed: string;
  /** Why the alert cannot be evaluated; null when it could. */
  reason: string | null;
  /** Observed values as data (for --json). */
  data: Record<string, unknown>;
  /** A certificate threshold that fires before a renewal; null otherwise. */
  warning: string | null;
  /** With `warning`: the largest threshold that fires only when renewal fails. */
  suggestedDays: number | null;
}

const unknown = (reason: string, data: Record<string, unknown> = {}): Evaluation => ({
  state: 'unknown',
  observed: '',
  reason,
  data,
  warning: null,
  suggestedDays: null,
});

const result = (fires: boolean, observed: string, data: Record<string, unknown>): Evaluation => ({
  state: fires ? 'fires' : 'quiet',
  observed,
  reason: null,
  data,
  warning: null,
  suggestedDays: null,
});

const nameForm = (s: string) => s.trim().toLowerCase().replace(/\.$/, '');
const quoted = (s: string) => JSON.stringify(s);

/**
 * The four comparisons over a set of records. Each is read record by record: `equals` holds
 * when one record equals the value, `contains` when one contains it; `does not …` are their
 * negations (no record equals / contains it). The interface says a filter value "triggers the
 * alert when matched", so an alert fires when its comparison holds.
 */
export function compare(
  filter: string,
  records: readonly string[],
  value: string,
  form: (s: string) => string,
): boolean | null {
  const v = form(value);
  const forms = records.map(form);
  switch (filter) {
    case 'equals':
      return forms.includes(v);
    case 'does not equal':
      return !forms.includes(v);
    case 'contains':
      return forms.some((r) => r.includes(v));
    case 'does not contain':
      return !forms.some((r) => r.includes(v));
    default:
      return null;
  }
}

/** `MX is mx1.example.net, not "mx2.example.net"`: the records found and how they meet the value. */
function comparisonText(
  what: string,
  filter: string,
  records: readonly string[],
  value: string,
  holds: boolean,
): string {
  const is = records.length ? `${what} is ${records.join(', ')}` : `no ${what} record`;
  const v = quoted(value);
  const one = records.length > 1 ? 'one ' : '';
  switch (filter) {
    case 'equals':
    case 'does not equal': {
      const equal = filter === 'equals' ? holds : !holds;
      return equal ? `${is}; ${one}equals ${v}` : `${is}, not ${v}`;
    }
    case 'contains':
    case 'does not contain': {
      const contains = filter === 'contains' ? holds : !holds;
      if (contains) return `${is}; ${one}contains ${v}`;
      return `${is}; ${records.length > 1 ? 'none contains' : 'does not contain'} ${v}`;
    }
    default:
      return is;
  }
}

async function dnsRecord(alert: AlertSpec, host: string, lookups: Lookups): Promise<Evaluation> {
  const kind = alert.subtype as DnsKind;
  // TXT values are compared as written; names and addresses ignore case and a trailing dot.
  const form = kind === 'TXT' ? (s: string) => s : nameForm;
  const answer = await lookups.dns(host, kind);
  if (!answer.ok) {
    // A resolver answers a CNAME loop with SERVFAIL: name the loop.
    const chain = kind !== 'CNAME' && answer.code === 'ESERVFAIL' ? await lookups.cnameChain(host) : null;
    if (chain?.loop)
      return unknown(`${answer.reason}; its CNAME chain is a loop: ${[host, ...chain.chain].join(' → ')}`, {
        records: null,
        cname_chain: chain.chain,
      });
    return unknown(answer.reason, { records: null });
  }
  // Compared as decoded; shown with undecodable bytes as \xNN.
  const records = kind === 'TXT' ? answer.records.map(quoteText) : answer.records;
  const data: Record<string, unknown> = { records: answer.records.map(showBytes) };
  let via = '';
  if (kind !== 'CNAME') {
    const chain = await lookups.cnameChain(host);
    if (chain.chain.length) {
      data.cname_chain = chain.chain;
      const end = chain.loop ? ', a loop' : chain.tooLong ? `, longer than ${MAX_CNAME_HOPS} hops` : '';
      via = ` (via CNAME ${chain.chain.join(' → ')}${end})`;
    }
  }
  const holds = compare(alert.filter, answer.records, alert.filter_value, form)!;
  return result(holds, comparisonText(kind, alert.filter, records, alert.filter_value, holds) + via, data);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `3 DNS-querying terms, 1 void lookup` (per kind of sender when they differ). */
function countsText(dnsTerms: number, v: VoidCounts): string {
  const voids =
    v.ipv4 === v.ipv6
      ? plural(v.ipv4, 'void lookup')
      : `${plural(v.ipv4, 'void lookup')} for an IPv4 sender, ${v.ipv6} for an IPv6 sender`;
  return `${plural(dnsTerms, 'DNS-querying term')}, ${voids}`;
}

function verdictData(v: SpfVerdict): Record<string, unknown> {
  if (v.result === 'temperror') return { result: v.result, reason: v.reason };
  return {
    result: v.result,
    ...(v.result === 'valid' ? {} : { reason: v.reason }),
    ...(v.result === 'permerror' ? { section: v.section } : {}),
    dns_terms: v.dnsTerms,
    void_lookups: { ipv4: v.voidLookups.ipv4, ipv6: v.voidLookups.ipv6 },
  };
}

async function spfRecord(alert: AlertSpec, host: string, lookups: Lookups): Promise<Evaluation> {
  const spf = await checkSpf(host, lookups.spfResolver());
  // A target that does not exist is not evaluated, as for DNS Record alerts (docs/architecture.md).
  if (spf.found === 'failed') return unknown(spf.reason, { record: null });
  const record = spf.found === 'one' ? showBytes(spf.record) : null;
  if (alert.filter === 'validity') {
    // The alert watches that the record is valid: it fires when it is not.
    if (spf.found !== 'one') return result(true, `SPF is not valid: ${spf.problem}`, { record, problem: spf.problem });
    const v = spf.verdict;
    const data = { record, ...verdictData(v) };
    switch (v.result) {
      case 'valid':
        return result(false, `SPF is valid (${countsText(v.dnsTerms, v.voidLookups)}): ${quoteText(spf.record)}`, data);
      case 'permerror':
        return result(true, `SPF is not valid: ${showBytes(permerrorText(v))}`, data);
      case 'temperror':
        return unknown(`a lookup of the SPF check failed (a temperror, RFC 7208 2.6.6): ${v.reason}`, data);
      case 'cannot evaluate':
        return unknown(`SPF validity depends on the sender: ${v.reason}`, data);
    }
  }
  if (spf.found !== 'one') return unknown(`there is no single SPF record to compare: ${spf.problem}`, { record });
  // SPF terms ignore case (RFC 7208 4.6.1).
  const holds = compare(alert.filter, [spf.record], alert.filter_value, (s) => s.trim().toLowerCase())!;
  return result(holds, comparisonText('SPF', alert.filter, [quoteText(spf.record)], alert.filter_value, holds), {
    record,
  });
}

function certificateData(c: ObservedCertificate): Record<string, unknown> {
  return {
    subject: c.subject,
    issuer: c.issuer,
    not_before: c.notBefore.toISOString(),
    not_after: c.notAfter.toISOString(),
    lifetime_days: Math.round(lifetimeDays(c.notBefore, c.notAfter) * 100) / 100,
    alt_names: c.altNames,
    self_signed: c.selfSigned,
    verification_error: c.verificationError,
    name_matches: c.nameMatches,
  };
}

/** OpenSSL's verification codes that a preview meets most, in words. */
const VERIFICATION_WORDS: Readonly<Record<string, string>> = {
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a root this machine does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its issuer is not trusted here, or the server sends no chain',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not trusted here, or the server sends no chain',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not valid yet',
};
const verificationWords = (code: string) => (VERIFICATION_WORDS[code] ? `${VERIFICATION_WORDS[code]} (${code})` : code);

/** `self-signed; does not cover www.example.com`: what the certificate's verification said. */
function verificationNote(c: ObservedCertificate, host: string): string {
  const notes: string[] = [];
  if (c.selfSigned) notes.push('self-signed');
  if (!c.nameMatches) notes.push(`does not cover ${host}`);
  else if (c.verificationError && !c.selfSigned)
    notes.push(`does not verify: ${verificationWords(c.verificationError)}`);
  return notes.length ? ` [${notes.join('; ')}]` : '';
}

/**
 * Whether a subject matches a value: the value (case and spacing aside) is the whole subject
 * (`CN=www.example.com, O=Example`), one of its attributes (`CN=www.example.com`), or the common
 * name alone (`www.example.com`).
 */
export function subjectMatches(c: Pick<ObservedCertificate, 'subject' | 'commonName'>, value: string): boolean {
  const form = (s: string) =>
    s
      .toLowerCase()
      .replace(/\s*([,=])\s*/g, '$1')
      .trim();
  const v = form(value);
  if (form(c.subject) === v) return true;
  if (c.subject.split(/,\s*/).some((part) => form(part) === v)) return true;
  return c.commonName !== null && form(c.commonName) === v;
}

async function certificate(alert: AlertSpec, host: string, lookups: Lookups, now: Date): Promise<Evaluation> {
  const got = await lookups.certificate(host);
  if (!got.ok) return unknown(got.reason, { certificate: null });
  const c = got.certificate;
  const data = certificateData(c);
  const note = verificationNote(c, host);
  if (alert.filter === 'subject') {
    const holds = subjectMatches(c, alert.filter_value);
    return result(
      holds,
      `subject is ${quoted(c.subject)}${holds ? `, which matches ${quoted(alert.filter_value)}` : `, not ${quoted(alert.filter_value)}`}${note}`,
      data,
    );
  }
  const threshold = Number(alert.filter_value);
  const leftMs = c.notAfter.getTime() - now.getTime();
  const days = Math.floor(Math.abs(leftMs) / DAY_MS);
  const when =
    leftMs >= 0
      ? `expires ${isoDate(c.notAfter)}, in ${days} day${days === 1 ? '' : 's'}`
      : `expired ${isoDate(c.notAfter)}, ${days} day${days === 1 ? '' : 's'} ago`;
  const fires = leftMs <= threshold * DAY_MS;
  const out = result(fires, `${when}; threshold ${threshold}${note}`, data);
  const lifetime = lifetimeDays(c.notBefore, c.notAfter);
  if (lifetime > 0 && firesBeforeRenewal(threshold, lifetime)) {
    const best = largestQuietThreshold(lifetime);
    out.suggestedDays = best;
    out.warning = `threshold ${threshold} fires before the renewal of this ${Math.round(lifetime)}-day certificate at a third of its lifetime left (${renewalDaysLeft(lifetime).toFixed(1)} days): it fires every cycle; ${best} or less fires only when renewal fails`;
  }
  return out;
}

type Evaluator = (alert: AlertSpec, host: string, lookups: Lookups, now: Date) => Promise<Evaluation>;

/**
 * How each alert type is evaluated now: the one table of the preview, keyed by type like
 * `ALERT_TYPE_MODULES` of src/model/types (a type without its evaluator does not compile).
 * It lives here rather than in the type's module because it looks things up (I/O, layer 6).
 */
const EVALUATORS: { readonly [T in AlertType]: Evaluator } = {
  'DNS Record': dnsRecord,
  'SPF Record': spfRecord,
  'Certificate (TLS)': certificate,
};

/** Evaluates one alert on its target's host name (as the domains list gives it). */
export async function evaluateAlert(
  alert: AlertSpec,
  hostName: string | null,
  lookups: Lookups,
  now: Date,
): Promise<Evaluation> {
  if (hostName === null) {
    return unknown(
      `the name of ${alert.target_type} ${alert.target_id} is not known: the plan did not list the account's domains (no alert targets a domain by name) and no live alert names it; declare the target by name (AlertTarget.domain('example.com'))`,
    );
  }
  const host = asciiHost(hostName);
  if (host === null) return unknown(`${quoted(hostName)} is not a host name that DNS can look up`);
  const data = host !== hostName ? { ascii_host: host } : {};
  const evaluation = await EVALUATORS[alert.type](alert, host, lookups, now);
  Object.assign(evaluation.data, data);
  return evaluation;
}
