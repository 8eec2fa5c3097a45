import { FaultBook, type FaultPlan } from './faults';
import { RequestLog } from './request-log';
import type { EmulatorSettings } from './settings';
import type { StoredAccount } from './state';
import type { Store } from './store';

/** Reports kept per account; triggering one more forgets the oldest (its URL then answers 404). */
export const REPORTS_PER_ACCOUNT_LIMIT = 1_000;

/** Dropped tokens remembered for the request log's `claimedAccount`. */
export const RETIRED_TOKENS_LIMIT = 10_000;

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
  /** The account the credentials claim, accepted or not (see RequestLogEntry.claimedAccount). */
  claimedAccount?: string;
  /** A token exchange whose faults wait for its body, since a fault matches by account. */
  faultsDeferred?: boolean;
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
  /**
   * Tokens dropped after they expired, with their account, so that a request still sending
   * one is logged as that account's (the newest RETIRED_TOKENS_LIMIT; memory only).
   */
  readonly retiredTokens = new Map<string, string>();
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

  /** Remembers tokens dropped from `account`, forgetting the oldest past the limit. */
  retireTokens(tokens: readonly string[], account: string): void {
    for (const t of tokens) {
      this.retiredTokens.delete(t);
      this.retiredTokens.set(t, account);
    }
    for (const oldest of this.retiredTokens.keys()) {
      if (this.retiredTokens.size <= RETIRED_TOKENS_LIMIT) break;
      this.retiredTokens.delete(oldest);
    }
  }

  /** The account a bearer token names, accepted or not; undefined for a token never issued. */
  accountClaimedBy(token: string): string | undefined {
    return this.store.accountHoldingToken(token)?.name ?? this.retiredTokens.get(token);
  }

  /** The account a client id belongs to. */
  accountOfClientId(clientId: unknown): string | undefined {
    if (typeof clientId !== 'string') return undefined;
    return this.store.state.accounts.find((a) => a.credentials.some((c) => c.client_id === clientId))?.name;
  }

  /** Back to the start: seed state, start settings (the rate generator restarted), no faults, empty log. */
  async reset(): Promise<void> {
    const saved = this.store.reset();
    this.faults.clear();
    this.requestLog.clear();
    this.retiredTokens.clear();
    this.settings = { ...this.startSettings };
    this.faults.reseed(this.settings.randomSeed);
    await saved;
  }
}
