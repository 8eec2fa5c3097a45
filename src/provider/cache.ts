/**
 * Per-process read caches. Terraform asks for every resource separately (ReadResource per
 * instance, in parallel); one list call answers them all. A load is shared by everyone who
 * asks while it is in flight (single-flight) and kept until a write clears it.
 *
 * A failed load is kept too: the client has already retried it, and terraform would
 * otherwise repeat the whole retry sequence for every resource it reads (a refresh of 100
 * alerts against an unreachable base_url took 100 times the retry budget).
 */
export class ListCache<T> {
  #pending: Promise<T> | undefined;
  #loads = 0;

  constructor(private readonly load: () => Promise<T>) {}

  /** Loads made so far (for tests and logs). */
  get loads(): number {
    return this.#loads;
  }

  /**
   * The cached value, loading it when there is none. A value returned here was loaded after
   * the latest clear(), so a caller that wrote and then cleared always sees its own write.
   */
  get(): Promise<T> {
    if (!this.#pending) {
      this.#loads++;
      this.#pending = this.load();
    }
    return this.#pending;
  }

  /** Forgets the value; called after every write. */
  clear(): void {
    this.#pending = undefined;
  }
}
