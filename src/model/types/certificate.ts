/** The `Certificate (TLS)` alert: the certificate a host serves, by subject or by days to expiry. */
import { COMMON_SOURCES } from './comparison';
import type { AlertTypeModule, CheckBody } from './module';

export const CERTIFICATE_FILTERS = ['subject', 'expires in (days)'] as const;
export type CertificateFilter = (typeof CERTIFICATE_FILTERS)[number];

const DAYS_SOURCES = Object.freeze({
  ...COMMON_SOURCES,
  type: 'certificate',
  subtype: 'certificate',
  filter: 'certificate',
  filter_value: 'certificate.expiresInDays',
});
const SUBJECT_SOURCES = Object.freeze({ ...DAYS_SOURCES, filter_value: 'certificate.subject' });

/** Exactly one of `subject` and `expiresInDays`; days are carried as a decimal string. */
function body(c: Readonly<Record<string, unknown>>): CheckBody {
  const problems: string[] = [];
  const hasSubject = c.subject !== undefined;
  const hasDays = c.expiresInDays !== undefined;
  if (hasSubject && hasDays) problems.push('certificate has both subject and expiresInDays; give exactly one');
  if (hasDays && !hasSubject) {
    const days = c.expiresInDays;
    const value = typeof days === 'number' ? String(days) : days;
    return { fields: { filter: 'expires in (days)', filter_value: value }, sources: DAYS_SOURCES, problems };
  }
  if (!hasSubject) problems.push('certificate has neither subject nor expiresInDays; give exactly one');
  return { fields: { filter: 'subject', filter_value: c.subject }, sources: SUBJECT_SOURCES, problems };
}

export const CERTIFICATE: AlertTypeModule<'Certificate (TLS)', 'certificate'> = {
  type: 'Certificate (TLS)',
  subtypes: [],
  filters: CERTIFICATE_FILTERS,
  prop: 'certificate',
  defaultLabel: (check) => (check.filter === 'expires in (days)' ? 'certificate expiry' : 'certificate subject'),
  body,
  props: (a): Record<string, string | number> =>
    a.filter === 'subject' ? { subject: a.filter_value } : { expiresInDays: Number(a.filter_value) },
  servesCertificate: true,
};
