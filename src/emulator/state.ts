import { randomBytes } from 'node:crypto';
import type { EmulatorSeed, SeedAccount, SeedAlert } from './seed';

export interface StoredCredential {
  client_id: string;
  client_secret: string;
  revoked: boolean;
}

export interface StoredToken {
  access_token: string;
  /** ISO time; null never expires. */
  expires_at: string | null;
}

export interface StoredDomain {
  id: number;
  domain: string;
  created_at: string;
  updated_at: string;
}

export interface StoredSubdomain {
  id: number;
  domain_id: number;
  prefix: string;
  created_at: string;
  updated_at: string;
}

export interface StoredAlert {
  id: number;
  name: string;
  type: string;
  subtype: string | null;
  filter: string;
  filter_value: string;
  target_type: 'domain' | 'subdomain';
  target_id: number;
  is_active: boolean;
  current_status: string;
  action: string;
  last_triggered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredReport {
  id: string;
  kind: 'domain' | 'subdomain';
  domain_id: number;
  subdomain_id: number | null;
  created_at: string;
  /** Snapshot taken when the report was triggered; served as the download. */
  content: Record<string, unknown>;
}

export interface StoredAccount {
  name: string;
  user_id: number;
  credentials: StoredCredential[];
  tokens: StoredToken[];
  domains: StoredDomain[];
  subdomains: StoredSubdomain[];
  alerts: StoredAlert[];
  reports: StoredReport[];
}

export interface EmulatorState {
  format: 'networkcalc-emulator-state';
  version: 1;
  /** Next alert id; alert ids are global, increasing and never reused. */
  next_alert_id: number;
  /** Domains and subdomains share one id sequence, so an id names exactly one resource. */
  next_resource_id: number;
  accounts: StoredAccount[];
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The ids handed to seed items without one: each past every id the seed gives. */
interface NextIds {
  resource: number;
  alert: number;
}

function firstFreeIds(seed: EmulatorSeed): NextIds {
  let maxResource = 0;
  let maxAlert = 0;
  for (const a of seed.accounts) {
    for (const d of a.domains ?? []) {
      maxResource = Math.max(maxResource, d.id ?? 0);
      for (const s of d.subdomains ?? []) maxResource = Math.max(maxResource, s.id ?? 0);
    }
    for (const x of a.alerts ?? []) maxAlert = Math.max(maxAlert, x.id ?? 0);
  }
  return { resource: maxResource + 1, alert: maxAlert + 1 };
}

/** An account's domains and subdomains, ids given in the order listed. */
function storedDomains(
  a: SeedAccount,
  at: string,
  next: NextIds,
): { domains: StoredDomain[]; subdomains: StoredSubdomain[] } {
  const domains: StoredDomain[] = [];
  const subdomains: StoredSubdomain[] = [];
  for (const d of a.domains ?? []) {
    const id = d.id ?? next.resource++;
    domains.push({ id, domain: d.domain, created_at: at, updated_at: at });
    for (const s of d.subdomains ?? []) {
      subdomains.push({
        id: s.id ?? next.resource++,
        domain_id: id,
        prefix: s.prefix,
        created_at: at,
        updated_at: at,
      });
    }
  }
  return { domains, subdomains };
}

/** A seed alert's target as type and id; a target given by name is found among the account's (checked) domains. */
function seedAlertTarget(
  x: SeedAlert,
  domains: readonly StoredDomain[],
  subdomains: readonly StoredSubdomain[],
): { targetType: 'domain' | 'subdomain'; targetId: number } {
  if (x.target === undefined) return { targetType: x.target_type ?? 'domain', targetId: x.target_id ?? 0 };
  const dom = domains.find((d) => d.domain === x.target);
  if (dom) return { targetType: 'domain', targetId: dom.id };
  const sub = subdomains.find((s) => `${s.prefix}.${domains.find((d) => d.id === s.domain_id)!.domain}` === x.target)!;
  return { targetType: 'subdomain', targetId: sub.id };
}

function storedAlert(
  x: SeedAlert,
  domains: readonly StoredDomain[],
  subdomains: readonly StoredSubdomain[],
  at: string,
  next: NextIds,
): StoredAlert {
  const { targetType, targetId } = seedAlertTarget(x, domains, subdomains);
  return {
    id: x.id ?? next.alert++,
    name: x.name,
    type: x.type,
    subtype: x.subtype ?? null,
    filter: x.filter,
    filter_value: x.filter_value ?? '',
    target_type: targetType,
    target_id: targetId,
    is_active: x.is_active ?? true,
    current_status: x.current_status ?? 'healthy',
    action: 'email',
    last_triggered_at: x.last_triggered_at ?? null,
    created_at: at,
    updated_at: at,
  };
}

function storedAccount(a: SeedAccount, at: string, next: NextIds): StoredAccount {
  const { domains, subdomains } = storedDomains(a, at, next);
  const alerts = (a.alerts ?? []).map((x) => storedAlert(x, domains, subdomains, at, next));
  alerts.sort((p, q) => p.id - q.id);
  return {
    name: a.name,
    user_id: a.user_id,
    credentials: (a.credentials ?? []).map((c) => ({
      client_id: c.client_id,
      client_secret: c.client_secret,
      revoked: c.revoked === true,
    })),
    tokens: (a.tokens ?? []).map((t) => ({ access_token: t.access_token, expires_at: t.expires_at ?? null })),
    domains,
    subdomains,
    alerts,
    reports: [],
  };
}

/** Builds a fresh state from a (checked) seed. */
export function stateFromSeed(seed: EmulatorSeed, now = new Date()): EmulatorState {
  const at = now.toISOString();
  const next = firstFreeIds(seed);
  const accounts = seed.accounts.map((a) => storedAccount(a, at, next));
  return {
    format: 'networkcalc-emulator-state',
    version: 1,
    next_alert_id: next.alert,
    next_resource_id: next.resource,
    accounts,
  };
}

// ---- changes: the one way the state changes, live and when the journal is replayed ----

/** The lists of an account that changes address, and what each holds. */
interface AccountLists {
  alerts: StoredAlert;
  domains: StoredDomain;
  subdomains: StoredSubdomain;
  tokens: StoredToken;
  reports: StoredReport;
}
export type ListName = keyof AccountLists;
type AnyItem = AccountLists[ListName];

/** What names an item in its list. */
const KEY_OF: { [L in ListName]: (item: AccountLists[L]) => number | string } = {
  alerts: (a) => a.id,
  domains: (d) => d.id,
  subdomains: (s) => s.id,
  tokens: (t) => t.access_token,
  reports: (r) => r.id,
};

/**
 * One change of an account's list: `put` adds an item or replaces the one with its key, in
 * place; `remove` takes the items with these keys away. Items are replaced, never mutated,
 * so an object in the state is the one a change put there.
 */
export type Change =
  | { [L in ListName]: { op: 'put'; account: string; list: L; item: AccountLists[L] } }[ListName]
  | { op: 'remove'; account: string; list: ListName; keys: Array<number | string> };

/**
 * Applies a change to the state. Alerts stay in id order (the list is ordered by id); other
 * lists keep the order items were added in. A put also moves the next id past the item's:
 * ids are never reused, whoever chose them. `account`: the change's account, when the caller
 * keeps them indexed.
 */
export function applyChange(
  state: EmulatorState,
  change: Change,
  account = state.accounts.find((a) => a.name === change.account),
): void {
  if (!account) throw new Error(`no account named ${JSON.stringify(change.account)}`);
  const list: AnyItem[] = account[change.list];
  const keyOf = KEY_OF[change.list] as (item: AnyItem) => number | string;
  if (change.op === 'remove') {
    const keys = new Set(change.keys);
    let kept = 0;
    for (const item of list) if (!keys.has(keyOf(item))) list[kept++] = item;
    list.length = kept;
    return;
  }
  const key = keyOf(change.item);
  // Most puts add an item at the end (ids increase): look there first.
  const last = list.length - 1;
  const at = last >= 0 && keyOf(list[last]!) === key ? last : list.findIndex((item) => keyOf(item) === key);
  if (at !== -1) {
    list[at] = change.item;
  } else if (change.list === 'alerts') {
    const alerts = list as StoredAlert[];
    const id = change.item.id;
    const after = last >= 0 && alerts[last]!.id > id ? alerts.findIndex((a) => a.id > id) : -1;
    if (after === -1) alerts.push(change.item);
    else alerts.splice(after, 0, change.item);
  } else {
    list.push(change.item);
  }
  if (change.list === 'alerts') state.next_alert_id = Math.max(state.next_alert_id, change.item.id + 1);
  if (change.list === 'domains' || change.list === 'subdomains') {
    state.next_resource_id = Math.max(state.next_resource_id, change.item.id + 1);
  }
}
