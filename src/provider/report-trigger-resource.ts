/**
 * networkcalc_report_trigger: an action dressed as a resource. Creating it triggers a
 * report; every input forces replacement, so a change of `triggers` triggers a new one.
 * Reports cannot be read back (no endpoint), so read keeps the state and delete forgets it.
 */
import { isNetworkCalcError } from '../client/errors';
import type { ReportResult } from '../client/types';
import { PROVIDER_SCHEMA } from '../schema';
import type { Diagnostics } from './diagnostics';
import { addClientError, requireData } from './errors';
import type { Model, ResourceHandler } from './framework';
import type { NetworkcalcData } from './provider-config';

const TYPE = 'networkcalc_report_trigger';
type Data = NetworkcalcData | undefined;

export function validateReportTarget(config: Model, diags: Diagnostics): void {
  // Unknown counts as set: it will have a value at apply.
  const domain = config.domain_id !== null && config.domain_id !== undefined;
  const subdomain = config.subdomain_id !== null && config.subdomain_id !== undefined;
  if (domain && subdomain) {
    diags.addError('Conflicting report target', 'Set exactly one of domain_id and subdomain_id, not both.', [
      'subdomain_id',
    ]);
  } else if (!domain && !subdomain) {
    diags.addError(
      'Missing report target',
      'Set exactly one of domain_id (a domain report) and subdomain_id (a subdomain report).',
      ['domain_id'],
    );
  }
  for (const name of ['domain_id', 'subdomain_id']) {
    const id = config[name];
    if (typeof id === 'number' && !(Number.isSafeInteger(id) && id > 0)) {
      diags.addError(
        'Invalid report target',
        `${name} ${id} is not valid; give the positive whole-number id of the ${name.split('_')[0]}.`,
        [name],
      );
    }
  }
}

export const reportTriggerResource: ResourceHandler<Data> = {
  typeName: TYPE,
  schema: PROVIDER_SCHEMA.resources[TYPE]!,

  validate({ config, diagnostics }) {
    validateReportTarget(config, diagnostics);
  },

  async create({ plan, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domainId = typeof plan.domain_id === 'number' ? plan.domain_id : undefined;
    const subdomainId = typeof plan.subdomain_id === 'number' ? plan.subdomain_id : undefined;
    const what = domainId !== undefined ? `domain ${domainId}` : `subdomain ${subdomainId}`;
    let result: ReportResult;
    try {
      result =
        domainId !== undefined
          ? await providerData.client.triggerDomainReport(domainId)
          : await providerData.client.triggerSubdomainReport(subdomainId!);
    } catch (err) {
      if (isNetworkCalcError(err) && err.code === 'NOT_GENERATED') {
        diagnostics.addError(
          'Report not generated',
          `NetworkCalc did not generate the report for ${what} (NOT_GENERATED). Nothing was recorded; check that the ${what.split(' ')[0]} id belongs to this account and run terraform apply again.`,
          [domainId !== undefined ? 'domain_id' : 'subdomain_id'],
        );
        return null;
      }
      addClientError(diagnostics, `Could not trigger the report for ${what}`, err);
      return null;
    }
    return {
      ...plan,
      id: result.report_url,
      report_url: result.report_url,
      status: result.status,
      triggered_at: new Date().toISOString(),
    };
  },

  read({ state }) {
    return Promise.resolve(state);
  },

  // Every input forces replacement, so an update only ever carries unchanged values.
  update({ plan, prior }) {
    return Promise.resolve({
      ...prior,
      domain_id: plan.domain_id!,
      subdomain_id: plan.subdomain_id!,
      triggers: plan.triggers!,
    });
  },

  delete() {
    return Promise.resolve();
  },
};
