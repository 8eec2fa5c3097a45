/**
 * One account's alerts as a writer sees them: list calls shared by everyone who needs one,
 * and the bookkeeping that lets a create recognise its own alert in a list.
 *
 * The create answer carries no id (interface 4.4 / 2.5), so every create that must learn its
 * id, and every create whose outcome is unknown, needs a list that started after its POST
 * returned. Lists are coalesced: at most one is in flight and at most one is queued behind it;
 * every caller that asks while a list is queued joins it. N creates at parallelism P cost about
 * N/P lists instead of N (see bench/RESULTS.md, "Coalesced id look-ups").
 */
import type { LiveAlert } from '../model';

/** The answer of one list call. */
export interface Listing {
  readonly alerts: readonly LiveAlert[];
  readonly byId: ReadonlyMap<number, LiveAlert>;
}

export interface AccountAlertsOptions {
  /**
   * A list taken before any write of this run (the reconciler's plan). Its alerts count as
   * existing before every create, and it answers `current()` until the first write.
   */
  baseline?: readonly LiveAlert[];
  /**
   * A fixed wait before each list (ms), for tests. By default a list waits the time the last
   * POST took (creates handed over a moment later join it), then while creates are still
   * waiting for their POST's answer (they will need a list too), at most twice the last POST or
   * half the last list, never more than MAX_GATHER_MS. 1,000 creates through terraform at
   * -parallelism=10 and 50 ms latency: 157 lists (218 without the first wait, 1,000 before).
   */
  gatherMs?: number;
}

const MAX_GATHER_MS = 100;

interface Started {
  /** 1 for the first list started, 2 for the next… */
  readonly index: number;
  readonly promise: Promise<Listing>;
}

function listingOf(alerts: readonly LiveAlert[]): Listing {
  return { alerts, byId: new Map(alerts.map((a) => [a.id, a])) };
}

export class AccountAlerts {
  readonly #list: () => Promise<readonly LiveAlert[]>;
  readonly #gatherMs: number | undefined;
  #lastListMs = 0;
  #lastWriteMs = 0;
  /** Creates whose POST has not answered yet. */
  #writing = 0;
  /** Called when a write ends, to cut a gathering wait short. */
  #onWriteEnd: (() => void) | undefined;
  #started = 0;
  #completed = 0;
  #inFlight: Started | undefined;
  #queued: Promise<Listing> | undefined;
  /** The newest list started (or the baseline), kept for reads until a write invalidates it. */
  #latest: Started | undefined;
  /** current() accepts only lists whose index is at least this (0: the baseline too). */
  #freshAfter = 0;
  /** Alert id → the number of the first completed list that showed it (0: the baseline). */
  readonly #firstSeen = new Map<number, number>();
  /** Ids that a create or a resolution by name has taken; no second one may take them. */
  readonly claimed = new Set<number>();

  constructor(list: () => Promise<readonly LiveAlert[]>, options: AccountAlertsOptions = {}) {
    this.#list = list;
    this.#gatherMs = options.gatherMs === undefined ? undefined : Math.max(0, options.gatherMs);
    if (options.baseline) {
      this.#record(options.baseline, 0);
      this.#latest = { index: 0, promise: Promise.resolve(listingOf(options.baseline)) };
    }
  }

  /** List calls made so far. */
  get lists(): number {
    return this.#started;
  }

  /** Whether a list (or the baseline) has completed, so creates can tell new alerts from old. */
  get hasBaseline(): boolean {
    return this.#completed > 0 || this.#latest?.index === 0;
  }

  /** A point in time: `after(mark())` is answered by a list that starts later than now. */
  mark(): number {
    return this.#started;
  }

  /** Completed lists so far: an alert first seen in one of these existed before now. */
  completedMark(): number {
    return this.#completed;
  }

  /** True when the alert was first listed after `completedMark` (or has never been listed). */
  isNewSince(id: number, completedMark: number): boolean {
    const seen = this.#firstSeen.get(id);
    return seen === undefined || seen > completedMark;
  }

  /** The alerts as shown by a list that started after `mark`; shared with other callers. */
  after(mark: number): Promise<Listing> {
    if (this.#inFlight && this.#inFlight.index > mark) return this.#inFlight.promise;
    if (this.#queued) return this.#queued;
    const previous = this.#inFlight?.promise;
    if (!previous && this.#gatherMs === 0) return this.#start().promise;
    const queued = (async () => {
      if (previous) await previous.catch(() => undefined);
      await this.#gather();
      this.#queued = undefined;
      return this.#start().promise;
    })();
    this.#queued = queued;
    return queued;
  }

  /**
   * For reads: the newest list, unless a write since made it stale. A failed list stays the
   * answer until the next write: the client has already retried it, and repeating the whole
   * retry sequence for every resource terraform reads would multiply the wait.
   */
  current(): Promise<Listing> {
    if (this.#latest && this.#latest.index >= this.#freshAfter) return this.#latest.promise;
    return this.after(this.#freshAfter - 1);
  }

  /** After a write: reads wait for a list that starts later. */
  invalidate(): void {
    this.#freshAfter = this.#started + 1;
  }

  /**
   * Marks a create's POST in flight; call the returned function when it has answered. Lists
   * about to start wait for such writes (see AccountAlertsOptions.gatherMs).
   */
  beginWrite(): () => void {
    this.#writing++;
    const t0 = Date.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#writing--;
      this.#lastWriteMs = Date.now() - t0;
      this.#onWriteEnd?.();
    };
  }

  #gather(): Promise<void> {
    if (this.#gatherMs !== undefined) {
      const ms = this.#gatherMs;
      return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
    }
    // At least one POST's time, so creates that terraform hands over a moment later join too.
    const floor = Math.min(MAX_GATHER_MS, this.#lastWriteMs);
    const limit = Math.min(MAX_GATHER_MS, Math.max(2 * this.#lastWriteMs, Math.floor(this.#lastListMs / 2)));
    const started = Date.now();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        clearTimeout(floorTimer);
        this.#onWriteEnd = undefined;
        resolve();
      };
      const timer = setTimeout(done, limit);
      // After the floor, the wait ends as soon as no create is waiting for its POST's answer.
      const floorTimer = setTimeout(() => {
        if (this.#writing === 0) done();
      }, floor);
      this.#onWriteEnd = () => {
        if (this.#writing === 0 && Date.now() - started >= floor) done();
      };
    });
  }

  #start(): Started {
    const index = ++this.#started;
    const t0 = Date.now();
    const promise = Promise.resolve()
      .then(() => this.#list())
      .then((alerts) => {
        this.#lastListMs = Date.now() - t0;
        this.#record(alerts, ++this.#completed);
        return listingOf(alerts);
      })
      .finally(() => {
        if (this.#inFlight?.index === index) this.#inFlight = undefined;
      });
    // Waiters get the rejection; this keeps an unobserved failure from being reported twice.
    promise.catch(() => undefined);
    const started = { index, promise };
    this.#inFlight = started;
    this.#latest = started;
    return started;
  }

  #record(alerts: readonly LiveAlert[], completed: number): void {
    for (const a of alerts) if (!this.#firstSeen.has(a.id)) this.#firstSeen.set(a.id, completed);
  }
}
