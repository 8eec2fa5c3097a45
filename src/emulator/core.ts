import type { FastifyRequest } from 'fastify';
import { FaultBook, type FaultPlan } from './faults';
import { RequestLog } from './request-log';
import type { EmulatorSettings } from './settings';
import type { StoredAccount, Store } from './state';

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
  readonly requestLog: RequestLog;
  /** The settings now; `reset` returns to those the emulator started with. */
  settings: EmulatorSettings;
  private readonly info = new WeakMap<FastifyRequest, RequestInfo>();

  constructor(
    readonly store: Store,
    readonly controlToken: string,
    readonly tokenLifetimeSeconds: number,
    private readonly startSettings: EmulatorSettings,
    readonly reportsPerAccount: number = REPORTS_PER_ACCOUNT_LIMIT,
    requestLogLimit?: number,
  ) {
    this.settings = { ...startSettings };
    this.faults = new FaultBook(startSettings.randomSeed);
    this.requestLog = new RequestLog(requestLogLimit);
  }

  infoOf(request: FastifyRequest): RequestInfo {
    let i = this.info.get(request);
    if (!i) {
      i = {};
      this.info.set(request, i);
    }
    return i;
  }

  /** Applies checked settings; a given randomSeed (even the same one) restarts the sequence. */
  updateSettings(update: Partial<EmulatorSettings>): void {
    this.settings = { ...this.settings, ...update };
    if ('randomSeed' in update) this.faults.reseed(this.settings.randomSeed);
  }

  /** Back to the start: seed state, start settings (the rate generator restarted), no faults, empty log. */
  reset(): void {
    this.store.reset();
    this.faults.clear();
    this.requestLog.clear();
    this.settings = { ...this.startSettings };
    this.faults.reseed(this.settings.randomSeed);
  }
}
