import { readFileSync } from 'node:fs';
import { isValidHostName } from '../model';
import { isObject } from '../support/json';

/** A seed: the accounts the emulator starts with (and returns to on reset). */
export interface EmulatorSeed {
  accounts: SeedAccount[];
}

export interface SeedAccount {
  /** Name used by the control surface (`/_emulator/accounts/<name>/...`). */
  name: string;
  /** The `user_id` shown on this account's alerts. */
  user_id: number;
  credentials?: SeedCredential[];
  /** Ready access tokens. */
  tokens?: SeedToken[];
  domains?: SeedDomain[];
  alerts?: SeedAlert[];
}

export interface SeedCredential {
  client_id: string;
  client_secret: string;
  /** Token requests with a revoked credential answer REVOKED_CREDENTIALS. */
  revoked?: boolean;
}

export interface SeedToken {
  access_token: string;
  /** ISO 8601 time; absent means the token never expires. */
  expires_at?: string;
}

export interface SeedDomain {
  /** Fixed id; assigned after the highest given id when absent. */
  id?: number;
  domain: string;
  subdomains?: SeedSubdomain[];
}

export interface SeedSubdomain {
  id?: number;
  /** `www` for www.example.com; may contain dots (`my.demo`). */
  prefix: string;
}

/** An alert present from the start. The target is an id or a domain / full subdomain name. */
export interface SeedAlert {
  id?: number;
  name: string;
  type: string;
  subtype?: string | null;
  filter: string;
  filter_value?: string;
  target_type?: 'domain' | 'subdomain';
  target_id?: number;
  /** Instead of target_type + target_id: `example.com` or `www.example.com`. */
  target?: string;
  is_active?: boolean;
  current_status?: string;
  last_triggered_at?: string | null;
}

/** The built-in account used when no seed is given. Its ids are fixed. */
export const DEMO_ACCOUNT = {
  name: 'demo',
  userId: 1,
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  /** Ready access token that never expires (until expired through the control surface). */
  token: 'demo-token',
  domains: {
    'example.com': 1,
    'example.org': 4,
  },
  subdomains: {
    'www.example.com': 2,
    'mail.example.com': 3,
  },
} as const;

export function demoSeed(): EmulatorSeed {
  return {
    accounts: [
      {
        name: DEMO_ACCOUNT.name,
        user_id: DEMO_ACCOUNT.userId,
        credentials: [{ client_id: DEMO_ACCOUNT.clientId, client_secret: DEMO_ACCOUNT.clientSecret }],
        tokens: [{ access_token: DEMO_ACCOUNT.token }],
        domains: [
          {
            id: DEMO_ACCOUNT.domains['example.com'],
            domain: 'example.com',
            subdomains: [
              { id: DEMO_ACCOUNT.subdomains['www.example.com'], prefix: 'www' },
              { id: DEMO_ACCOUNT.subdomains['mail.example.com'], prefix: 'mail' },
            ],
          },
          { id: DEMO_ACCOUNT.domains['example.org'], domain: 'example.org' },
        ],
        alerts: [],
      },
    ],
  };
}

/** A seed that cannot be used; the message names the field, e.g. `accounts[0].user_id`. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

type Obj = Record<string, unknown>;

function fail(path: string, what: string, value: unknown): never {
  throw new SeedError(`${path} ${what} (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`);
}

function str(o: Obj, key: string, path: string, opts: { optional?: boolean } = {}): string | undefined {
  const v = o[key];
  if (v === undefined && opts.optional) return undefined;
  if (typeof v !== 'string' || v.trim() === '') fail(`${path}.${key}`, 'must be a non-empty string', v);
  return v;
}

function posInt(o: Obj, key: string, path: string, opts: { optional?: boolean } = {}): number | undefined {
  const v = o[key];
  if (v === undefined && opts.optional) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
    fail(`${path}.${key}`, 'must be a positive whole number', v);
  return v;
}

function arr(o: Obj, key: string, path: string): unknown[] {
  const v = o[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(`${path}.${key}`, 'must be an array', v);
  return v;
}

function obj(v: unknown, path: string): Obj {
  if (!isObject(v)) fail(path, 'must be an object', v);
  return v;
}

function onlyKeys(o: Obj, keys: readonly string[], path: string): void {
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) throw new SeedError(`${path}.${k} is not a known field (known: ${keys.join(', ')})`);
  }
}

/**
 * What a seed has used so far, across all accounts: names, user ids, client ids, tokens and
 * ids must each be unique in the whole seed, not only within one account.
 */
interface SeedUniques {
  names: Set<string>;
  userIds: Set<number>;
  clientIds: Set<string>;
  tokens: Set<string>;
  resourceIds: Set<number>;
  alertIds: Set<number>;
}

/** The fields an alert of a seed may have. */
const SEED_ALERT_KEYS = [
  'id',
  'name',
  'type',
  'subtype',
  'filter',
  'filter_value',
  'target_type',
  'target_id',
  'target',
  'is_active',
  'current_status',
  'last_triggered_at',
] as const;

function parseCredential(rc: unknown, cp: string, seen: SeedUniques): SeedCredential {
  const c = obj(rc, cp);
  onlyKeys(c, ['client_id', 'client_secret', 'revoked'], cp);
  const clientId = str(c, 'client_id', cp)!;
  if (seen.clientIds.has(clientId)) fail(`${cp}.client_id`, 'is used by another credential', clientId);
  seen.clientIds.add(clientId);
  if (c.revoked !== undefined && typeof c.revoked !== 'boolean')
    fail(`${cp}.revoked`, 'must be true or false', c.revoked);
  const out: SeedCredential = { client_id: clientId, client_secret: str(c, 'client_secret', cp)! };
  if (c.revoked) out.revoked = true;
  return out;
}

function parseToken(rt: unknown, tp: string, seen: SeedUniques): SeedToken {
  const t = obj(rt, tp);
  onlyKeys(t, ['access_token', 'expires_at'], tp);
  const token = str(t, 'access_token', tp)!;
  if (seen.tokens.has(token)) fail(`${tp}.access_token`, 'is used by another token', token);
  seen.tokens.add(token);
  const expires = str(t, 'expires_at', tp, { optional: true });
  if (expires !== undefined && Number.isNaN(Date.parse(expires)))
    fail(`${tp}.expires_at`, 'must be an ISO 8601 time', expires);
  const out: SeedToken = { access_token: token };
  if (expires !== undefined) out.expires_at = new Date(expires).toISOString();
  return out;
}

/** An optional domain or subdomain id, unique among all domains and subdomains of the seed. */
function resourceId(o: Obj, path: string, seen: SeedUniques): number | undefined {
  const id = posInt(o, 'id', path, { optional: true });
  if (id !== undefined) {
    if (seen.resourceIds.has(id)) fail(`${path}.id`, 'is used by another domain or subdomain', id);
    seen.resourceIds.add(id);
  }
  return id;
}

function parseSubdomain(
  rs: unknown,
  sp: string,
  domain: string,
  prefixes: Set<string>,
  seen: SeedUniques,
): SeedSubdomain {
  const s = obj(rs, sp);
  onlyKeys(s, ['id', 'prefix'], sp);
  const sid = resourceId(s, sp, seen);
  const prefix = str(s, 'prefix', sp)!;
  if (!isValidHostName(`${prefix}.${domain}`))
    fail(`${sp}.prefix`, 'must be lower-case labels such as www or my.demo', prefix);
  if (prefixes.has(prefix)) fail(`${sp}.prefix`, 'is listed twice in this domain', prefix);
  prefixes.add(prefix);
  const out: SeedSubdomain = { prefix };
  if (sid !== undefined) out.id = sid;
  return out;
}

function parseDomain(rd: unknown, dp: string, domainNames: Set<string>, seen: SeedUniques): SeedDomain {
  const d = obj(rd, dp);
  onlyKeys(d, ['id', 'domain', 'subdomains'], dp);
  const id = resourceId(d, dp, seen);
  const domain = str(d, 'domain', dp)!;
  // Seeds give names in canonical form (the model's rule, not normalized here).
  if (!isValidHostName(domain)) fail(`${dp}.domain`, 'must be a lower-case domain name such as example.com', domain);
  if (domainNames.has(domain)) fail(`${dp}.domain`, 'is listed twice in this account', domain);
  domainNames.add(domain);
  const prefixes = new Set<string>();
  const subdomains = arr(d, 'subdomains', dp).map((rs, si) =>
    parseSubdomain(rs, `${dp}.subdomains[${si}]`, domain, prefixes, seen),
  );
  const out: SeedDomain = { domain, subdomains };
  if (id !== undefined) out.id = id;
  return out;
}

/** The target of a seed alert: a name (`target`) or a type and an id, not both. */
function parseAlertTarget(x: Obj, xp: string, out: SeedAlert): void {
  if (x.target !== undefined) {
    if (x.target_id !== undefined || x.target_type !== undefined)
      fail(`${xp}.target`, 'cannot be combined with target_type / target_id', x.target);
    out.target = str(x, 'target', xp)!;
  } else {
    if (x.target_type !== 'domain' && x.target_type !== 'subdomain')
      fail(`${xp}.target_type`, 'must be "domain" or "subdomain" (or give target: "<name>")', x.target_type);
    out.target_type = x.target_type;
    out.target_id = posInt(x, 'target_id', xp)!;
  }
}

/** Activity, status and last trigger of a seed alert, each optional. */
function parseAlertStatus(x: Obj, xp: string, out: SeedAlert): void {
  if (x.is_active !== undefined) {
    if (typeof x.is_active !== 'boolean') fail(`${xp}.is_active`, 'must be true or false', x.is_active);
    out.is_active = x.is_active;
  }
  const status = str(x, 'current_status', xp, { optional: true });
  if (status !== undefined) out.current_status = status;
  if (x.last_triggered_at !== undefined && x.last_triggered_at !== null) {
    if (typeof x.last_triggered_at !== 'string' || Number.isNaN(Date.parse(x.last_triggered_at))) {
      fail(`${xp}.last_triggered_at`, 'must be an ISO 8601 time or null', x.last_triggered_at);
    }
    out.last_triggered_at = x.last_triggered_at;
  }
}

function parseAlert(ra: unknown, xp: string, seen: SeedUniques): SeedAlert {
  const x = obj(ra, xp);
  onlyKeys(x, SEED_ALERT_KEYS, xp);
  const id = posInt(x, 'id', xp, { optional: true });
  if (id !== undefined) {
    if (seen.alertIds.has(id)) fail(`${xp}.id`, 'is used by another alert', id);
    seen.alertIds.add(id);
  }
  const out: SeedAlert = { name: str(x, 'name', xp)!, type: str(x, 'type', xp)!, filter: str(x, 'filter', xp)! };
  if (id !== undefined) out.id = id;
  if (x.subtype !== undefined && x.subtype !== null && typeof x.subtype !== 'string')
    fail(`${xp}.subtype`, 'must be a string or null', x.subtype);
  out.subtype = typeof x.subtype === 'string' && x.subtype !== '' ? x.subtype : null;
  if (x.filter_value !== undefined && typeof x.filter_value !== 'string')
    fail(`${xp}.filter_value`, 'must be a string', x.filter_value);
  out.filter_value = (x.filter_value as string | undefined) ?? '';
  parseAlertTarget(x, xp, out);
  parseAlertStatus(x, xp, out);
  return out;
}

function parseAccount(rawAccount: unknown, p: string, seen: SeedUniques): SeedAccount {
  const a = obj(rawAccount, p);
  onlyKeys(a, ['name', 'user_id', 'credentials', 'tokens', 'domains', 'alerts'], p);
  const name = str(a, 'name', p)!;
  if (!/^[A-Za-z0-9._-]+$/.test(name)) fail(`${p}.name`, 'may only contain letters, digits, ".", "_" and "-"', name);
  if (seen.names.has(name)) fail(`${p}.name`, 'is used by another account', name);
  seen.names.add(name);
  const userId = posInt(a, 'user_id', p)!;
  if (seen.userIds.has(userId)) fail(`${p}.user_id`, 'is used by another account', userId);
  seen.userIds.add(userId);

  const credentials = arr(a, 'credentials', p).map((rc, ci) => parseCredential(rc, `${p}.credentials[${ci}]`, seen));
  const tokens = arr(a, 'tokens', p).map((rt, ti) => parseToken(rt, `${p}.tokens[${ti}]`, seen));
  const domainNames = new Set<string>();
  const domains = arr(a, 'domains', p).map((rd, di) => parseDomain(rd, `${p}.domains[${di}]`, domainNames, seen));
  const alerts = arr(a, 'alerts', p).map((ra, xi) => parseAlert(ra, `${p}.alerts[${xi}]`, seen));
  return { name, user_id: userId, credentials, tokens, domains, alerts };
}

/**
 * Every alert's target names a domain or subdomain of its own account. Checked once all
 * explicit ids are known; names are resolved in the state.
 */
function checkAlertTargets(accounts: readonly SeedAccount[]): void {
  accounts.forEach((account, ai) => {
    account.alerts!.forEach((alert, xi) => {
      const xp = `accounts[${ai}].alerts[${xi}]`;
      if (alert.target !== undefined) {
        const found = account.domains!.some(
          (d) => d.domain === alert.target || d.subdomains!.some((s) => `${s.prefix}.${d.domain}` === alert.target),
        );
        if (!found) fail(`${xp}.target`, `must name a domain or subdomain of account "${account.name}"`, alert.target);
      } else {
        const found =
          alert.target_type === 'domain'
            ? account.domains!.some((d) => d.id === alert.target_id)
            : account.domains!.some((d) => d.subdomains!.some((s) => s.id === alert.target_id));
        if (!found)
          fail(
            `${xp}.target_id`,
            `must be the id of a ${alert.target_type} of account "${account.name}" given in the seed`,
            alert.target_id,
          );
      }
    });
  });
}

/**
 * Checks a seed and returns a normalized copy. Every message names the offending field, so a
 * hand-written seed file can be fixed from the error alone. Targets of alerts are checked
 * against the account's own domains; the alert matrix is not enforced (a seed may hold
 * alerts the public API would reject, to test tolerant readers).
 */
export function parseSeed(input: unknown): EmulatorSeed {
  const root = obj(input, 'seed');
  onlyKeys(root, ['accounts'], 'seed');
  const accountsIn = arr(root, 'accounts', 'seed');
  if (accountsIn.length === 0) throw new SeedError('seed.accounts must list at least one account');

  const seen: SeedUniques = {
    names: new Set(),
    userIds: new Set(),
    clientIds: new Set(),
    tokens: new Set(),
    resourceIds: new Set(),
    alertIds: new Set(),
  };
  const accounts = accountsIn.map((rawAccount, ai) => parseAccount(rawAccount, `accounts[${ai}]`, seen));
  checkAlertTargets(accounts);
  return { accounts };
}

/** Reads and checks a seed file; errors name the file and the field. */
export function loadSeedFile(path: string): EmulatorSeed {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new SeedError(`cannot read seed file ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SeedError(`seed file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return parseSeed(parsed);
  } catch (err) {
    if (err instanceof SeedError) throw new SeedError(`seed file ${path}: ${err.message}`);
    throw err;
  }
}
