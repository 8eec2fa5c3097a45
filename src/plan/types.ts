import type { AlertSpec, CanonicalAlert, FieldChange, LiveAlert } from '../model';
import type { OwnershipMode } from '../accounts/account-rules';

/** What the reconciler needs from an API client; the real one is `NetworkCalcClient`. */
export interface AlertsApi {
  listAlerts(): Promise<LiveAlert[]>;
  createAlert(spec: CanonicalAlert): Promise<unknown>;
  updateAlert(id: number, spec: CanonicalAlert): Promise<unknown>;
  deleteAlert(id: number): Promise<unknown>;
  listDomains(): Promise<ApiDomain[]>;
  /** Domain and subdomain creates, for declared targets (optional: a reader-only client has none). */
  addDomain?(name: string): Promise<unknown>;
  addSubdomain?(domainId: number, prefix: string): Promise<unknown>;
  /** Deletes of targets an exclusive scope does not declare (src/engine/apply.ts). */
  deleteDomain?(id: number): Promise<unknown>;
  deleteSubdomain?(domainId: number, subdomainId: number): Promise<unknown>;
  triggerDomainReport(id: number): Promise<ApiReport>;
  triggerSubdomainReport(id: number): Promise<ApiReport>;
}

export interface ApiDomain {
  id: number;
  domain: string;
  subdomains: Array<{ id: number; domain_id: number; prefix: string; subdomain: string }>;
}

export interface ApiReport {
  status: string;
  domain_id: number | null;
  subdomain_id: number | null;
  report_url: string;
}

/** Connection settings of one account, with secrets resolved from the environment. */
export interface Credentials {
  baseUrl: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  /** Attempts per request, the first included (provider `max_retries`). */
  maxAttempts?: number;
  timeoutMs?: number;
  /**
   * The names of the variables these credentials came from ("A_TOKEN or B_TOKEN" when scopes
   * of one account name different ones), so the client's messages name them.
   */
  variables?: { token: string | null; clientId: string | null; clientSecret: string | null };
}

export type ClientFactory = (credentials: Credentials) => AlertsApi;

/** One provider configuration of one stack: a claim on part of an account. */
export interface Scope {
  /** `<stack>/<provider key>`, unique in a run. */
  key: string;
  stack: string;
  /** `networkcalc` or `networkcalc.<alias>`, as resources name it. */
  providerKey: string;
  alias: string | null;
  baseUrl: string | null;
  /** The variables of its credentials; null where the block names none (see ProviderBlock). */
  tokenEnv: string | null;
  clientIdEnv: string | null;
  clientSecretEnv: string | null;
  ownership: OwnershipMode;
  prefix: string | null;
  /** Provider `max_retries` / `timeout_seconds`, when set. */
  maxRetries: number | null;
  timeoutSeconds: number | null;
}

/**
 * A target given by id, by the name a `networkcalc_domain` / `networkcalc_subdomain` data
 * source looks up, or by a `networkcalc_domain` / `networkcalc_subdomain` resource the app
 * declares (`declared`: created by the plan when the account lacks it).
 */
export type TargetRef =
  | { kind: 'id'; id: number }
  | { kind: 'name'; targetType: 'domain' | 'subdomain'; name: string; dataSource: string }
  | DeclaredTargetRef;

/**
 * A reference to a declared domain or subdomain resource (`networkcalc_domain.<id>`). `name` is
 * its full canonical name; null for a subdomain of a domain given by a literal id, whose name
 * the account's domains list gives.
 */
export interface DeclaredTargetRef {
  kind: 'declared';
  targetType: 'domain' | 'subdomain';
  name: string | null;
  resource: string;
  /** Set when `name` is null: the subdomain's prefix under the domain of this id. */
  under?: { domainId: number; prefix: string };
}

/** A `networkcalc_domain` or `networkcalc_subdomain` resource the app declares. */
export interface DeclaredTarget {
  stack: string;
  logicalId: string;
  path: string;
  scopeKey: string;
  targetType: 'domain' | 'subdomain';
  /** `networkcalc_domain.<logical id>`, as references name it. */
  resource: string;
  /** Full canonical name (A-labels, lower case); null as in DeclaredTargetRef. */
  name: string | null;
  /** A subdomain's prefix (canonical) and its domain; null for a domain. */
  prefix: string | null;
  domain: TargetRef | null;
}

export interface DeclaredAlert {
  stack: string;
  logicalId: string;
  /** Construct path (`quickstart/ApexA`), or `<stack>/<logicalId>` when the JSON carries none. */
  path: string;
  scopeKey: string;
  /** Canonical and valid; `target_id` is 0 until a name target is resolved. */
  spec: CanonicalAlert;
  target: TargetRef;
  /** Generated when the account was planned by the alert policy at `path` (not declared by the app itself). */
  fromPolicy?: true;
}

export interface DeclaredTrigger {
  stack: string;
  logicalId: string;
  path: string;
  scopeKey: string;
  targetType: 'domain' | 'subdomain';
  target: TargetRef;
  triggers: Record<string, string>;
}

export type ChangeAction = 'create' | 'update' | 'delete';
/**
 * Why a change is planned: `missing` (declared, not live), `changed` (live differs),
 * `renamed` (an update: the live alert of the declared settings was renamed in the account; the
 * PATCH names it back, keeping its id),
 * `undeclared` (live in an owned scope, not declared), `duplicate` (a second live alert with
 * a managed name), `destroy` (asked for by `ncalc destroy`).
 */
export type ChangeReason = 'missing' | 'changed' | 'renamed' | 'undeclared' | 'duplicate' | 'destroy';

export interface Change {
  action: ChangeAction;
  reason: ChangeReason;
  name: string;
  /** Live id; null for a create. */
  id: number | null;
  scopeKey: string;
  stack: string;
  /** Terraform logical id and construct path when the alert is declared. */
  logicalId: string | null;
  path: string | null;
  before: AlertSpec | null;
  after: CanonicalAlert | null;
  fields: FieldChange[];
  /**
   * A create of an alert policy's alert whose target no live alert of the account watches: the
   * target is new in the account (added in the console), not an alert deleted out of band.
   */
  newTarget?: true;
}

export interface PlannedTrigger {
  stack: string;
  logicalId: string;
  path: string;
  scopeKey: string;
  targetType: 'domain' | 'subdomain';
  targetId: number;
  targetName: string | null;
  triggers: Record<string, string>;
}

export interface Warning {
  scopeKey: string | null;
  message: string;
  /** Set when apply refuses the plan unless the guard's flag is given. */
  guard?: DeleteGuard;
  /**
   * Set when the plan changes or deletes alerts that a local Terraform state holds: apply and
   * destroy refuse it unless given `--ignore-terraform-state` (src/plan/terraform-held.ts).
   */
  terraformState?: { file: string; ids: number[] };
}

/**
 * A `networkcalc_alert` that a local Terraform state of the app holds (read by
 * src/read/terraform-state.ts): the other door owns it.
 */
export interface HeldAlert {
  /** The state file (absolute path), or the backend (or outside configuration) and workspace. */
  file: string;
  /**
   * Null: a Terraform configuration outside the app (cdktf.json's
   * `networkcalc.terraformConfigurations`, --terraform-config), which may hold alerts of any
   * account: its alerts are matched by id in every account's list.
   */
  stack: string | null;
  /** Absent for a `networkcalc_alert`; set for a `networkcalc_domain` or `networkcalc_subdomain` (then `name` is the domain's name). */
  kind?: 'domain' | 'subdomain';
  /** The provider configuration of the resource: `networkcalc` or `networkcalc.<alias>`. */
  providerKey: string;
  /** Its address in the state: `networkcalc_alert.<name>`, with `[key]` for an instance of count or for_each. */
  address: string;
  /** Null when the provider could not learn it (it finds the alert by name on the next refresh). */
  id: number | null;
  name: string | null;
}

/**
 * Deletions apply refuses without an explicit flag: a scope that declares no alerts but would
 * delete live ones (`empty_scope`, `--allow-empty`), or one that would lose a large share of
 * its live alerts (`mass_delete`, `--allow-mass-delete`).
 */
export interface DeleteGuard {
  kind: 'empty_scope' | 'mass_delete';
  flag: string;
  /** Alerts the plan deletes in the scope. */
  deletes: number;
  /** Live alerts the scope owns (and, when `targets` is set, its live domains and subdomains). */
  owned: number;
  /** How many of `deletes` are domains and subdomains (exclusive ownership only); absent when none. */
  targets?: number;
}
