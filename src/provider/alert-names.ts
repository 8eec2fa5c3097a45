/**
 * Who holds each alert name of an account, as one provider process knows it: the first list
 * of the process, then this process's own writes (creates, renames, deletes). A create checks
 * it before sending: an alert is identified by its name within its account (as `ncalc` does),
 * so a name that already exists live is someone's alert to import, never a second one to make.
 */
import { alertNameKey as nameKey, type Listing } from '../converge';

export type NameHolder = { kind: 'live'; id: number } | { kind: 'creating' };

export class AlertNames {
  readonly #byName = new Map<string, NameHolder>();
  readonly #nameOfId = new Map<number, string>();
  /** Deleted by this process: a list that started before the delete may still show them. */
  readonly #deleted = new Set<number>();
  #loaded: Promise<void> | undefined;

  /** Fills the index from the first list this process takes; later calls share it. */
  load(list: () => Promise<Listing>): Promise<void> {
    this.#loaded ??= list().then(
      (listing) => {
        for (const a of listing.alerts) {
          // Writes of this process that finished before the list answered win.
          if (this.#deleted.has(a.id) || this.#nameOfId.has(a.id) || this.#byName.has(nameKey(a.name))) continue;
          this.#set(a.id, a.name);
        }
      },
      (err: unknown) => {
        this.#loaded = undefined;
        throw err;
      },
    );
    return this.#loaded;
  }

  holder(name: string): NameHolder | undefined {
    return this.#byName.get(nameKey(name));
  }

  /** Reserves a name for a create about to be sent; false when someone holds it. */
  reserve(name: string): boolean {
    const key = nameKey(name);
    if (this.#byName.has(key)) return false;
    this.#byName.set(key, { kind: 'creating' });
    return true;
  }

  /** A create ended without an alert: the name is free again. */
  release(name: string): void {
    const key = nameKey(name);
    if (this.#byName.get(key)?.kind === 'creating') this.#byName.delete(key);
  }

  /** The alert `id` now holds `name` (created, adopted, renamed). */
  holds(id: number, name: string): void {
    this.gone(id);
    this.#deleted.delete(id);
    this.#set(id, name);
  }

  /** The alert was deleted: its name is free. */
  gone(id: number): void {
    this.#deleted.add(id);
    const name = this.#nameOfId.get(id);
    if (name === undefined) return;
    this.#nameOfId.delete(id);
    const holder = this.#byName.get(name);
    if (holder?.kind === 'live' && holder.id === id) this.#byName.delete(name);
  }

  #set(id: number, name: string): void {
    const key = nameKey(name);
    this.#byName.set(key, { kind: 'live', id });
    this.#nameOfId.set(id, key);
  }
}

/** What the plan does with an instance this process was given: keeps it (maybe renamed), replaces or destroys it. */
export type Fate =
  | { kind: 'kept'; name: string | undefined }
  | { kind: 'replaced' }
  | { kind: 'destroyed'; name: string }
  /** Refreshed or upgraded (an object of this state), not (yet) planned with its prior state. */
  | { kind: 'read' };

/** The longest a planned create waits to learn whether this state holds the alert of its name (ms). */
const MAX_HOLDER_WAIT_MS = 5000;
/** Terraform has handed over nothing for this long: every instance it holds has been seen (ms). */
const QUIET_MS = 300;
/**
 * How long a planned create waits for other creates of its batch (terraform plans up to its
 * parallelism at once): they name every address. Short, since every create waits, and a later
 * create of the name is refused all the same (ms).
 */
const SAME_NAME_QUIET_MS = 50;

/**
 * The instances of this state that one provider process has seen (their prior states, in
 * reads and plans) and what the plan does with each. A planned create whose name is live can
 * then tell the state's own alert (a replacement, or a destroy at an old address: a rename
 * without `moved`) from one no state here holds. Terraform plans instances in any order, so
 * such a create waits until the holder is seen or terraform has gone quiet (only conflicts
 * wait: a create of a free name never does).
 */
export class HeldAlerts {
  readonly #fates = new Map<number, Fate>();
  /** Creates refused at plan time because of an alert this state destroys: id → the name. */
  readonly #refusedFor = new Map<number, string>();
  /** Creates planned by this process: name key → how many. */
  readonly #creates = new Map<string, number>();
  readonly #waiters = new Set<() => void>();
  #busy = 0;
  /** Calls of #busy that wait in fateOf: not terraform handing anything over. */
  #waiting = 0;
  #lastActivity = Date.now();

  /** Around every read and plan of an instance: terraform is still handing them over. */
  async during<T>(fn: () => Promise<T> | T): Promise<T> {
    this.#busy++;
    this.#lastActivity = Date.now();
    try {
      return await fn();
    } finally {
      this.#busy--;
      this.#lastActivity = Date.now();
      this.#wake();
    }
  }

  seen(id: number, fate: Fate): void {
    const before = this.#fates.get(id);
    // A read says only that the state holds it, a plan of an unknown name only that it is
    // kept; what is known already is not overwritten by either.
    if (before && fate.kind === 'read') return;
    if (before && before.kind !== 'kept' && fate.kind === 'kept' && fate.name === undefined) return;
    this.#fates.set(id, fate);
    this.#wake();
  }

  fate(id: number): Fate | undefined {
    return this.#fates.get(id);
  }

  /** The fate of `id` once planned, or as far as known when terraform went quiet (see the class). */
  async fateOf(id: number): Promise<Fate | undefined> {
    // A read alone is no fate yet: the plan of that instance may still come.
    await this.#until(() => (this.#fates.get(id)?.kind ?? 'read') !== 'read', QUIET_MS);
    return this.#fates.get(id);
  }

  /**
   * A create planned for `name`: how many creates of this process plan that name, counted once
   * terraform has gone quiet (every instance it plans has been handed over by then).
   */
  async plannedCreates(name: string): Promise<number> {
    const key = nameKey(name);
    this.#creates.set(key, (this.#creates.get(key) ?? 0) + 1);
    this.#wake();
    await this.#until(() => false, SAME_NAME_QUIET_MS);
    return this.#creates.get(key)!;
  }

  /** Waits until `done`, or until terraform has handed over nothing for `quietMs`, or MAX_HOLDER_WAIT_MS. */
  async #until(done: () => boolean, quietMs: number): Promise<void> {
    const started = Date.now();
    this.#waiting++;
    try {
      for (;;) {
        if (done()) return;
        const now = Date.now();
        // Reads and plans in flight other than those waiting here (which `during` counts too).
        const othersBusy = this.#busy > this.#waiting;
        if (now - started >= MAX_HOLDER_WAIT_MS || (!othersBusy && now - this.#lastActivity >= quietMs)) return;
        await this.#sleep(othersBusy ? 50 : Math.max(1, this.#lastActivity + quietMs - now));
      }
    } finally {
      this.#waiting--;
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#waiters.add(wake);
    });
  }

  refusedFor(id: number, name: string): void {
    this.#refusedFor.set(id, name);
  }

  /** The name of a create refused because this plan destroys `id`, if any. */
  refusedName(id: number): string | undefined {
    return this.#refusedFor.get(id);
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
