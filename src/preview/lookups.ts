/**
 * The DNS and TLS lookups of a preview: one resolver for the run (the system's servers, or
 * `--resolver`), every lookup bounded in time, at most `concurrency` in flight, and each
 * (host, kind) asked once per run however many alerts need it. A lookup never throws: it
 * returns what was found or why nothing was.
 */
import { ExpectedError } from '../support/expected-error';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { decodeCharacterStrings } from './dns-text';
import type { SpfAnswer, SpfResolver } from './spf';
import { Limiter } from '../support/limiter';
import { readCertificate, type CertificateResult } from './tls';

export interface LookupOptions {
  /** `ip` or `ip:port` (`[v6]:port`); default: the servers of the system (resolv.conf). */
  resolver?: string;
  /** Time for one DNS answer, in ms; also bounds a TLS connect and handshake. */
  timeoutMs?: number;
  /** Lookups (DNS and TLS) in flight at once. */
  concurrency?: number;
  /**
   * Where the TLS connection for a host goes: by default its first A address (AAAA when it has
   * no A record), port 443. Tests
   * point it elsewhere (see `NCALC_PREVIEW_TLS_PORT`).
   */
  tlsPort?: number;
}

export const DEFAULT_LOOKUP_TIMEOUT_MS = 3000;
export const DEFAULT_CONCURRENCY = 16;
/** The most lookups `--lookup-concurrency` lets run at once. */
export const MAX_CONCURRENCY = 256;
/**
 * A testing aid: `NCALC_PREVIEW_TLS_PORT` sends every TLS connection of a preview to that port
 * instead of 443 (the address still comes from DNS), so tests can serve certificates locally.
 */
export const TLS_PORT_ENV = 'NCALC_PREVIEW_TLS_PORT';
/** After this many timeouts in a row with no answer ever, the resolver is taken as unreachable. */
const DEAD_AFTER_TIMEOUTS = 3;
/** CNAME chains longer than this are reported, not followed (resolvers stop near here too). */
export const MAX_CNAME_HOPS = 8;

export type DnsKind = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT';

/** `records`: found (possibly none: the name exists without such a record). */
export type DnsAnswer =
  { ok: true; records: string[]; nodata: boolean } | { ok: false; code: string; reason: string; nxdomain: boolean };

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** Why a `--resolver` value is not usable, or null. */
export function resolverProblem(value: string): string | null {
  return parseResolver(value)
    ? null
    : `--resolver ${JSON.stringify(value)} is not an IP address with an optional port, such as 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53`;
}

function parseResolver(value: string): string | null {
  const v = value.trim();
  if (isIP(v)) return v;
  const v6 = /^\[([^\]]+)\]:(\d{1,5})$/.exec(v);
  const v4 = /^([^:]+):(\d{1,5})$/.exec(v);
  const m = v6 ?? v4;
  if (!m || !isIP(m[1]) || Number(m[2]) < 1 || Number(m[2]) > 65535) return null;
  return v6 ? `[${m[1]}]:${m[2]}` : `${m[1]}:${m[2]}`;
}

/** `bücher.example` → `xn--bcher-kva.example`; null when it is not a usable name. */
export function asciiHost(host: string): string | null {
  const ascii = domainToASCII(host.trim().replace(/\.$/, ''));
  return ascii === '' ? null : ascii.toLowerCase();
}

/** Stops a promise after `ms`; `onTimeout` is what it then resolves to. */
function within<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export class Lookups {
  readonly resolverLabel: string;
  readonly timeoutMs: number;
  private readonly resolver: Resolver;
  private readonly limiter: Limiter;
  private readonly tlsPort: number;
  private readonly cache = new Map<string, Promise<unknown>>();
  private timeoutsInARow = 0;
  private answered = false;
  /** Lookups actually sent (DNS queries and TLS connections), for tests and the benchmark. */
  sent = { dns: 0, tls: 0 };

  constructor(options: LookupOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
    this.limiter = new Limiter(options.concurrency ?? DEFAULT_CONCURRENCY);
    this.tlsPort = options.tlsPort ?? 443;
    // One try: a retry would double the time a dead resolver costs; c-ares's own timer is the first bound.
    this.resolver = new Resolver({ timeout: this.timeoutMs, tries: 1 });
    if (options.resolver !== undefined) {
      const server = parseResolver(options.resolver);
      if (!server) throw new ExpectedError(resolverProblem(options.resolver)!);
      this.resolver.setServers([server]);
      this.resolverLabel = server;
    } else {
      this.resolverLabel = `the system resolver (${this.resolver.getServers().join(', ') || 'no servers configured'})`;
    }
  }

  /**
   * The one answer for `key` in this run. `limited`: the work itself takes a slot; work that
   * only waits on other lookups must not (a slot held while waiting for a queued lookup could
   * wait for ever).
   */
  private once<T>(key: string, work: () => Promise<T>, limited = true): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = limited ? this.limiter.run(work) : work();
      this.cache.set(key, p);
    }
    return p;
  }

  /** Records of one kind for a name (ASCII), MX as `exchange` strings sorted by priority. */
  dns(name: string, kind: DnsKind): Promise<DnsAnswer> {
    return this.once(`${kind} ${name}`, () => this.query(name, kind), kind !== 'MX');
  }

  /** MX records with their priorities. */
  mx(name: string): Promise<{ ok: true; records: MxRecord[] } | Extract<DnsAnswer, { ok: false }>> {
    return this.once(`MX* ${name}`, async () => {
      const dead = this.deadAnswer();
      if (dead) return dead;
      return this.ask(async () => {
        const mx = await this.resolver.resolveMx(name);
        return {
          ok: true as const,
          records: mx
            .map((m) => ({ exchange: m.exchange.toLowerCase().replace(/\.$/, ''), priority: m.priority }))
            .sort((a, b) => a.priority - b.priority || (a.exchange < b.exchange ? -1 : 1)),
        };
      }, name);
    });
  }

  private deadAnswer(): Extract<DnsAnswer, { ok: false }> | null {
    if (this.answered || this.timeoutsInARow < DEAD_AFTER_TIMEOUTS) return null;
    return {
      ok: false,
      code: 'RESOLVER_UNREACHABLE',
      nxdomain: false,
      reason: `${this.resolverLabel} did not answer ${DEAD_AFTER_TIMEOUTS} lookups in a row (${this.timeoutMs} ms each), so no more were sent; check the network or give --resolver`,
    };
  }

  private async query(name: string, kind: DnsKind): Promise<DnsAnswer> {
    const dead = this.deadAnswer();
    if (dead) return dead;
    if (kind === 'MX') {
      const mx = await this.mx(name);
      return mx.ok ? { ok: true, records: mx.records.map((m) => m.exchange), nodata: mx.records.length === 0 } : mx;
    }
    return this.ask(async () => {
      let records: string[];
      if (kind === 'A') records = await this.resolver.resolve4(name);
      else if (kind === 'AAAA') records = await this.resolver.resolve6(name);
      else if (kind === 'CNAME') records = (await this.resolver.resolveCname(name)).map(hostOf);
      else records = (await this.resolver.resolveTxt(name)).map(decodeCharacterStrings);
      return { ok: true as const, records, nodata: records.length === 0 };
    }, name);
  }

  /** Runs one DNS call, bounded in time, and turns its failure into a reason. */
  private async ask<T extends { ok: true }>(
    call: () => Promise<T>,
    name: string,
  ): Promise<T | { ok: true; records: never[]; nodata: true } | Extract<DnsAnswer, { ok: false }>> {
    this.sent.dns++;
    const timedOut = () => ({ code: 'ETIMEOUT' }) as NodeJS.ErrnoException;
    // c-ares bounds the query; this bounds everything else (a stuck socket, a slow system).
    const outcome = await within(
      call().then(
        (value) => ({ value }),
        (error: NodeJS.ErrnoException) => ({ error }),
      ),
      this.timeoutMs + 1000,
      () => ({ error: timedOut() }),
    );
    if ('value' in outcome) {
      this.answered = true;
      this.timeoutsInARow = 0;
      return outcome.value;
    }
    const code = outcome.error.code ?? 'ERROR';
    if (code === 'ETIMEOUT') this.timeoutsInARow++;
    else if (code !== 'ECONNREFUSED') {
      this.answered = true;
      this.timeoutsInARow = 0;
    }
    // The name exists, without a record of this kind.
    if (code === 'ENODATA') return { ok: true, records: [], nodata: true };
    return { ok: false, code, nxdomain: code === 'ENOTFOUND', reason: dnsReason(code, name, this) };
  }

  /**
   * `www.example.com → cdn.example.net → …`: the CNAME chain from a name, followed for at most
   * MAX_CNAME_HOPS hops. `loop`: a name came back; `tooLong`: there were more hops than that,
   * none a repeat.
   */
  async cnameChain(
    name: string,
  ): Promise<{ chain: string[]; loop: boolean; tooLong: boolean; error: DnsAnswer | null }> {
    const chain: string[] = [];
    let current = name;
    for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
      const answer = await this.dns(current, 'CNAME');
      if (!answer.ok) return { chain, loop: false, tooLong: false, error: hop === 0 ? answer : null };
      if (!answer.records.length) return { chain, loop: false, tooLong: false, error: null };
      const next = answer.records[0];
      if (next === name || chain.includes(next))
        return { chain: [...chain, next], loop: true, tooLong: false, error: null };
      chain.push(next);
      current = next;
    }
    // One more question tells a chain that ends here from one that goes on.
    const more = await this.dns(current, 'CNAME');
    return { chain, loop: false, tooLong: more.ok && more.records.length > 0, error: null };
  }

  /** The lookups of an SPF check (spf.ts), from this run's answers. */
  spfResolver(): SpfResolver {
    const answer = async (name: string, kind: DnsKind): Promise<SpfAnswer> => {
      const a = await this.dns(name, kind);
      if (a.ok) return { ok: true, records: a.records };
      if (a.code === 'EBADNAME') return { ok: true, records: [], unsent: true };
      return { ok: false, nxdomain: a.nxdomain, reason: a.reason };
    };
    return {
      txt: (name) => answer(name, 'TXT'),
      a: (name) => answer(name, 'A'),
      aaaa: (name) => answer(name, 'AAAA'),
      mx: (name) => answer(name, 'MX'),
    };
  }

  /** The certificate a host serves on 443 (SNI = host), read even when it does not verify. */
  certificate(host: string): Promise<CertificateResult> {
    return this.once(
      `TLS ${host}`,
      async (): Promise<CertificateResult> => {
        // The address comes from the same resolver as every other lookup (so --resolver applies):
        // the first A record, or the first AAAA record for a host that has none.
        const a = await this.dns(host, 'A');
        if (!a.ok) return { ok: false, code: a.code, reason: a.reason };
        const aaaa = a.records.length ? null : await this.dns(host, 'AAAA');
        if (aaaa && !aaaa.ok) return { ok: false, code: aaaa.code, reason: aaaa.reason };
        const address = a.records[0] ?? aaaa?.records[0];
        if (address === undefined)
          return { ok: false, code: 'ENODATA', reason: `${host} has no A or AAAA record to connect to` };
        return this.limiter.run(() => {
          this.sent.tls++;
          return readCertificate({
            address,
            port: this.tlsPort,
            servername: host,
            timeoutMs: this.timeoutMs,
          });
        });
      },
      false,
    );
  }
}

const hostOf = (name: string) => name.toLowerCase().replace(/\.$/, '');

function dnsReason(code: string, name: string, l: Lookups): string {
  switch (code) {
    case 'ENOTFOUND':
      return `${name} does not exist (NXDOMAIN)`;
    case 'ETIMEOUT':
      return `${l.resolverLabel} did not answer for ${name} within ${l.timeoutMs} ms`;
    case 'ECONNREFUSED':
      return `${l.resolverLabel} refused the connection; check --resolver or the network`;
    case 'ESERVFAIL':
      return `the resolver answered SERVFAIL for ${name} (the name's servers failed or DNSSEC did not validate)`;
    case 'EREFUSED':
      return `the resolver refused to answer for ${name} (REFUSED)`;
    case 'EBADNAME':
      return `${JSON.stringify(name)} is not a name DNS can look up`;
    default:
      return `the lookup of ${name} failed (${code})`;
  }
}
