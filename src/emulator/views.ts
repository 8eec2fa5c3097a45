import type { StoredAccount, StoredAlert, StoredDomain, StoredSubdomain } from './state';

// What the API shows of the stored state. The shapes are the response schemas of
// routes/shared.ts, property for property and in the same order.

export function domainView(d: StoredDomain): Record<string, unknown> {
  return { id: d.id, domain: d.domain, created_at: d.created_at, updated_at: d.updated_at };
}

export function subdomainView(
  account: StoredAccount,
  s: StoredSubdomain,
  parent = account.domains.find((d) => d.id === s.domain_id),
): Record<string, unknown> {
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
    subdomains: account.subdomains.filter((s) => s.domain_id === d.id).map((s) => subdomainView(account, s, d)),
  };
}

/** The targets of an account's alerts, each view made once (a list shows many alerts per target). */
class Targets {
  private readonly domains = new Map<number, Record<string, unknown>>();
  private readonly subdomains = new Map<number, Record<string, unknown>>();

  constructor(private readonly account: StoredAccount) {}

  domain(id: number): Record<string, unknown> {
    let view = this.domains.get(id);
    if (!view) {
      const d = this.account.domains.find((x) => x.id === id);
      view = d ? domainView(d) : { id };
      this.domains.set(id, view);
    }
    return view;
  }

  subdomain(id: number): Record<string, unknown> {
    let view = this.subdomains.get(id);
    if (!view) {
      const s = this.account.subdomains.find((x) => x.id === id);
      view = s ? subdomainView(this.account, s) : { id };
      this.subdomains.set(id, view);
    }
    return view;
  }
}

/** AlertResponse (2.2). target_type / target_id are not part of it: only the target object is. */
export function alertView(
  account: StoredAccount,
  a: StoredAlert,
  targets = new Targets(account),
): Record<string, unknown> {
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
  if (a.target_type === 'subdomain') out.target_subdomain = targets.subdomain(a.target_id);
  else out.target_domain = targets.domain(a.target_id);
  return out;
}

export function alertViews(account: StoredAccount, alerts: StoredAlert[]): Array<Record<string, unknown>> {
  const targets = new Targets(account);
  return alerts.map((a) => alertView(account, a, targets));
}

/**
 * Each alert's JSON as bytes after a comma (`,{"id":...}`), with what it was made from beyond
 * the alert itself. A stored alert is replaced, never changed (see Change), so its bytes stay
 * right while its user_id and target read the same.
 */
const alertBytes = new WeakMap<StoredAlert, { userId: number; target: string; bytes: Buffer }>();

const LIST_HEAD = Buffer.from('{"status":"OK","alerts":[');
const LIST_TAIL = Buffer.from(']}');

/**
 * The body of the alert list, `{"status":"OK","alerts":[...]}`, byte for byte what the list
 * route's response schema would write (alertView's properties, in its order). At 10,000
 * alerts the schema's serializer took 60-120 ms, half of it garbage collection around one
 * 3.7 MB string; joining the bytes kept per alert takes a few.
 */
export function alertListBody(account: StoredAccount): Buffer {
  const targets = new Targets(account);
  const targetJson = { domain: new Map<number, string>(), subdomain: new Map<number, string>() };
  const pieces: Buffer[] = [LIST_HEAD];
  let length = LIST_HEAD.length + LIST_TAIL.length;
  for (const a of account.alerts) {
    let target = targetJson[a.target_type].get(a.target_id);
    if (target === undefined) {
      target = JSON.stringify(
        a.target_type === 'subdomain' ? targets.subdomain(a.target_id) : targets.domain(a.target_id),
      );
      targetJson[a.target_type].set(a.target_id, target);
    }
    let kept = alertBytes.get(a);
    if (kept?.userId !== account.user_id || kept.target !== target) {
      kept = {
        userId: account.user_id,
        target,
        bytes: Buffer.from(`,${JSON.stringify(alertView(account, a, targets))}`),
      };
      alertBytes.set(a, kept);
    }
    const bytes = pieces.length === 1 ? kept.bytes.subarray(1) : kept.bytes;
    pieces.push(bytes);
    length += bytes.length;
  }
  pieces.push(LIST_TAIL);
  return Buffer.concat(pieces, length);
}
