/**
 * The type × subtype × filter matrix of the v1.9 interface (section 2.4), in one place.
 * Every other part of the product (constructs, CLI, provider, emulator) reads it from here.
 */

export const ALERT_TYPES = ['DNS Record', 'SPF Record', 'Certificate (TLS)'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const DNS_RECORD_SUBTYPES = ['A', 'CNAME', 'MX', 'TXT'] as const;
export type DnsRecordSubtype = (typeof DNS_RECORD_SUBTYPES)[number];

export const COMPARISON_FILTERS = ['equals', 'does not equal', 'contains', 'does not contain'] as const;
export const SPF_FILTERS = [...COMPARISON_FILTERS, 'validity'] as const;
export const CERTIFICATE_FILTERS = ['subject', 'expires in (days)'] as const;

export type DnsRecordFilter = (typeof COMPARISON_FILTERS)[number];
export type SpfRecordFilter = (typeof SPF_FILTERS)[number];
export type CertificateFilter = (typeof CERTIFICATE_FILTERS)[number];
export type AlertFilter = DnsRecordFilter | SpfRecordFilter | CertificateFilter;

export const TARGET_TYPES = ['domain', 'subdomain'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * How a filter uses `filter_value`:
 * - `text`: a non-empty string compared with the record or certificate.
 * - `days`: a positive whole number of days, carried as a decimal string.
 * - `none`: no value. `validity` checks that the SPF record is valid; it takes no value, and
 *   the canonical form of "no value" is the empty string (see docs/model.md).
 */
export type FilterValueKind = 'text' | 'days' | 'none';

export interface TypeRule {
  /** Allowed subtypes; an empty list means the type takes no subtype. */
  readonly subtypes: readonly string[];
  readonly filters: readonly string[];
}

export const MATRIX: Readonly<Record<AlertType, TypeRule>> = {
  'DNS Record': { subtypes: DNS_RECORD_SUBTYPES, filters: COMPARISON_FILTERS },
  'SPF Record': { subtypes: [], filters: SPF_FILTERS },
  'Certificate (TLS)': { subtypes: [], filters: CERTIFICATE_FILTERS },
};

export function filterValueKind(filter: string): FilterValueKind {
  if (filter === 'validity') return 'none';
  if (filter === 'expires in (days)') return 'days';
  return 'text';
}

export function isAlertType(value: unknown): value is AlertType {
  return typeof value === 'string' && (ALERT_TYPES as readonly string[]).includes(value);
}

/** Every allowed (type, subtype, filter) combination; used by tests and docs. */
export function allowedCombinations(): Array<{ type: AlertType; subtype: string | null; filter: string }> {
  const out: Array<{ type: AlertType; subtype: string | null; filter: string }> = [];
  for (const type of ALERT_TYPES) {
    const rule = MATRIX[type];
    const subtypes = rule.subtypes.length ? rule.subtypes : [null];
    for (const subtype of subtypes) for (const filter of rule.filters) out.push({ type, subtype, filter });
  }
  return out;
}
