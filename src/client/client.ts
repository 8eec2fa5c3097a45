/**
 * The NetworkCalc API client: one object per set of credentials, its operations by resource
 * (alerts.ts, domains.ts, reports.ts) over one session (session.ts: the options checked, the
 * transport, the token). The methods and their behaviour are those of the resources.
 */
import type { AlertSpec, LiveAlert } from '../model';
import { AlertsResource } from './v1_9/alerts';
import {
  DELETE_FORMS,
  deleteAlertRequest,
  deleteFormState,
  isFormNotUnderstood,
  type DeleteForm,
} from './v1_9/delete-forms';
import { DomainsResource } from './v1_9/domains';
import { DEFAULT_VARIABLES, type ClientVariables } from './errors';
import { ReportsResource } from './v1_9/reports';
import { ApiSession } from './session';
import type { ClientOptions, Domain, ReportResult, Subdomain } from './types';
import { DEFAULT_BASE_URL } from '../accounts/base-url';
import { ENV } from '../accounts/environment';
import type { Environment } from '../public-types';

/** Environment variables read by `NetworkCalcClient.fromEnv`, and the default base URL. */
export { DEFAULT_BASE_URL, ENV };
export { DELETE_FORMS, deleteAlertRequest, isFormNotUnderstood };
export type { DeleteForm };
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, unsendableCharAt } from './session';

export class NetworkCalcClient {
  readonly baseUrl: string;
  readonly #session: ApiSession;
  readonly #alerts: AlertsResource;
  readonly #domains: DomainsResource;
  readonly #reports: ReportsResource;

  constructor(options: ClientOptions) {
    this.#session = new ApiSession(options);
    this.baseUrl = this.#session.baseUrl;
    this.#alerts = new AlertsResource(this.#session);
    this.#domains = new DomainsResource(this.#session);
    this.#reports = new ReportsResource(this.#session);
  }

  /**
   * A client configured from NETWORKCALC_BASE_URL, NETWORKCALC_TOKEN, NETWORKCALC_CLIENT_ID
   * and NETWORKCALC_CLIENT_SECRET, or only the credential variables named in
   * `overrides.variables` when it names any (the defaults are never read beside them);
   * `overrides` win over the environment.
   */
  static fromEnv(overrides: ClientOptions = {}, env: Environment = process.env): NetworkCalcClient {
    const given = overrides.variables ?? {};
    const named = given.token != null || given.clientId != null || given.clientSecret != null;
    const v: ClientVariables = named
      ? { token: null, clientId: null, clientSecret: null, baseUrl: DEFAULT_VARIABLES.baseUrl, ...given }
      : { ...DEFAULT_VARIABLES, ...given };
    const read = (name: string | null) => (name === null ? undefined : env[name]);
    return new NetworkCalcClient({
      ...overrides,
      variables: v,
      baseUrl: overrides.baseUrl ?? env[v.baseUrl],
      token: overrides.token ?? read(v.token),
      clientId: overrides.clientId ?? read(v.clientId),
      clientSecret: overrides.clientSecret ?? read(v.clientSecret),
    });
  }

  /** Token exchanges made so far; 0 with a ready token. */
  get tokenExchanges(): number {
    return this.#session.tokenExchanges;
  }

  /** The DELETE form found to work at this base URL, by any client of this process, once one has. */
  get deleteForm(): DeleteForm | undefined {
    return deleteFormState(this.baseUrl).form;
  }

  // ---- alerts (alerts.ts) ---------------------------------------------------------------

  listAlerts(): Promise<LiveAlert[]> {
    return this.#alerts.listAlerts();
  }

  getAlert(id: number): Promise<LiveAlert> {
    return this.#alerts.getAlert(id);
  }

  createAlert(spec: AlertSpec): Promise<{ id?: number }> {
    return this.#alerts.createAlert(spec);
  }

  updateAlert(id: number, spec: AlertSpec): Promise<void> {
    return this.#alerts.updateAlert(id, spec);
  }

  deleteAlert(id: number): Promise<void> {
    return this.#alerts.deleteAlert(id);
  }

  // ---- reports (reports.ts) -------------------------------------------------------------

  triggerDomainReport(domainId: number): Promise<ReportResult> {
    return this.#reports.triggerDomainReport(domainId);
  }

  triggerSubdomainReport(subdomainId: number): Promise<ReportResult> {
    return this.#reports.triggerSubdomainReport(subdomainId);
  }

  // ---- domains (domains.ts) -------------------------------------------------------------

  listDomains(): Promise<Domain[]> {
    return this.#domains.listDomains();
  }

  getDomain(id: number): Promise<Domain> {
    return this.#domains.getDomain(id);
  }

  addDomain(name: string): Promise<Domain> {
    return this.#domains.addDomain(name);
  }

  deleteDomain(id: number): Promise<void> {
    return this.#domains.deleteDomain(id);
  }

  addSubdomain(domainId: number, prefix: string): Promise<Subdomain> {
    return this.#domains.addSubdomain(domainId, prefix);
  }

  getSubdomain(domainId: number, subdomainId: number): Promise<Subdomain> {
    return this.#domains.getSubdomain(domainId, subdomainId);
  }

  deleteSubdomain(domainId: number, subdomainId: number): Promise<void> {
    return this.#domains.deleteSubdomain(domainId, subdomainId);
  }
}
