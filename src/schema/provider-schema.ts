import { ALERT_TYPES, DNS_RECORD_SUBTYPES, TARGET_TYPES } from '../model/matrix';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_OWNERSHIP,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_RETRIES,
  OWNERSHIP_MODES,
  TIMEOUT_SECONDS,
  type OwnershipMode,
} from '../accounts/account-rules';
import { ALERT_TYPE_LIST } from '../model/types';
import { DEFAULT_BASE_URL } from '../accounts/base-url';
import { ENV } from '../accounts/environment';
import type { BlockSchema, ProviderSchemaDoc, ResourceSchema } from './types';

export const PROVIDER_NAMESPACE = 'networkcalc';
export const PROVIDER_TYPE = 'networkcalc';
export const PROVIDER_SOURCE = `${PROVIDER_NAMESPACE}/${PROVIDER_TYPE}`;
export const PROVIDER_ADDRESS = `registry.terraform.io/${PROVIDER_SOURCE}`;
/** The provider version this package serves; constructs pin `~> MAJOR.MINOR` of it. */
export const PROVIDER_VERSION = '0.1.0';
export const PROVIDER_VERSION_CONSTRAINT = '~> 0.1';

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

/** What each ownership mode manages, for the description (the default marked where it is defined). */
const OWNERSHIP_MEANING: Record<OwnershipMode, string> = {
  exclusive: 'owns every alert of the account',
  prefix: 'only alerts whose names start with ownership_prefix',
  additive: 'never deletes on apply (destroy deletes only the declared alerts)',
};
const ownershipModes = OWNERSHIP_MODES.map(
  (m) => `"${m}"${m === DEFAULT_OWNERSHIP ? ' (default)' : ''} ${OWNERSHIP_MEANING[m]}`,
).join(', ');

const providerConfig: BlockSchema = {
  description: 'Connection to one NetworkCalc account. Secrets are read from environment variables by default.',
  attributes: {
    base_url: {
      type: 'string',
      optional: true,
      description: `Base URL of the API. Defaults to $${ENV.baseUrl}, then ${DEFAULT_BASE_URL}.`,
    },
    token: {
      type: 'string',
      optional: true,
      sensitive: true,
      description:
        'A ready access token. Prefer token_env: a literal token is written into the configuration. Defaults to the variable named by token_env.',
    },
    client_id: {
      type: 'string',
      optional: true,
      description:
        'Client id exchanged with client_secret at /api/auth/token. Defaults to the variable named by client_id_env.',
    },
    client_secret: {
      type: 'string',
      optional: true,
      sensitive: true,
      description: 'Client secret. Prefer client_secret_env. Defaults to the variable named by client_secret_env.',
    },
    token_env: {
      type: 'string',
      optional: true,
      description: `Name of the environment variable that holds the access token. Default: ${ENV.token}, only when the block names no credential (a block that names any reads only what it names).`,
    },
    client_id_env: {
      type: 'string',
      optional: true,
      description: `Name of the environment variable that holds the client id; give it with client_secret_env. Default: ${ENV.clientId}, only when the block names no credential.`,
    },
    client_secret_env: {
      type: 'string',
      optional: true,
      description: `Name of the environment variable that holds the client secret; give it with client_id_env. Default: ${ENV.clientSecret}, only when the block names no credential.`,
    },
    ownership: {
      type: 'string',
      optional: true,
      description: `Which live alerts of the account ncalc manages: ${quoted(OWNERSHIP_MODES)}. ${ownershipModes}. Terraform ignores it: it manages exactly the resources in its state.`,
    },
    ownership_prefix: {
      type: 'string',
      optional: true,
      description: 'Name prefix of the alerts ncalc manages when ownership is "prefix".',
    },
    max_retries: {
      type: 'number',
      optional: true,
      description: `Attempts per request on 429, 5xx and connection errors, including the first: a whole number from ${MAX_RETRIES.min} to ${MAX_RETRIES.max}. Default: ${DEFAULT_MAX_RETRIES}.`,
    },
    timeout_seconds: {
      type: 'number',
      optional: true,
      description: `Time limit of one HTTP request, in seconds: more than ${TIMEOUT_SECONDS.above} and at most ${TIMEOUT_SECONDS.max}. Default: ${DEFAULT_TIMEOUT_SECONDS}.`,
    },
  },
};

const alert: ResourceSchema = {
  // 1: id is a string (the numeric id in decimal), as terraform's progress lines and import expect.
  version: 1,
  description:
    'An alert of a NetworkCalc account: watches a domain or subdomain for a DNS record, an SPF record or a TLS certificate condition, and sends an e-mail when it triggers.',
  attributes: {
    id: {
      type: 'string',
      computed: true,
      stable: true,
      description: 'Id of the alert, assigned by the service: its number in decimal, as `terraform import` takes it.',
    },
    name: {
      type: 'string',
      required: true,
      description: 'Display name. ncalc identifies an alert by its name within the account.',
    },
    type: { type: 'string', required: true, description: `Alert type: ${quoted(ALERT_TYPES)}.` },
    subtype: {
      type: 'string',
      optional: true,
      description: `Record type of a "DNS Record" alert: ${quoted(DNS_RECORD_SUBTYPES)}. Leave unset for the other types.`,
    },
    filter: {
      type: 'string',
      required: true,
      description: `Condition checked. ${ALERT_TYPE_LIST.map((m) => `${m.type}: ${quoted(m.filters)}`).join('. ')}.`,
    },
    filter_value: {
      type: 'string',
      optional: true,
      description:
        'Value compared by the filter. A positive whole number of days for "expires in (days)"; unset for "validity".',
    },
    target_type: { type: 'string', required: true, description: `What the alert watches: ${quoted(TARGET_TYPES)}.` },
    target_id: {
      type: 'number',
      required: true,
      description:
        'Id of the watched domain or subdomain: networkcalc_domain.<name>.id / networkcalc_subdomain.<name>.id of a declared one, or the networkcalc_domain / networkcalc_subdomain data sources to look up an existing one by name.',
    },
    user_id: { type: 'number', computed: true, description: 'Id of the user who created the alert (read-only).' },
    is_active: { type: 'bool', computed: true, description: 'Whether the alert is being checked (read-only).' },
    current_status: {
      type: 'string',
      computed: true,
      description: 'Current status, e.g. healthy or triggered (read-only).',
    },
    action: {
      type: 'string',
      computed: true,
      description: 'Action when triggered; the service only sends e-mail (read-only).',
    },
    last_triggered_at: {
      type: 'string',
      computed: true,
      description: 'When the alert last triggered; null if never (read-only).',
    },
  },
};

const reportTrigger: ResourceSchema = {
  version: 0,
  description:
    'Triggers an on-demand report for a domain or a subdomain. A new report is generated when the resource is created and whenever `triggers` changes.',
  attributes: {
    id: {
      type: 'string',
      computed: true,
      stable: true,
      description: 'Identifier of the trigger (the report URL of the first run).',
    },
    domain_id: {
      type: 'number',
      optional: true,
      requiresReplace: true,
      description: 'Id of the domain to report on. Exactly one of domain_id and subdomain_id is required.',
    },
    subdomain_id: {
      type: 'number',
      optional: true,
      requiresReplace: true,
      description: 'Id of the subdomain to report on. Exactly one of domain_id and subdomain_id is required.',
    },
    triggers: {
      type: ['map', 'string'],
      optional: true,
      requiresReplace: true,
      description: 'Arbitrary values; any change triggers a new report.',
    },
    report_url: { type: 'string', computed: true, description: 'Link to the generated report.' },
    status: {
      type: 'string',
      computed: true,
      description: 'Status returned by the service when the report was triggered.',
    },
    triggered_at: { type: 'string', computed: true, description: 'When the report was triggered (RFC 3339).' },
  },
};

const DELETED_ALERTS =
  'What the service does with the alerts of a deleted domain is not documented: they are assumed deleted with it, so give alerts that target it a reference to it (target_id = networkcalc_domain.<name>.id) and terraform deletes them first.';

const domain: ResourceSchema = {
  version: 0,
  description: `A domain of a NetworkCalc account, the target of alerts and reports. A name identifies one domain within an account: a name the account already has is refused at plan with the id to import. ${DELETED_ALERTS}`,
  attributes: {
    id: {
      type: 'string',
      computed: true,
      stable: true,
      description: 'Id of the domain, assigned by the service: its number in decimal, as `terraform import` takes it.',
    },
    name: {
      type: 'string',
      required: true,
      requiresReplace: true,
      description:
        'Domain name, e.g. example.com: a host name of RFC 1035/1123 labels; an internationalised name is sent as its A-label. Compared without regard to case.',
    },
    created_at: { type: 'string', computed: true, stable: true, description: 'When the domain was added.' },
  },
};

const subdomain: ResourceSchema = {
  version: 0,
  description:
    'A subdomain of a domain of the account (prefix www of example.com is www.example.com), the target of alerts and reports. A prefix identifies one subdomain within its domain: one the domain already has is refused at plan with the id to import. Its alerts are assumed deleted with it.',
  attributes: {
    id: {
      type: 'string',
      computed: true,
      stable: true,
      description:
        'Id of the subdomain, assigned by the service: its number in decimal, as `terraform import` takes it.',
    },
    domain_id: {
      type: 'number',
      required: true,
      requiresReplace: true,
      description:
        'Id of the domain: networkcalc_domain.<name>.id, data.networkcalc_domain.<name>.id, or a literal id.',
    },
    prefix: {
      type: 'string',
      required: true,
      requiresReplace: true,
      description:
        'The part before the domain: www, or my.demo for my.demo.example.com. Compared without regard to case.',
    },
    name: {
      type: 'string',
      computed: true,
      stable: true,
      description: 'Full name of the subdomain, e.g. www.example.com (lower case).',
    },
  },
};

const alertObject = {
  id: 'number',
  name: 'string',
  type: 'string',
  subtype: 'string',
  filter: 'string',
  filter_value: 'string',
  target_type: 'string',
  target_id: 'number',
  is_active: 'bool',
  current_status: 'string',
  last_triggered_at: 'string',
} as const;

const alertsData: BlockSchema = {
  description: 'Lists the alerts of the account, optionally filtered by name or type.',
  attributes: {
    name: { type: 'string', optional: true, description: 'Only alerts with exactly this name.' },
    name_prefix: { type: 'string', optional: true, description: 'Only alerts whose name starts with this prefix.' },
    type: { type: 'string', optional: true, description: `Only alerts of this type: ${quoted(ALERT_TYPES)}.` },
    alerts: {
      type: ['list', ['object', alertObject]],
      computed: true,
      description: 'The matching alerts, ordered by id.',
    },
  },
};

const domainData: BlockSchema = {
  description: 'Looks up a domain of the account by name.',
  attributes: {
    name: { type: 'string', required: true, description: 'Domain name, e.g. example.com.' },
    id: { type: 'number', computed: true, description: 'Id of the domain, for target_id and report triggers.' },
    created_at: { type: 'string', computed: true, description: 'When the domain was added.' },
  },
};

const subdomainData: BlockSchema = {
  description: 'Looks up a subdomain of the account by its full name.',
  attributes: {
    name: { type: 'string', required: true, description: 'Full name of the subdomain, e.g. www.example.com.' },
    id: { type: 'number', computed: true, description: 'Id of the subdomain, for target_id and report triggers.' },
    domain_id: { type: 'number', computed: true, description: 'Id of the domain the subdomain belongs to.' },
    prefix: { type: 'string', computed: true, description: 'The part before the domain, e.g. www.' },
  },
};

const subdomainObject = {
  id: 'number',
  name: 'string',
  prefix: 'string',
  domain_id: 'number',
  domain: 'string',
} as const;

const domainsData: BlockSchema = {
  description:
    'Lists every domain of the account with its subdomains, ordered by name, so that a configuration can give each of them the same alerts with for_each.',
  attributes: {
    domains: {
      type: [
        'list',
        [
          'object',
          { id: 'number', name: 'string', created_at: 'string', subdomains: ['list', ['object', subdomainObject]] },
        ],
      ],
      computed: true,
      description: 'Every domain: its id, name (lower case), created_at and subdomains.',
    },
    subdomains: {
      type: ['list', ['object', subdomainObject]],
      computed: true,
      description:
        'Every subdomain of every domain, in one list: its id, full name (e.g. www.example.com), prefix, domain_id and domain.',
    },
  },
};

export const PROVIDER_SCHEMA: ProviderSchemaDoc = {
  address: PROVIDER_ADDRESS,
  provider: providerConfig,
  resources: {
    networkcalc_alert: alert,
    networkcalc_report_trigger: reportTrigger,
    networkcalc_domain: domain,
    networkcalc_subdomain: subdomain,
  },
  dataSources: {
    networkcalc_alerts: alertsData,
    networkcalc_domain: domainData,
    networkcalc_subdomain: subdomainData,
    networkcalc_domains: domainsData,
  },
};
