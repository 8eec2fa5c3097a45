import { FaultBook, type FaultPlan } from './faults';
import { RequestLog } from './request-log';
import type { EmulatorSettings } from './settings';
import type { StoredAccount } from './state';
import type { Store } from './store';

/** Reports kept per account; triggering one more forgets the oldest (its URL then answers 404). */
export const REPORTS_PER_ACCOUNT_LIMIT = 1_000;

/** The newest `limit` reports (or other items kept oldest first). */
export function keepNewest<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(items.length - limit) : items;
}

/** What the emulator knows about one request (`request.emulator`, set by request-hooks.ts). */
export interface RequestState {
  /** An Authorization header was sent (maybe with an unusable token). */
  authorization: boolean;
  /** The account of the bearer token, when it is known and not expired. */
  account?: StoredAccount;
  /** The faults chosen for this request. */
  plan?: FaultPlan;
  /** The body was sent as JSON but could not be parsed. */
  invalidJson?: boolean;
  /** The route's handler was reached: faults of phase "after" act on its answer. */
  handled?: boolean;
  /** A fault destroyed the connection: nothing of the answer reached the client. */
  dropped?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    emulator: RequestState;
  }
}

/** Everything the routes share: state, faults, log and settings. */
export class EmulatorCore {
  readonly faults: FaultBook;
  readonly requestLog: RequestLog;
  /** The settings now; `reset` returns to those the emulator started with. */
  settings: EmulatorSettings;

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

  /** Applies checked settings; a given randomSeed (even the same one) restarts the sequence. */
  updateSettings(update: Partial<EmulatorSettings>): void {
    this.settings = { ...this.settings, ...update };
    if ('randomSeed' in update) this.faults.reseed(this.settings.randomSeed);
  }

  /** Back to the start: seed state, start settings (the rate generator restarted), no faults, empty log. */
  async reset(): Promise<void> {
    const saved = this.store.reset();
    this.faults.clear();
    this.requestLog.clear();
    this.settings = { ...this.startSettings };
    this.faults.reseed(this.settings.randomSeed);
    await saved;
  }
}
