import { constants as fsConstants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { DATA_FILE_MODE, journalPath, writeStateFile } from './data-file';
import type { Change } from './state';

/** The journal is folded into a new data file once it holds this many entries... */
export const COMPACT_ENTRIES = 10_000;
/** ...or more text than the data file (so replay never reads more than a fresh file), with this floor. */
export const COMPACT_MIN_BYTES = 64 * 1024;

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The durable side of a data file: an append-only journal of changes beside the last written
 * state. Each change is on disk (fsync) before `append` resolves, and changes that arrive
 * while a write is under way share the next write and fsync (group commit). The journal is
 * folded into a new state file when it grows, and when the whole state is replaced.
 *
 * One writer: writes, syncs and compactions run one after another in `drain`, so entries
 * are numbered, written and folded in the order they were made.
 */
export class Journal {
  /** Number of the last entry made (written or not). */
  private seq: number;
  /** Lines made and not yet written. */
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  /** A whole new state file is wanted: the state was replaced. */
  private snapshotWanted = false;
  /** A write failed, so the journal may be behind the state: the next write is a whole state file. */
  private behind = false;
  private entries = 0;
  private bytes = 0;
  private running?: Promise<void>;
  private closed = false;

  private constructor(
    private readonly dataFile: string,
    private readonly file: FileHandle,
    /** The state as saved text, including the journal up to `seq`. Called synchronously. */
    private readonly stateText: (seq: number) => string,
    seq: number,
    private stateBytes: number,
  ) {
    this.seq = seq;
  }

  /**
   * Writes the state loaded at start (it includes the journal up to `seq`), then starts an
   * empty journal. The old journal is emptied only once the new state file is durable.
   */
  static async start(dataFile: string, seq: number, stateText: (seq: number) => string): Promise<Journal> {
    const text = stateText(seq);
    await writeStateFile(dataFile, text);
    // Appends only: every write lands at the end, also after the journal is emptied.
    const { O_APPEND, O_CREAT, O_TRUNC, O_WRONLY } = fsConstants;
    const file = await fsp.open(journalPath(dataFile), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, DATA_FILE_MODE);
    try {
      await file.chmod(DATA_FILE_MODE); // a journal left by an older start keeps its mode otherwise
    } catch (err) {
      await file.close();
      throw err;
    }
    return new Journal(dataFile, file, stateText, seq, text.length);
  }

  /** Records one request's changes; resolves once they are on disk. */
  append(changes: Change[]): Promise<void> {
    this.checkOpen();
    const seq = ++this.seq;
    this.pending.push(JSON.stringify({ seq, changes }) + '\n');
    return this.waitFor(seq);
  }

  /** Writes the whole state anew (it was replaced); resolves once it is on disk. */
  snapshot(): Promise<void> {
    this.checkOpen();
    const seq = ++this.seq;
    this.snapshotWanted = true;
    return this.waitFor(seq);
  }

  /** Waits for every write, folds the journal into the state file and removes the journal. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      while (this.running) await this.running;
      await this.compact();
      await fsp.rm(journalPath(this.dataFile), { force: true });
    } finally {
      await this.file.close();
    }
  }

  /** Stops without writing more: the journal file goes when it holds nothing. */
  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.running) await this.running;
    await this.file.close();
    if (this.entries === 0) await fsp.rm(journalPath(this.dataFile), { force: true });
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the emulator is closed: its data file takes no more changes');
  }

  private waitFor(seq: number): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
    this.kick();
    return done;
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // Made between the loop's last look and now.
      if (this.pending.length > 0 || this.snapshotWanted) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0 || this.snapshotWanted) {
      const fold =
        this.snapshotWanted ||
        this.behind ||
        this.entries >= COMPACT_ENTRIES ||
        this.bytes > Math.max(this.stateBytes, COMPACT_MIN_BYTES);
      // Everything made so far goes into this write: nothing is made while it is taken.
      const upTo = this.seq;
      try {
        if (fold) await this.compact();
        else await this.writePending();
        this.settle(upTo);
      } catch (err) {
        this.behind = true;
        this.settle(upTo, err);
      }
    }
  }

  private async writePending(): Promise<void> {
    const text = this.pending.join('');
    const count = this.pending.length;
    this.pending = [];
    await this.file.appendFile(text);
    await this.file.datasync();
    this.entries += count;
    this.bytes += text.length;
  }

  /** A new state file that includes every entry made so far, then an empty journal. */
  private async compact(): Promise<void> {
    const seq = this.seq;
    const text = this.stateText(seq);
    this.pending = [];
    this.snapshotWanted = false;
    await writeStateFile(this.dataFile, text);
    // Entries up to seq left behind by a crash here are skipped on replay (the state has them).
    await this.file.truncate(0);
    this.behind = false;
    this.entries = 0;
    this.bytes = 0;
    this.stateBytes = text.length;
  }

  private settle(upTo: number, err?: unknown): void {
    let n = 0;
    while (n < this.waiters.length && this.waiters[n]!.seq <= upTo) n++;
    for (const w of this.waiters.splice(0, n)) {
      if (err === undefined) w.resolve();
      else w.reject(err);
    }
  }
}
