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
  /**
   * Accounts by name and by the tokens they hold: every API request looks its token up, and a
   * scan of the accounts made a plan of 10,000 accounts quadratic (1.4 ms a request). Kept in
   * step by `commit` and `replaceState`, the only ways the state changes.
   */
  private byName = new Map<string, StoredAccount>();
  private byToken = new Map<string, StoredAccount>();

  private constructor(
    private readonly initialSeed: EmulatorSeed,
    private current: EmulatorState,
    private readonly lock?: DataFileLock,
  ) {
    this.index();
  }

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
    for (const change of changes) {
      const account = this.byName.get(change.account);
      const tokens = change.list === 'tokens' ? account?.tokens.map((t) => t.access_token) : undefined;
      applyChange(this.current, change, account);
      if (account && tokens) {
        for (const t of tokens) this.byToken.delete(t);
        for (const t of account.tokens) this.byToken.set(t.access_token, account);
      }
    }
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
    this.index();
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
    return this.byName.get(name);
  }

  /** The account holding a token, expired or not. */
  accountHoldingToken(token: string): StoredAccount | undefined {
    return this.byToken.get(token);
  }

  /** The account a bearer token belongs to, when the token is known and not expired. */
  accountForToken(token: string, now = Date.now()): StoredAccount | undefined {
    const a = this.byToken.get(token);
    const t = a?.tokens.find((x) => x.access_token === token);
    return t && (t.expires_at === null || Date.parse(t.expires_at) > now) ? a : undefined;
  }

  private index(): void {
    this.byName = new Map(this.current.accounts.map((a) => [a.name, a]));
    this.byToken = new Map();
    for (const a of this.current.accounts) for (const t of a.tokens) this.byToken.set(t.access_token, a);
  }
}
