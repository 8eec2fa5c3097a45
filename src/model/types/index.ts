/**
 * The alert types of the v1.9 interface (section 2.4) and the one table of their modules.
 * A type in `ALERT_TYPES` without its module, or a module without one of its members, does
 * not compile; everything that differs by type (matrix row, construct props and body, policy
 * label, export props, report cells, schema text) is read from `ALERT_TYPE_MODULES`, and the
 * preview's lookups from `EVALUATORS` of src/preview/evaluate.ts (the one table above the model,
 * since lookups are I/O).
 */
import { CERTIFICATE } from './certificate';
import { DNS_RECORD } from './dns-record';
import type { AlertTypeModule } from './module';
import { SPF_RECORD } from './spf-record';

export const ALERT_TYPES = ['DNS Record', 'SPF Record', 'Certificate (TLS)'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

const TABLE = {
  'DNS Record': DNS_RECORD,
  'SPF Record': SPF_RECORD,
  'Certificate (TLS)': CERTIFICATE,
} as const satisfies { readonly [T in AlertType]: AlertTypeModule<T> };

/** The prop of `AlertProps` that holds an alert's check: `dnsRecord`, `spfRecord` or `certificate`. */
export type CheckProp = (typeof TABLE)[keyof typeof TABLE]['prop'];

/**
 * Every type's module, keyed by its type. Typed by `AlertType` so that a type missing here is
 * an error of this table alone, not of every place that reads it.
 */
export const ALERT_TYPE_MODULES: { readonly [T in AlertType]: AlertTypeModule<T, CheckProp> } = TABLE;

/** The modules in the order of `ALERT_TYPES`. */
export const ALERT_TYPE_LIST: readonly AlertTypeModule<AlertType, CheckProp>[] = ALERT_TYPES.map(
  (t) => ALERT_TYPE_MODULES[t],
);

export { COMMON_SOURCES, COMPARISON_FILTERS } from './comparison';

/** `dnsRecord, spfRecord, certificate`: the check props, for messages. */
export const CHECK_PROPS_TEXT = ALERT_TYPE_LIST.map((m) => m.prop).join(', ');
export { DNS_RECORD_SUBTYPES, type DnsRecordFilter, type DnsRecordSubtype } from './dns-record';
export { SPF_FILTERS, type SpfRecordFilter } from './spf-record';
export { CERTIFICATE_FILTERS, type CertificateFilter } from './certificate';
export type { AlertTypeModule, CheckBody, CheckFields } from './module';
