/** The networkcalc provider: the schema of src/schema served with its handlers. */
import { PROVIDER_SCHEMA, PROVIDER_TYPE } from '../schema';
import { alertResource } from './alert-resource';
import { domainResource } from './domain-resource';
import { subdomainResource } from './subdomain-resource';
import { alertsDataSource, domainDataSource, domainsDataSource, subdomainDataSource } from './data-sources';
import type { ProviderDefinition } from './framework';
import { configureProvider, validateProviderConfig, type NetworkcalcData } from './provider-config';
import { reportTriggerResource } from './report-trigger-resource';

export function networkcalcProvider(
  env: NodeJS.ProcessEnv = process.env,
): ProviderDefinition<NetworkcalcData | undefined> {
  const stop = new AbortController();
  let data: NetworkcalcData | undefined;
  return {
    typeName: PROVIDER_TYPE,
    schema: PROVIDER_SCHEMA.provider,
    resources: [alertResource, reportTriggerResource, domainResource, subdomainResource],
    dataSources: [alertsDataSource, domainDataSource, subdomainDataSource, domainsDataSource],
    validateConfig: ({ config, diagnostics }) => validateProviderConfig(config, diagnostics),
    configure: async (req) => (data = await configureProvider(req, env, stop.signal)),
    // Terraform waits for calls in flight after StopProvider; let them end without retrying.
    stop: () => stop.abort(),
    shutdown: () => data?.journal?.settle(),
  };
}
