/**
 * Props → wire body of an alert, free of cdktf so the same mapping can feed other outputs.
 */
import type { DnsRecordFilter, DnsRecordSubtype } from '../model/matrix';
import type { AlertTarget } from './target';

/** Record types a DNS Record alert watches. */
export type DnsRecordType = DnsRecordSubtype;

/** The comparisons of DNS and SPF record alerts. */
export type ComparisonFilter = DnsRecordFilter;

/**
 * A DNS record condition.
 *
 * @example { record: 'MX', filter: 'contains', value: 'mail.example.com' }
 */
export interface DnsRecordCheck {
  /** The record type watched. */
  readonly record: DnsRecordType;
  /** How the record is compared with `value`. */
  readonly filter: ComparisonFilter;
  /** The value compared with the record; not empty. */
  readonly value: string;
}

/** The SPF record must be valid. */
export interface SpfValidityCheck {
  readonly filter: 'validity';
  /** `validity` takes no value. */
  readonly value?: undefined;
}

/**
 * The SPF record compared with a value.
 *
 * @example { filter: 'contains', value: 'include:_spf.example.com' }
 */
export interface SpfComparisonCheck {
  readonly filter: ComparisonFilter;
  /** The value compared with the SPF record; not empty. */
  readonly value: string;
}

/** An SPF record condition: validity, or a comparison with a value. */
export type SpfRecordCheck = SpfValidityCheck | SpfComparisonCheck;

/**
 * The TLS certificate's subject is compared with a value.
 *
 * @example { subject: 'CN=www.example.com' }
 */
export interface CertificateSubjectCheck {
  readonly subject: string;
  readonly expiresInDays?: undefined;
}

/**
 * Triggers when the TLS certificate expires within this many days.
 *
 * @example { expiresInDays: 21 }
 */
export interface CertificateExpiryCheck {
  /** A positive whole number of days. */
  readonly expiresInDays: number;
  readonly subject?: undefined;
}

/** A TLS certificate condition: its subject, or its expiry. */
export type CertificateCheck = CertificateSubjectCheck | CertificateExpiryCheck;

/** What every alert has. */
export interface AlertBaseProps {
  /**
   * Display name. `ncalc` identifies an alert by its name within its account, so it must be
   * unique there (compared after trimming surrounding blanks).
   *
   * @example 'example.com MX'
   */
  readonly name: string;

  /**
   * The domain or subdomain watched.
   *
   * @example AlertTarget.subdomain('www.example.com')
   */
  readonly target: AlertTarget;
}

/** A DNS record alert. */
export interface DnsRecordAlertSpec extends AlertBaseProps {
  /** The record condition. */
  readonly dnsRecord: DnsRecordCheck;
  readonly spfRecord?: undefined;
  readonly certificate?: undefined;
}

/** An SPF record alert. */
export interface SpfRecordAlertSpec extends AlertBaseProps {
  /** The SPF condition. */
  readonly spfRecord: SpfRecordCheck;
  readonly dnsRecord?: undefined;
  readonly certificate?: undefined;
}

/** A TLS certificate alert. */
export interface CertificateAlertSpec extends AlertBaseProps {
  /** The certificate condition. */
  readonly certificate: CertificateCheck;
  readonly dnsRecord?: undefined;
  readonly spfRecord?: undefined;
}

/** Exactly one of `dnsRecord`, `spfRecord`, `certificate`. */
export type AlertCheckSpec = DnsRecordAlertSpec | SpfRecordAlertSpec | CertificateAlertSpec;

export interface AlertBody {
  /** Wire fields except target_id, which depends on how the target resolves. */
  readonly body: Record<string, unknown>;
  /** Which prop each wire field came from, for messages. */
  readonly sources: Readonly<Record<string, string>>;
  /** Contradictions the wire body cannot show (two variants, both certificate checks). */
  readonly problems: string[];
}

const VARIANTS = ['dnsRecord', 'spfRecord', 'certificate'] as const;

/** Maps typed props to the alert's wire fields. Values are passed through for the model to judge. */
export function alertBody(props: AlertCheckSpec): AlertBody {
  const loose = props as unknown as Record<string, unknown>;
  const given = VARIANTS.filter((v) => loose[v] !== undefined && loose[v] !== null);
  const problems: string[] = [];
  const body: Record<string, unknown> = { name: props.name };
  const sources: Record<string, string> = { name: 'name', target_type: 'target', target_id: 'target' };

  if (given.length !== 1) {
    problems.push(
      given.length === 0
        ? 'no check given; set exactly one of dnsRecord, spfRecord, certificate'
        : `${given.join(' and ')} are given together; set exactly one of dnsRecord, spfRecord, certificate`,
    );
  }
  const variant = given[0];
  if (variant === 'dnsRecord') {
    const c = loose.dnsRecord as Record<string, unknown>;
    Object.assign(body, { type: 'DNS Record', subtype: c.record, filter: c.filter, filter_value: c.value });
    Object.assign(sources, { type: 'dnsRecord', subtype: 'dnsRecord.record', filter: 'dnsRecord.filter', filter_value: 'dnsRecord.value' });
  } else if (variant === 'spfRecord') {
    const c = loose.spfRecord as Record<string, unknown>;
    Object.assign(body, { type: 'SPF Record', filter: c.filter, filter_value: c.value });
    Object.assign(sources, { type: 'spfRecord', subtype: 'spfRecord', filter: 'spfRecord.filter', filter_value: 'spfRecord.value' });
  } else if (variant === 'certificate') {
    const c = loose.certificate as Record<string, unknown>;
    const hasSubject = c.subject !== undefined;
    const hasDays = c.expiresInDays !== undefined;
    Object.assign(sources, { type: 'certificate', subtype: 'certificate', filter: 'certificate' });
    if (hasSubject && hasDays) {
      problems.push('certificate has both subject and expiresInDays; give exactly one');
    }
    if (hasDays && !hasSubject) {
      const days = c.expiresInDays;
      Object.assign(body, { type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: typeof days === 'number' ? String(days) : days });
      sources.filter_value = 'certificate.expiresInDays';
    } else {
      if (!hasSubject) problems.push('certificate has neither subject nor expiresInDays; give exactly one');
      Object.assign(body, { type: 'Certificate (TLS)', filter: 'subject', filter_value: c.subject });
      sources.filter_value = 'certificate.subject';
    }
  }
  const target = props.target;
  body.target_type = target?.targetType;
  return { body, sources, problems };
}
