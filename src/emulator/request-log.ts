import type { FaultKind, FaultPhase } from './faults';
import { requestMatches } from './faults';

/** A fault that hit a request, as the request log shows it. */
export interface LoggedFault {
  id: string;
  kind: FaultKind;
  phase: FaultPhase;
}

/** One line of the request log (GET /_emulator/requests). status 0: the connection was dropped. */
export interface RequestLogEntry {
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The query as sent, without the "?"; "" when there is none. */
  query: string;
  /** Name of the account the bearer token belongs to, when it is valid. */
  account: string | null;
  /**
   * Name of the account the request's credentials claim, accepted or not: the account of its
   * bearer token (valid, expired, or dropped after expiry), or of the client id a token
   * exchange sends; null when they name no account.
   */
  claimedAccount: string | null;
  status: number;
  /** The faults that hit the request (latency ones included); empty when none did. */
  faults: LoggedFault[];
  at: string;
}

/** Which requests a count covers: a method (any case) and a path, exact or by prefix. */
export interface RequestFilter {
  method?: string;
  /** The path, ignoring a trailing slash on either side (`/api/alerts` is `/api/alerts/`). */
  path?: string;
  /** A prefix of the path, as faults match (`/api/alerts` also covers `/api/alerts/5`). */
  pathPrefix?: string;
  /** The account the request's credentials claimed (`claimedAccount`), as faults match. */
  account?: string;
}

/** Counts of the requests a filter covers, since the emulator started or the log was last cleared. */
export interface RequestCounts {
  count: number;
  /** How many of them got each HTTP status ("0": the connection was dropped). */
  statuses: Record<string, number>;
  /** How many of them a fault hit. */
  faulted: number;
  /**
   * false when requests on paths beyond the counters' limit were seen (their method and path
   * were not kept), so `count` may be short for a filter on a path.
   */
  complete: boolean;
  /**
   * Requests the log (GET /requests) no longer holds: its oldest entries, overwritten once it
   * was full. 0 when the log holds every request since start or the last clear.
   */
  dropped: number;
}

/**
 * Entries the request log keeps: the newest, in a ring buffer. Enough for every request of a
 * plan of 10,000 accounts (an alerts list and a domains list each); beyond it the log says how
 * many it dropped.
 */
export const REQUEST_LOG_LIMIT = 50_000;
/** Distinct method + path + account triples the counters keep (a plan of 10,000 accounts needs 20,000). */
export const REQUEST_COUNTER_LIMIT = 50_000;

interface Counter {
  method: string;
  path: string;
  account: string | null;
  count: number;
  faulted: number;
  statuses: Map<number, number>;
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The request log: the newest entries in a fixed-size ring, plus counters per method and path
 * that the ring's turning never loses. Both are bounded: a test can count every request of a
 * long run without the emulator growing.
 */
export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  /** Where the next entry goes once the ring is full. */
  private next = 0;
  private readonly counters = new Map<string, Counter>();
  /** Requests whose method + path found no free counter. */
  private uncounted = 0;
  /** Entries overwritten since the last clear. */
  private overwritten = 0;

  constructor(
    readonly limit = REQUEST_LOG_LIMIT,
    readonly counterLimit = REQUEST_COUNTER_LIMIT,
  ) {}

  add(entry: RequestLogEntry): void {
    if (this.ring.length < this.limit) {
      this.ring.push(entry);
    } else {
      this.ring[this.next] = entry;
      this.next = (this.next + 1) % this.limit;
      this.overwritten++;
    }
    const key = `${entry.method} ${entry.path} ${entry.claimedAccount ?? ''}`;
    let c = this.counters.get(key);
    if (!c) {
      if (this.counters.size >= this.counterLimit) {
        this.uncounted++;
        return;
      }
      c = {
        method: entry.method,
        path: entry.path,
        account: entry.claimedAccount,
        count: 0,
        faulted: 0,
        statuses: new Map(),
      };
      this.counters.set(key, c);
    }
    c.count++;
    if (entry.faults.length) c.faulted++;
    c.statuses.set(entry.status, (c.statuses.get(entry.status) ?? 0) + 1);
  }

  /** How many requests the kept entries leave out (overwritten since the last clear). */
  get dropped(): number {
    return this.overwritten;
  }

  /** The kept entries, oldest first. */
  entries(): RequestLogEntry[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  counts(filter: RequestFilter = {}): RequestCounts {
    const out: RequestCounts = {
      count: 0,
      statuses: {},
      faulted: 0,
      complete: this.uncounted === 0,
      dropped: this.overwritten,
    };
    const exact = filter.path === undefined ? undefined : withoutTrailingSlash(filter.path);
    for (const c of this.counters.values()) {
      const match = { method: filter.method, path: filter.pathPrefix, account: filter.account };
      if (!requestMatches(match, c.method, c.path, c.account)) continue;
      if (exact !== undefined && withoutTrailingSlash(c.path) !== exact) continue;
      out.count += c.count;
      out.faulted += c.faulted;
      for (const [status, n] of c.statuses) out.statuses[status] = (out.statuses[status] ?? 0) + n;
    }
    return out;
  }

  clear(): void {
    this.ring.length = 0;
    this.next = 0;
    this.counters.clear();
    this.uncounted = 0;
    this.overwritten = 0;
  }
}
