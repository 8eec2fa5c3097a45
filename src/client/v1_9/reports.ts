/**
 * The report triggers of the v1.9 interface: a domain's or a subdomain's report.
 */
import { readReportResult } from './read';
import type { ReportResult } from './types';
import { checkId, type ApiSession } from './session';

export class ReportsResource {
  readonly #s: ApiSession;

  constructor(session: ApiSession) {
    this.#s = session;
  }

  async triggerDomainReport(domainId: number): Promise<ReportResult> {
    checkId(domainId, 'domain id');
    return this.#trigger('triggerDomainReport', `domain ${domainId}`, `/api/reports/domain-reports/${domainId}`);
  }

  async triggerSubdomainReport(subdomainId: number): Promise<ReportResult> {
    checkId(subdomainId, 'subdomain id');
    return this.#trigger(
      'triggerSubdomainReport',
      `subdomain ${subdomainId}`,
      `/api/reports/subdomain-reports/${subdomainId}`,
    );
  }

  async #trigger(operation: string, subject: string, path: string): Promise<ReportResult> {
    const req = { operation, subject, method: 'POST', path, mode: 'trigger' } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, readReportResult);
  }
}
