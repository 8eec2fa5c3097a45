/**
 * One account's alerts as a writer sees them: list calls shared by everyone who needs one,
 * and the bookkeeping that lets a create recognise its own alert in a list.
 *
 * The create answer carries no id (interface 4.4 / 2.5), so every create that must learn its
 * id, and every create whose outcome is unknown, needs a list that started after its POST
 * returned. Lists are coalesced: at most one is in flight and at most one is queued behind it;
 * every caller that asks while a list is queued joins it. A budget holds N creates at
 * parallelism P to at most 2N/P + 2 lists instead of N (see docs/architecture.md, "The write
 * path").
 */
import type { LiveAlert } from '../model';
import { CreatePace, type CreateInProgress } from './create-pace';

export type { CreateInProgress } from './create-pace';

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
   * A fixed wait before each list (ms): 0 for a caller whose creates seldom need a list (the
   * reconciler learns no ids), any value for tests. By default a list waits in a window that
   * follows the caller's pace (#gather; docs/architecture.md, "The write path").
   */
  gatherMs?: number;
}

/** The longest a create waits for its list to start. */
export const MAX_WINDOW_MS = 1500;
/** A window lasts at least one POST's time, up to this (ms). */
const MAX_FLOOR_MS = 100;
/** The quiet time that ends a window, in gaps between creates the caller begins... */
const QUIET_GAPS = 6;
/** ...within these bounds (ms). */
const MIN_QUIET_MS = 50;
const MAX_QUIET_MS = 300;
/** The quiet time that ends a window while fewer than half the lanes wait (ms). */
const LONG_QUIET_MS = 600;
/** A caller that begins no create for this many of its longest pauses so far is done. */
const END_PAUSES = 2;

interface Started {
  /** 1 for the first list started, 2 for the next… */
  readonly index: number;
  readonly promise: Promise<Listing>;
}

function listingOf(alerts: readonly LiveAlert[]): Listing {
  return { alerts, byId: new Map(alerts.map((a) => [a.id, a])) };
}

/**
 * The window a queued list waits in (AccountAlerts.#gather). Everything that may end it (a
 * create begun, posted or done, a caller joining, its own timer) runs the same check, and all
 * of them share one timer and one resolve. They are held here rather than in closures so that
 * each rule of the check can be a method of its own, and so that no rule can leave a second
 * timer behind: `wakeAt` replaces the pending wake-up and `close` clears it.
 */
class GatherWindow {
  readonly openedAt: number;
  /** The lanes as seen when the window opened: the creates joining it must not raise the bar. */
  readonly lanes: number;
  /**
   * Just over half the lanes: a list serves that many or more, so N creates at parallelism P
   * cost at most about 2N/P lists, and the caller keeps the other lanes for the creates it
   * hands over meanwhile (terraform waits when all are held).
   */
  readonly target: number;
  readonly #resolve: () => void;
  /** The window's check, run again when the timer fires. */
  readonly #check: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(openedAt: number, lanes: number, resolve: () => void, check: () => void) {
    this.openedAt = openedAt;
    this.lanes = lanes;
    this.target = Math.min(lanes, Math.ceil(lanes / 2) + 1);
    this.#resolve = resolve;
    this.#check = check;
  }

  /** No window lasts past this. */
  get closesBy(): number {
    return this.openedAt + MAX_WINDOW_MS;
  }

  /** Checks again at `at` (at least 1 ms after `now`), in place of any wake-up set before. */
  wakeAt(at: number, now: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#check, Math.max(1, at - now));
  }

  /** Ends the window: the queued list starts. */
  close(): void {
    clearTimeout(this.#timer);
    this.#resolve();
  }
}

export class AccountAlerts {
  readonly #list: () => Promise<readonly LiveAlert[]>;
  readonly #gatherMs: number | undefined;
  /** The caller's creates and their pace (create-pace.ts). */
  readonly #pace = new CreatePace();
  /** Whether a window with creates has ended, which tells the caller's lanes (see #gather). */
  #lanesLearned = false;
  /** The window of the queued list, while it gathers. */
  #window: GatherWindow | undefined;
  #started = 0;
  #completed = 0;
  #inFlight: Started | undefined;
  #queued: Promise<Listing> | undefined;
  /** Callers waiting for the queued list. */
  #joined = 0;
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

  /**
   * The alerts as shown by a list that started after `mark`; shared with other callers. With
   * `now`, a list starts at once unless one that started after `mark` is in flight (a check
   * that must not wait for creates to gather).
   */
  after(mark: number, options: { now?: boolean } = {}): Promise<Listing> {
    if (this.#inFlight && this.#inFlight.index > mark) return this.#inFlight.promise;
    if (options.now) return this.#start().promise;
    if (this.#queued) {
      this.#joined++;
      this.#recheck();
      return this.#queued;
    }
    const previous = this.#inFlight?.promise;
    if (!previous && this.#gatherMs === 0) return this.#start().promise;
    const queued = (async () => {
      if (previous) await previous.catch(() => undefined);
      await this.#gather();
      this.#queued = undefined;
      this.#joined = 0;
      return this.#start().promise;
    })();
    this.#queued = queued;
    this.#joined = 1;
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
   * Marks a create begun: each POST is in flight from `sending()` to `posted()`, and the create
   * counts as outstanding until `done()` (after the list it needed, if any). Lists about to
   * start wait for creates (see #gather).
   */
  beginCreate(): CreateInProgress {
    const create = this.#pace.begin(() => this.#recheck());
    this.#recheck();
    return create;
  }

  /**
   * The wait before a queued list starts: the window in which creates that answer later join
   * it. A list serves the callers waiting when it starts, so it should start when waiting
   * longer brings few more; creates begin at the caller's pace, not the server's. It starts as
   * soon as one POST's time has passed (at most MAX_FLOOR_MS) and one of these holds:
   * - half full: the callers waiting fill just over half the lanes seen when the window
   *   opened (the most creates outstanding at once so far): the window's target;
   * - quiet: no POST is in flight and no create has begun for QUIET_GAPS of the caller's usual
   *   gaps (LONG_QUIET_MS while fewer than half the lanes wait): the caller paused or is done;
   *   at once when no create is outstanding (only reads wait);
   * - the window has lasted as many of the caller's gaps as its target, scaled by the share
   *   of a lane's time that is the caller's own (at most MAX_WINDOW_MS), and no POST in
   *   flight is needed to reach the target.
   * Two rules come before and after those:
   * - the first window with creates lasts until the caller stops handing them over: it learns
   *   the lanes, which the targets and the budget count on;
   * - the budget (#withinBudget) may hold a window on that these rules would end, until the
   *   creates the caller hands over meanwhile pay for the list.
   * No window lasts longer than MAX_WINDOW_MS.
   */
  #gather(): Promise<void> {
    if (this.#gatherMs !== undefined) {
      const ms = this.#gatherMs;
      return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
    }
    const openedAt = Date.now();
    return new Promise((resolve) => {
      const window: GatherWindow = new GatherWindow(openedAt, this.#pace.lanes, resolve, () => this.#check(window));
      this.#window = window;
      this.#check(window);
    });
  }

  /** Something the window's rules read has changed: the window of the queued list checks again. */
  #recheck(): void {
    if (this.#window) this.#check(this.#window);
  }

  /** The rules of #gather, run when the window opens, when its timer fires and on #recheck. */
  #check(window: GatherWindow): void {
    const now = Date.now();
    // Only reads wait: no create could join.
    if (this.#pace.outstanding === 0) return this.#close(window);
    // At least one POST's time (at most 100 ms): creates whose POST is about to answer join.
    const floorAt = window.openedAt + Math.min(MAX_FLOOR_MS, this.#pace.postMs);
    if (now < floorAt) return window.wakeAt(floorAt, now);
    if (!this.#lanesLearned) return this.#checkFirst(window, now);
    this.#checkLater(window, now);
  }

  /**
   * The first window learns the lanes: it lasts until the caller stops handing creates over (it
   * has filled every lane, or has no more), so that the budget and the targets of later windows
   * count every lane. A caller that starts its lanes one by one would otherwise be taken for one
   * with fewer (each window's target follows the lanes seen).
   */
  #checkFirst(window: GatherWindow, now: number): void {
    const learnedAt = this.#lastBeganAt(window) + this.#quietMs();
    if ((this.#pace.writing === 0 && now >= learnedAt) || now >= window.closesBy) {
      this.#lanesLearned = true;
      return this.#close(window);
    }
    window.wakeAt(Math.min(learnedAt, window.closesBy), now);
  }

  /** The rules of every later window: half full, quiet, or its deadline (see #gather). */
  #checkLater(window: GatherWindow, now: number): void {
    // (Creates whose POST is in flight are about to join: a list waits for them.)
    if (window.lanes >= 2 && this.#pace.writing === 0 && this.#joined >= window.target)
      return this.#endWithinBudget(window);
    // A pause of the caller ends a window soon once half the lanes wait, later otherwise.
    const quietMs = this.#joined >= Math.ceil(window.lanes / 2) ? this.#quietMs() : LONG_QUIET_MS;
    const quietAt = this.#lastBeganAt(window) + quietMs;
    if (this.#pace.writing === 0 && now >= quietAt) return this.#endWithinBudget(window);
    const deadline = this.#deadline(window);
    if (now >= deadline) {
      // Creates whose POST is in flight join within one POST's time: when enough of them are
      // in flight to reach the target, the list waits for just that many (posted() checks
      // again), not for every POST, which would lock the lanes into step.
      const inReach = this.#joined < window.target && this.#joined + this.#pace.writing >= window.target;
      if (!inReach || now >= window.closesBy) return this.#endWithinBudget(window);
      return window.wakeAt(window.closesBy, now);
    }
    window.wakeAt(Math.min(deadline, this.#pace.writing === 0 ? quietAt : deadline), now);
  }

  /**
   * When a later window ends by its deadline. The caller begins a create every gap, so `target`
   * gaps let a list serve its target. But holding a create holds one of the caller's lanes:
   * that costs little while most of a lane's time is the caller's own (its work between
   * creates, or lanes it leaves free), and much when the lanes wait on us (creates then gather
   * behind the list in flight anyway). Two measures of the caller's own share, each blind in
   * one case:
   * - gap / (gap + POST): its work between creates against the POST; blind to lanes it never
   *   fills (a high -parallelism at high latency);
   * - 1 - (time a create is outstanding) / (gap × lanes): by Little's law the share of lanes
   *   not held by our creates; blind to the caller being slow on its own (at low latency
   *   terraform is bound by its own CPU and a create's wait costs it nothing).
   * The larger one rules; the window feeds back (a longer one holds more lanes).
   */
  #deadline(window: GatherWindow): number {
    const gap = this.#pace.gapMs;
    const ownWork = gap / (gap + this.#pace.postMs);
    const freeLanes = 1 - Math.min(1, this.#pace.heldMs / (gap * window.lanes));
    const holdMs = window.target * gap * Math.max(ownWork, freeLanes);
    return window.openedAt + Math.min(MAX_WINDOW_MS, Math.max(MIN_QUIET_MS, holdMs));
  }

  /**
   * Every rule of a later window ends it through this one: the budget may hold it on. Over
   * budget it holds on for the creates the caller hands over next (each one raises the budget;
   * beginCreate, posted and done check again). Unless every create outstanding waits already
   * and either every lane seen is among them (the caller may have none left to begin one
   * with), or the caller has begun none for longer than it ever paused with a lane free (it is
   * done, or paused as never before): then the list may take the one list of slack the budget
   * keeps for the end of a run.
   */
  #endWithinBudget(window: GatherWindow): void {
    const now = Date.now();
    if (this.#withinBudget(1) || now >= window.closesBy) return this.#close(window);
    const allWaiting = this.#joined >= this.#pace.outstanding;
    if (allWaiting && this.#pace.outstanding >= this.#pace.lanes) return this.#close(window);
    const pausedMs = Math.min(MAX_WINDOW_MS, Math.max(MIN_QUIET_MS, END_PAUSES * this.#pace.longestPauseMs));
    const doneAt = this.#lastBeganAt(window) + pausedMs;
    const mayEnd = allWaiting && this.#withinBudget(2);
    if (mayEnd && now >= doneAt) return this.#close(window);
    window.wakeAt(Math.min(window.closesBy, mayEnd ? doneAt : Infinity), now);
  }

  /** The window ends and the queued list starts, whichever rule ended it. */
  #close(window: GatherWindow): void {
    this.#window = undefined;
    window.close();
  }

  /** When the caller last began a create (the window's opening if it has begun none). */
  #lastBeganAt(window: GatherWindow): number {
    return this.#pace.beganAt[this.#pace.beganAt.length - 1] ?? window.openedAt;
  }

  /**
   * The quiet time that tells the caller has paused (in the first window, and in later ones once
   * half the lanes wait): QUIET_GAPS of its gaps, within bounds.
   */
  #quietMs(): number {
    return Math.min(MAX_QUIET_MS, Math.max(MIN_QUIET_MS, QUIET_GAPS * this.#pace.gapMs));
  }

  /**
   * Whether the queued list may start by the run's budget: list number k starts only while
   * k ≤ 2 × (creates begun) / lanes + slack, so N creates cost at most 2N/P + 2 lists whatever
   * the caller's pace (lanes, the most creates outstanding at once, is the caller's
   * parallelism P once it has filled its lanes: the first window waits for that). Windows
   * take slack 1, keeping one list for the end of the run (#gather). A window that ends early
   * spends what earlier, fuller ones saved; only when none is left does it wait for the
   * creates the caller hands over next (each one raises the budget by 2 / lanes).
   */
  #withinBudget(slack: number): boolean {
    return this.#started + 1 <= (2 * this.#pace.begun) / Math.max(1, this.#pace.lanes) + slack;
  }

  #start(): Started {
    const index = ++this.#started;
    const promise = Promise.resolve()
      .then(() => this.#list())
      .then((alerts) => {
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
