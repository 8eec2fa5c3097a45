/**
 * The type × subtype × filter matrix of the v1.9 interface (section 2.4): the rows of the
 * types' modules (src/model/types), in the form every other part of the product (constructs,
 * CLI, provider, emulator) reads.
 */

import { ALERT_TYPES, ALERT_TYPE_MODULES, type AlertType } from './types';
import type { CertificateFilter, DnsRecordFilter, SpfRecordFilter } from './types';

export {
  ALERT_TYPES,
  CERTIFICATE_FILTERS,
  COMPARISON_FILTERS,
  DNS_RECORD_SUBTYPES,
  SPF_FILTERS,
  type AlertType,
  type CertificateFilter,
  type DnsRecordFilter,
  type DnsRecordSubtype,
  type SpfRecordFilter,
} from './types';

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

/** Each type's row, from its module (src/model/types). */
export const MATRIX: Readonly<Record<AlertType, TypeRule>> = Object.fromEntries(
  ALERT_TYPES.map((t) => [t, { subtypes: ALERT_TYPE_MODULES[t].subtypes, filters: ALERT_TYPE_MODULES[t].filters }]),
) as Record<AlertType, TypeRule>;

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
