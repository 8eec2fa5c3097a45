import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { keepNewest, type EmulatorCore } from '../../core';
import { ApiError } from '../../errors';
import type { Change, StoredAccount, StoredDomain, StoredReport, StoredSubdomain } from '../../state';
import type { Store } from '../../store';
import { alertViews, domainView, subdomainView } from '../../views';
import { accountOf, authorize, pathId, responses, routeDefaults } from '../shared';

/** The domain (and subdomain) a report is asked for, from the path's id. */
function reportTarget(
  account: StoredAccount,
  request: FastifyRequest,
  kind: 'domain' | 'subdomain',
): { domain: StoredDomain; subdomain: StoredSubdomain | undefined } {
  const id = pathId((request.params as { id?: string }).id);
  if (id === null) throw new ApiError('NOT_GENERATED', 'no id given');
  const subdomain = kind === 'subdomain' ? account.subdomains.find((s) => s.id === id) : undefined;
  const domainId = kind === 'domain' ? id : subdomain?.domain_id;
  const domain = account.domains.find((d) => d.id === domainId);
  if (!domain || (kind === 'subdomain' && !subdomain))
    throw new ApiError('NOT_GENERATED', `no ${kind} ${id} in this account`);
  return { domain, subdomain };
}

/** What a report holds: its target, the target's subdomains, and the alerts on them. */
function reportContent(
  account: StoredAccount,
  kind: 'domain' | 'subdomain',
  domain: StoredDomain,
  subdomain: StoredSubdomain | undefined,
  reportId: string,
  generatedAt: string,
): Record<string, unknown> {
  const subdomains = subdomain ? [subdomain] : account.subdomains.filter((s) => s.domain_id === domain.id);
  const subIds = new Set(subdomains.map((s) => s.id));
  const alerts = account.alerts.filter(
    (a) =>
      (a.target_type === 'domain' && kind === 'domain' && a.target_id === domain.id) ||
      (a.target_type === 'subdomain' && subIds.has(a.target_id)),
  );
  const content: Record<string, unknown> = {
    report_id: reportId,
    kind,
    generated_at: generatedAt,
    user_id: account.user_id,
    domain: domainView(domain),
  };
  if (subdomain) content.subdomain = subdomainView(account, subdomain, domain);
  else content.subdomains = subdomains.map((s) => subdomainView(account, s, domain));
  content.alerts = alertViews(account, alerts);
  return content;
}

/** Stores a report; each report is a full snapshot, so only the newest are kept. */
async function storeReport(core: EmulatorCore, account: StoredAccount, report: StoredReport): Promise<void> {
  const kept = new Set(keepNewest([...account.reports, report], core.reportsPerAccount));
  const gone = account.reports.filter((r) => !kept.has(r)).map((r) => r.id);
  const changes: Change[] = [{ op: 'put', account: account.name, list: 'reports', item: report }];
  if (gone.length) changes.unshift({ op: 'remove', account: account.name, list: 'reports', keys: gone });
  await core.store.commit(changes);
}

async function generateReport(core: EmulatorCore, request: FastifyRequest, kind: 'domain' | 'subdomain') {
  const account = accountOf(request);
  const { domain, subdomain } = reportTarget(account, request, kind);
  const reportId = randomUUID();
  const generatedAt = new Date().toISOString();
  const report: StoredReport = {
    id: reportId,
    kind,
    domain_id: domain.id,
    subdomain_id: subdomain?.id ?? null,
    created_at: generatedAt,
    content: reportContent(account, kind, domain, subdomain, reportId, generatedAt),
  };
  await storeReport(core, account, report);
  // domain_id is a quoted string, as in the reference's sample responses (2.1).
  const out: Record<string, unknown> = { status: 'OK', domain_id: String(domain.id) };
  if (subdomain) out.subdomain_id = subdomain.id;
  out.report_url = `${request.protocol}://${request.host}/reports/${reportId}`;
  return out;
}

/** POST of a domain or subdomain report trigger (4.1, 4.2). */
function triggerRoutes(app: FastifyInstance, core: EmulatorCore): void {
  const reportResponse = responses({
    type: 'object',
    properties: {
      status: { type: 'string' },
      domain_id: { type: 'string' },
      subdomain_id: { type: 'number' },
      report_url: { type: 'string' },
    },
  });

  for (const kind of ['domain', 'subdomain'] as const) {
    const opts = {
      onRequest: authorize('reports'),
      schema: { response: reportResponse },
      handler: (request: FastifyRequest) => generateReport(core, request, kind),
    };
    app.post(`/api/reports/${kind}-reports/:id`, opts);
    // The id is marked optional (4.1, 4.2); without it nothing can be generated.
    app.post(`/api/reports/${kind}-reports`, opts);
  }
}

/** The report_url: no authorization (the uuid is the secret). */
function downloadRoute(app: FastifyInstance, store: Store): void {
  app.get('/reports/:report_id', {
    config: { group: 'download' },
    handler: async (request, reply) => {
      const id = (request.params as { report_id: string }).report_id;
      for (const account of store.state.accounts) {
        const report = account.reports.find((r) => r.id === id);
        if (!report) continue;
        const name = String(
          (report.content.subdomain as { subdomain?: string } | undefined)?.subdomain ??
            (report.content.domain as { domain?: string }).domain,
        );
        reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="report-${name}-${id}.json"`);
        return JSON.stringify(report.content, null, 2) + '\n';
      }
      reply.code(404).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({ status: 'NOT_FOUND' });
    },
  });
}

/** Report triggers (4.1, 4.2) and the download of a report they point at. */
export async function reportRoutes(app: FastifyInstance, { core }: { core: EmulatorCore }): Promise<void> {
  routeDefaults(app, { group: 'reports' });
  triggerRoutes(app, core);
  downloadRoute(app, core.store);
}
