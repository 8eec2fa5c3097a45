/**
 * Data sources: the account's alerts (filtered), and domain / subdomain lookups by name.
 * All are served from the per-process caches: one alerts list and one domains list.
 */
import type { Domain } from '../client/types';
import {
  ALERT_TYPES,
  canonicalizeAlert,
  isAlertType,
  LISTED_FIELDS,
  OPTIONAL_FIELDS,
  normalizeHostName,
  type LiveAlert,
} from '../model';
import { PROVIDER_SCHEMA } from '../schema';
import { addClientError, listedAlerts, requireData } from './errors';
import type { DataSourceHandler, Model } from './framework';
import { knownString, type NetworkcalcData } from './provider-config';

type Data = NetworkcalcData | undefined;

const EMPTY_IS_NULL: ReadonlySet<string> = new Set(OPTIONAL_FIELDS);

/** An alert as the data source lists it: the table's listed fields, "no value" as null. */
function alertObject(a: LiveAlert): Model {
  const out: Model = {};
  for (const f of LISTED_FIELDS) out[f] = a[f] === '' && EMPTY_IS_NULL.has(f) ? null : a[f];
  return out;
}

export const alertsDataSource: DataSourceHandler<Data> = {
  typeName: 'networkcalc_alerts',
  schema: PROVIDER_SCHEMA.dataSources.networkcalc_alerts!,

  // A misspelt type would match nothing and quietly give an empty list.
  validate({ config, diagnostics }) {
    if (typeof config.type !== 'string' || isAlertType(canonicalizeAlert({ type: config.type }).type)) return;
    diagnostics.addError(
      'Invalid type filter',
      `type ${JSON.stringify(config.type)} is not an alert type; allowed: ${ALERT_TYPES.join(', ')}.`,
      ['type'],
    );
  },

  async read({ config, diagnostics, providerData }) {
    const all = await listedAlerts(providerData, diagnostics);
    if (!all) return null;
    const name = typeof config.name === 'string' ? config.name : undefined;
    const prefix = typeof config.name_prefix === 'string' ? config.name_prefix : undefined;
    const type =
      typeof config.type === 'string' ? (canonicalizeAlert({ type: config.type }).type as string) : undefined;
    const alerts = [...all.values()]
      .filter(
        (a) =>
          (name === undefined || a.name === name) &&
          (prefix === undefined || a.name.startsWith(prefix)) &&
          (type === undefined || a.type === type),
      )
      .sort((a, b) => a.id - b.id)
      .map(alertObject);
    return { ...config, alerts };
  },
};

async function domainsOf(
  data: NetworkcalcData,
  diagnostics: Parameters<typeof addClientError>[0],
): Promise<Domain[] | undefined> {
  try {
    return await data.domains.get();
  } catch (err) {
    addClientError(diagnostics, 'Could not list domains', err);
    return undefined;
  }
}

function listed(names: string[]): string {
  return names.length ? names.sort().join(', ') : '(none)';
}

export const domainDataSource: DataSourceHandler<Data> = {
  typeName: 'networkcalc_domain',
  schema: PROVIDER_SCHEMA.dataSources.networkcalc_domain!,

  async read({ config, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domains = await domainsOf(providerData, diagnostics);
    if (!domains) return null;
    const wanted = normalizeHostName(knownString(config, 'name') ?? '');
    const found = domains.find((d) => normalizeHostName(d.domain) === wanted);
    if (!found) {
      diagnostics.addError(
        'Domain not found',
        `The account has no domain ${JSON.stringify(wanted)}. Its domains: ${listed(domains.map((d) => d.domain))}.`,
        ['name'],
      );
      return null;
    }
    return { ...config, id: found.id, created_at: found.created_at ?? null };
  },
};

export const subdomainDataSource: DataSourceHandler<Data> = {
  typeName: 'networkcalc_subdomain',
  schema: PROVIDER_SCHEMA.dataSources.networkcalc_subdomain!,

  async read({ config, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domains = await domainsOf(providerData, diagnostics);
    if (!domains) return null;
    const wanted = normalizeHostName(knownString(config, 'name') ?? '');
    const all = domains.flatMap((d) => d.subdomains);
    const found = all.find((s) => normalizeHostName(s.subdomain) === wanted);
    if (!found) {
      diagnostics.addError(
        'Subdomain not found',
        `The account has no subdomain ${JSON.stringify(wanted)} (give the full name, e.g. www.example.com). Its subdomains: ${listed(all.map((s) => s.subdomain))}.`,
        ['name'],
      );
      return null;
    }
    return { ...config, id: found.id, domain_id: found.domain_id, prefix: found.prefix };
  },
};

const byName = <T>(list: readonly T[], name: (x: T) => string): T[] =>
  [...list].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));

/**
 * Every domain with its subdomains, and the subdomains as one flat list: what an HCL
 * configuration iterates over (`for_each`) to give every domain the same alerts. Ordered by
 * name, in canonical form, so a plan does not change with the service's order.
 */
export const domainsDataSource: DataSourceHandler<Data> = {
  typeName: 'networkcalc_domains',
  schema: PROVIDER_SCHEMA.dataSources.networkcalc_domains!,

  async read({ config, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domains = await domainsOf(providerData, diagnostics);
    if (!domains) return null;
    const all = byName(
      domains.map((d) => ({ ...d, name: normalizeHostName(d.domain) })),
      (d) => d.name,
    );
    const subdomain = (s: Domain['subdomains'][number], domain: string) => ({
      id: s.id,
      name: normalizeHostName(s.subdomain),
      prefix: s.prefix,
      domain_id: s.domain_id,
      domain,
    });
    return {
      ...config,
      domains: all.map((d) => ({
        id: d.id,
        name: d.name,
        created_at: d.created_at ?? null,
        subdomains: byName(
          d.subdomains.map((s) => subdomain(s, d.name)),
          (s) => s.name,
        ),
      })),
      subdomains: byName(
        all.flatMap((d) => d.subdomains.map((s) => subdomain(s, d.name))),
        (s) => s.name,
      ),
    };
  },
};
