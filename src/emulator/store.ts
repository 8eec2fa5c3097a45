import { DataFileLock, loadDataFile, removeStaleTempFiles, stateFileText } from './data-file';
import { Journal } from './journal';
import type { EmulatorSeed } from './seed';
import { applyChange, stateFromSeed, type Change, type EmulatorState, type StoredAccount } from './state';

/**
 * The emulator's state and where it lives. Handlers read `state` and change it only through
 * `commit`, which applies the changes at once (later requests see them) and resolves when
 * they are durable, so an answered change survives a crash. With a data file the store
 * holds its lock from `open` to `close`.
 */
export class Store {
  private journal?: Journal;

  private constructor(
    private readonly initialSeed: EmulatorSeed,
    private current: EmulatorState,
    private readonly lock?: DataFileLock,
  ) {}

  /** A store in memory, or on a data file: the saved state and its journal, or the seed. */
  static async open(seed: EmulatorSeed, dataFile?: string): Promise<Store> {
    const initialSeed = structuredClone(seed);
    if (!dataFile) return new Store(initialSeed, stateFromSeed(seed));
    const lock = DataFileLock.acquire(dataFile);
    try {
      removeStaleTempFiles(dataFile);
      const saved = loadDataFile(dataFile);
      const store = new Store(initialSeed, saved?.state ?? stateFromSeed(seed), lock);
      // Written at once even when loaded: an unwritable file fails the start, not the first
      // change, the journal starts empty, and files of an older version get owner-only modes.
      store.journal = await Journal.start(dataFile, saved?.seq ?? 0, (seq) => stateFileText(store.current, seq));
      return store;
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  get state(): EmulatorState {
    return this.current;
  }

  /**
   * Applies one request's changes and resolves once they are on disk. Ids come from `state`
   * (next_alert_id, next_resource_id): read them and commit without an await in between.
   */
  commit(changes: Change[]): Promise<void> {
    for (const change of changes) applyChange(this.current, change);
    return this.journal?.append(changes) ?? Promise.resolve();
  }

  /** Back to the seed the emulator was started with. */
  reset(): Promise<void> {
    return this.replaceState(stateFromSeed(this.initialSeed));
  }

  /** Replace everything with a new seed (kept until the next reset). */
  replace(seed: EmulatorSeed): Promise<void> {
    return this.replaceState(stateFromSeed(seed));
  }

  private replaceState(state: EmulatorState): Promise<void> {
    this.current = state;
    return this.journal?.snapshot() ?? Promise.resolve();
  }

  /** Writes the state a last time (the journal folded in and removed) and gives up the lock. */
  async close(): Promise<void> {
    try {
      await this.journal?.close();
    } finally {
      this.lock?.release();
    }
  }

  /** Gives up the data file's lock without writing more (the emulator failed to start). */
  async release(): Promise<void> {
    try {
      await this.journal?.abandon();
    } finally {
      this.lock?.release();
    }
  }

  account(name: string): StoredAccount | undefined {
    return this.current.accounts.find((a) => a.name === name);
  }

  /** The account holding a token, expired or not. */
  accountHoldingToken(token: string): StoredAccount | undefined {
    return this.current.accounts.find((a) => a.tokens.some((x) => x.access_token === token));
  }

  /** The account a bearer token belongs to, when the token is known and not expired. */
  accountForToken(token: string, now = Date.now()): StoredAccount | undefined {
    for (const a of this.current.accounts) {
      const t = a.tokens.find((x) => x.access_token === token);
      if (t) return t.expires_at === null || Date.parse(t.expires_at) > now ? a : undefined;
    }
    return undefined;
  }
}
