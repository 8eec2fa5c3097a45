/** The `SPF Record` alert: the domain's SPF record valid, or compared with a value. */
import { COMMON_SOURCES, COMPARISON_FILTERS } from './comparison';
import type { AlertTypeModule } from './module';

export const SPF_FILTERS = [...COMPARISON_FILTERS, 'validity'] as const;
export type SpfRecordFilter = (typeof SPF_FILTERS)[number];

const SOURCES = Object.freeze({
  ...COMMON_SOURCES,
  type: 'spfRecord',
  subtype: 'spfRecord',
  filter: 'spfRecord.filter',
  filter_value: 'spfRecord.value',
});

export const SPF_RECORD: AlertTypeModule<'SPF Record', 'spfRecord'> = {
  type: 'SPF Record',
  subtypes: [],
  filters: SPF_FILTERS,
  prop: 'spfRecord',
  defaultLabel: (check) => `SPF ${String(check.filter)}`,
  body: (c) => ({ fields: { filter: c.filter, filter_value: c.value }, sources: SOURCES, problems: [] }),
  props: (a): Record<string, string | number> =>
    a.filter === 'validity' ? { filter: 'validity' } : { filter: a.filter, value: a.filter_value },
  servesCertificate: false,
};
