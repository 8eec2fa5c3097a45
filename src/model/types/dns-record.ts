/** The `DNS Record` alert: a record of a subtype compared with a value. */
import { COMMON_SOURCES, COMPARISON_FILTERS } from './comparison';
import type { AlertTypeModule } from './module';

export const DNS_RECORD_SUBTYPES = ['A', 'CNAME', 'MX', 'TXT'] as const;
export type DnsRecordSubtype = (typeof DNS_RECORD_SUBTYPES)[number];
export type DnsRecordFilter = (typeof COMPARISON_FILTERS)[number];

const SOURCES = Object.freeze({
  ...COMMON_SOURCES,
  type: 'dnsRecord',
  subtype: 'dnsRecord.record',
  filter: 'dnsRecord.filter',
  filter_value: 'dnsRecord.value',
});

export const DNS_RECORD: AlertTypeModule<'DNS Record', 'dnsRecord'> = {
  type: 'DNS Record',
  subtypes: DNS_RECORD_SUBTYPES,
  filters: COMPARISON_FILTERS,
  prop: 'dnsRecord',
  defaultLabel: (check) => `DNS ${String(check.subtype)} ${String(check.filter)}`,
  body: (c) => ({
    fields: { subtype: c.record, filter: c.filter, filter_value: c.value },
    sources: SOURCES,
    problems: [],
  }),
  props: (a) => ({ record: a.subtype ?? '', filter: a.filter, value: a.filter_value }),
  servesCertificate: false,
};
