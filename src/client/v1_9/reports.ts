/**
 * The report triggers of the v1.9 interface: a domain's or a subdomain's report.
 */
import { readReportResult } from './decode';
import type { ReportResult } from '../types';
import { checkId, type ApiSession } from '../session';
import { PATHS } from './paths';

export class ReportsResource {
  readonly #s: ApiSession;

  constructor(session: ApiSession) {
    this.#s = session;
  }

  async triggerDomainReport(domainId: number): Promise<ReportResult> {
    checkId(domainId, 'domain id');
    return this.#trigger('triggerDomainReport', `domain ${domainId}`, PATHS.domainReport(domainId));
  }

  async triggerSubdomainReport(subdomainId: number): Promise<ReportResult> {
    checkId(subdomainId, 'subdomain id');
    return this.#trigger('triggerSubdomainReport', `subdomain ${subdomainId}`, PATHS.subdomainReport(subdomainId));
  }

  async #trigger(operation: string, subject: string, path: string): Promise<ReportResult> {
    const req = { operation, subject, method: 'POST', path, mode: 'trigger' } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, readReportResult);
  }
}
