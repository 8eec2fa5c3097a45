/**
 * A list call shared by everyone who needs one that started after they asked (a create that
 * answered without its id is proven by such a list): at most one in flight and one queued
 * behind it, which every later caller joins. N proofs asked for at once cost two lists, not N.
 * AccountAlerts does the same for alerts, with a window that follows the caller's pace.
 */
export class FreshList<T> {
  readonly #list: () => Promise<T>;
  #inFlight: Promise<T> | undefined;
  #queued: Promise<T> | undefined;
  #started = 0;

  constructor(list: () => Promise<T>) {
    this.#list = list;
  }

  /** List calls started so far. */
  get lists(): number {
    return this.#started;
  }

  /** The answer of a list that starts now or later, never of one already in flight. */
  next(): Promise<T> {
    if (this.#queued) return this.#queued;
    const previous = this.#inFlight;
    if (!previous) return this.#start();
    const settled = () => undefined;
    this.#queued = previous.then(settled, settled).then(() => {
      this.#queued = undefined;
      return this.#start();
    });
    return this.#queued;
  }

  #start(): Promise<T> {
    this.#started++;
    const promise = this.#list();
    this.#inFlight = promise;
    const done = () => {
      if (this.#inFlight === promise) this.#inFlight = undefined;
    };
    promise.then(done, done);
    return promise;
  }
}
