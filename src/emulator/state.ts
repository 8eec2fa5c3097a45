import { randomBytes } from 'node:crypto';
import { DataFileLock, readStateFile, removeStaleTempFiles, writeStateFile } from './data-file';
import type { EmulatorSeed } from './seed';

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

/** Builds a fresh state from a (checked) seed. */
export function stateFromSeed(seed: EmulatorSeed, now = new Date()): EmulatorState {
  const at = now.toISOString();
  let maxResource = 0;
  let maxAlert = 0;
  for (const a of seed.accounts) {
    for (const d of a.domains ?? []) {
      maxResource = Math.max(maxResource, d.id ?? 0);
      for (const s of d.subdomains ?? []) maxResource = Math.max(maxResource, s.id ?? 0);
    }
    for (const x of a.alerts ?? []) maxAlert = Math.max(maxAlert, x.id ?? 0);
  }
  let nextResource = maxResource + 1;
  let nextAlert = maxAlert + 1;

  const accounts = seed.accounts.map((a): StoredAccount => {
    const domains: StoredDomain[] = [];
    const subdomains: StoredSubdomain[] = [];
    for (const d of a.domains ?? []) {
      const id = d.id ?? nextResource++;
      domains.push({ id, domain: d.domain, created_at: at, updated_at: at });
      for (const s of d.subdomains ?? []) {
        subdomains.push({ id: s.id ?? nextResource++, domain_id: id, prefix: s.prefix, created_at: at, updated_at: at });
      }
    }
    const alerts = (a.alerts ?? []).map((x): StoredAlert => {
      let targetType = x.target_type ?? 'domain';
      let targetId = x.target_id ?? 0;
      if (x.target !== undefined) {
        const dom = domains.find((d) => d.domain === x.target);
        if (dom) {
          targetType = 'domain';
          targetId = dom.id;
        } else {
          const sub = subdomains.find((s) => `${s.prefix}.${domains.find((d) => d.id === s.domain_id)!.domain}` === x.target)!;
          targetType = 'subdomain';
          targetId = sub.id;
        }
      }
      return {
        id: x.id ?? nextAlert++,
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
    });
    alerts.sort((p, q) => p.id - q.id);
    return {
      name: a.name,
      user_id: a.user_id,
      credentials: (a.credentials ?? []).map((c) => ({ client_id: c.client_id, client_secret: c.client_secret, revoked: c.revoked === true })),
      tokens: (a.tokens ?? []).map((t) => ({ access_token: t.access_token, expires_at: t.expires_at ?? null })),
      domains,
      subdomains,
      alerts,
      reports: [],
    };
  });

  return { format: 'networkcalc-emulator-state', version: 1, next_alert_id: nextAlert, next_resource_id: nextResource, accounts };
}

/**
 * The emulator's state and where it lives. Handlers mutate `state` and call `commit()`
 * before they answer, so an answered change is on disk (writes are synchronous on purpose:
 * correctness over throughput, and the state is small). With a data file, the store holds
 * its lock from construction to `close()`.
 */
export class Store {
  state: EmulatorState;
  private readonly initialSeed: EmulatorSeed;
  private readonly dataFile?: string;
  private readonly lock?: DataFileLock;

  constructor(seed: EmulatorSeed, dataFile?: string) {
    this.initialSeed = structuredClone(seed);
    this.dataFile = dataFile;
    if (!dataFile) {
      this.state = stateFromSeed(seed);
      return;
    }
    this.lock = DataFileLock.acquire(dataFile);
    try {
      removeStaleTempFiles(dataFile);
      this.state = readStateFile(dataFile) ?? stateFromSeed(seed);
      // Written at once even when loaded: an unwritable file fails the start, not the first
      // change, and a file saved by an older version gets the owner-only mode.
      this.commit();
    } catch (err) {
      this.lock.release();
      throw err;
    }
  }

  commit(): void {
    if (this.dataFile) writeStateFile(this.dataFile, this.state);
  }

  /** Writes the state a last time and gives up the data file's lock. */
  close(): void {
    try {
      this.commit();
    } finally {
      this.lock?.release();
    }
  }

  /** Gives up the data file's lock without writing (the emulator failed to start). */
  release(): void {
    this.lock?.release();
  }

  /** Back to the seed the emulator was started with. */
  reset(): void {
    this.state = stateFromSeed(this.initialSeed);
    this.commit();
  }

  /** Replace everything with a new seed (kept until the next reset). */
  replace(seed: EmulatorSeed): void {
    this.state = stateFromSeed(seed);
    this.commit();
  }

  account(name: string): StoredAccount | undefined {
    return this.state.accounts.find((a) => a.name === name);
  }

  /** The account a bearer token belongs to, when the token is known and not expired. */
  accountForToken(token: string, now = Date.now()): StoredAccount | undefined {
    for (const a of this.state.accounts) {
      const t = a.tokens.find((x) => x.access_token === token);
      if (t) return t.expires_at === null || Date.parse(t.expires_at) > now ? a : undefined;
    }
    return undefined;
  }

  nextAlertId(): number {
    return this.state.next_alert_id++;
  }

  nextResourceId(): number {
    return this.state.next_resource_id++;
  }
}

// ---- views: what the API shows ----

export function domainView(d: StoredDomain): Record<string, unknown> {
  return { id: d.id, domain: d.domain, created_at: d.created_at, updated_at: d.updated_at };
}

export function subdomainView(account: StoredAccount, s: StoredSubdomain): Record<string, unknown> {
  const parent = account.domains.find((d) => d.id === s.domain_id);
  return {
    id: s.id,
    domain_id: s.domain_id,
    prefix: s.prefix,
    subdomain: parent ? `${s.prefix}.${parent.domain}` : s.prefix,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function domainWithSubdomainsView(account: StoredAccount, d: StoredDomain): Record<string, unknown> {
  return {
    ...domainView(d),
    subdomains: account.subdomains.filter((s) => s.domain_id === d.id).map((s) => subdomainView(account, s)),
  };
}

/** AlertResponse (2.2). target_type / target_id are not part of it: only the target object is. */
export function alertView(account: StoredAccount, a: StoredAlert): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: a.id,
    user_id: account.user_id,
    name: a.name,
    is_active: a.is_active,
    current_status: a.current_status,
    type: a.type,
    subtype: a.subtype,
    filter: a.filter,
    filter_value: a.filter_value,
    action: a.action,
    last_triggered_at: a.last_triggered_at,
  };
  if (a.target_type === 'subdomain') {
    const s = account.subdomains.find((x) => x.id === a.target_id);
    out.target_subdomain = s ? subdomainView(account, s) : { id: a.target_id };
  } else {
    const d = account.domains.find((x) => x.id === a.target_id);
    out.target_domain = d ? domainView(d) : { id: a.target_id };
  }
  return out;
}
