/**
 * Per-process read caches. Terraform asks for every resource separately (ReadResource per
 * instance, in parallel); one list call answers them all. A load is shared by everyone who
 * asks while it is in flight (single-flight) and kept until a write clears it.
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
      const p = this.load();
      this.#pending = p;
      // A failed load is not kept: the next caller tries again.
      p.catch(() => {
        if (this.#pending === p) this.#pending = undefined;
      });
    }
    return this.#pending;
  }

  /** Forgets the value; called after every write. */
  clear(): void {
    this.#pending = undefined;
  }
}
