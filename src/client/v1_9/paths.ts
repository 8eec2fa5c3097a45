/**
 * The paths of the NetworkCalc Reports and Alerts API v1.9, one definition each. Only the files of
 * this version module name them; a v2 writes its own `paths.ts` beside its own resources.
 */
export const PATHS = {
  token: '/api/auth/token',
  alerts: '/api/alerts/',
  alert: (id: number): string => `/api/alerts/${id}`,
  domains: '/api/domains/',
  domain: (id: number): string => `/api/domains/${id}`,
  subdomainByPrefix: (domainId: number, prefix: string): string =>
    `/api/domains/${domainId}/subdomains/${encodeURIComponent(prefix)}`,
  subdomain: (domainId: number, subdomainId: number): string => `/api/domains/${domainId}/subdomains/${subdomainId}`,
  domainReport: (domainId: number): string => `/api/reports/domain-reports/${domainId}`,
  subdomainReport: (subdomainId: number): string => `/api/reports/subdomain-reports/${subdomainId}`,
} as const;
