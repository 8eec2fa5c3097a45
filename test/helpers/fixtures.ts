/**
 * Builders of what the reconciler's tests plan with: a provider block (`Scope`), an alert as
 * declared (`AlertSpec`, canonical, `DeclaredAlert`) and as the service lists it (`LiveAlert`),
 * an account and its plan, and the input of `ncalc export`.
 * The defaults are one DNS A alert (equals 192.0.2.1) on domain 1 in stack `s`; a test passes
 * only what it is about.
 */
import { readLiveAlert, toAlertSpec, type AlertSpec, type CanonicalAlert, type LiveAlert } from '../../src/model';
import type { Account } from '../../src/plan/accounts';
import type { AccountPlan } from '../../src/plan/account-plan';
import type { DeclaredAlert, Scope } from '../../src/plan/types';
import type { ExportInput } from '../../src/codegen/export';

/** The provider block `networkcalc` of stack `over.stack` (default `s`): exclusive, token T, client I and S. */
export function scope(over: Partial<Scope> = {}): Scope {
  const stack = over.stack ?? 's';
  return {
    key: `${stack}/networkcalc`,
    stack,
    providerKey: 'networkcalc',
    alias: null,
    baseUrl: null,
    tokenEnv: 'T',
    clientIdEnv: 'I',
    clientSecretEnv: 'S',
    ownership: 'exclusive',
    prefix: null,
    maxRetries: null,
    timeoutSeconds: null,
    ...over,
  };
}

/** A DNS A record alert equal to 192.0.2.1 on domain 1, as a fresh object (no spread: see manyLiveAlerts). */
const dnsA = (name: string) => ({
  name,
  type: 'DNS Record' as const,
  subtype: 'A',
  filter: 'equals',
  filter_value: '192.0.2.1',
  target_type: 'domain' as const,
  target_id: 1,
});

/** An alert as written in an app: the DNS A defaults, named `a`. */
export const alertSpec = (over: Partial<AlertSpec> = {}): AlertSpec => ({ ...dnsA('a'), ...over });

/** The settings of an SPF validity alert, to spread over the DNS A defaults. */
export const SPF_VALIDITY = {
  type: 'SPF Record',
  subtype: null,
  filter: 'validity',
  filter_value: '',
} as const satisfies Partial<AlertSpec>;

/**
 * The `//` metadata of a stack with one AlertPolicy (`main/Baseline`, generate mode) that makes
 * one alert, "SPF validity · example.org".
 */
export const spfBaselinePolicy = () => ({
  networkcalc_alert_policies: {
    Baseline_1: {
      path: 'main/Baseline',
      mode: 'generate',
      targets: { include: ['example.org'] },
      checks: [{ label: 'SPF validity', type: 'SPF Record', filter: 'validity' }],
    },
  },
});

/** `alertSpec` named `name`, canonical as the reconciler reads it. */
export const spec = (name: string, over: Partial<AlertSpec> = {}): CanonicalAlert =>
  toAlertSpec(alertSpec({ name, ...over }));

/** An alert declared in `stack` (default `s`) under the default provider block, its target by id. */
export const declared = (name: string, over: Partial<AlertSpec> = {}, stack = 's'): DeclaredAlert => ({
  stack,
  logicalId: name.replace(/\W/g, ''),
  path: `${stack}/${name}`,
  scopeKey: `${stack}/networkcalc`,
  spec: spec(name, over),
  target: { kind: 'id', id: over.target_id ?? 1 },
});

/** What the service adds to an alert it lists: the id, owner user 1, active and healthy, no target details. */
const listed = (id: number) => ({
  id,
  user_id: 1,
  is_active: true,
  current_status: 'healthy',
  action: 'email',
  last_triggered_at: null,
  target_domain: null,
  target_subdomain: null,
});

/** An alert as the service lists it: `alertSpec` named `alert <id>`, owned by user 1, healthy. */
export const liveAlert = (id: number, over: Partial<LiveAlert> = {}): LiveAlert =>
  readLiveAlert({ ...dnsA(`alert ${id}`), ...listed(id), ...over });

/** `n` live alerts, `alert 0` to `alert <n-1>` with ids 1 to n; without spreads, which take seconds at 200,000. */
export function manyLiveAlerts(n: number): LiveAlert[] {
  const out: LiveAlert[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = readLiveAlert(Object.assign(dnsA(`alert ${i}`), listed(i + 1)));
  return out;
}

/** What `ncalc export` is given for `live`: the default credential variables, exclusive, no domains list. */
export const exportInput = (live: LiveAlert[], over: Partial<ExportInput> = {}): ExportInput => ({
  account: {
    alias: null,
    baseUrl: null,
    tokenEnv: 'NETWORKCALC_TOKEN',
    clientIdEnv: 'NETWORKCALC_CLIENT_ID',
    clientSecretEnv: 'NETWORKCALC_CLIENT_SECRET',
    ownership: 'exclusive',
    prefix: null,
  },
  live,
  domains: [],
  stackName: 'exported',
  importFrom: 'cdktf-provider-networkcalc',
  cdkLibrary: 'cdktf',
  label: 'test',
  ...over,
});

/** The account of stack `label`'s provider block, on an address where nothing listens. */
export const account = (label: string, over: Partial<Account> = {}): Account => ({
  key: label,
  label,
  baseUrl: 'http://127.0.0.1:1',
  identity: 'token sha256:00000000',
  credentials: { baseUrl: 'http://127.0.0.1:1' },
  scopes: [scope({ stack: label })],
  ...over,
});

/** A plan of `forAccount` that listed nothing and changes nothing; a test sets what it is about. */
export const accountPlan = (forAccount: Account, over: Partial<AccountPlan> = {}): AccountPlan => ({
  account: forAccount,
  status: 'ok',
  error: null,
  changes: [],
  unchanged: 0,
  warnings: [],
  triggers: [],
  live: [],
  domains: null,
  ...over,
});
