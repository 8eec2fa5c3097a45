/**
 * Tolerant readers for response bodies: ids as numbers or quoted strings, unknown fields
 * ignored. Each throws a plain Error on a shape it cannot use; the client turns that into
 * UNEXPECTED_RESPONSE.
 */
import { isObject, type Json } from '../../support/json';
import type { Domain, ReportResult, Subdomain } from '../types';

export function readId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?[0-9]+\s*$/.test(value)) return Number(value);
  return null;
}

function requireId(value: unknown, what: string): number {
  const id = readId(value);
  if (id === null) throw new Error(`${what} has no usable id (${JSON.stringify(value) ?? 'undefined'})`);
  return id;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function readReportResult(body: Json): ReportResult {
  const reportUrl = str(body.report_url) ?? str(body.url);
  if (reportUrl === undefined) throw new Error('report response has no report_url');
  return {
    status: str(body.status) ?? 'OK',
    domain_id: readId(body.domain_id),
    subdomain_id: readId(body.subdomain_id),
    report_url: reportUrl,
  };
}

export function readSubdomain(raw: unknown, domain?: { id: number; domain: string }): Subdomain {
  if (!isObject(raw)) throw new Error('subdomain entry is not an object');
  const id = requireId(raw.id, 'subdomain');
  const domainId = readId(raw.domain_id) ?? domain?.id;
  if (domainId === undefined || domainId === null) throw new Error(`subdomain ${id} has no domain_id`);
  let full = str(raw.subdomain) ?? str(raw.name) ?? str(raw.fqdn);
  let prefix = str(raw.prefix) ?? str(raw.subdomain_prefix);
  if (prefix === undefined && full !== undefined && domain && full.endsWith(`.${domain.domain}`)) {
    prefix = full.slice(0, -(domain.domain.length + 1));
  }
  if (full === undefined && prefix !== undefined && domain) full = `${prefix}.${domain.domain}`;
  if (full !== undefined && prefix !== undefined && !full.includes('.') && domain) {
    // Some shapes carry only the prefix in `subdomain`.
    full = `${full}.${domain.domain}`;
  }
  if (full === undefined || prefix === undefined) throw new Error(`subdomain ${id} has no name`);
  return { id, domain_id: domainId, prefix, subdomain: full };
}

export function readDomain(raw: unknown): Domain {
  if (!isObject(raw)) throw new Error('domain entry is not an object');
  const id = requireId(raw.id, 'domain');
  const name = str(raw.domain) ?? str(raw.name);
  if (name === undefined) throw new Error(`domain ${id} has no name`);
  const domain: Domain = { id, domain: name, subdomains: [] };
  const created = str(raw.created_at);
  const updated = str(raw.updated_at);
  if (created !== undefined) domain.created_at = created;
  if (updated !== undefined) domain.updated_at = updated;
  if (Array.isArray(raw.subdomains)) {
    domain.subdomains = raw.subdomains.map((s) => readSubdomain(s, { id, domain: name }));
  }
  return domain;
}

/** The id a create response may carry, although the interface promises none. */
export function readCreatedId(body: Json): number | undefined {
  const candidates = [body.id, body.alert_id, isObject(body.alert) ? body.alert.id : undefined];
  for (const c of candidates) {
    const id = readId(c);
    if (id !== null) return id;
  }
  return undefined;
}
