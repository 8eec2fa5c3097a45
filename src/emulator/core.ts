import type { FastifyRequest } from 'fastify';
import { FaultBook, type FaultPlan } from './faults';
import type { StoredAccount, Store } from './state';

/** One line of the request log (GET /_emulator/requests). status 0: the connection was dropped. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** Name of the account the bearer token belongs to, when it is valid. */
  account: string | null;
  status: number;
  at: string;
}

export const REQUEST_LOG_LIMIT = 10_000;

/** Reports kept per account; triggering one more forgets the oldest (its URL then answers 404). */
export const REPORTS_PER_ACCOUNT_LIMIT = 1_000;

/** The newest `limit` reports (or other items kept oldest first). */
export function keepNewest<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(items.length - limit) : items;
}

/** What the emulator knows about one request, kept beside fastify's request object. */
export interface RequestInfo {
  account?: StoredAccount;
  plan?: FaultPlan;
  /** The body was sent as JSON but could not be parsed. */
  invalidJson?: boolean;
  /** A body was sent with a content type other than JSON. */
  notJson?: boolean;
}

/** Everything the routes share: state, faults, log and settings. */
export class EmulatorCore {
  readonly faults: FaultBook;
  readonly requestLog: RequestLogEntry[] = [];
  private readonly info = new WeakMap<FastifyRequest, RequestInfo>();

  constructor(
    readonly store: Store,
    readonly controlToken: string,
    readonly tokenLifetimeSeconds: number,
    randomSeed?: number,
    readonly reportsPerAccount: number = REPORTS_PER_ACCOUNT_LIMIT,
  ) {
    this.faults = new FaultBook(randomSeed);
  }

  infoOf(request: FastifyRequest): RequestInfo {
    let i = this.info.get(request);
    if (!i) {
      i = {};
      this.info.set(request, i);
    }
    return i;
  }

  log(entry: RequestLogEntry): void {
    this.requestLog.push(entry);
    if (this.requestLog.length > REQUEST_LOG_LIMIT) this.requestLog.splice(0, this.requestLog.length - REQUEST_LOG_LIMIT);
  }

  /** Back to the start: seed state, no faults, empty log. */
  reset(): void {
    this.store.reset();
    this.faults.clear();
    this.requestLog.length = 0;
  }
}
