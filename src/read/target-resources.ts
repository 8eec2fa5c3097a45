/**
 * The target resources of the shared contract (`networkcalc_domain`, `networkcalc_subdomain`)
 * and the attributes a configuration sets on them: what ncalc reads while the provider schema
 * does not list them yet; once it does, the schema's own definition is used.
 */
export const TARGET_RESOURCE_TYPES = ['networkcalc_domain', 'networkcalc_subdomain'] as const;

export const TARGET_RESOURCE_SETTABLE: Record<string, Set<string>> = {
  'resource networkcalc_domain': new Set(['name']),
  'resource networkcalc_subdomain': new Set(['domain_id', 'prefix']),
};
