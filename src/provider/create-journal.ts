/**
 * Creates that outlive terraform. When terraform dies (SIGKILL, a crash, a CI runner torn
 * down) during an apply, alerts it created may be in no state: their POST was in flight, or
 * their create returned but terraform had not written its state yet (it writes it every few
 * seconds). So before each POST the provider appends an intent to a journal in terraform's
 * data directory, on disk (fsync) before the POST is sent; when the create has proven its
 * alert it appends the id.
 *
 * The journal never makes an alert adoptable by a later run: a later process cannot prove
 * that what it finds is what the killed run made (another workspace or writer may have made
 * an alert of the same name meanwhile). It only makes the refusal of that later run precise:
 * which id the killed run provably created, or that it was stopped before it could know.
 *
 * A record ends as soon as a state is seen holding its alert: a refresh reads it, or a plan
 * (with or without refresh) is given it as the prior state, which terraform does for every
 * instance it keeps; or it is deleted, or the create failed.
 *
 * One journal per terraform workspace and state (the file name carries a hash of the working
 * directory, the workspace and the backend configuration). The file is opened once per
 * process; records written while a flush is running go out together with the next one, so
 * parallel creates share one write and one fsync. Only intents need the fsync.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fdatasync, openSync, readFileSync, statSync, write, writeSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalizeAlert, type AlertSpec } from '../model';
import { writeFileAtomicSync } from '../support/atomic-write';

/** Journal files are `<data dir>/networkcalc-creates-<scope>.jsonl`. */
export const JOURNAL_PREFIX = 'networkcalc-creates-';
const COMPACT_BYTES = 1024 * 1024;
/** How long an end may wait for a durable write to carry it. */
const LAZY_FLUSH_MS = 50;

type JournalRecord =
  | { t: 'intent'; k: string; at: number }
  | { t: 'created'; k: string; id: number; at: number }
  | { t: 'end'; k: string; at: number }
  | { t: 'held'; id: number; at: number };

/** What an earlier process left unfinished for one alert. */
export type Unfinished = { kind: 'interrupted' } | { kind: 'created'; id: number };

/**
 * The state a working directory writes to: the current workspace (TF_WORKSPACE, else the one
 * `terraform workspace select` recorded in the data directory) and the backend configuration
 * terraform keeps there after `init`.
 */
export function stateScope(dataDir: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const workspace = currentWorkspace(dataDir, env);
  let backend = '';
  try {
    backend = JSON.stringify(backendOf(dataDir) ?? null);
  } catch {
    // An unreadable backend file: the workspace and the directory still separate states.
  }
  return createHash('sha256')
    .update(`${path.resolve(cwd)}\0${workspace}\0${backend}`)
    .digest('hex')
    .slice(0, 16);
}

function readData(dataDir: string, file: string): string {
  try {
    return readFileSync(path.join(dataDir, file), 'utf8');
  } catch {
    return '';
  }
}

/** The workspace terraform runs in: TF_WORKSPACE, else the one `terraform workspace select` recorded. */
export function currentWorkspace(dataDir: string, env: NodeJS.ProcessEnv): string {
  return env.TF_WORKSPACE?.trim() || readData(dataDir, 'environment').trim() || 'default';
}

/** The backend block terraform recorded at `init` (undefined for the implied local backend); throws when unreadable. */
export function backendOf(dataDir: string): { type?: unknown; config?: unknown } | undefined {
  return (JSON.parse(readData(dataDir, 'terraform.tfstate') || '{}') as { backend?: { type?: unknown } }).backend;
}

/** The data directory terraform uses for a working directory. */
export const dataDirOf = (env: NodeJS.ProcessEnv, cwd: string): string =>
  path.resolve(cwd, env.TF_DATA_DIR || '.terraform');

export class CreateJournal {
  readonly #file: string;
  readonly #account: string;
  #loaded = false;
  /** key → the latest unfinished record for it. */
  readonly #byKey = new Map<string, Unfinished>();
  /** ids with an unfinished 'created' record → their key. */
  readonly #keyOfId = new Map<number, string>();
  #fd: number | undefined;
  #pending: string[] = [];
  #chain: Promise<void> = Promise.resolve();
  #lazyTimer: NodeJS.Timeout | undefined;
  #exitHook: (() => void) | undefined;
  /** Alerts this process's creates proved, not yet seen held. */
  readonly #createdHere = new Set<number>();
  /** Writes made (one per flush), for tests. */
  writes = 0;

  /**
   * The journal of the terraform working directory (`TF_DATA_DIR`, default `.terraform`) and
   * its current workspace, or undefined outside one (the provider then works without it).
   */
  static open(account: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CreateJournal | undefined {
    const dir = dataDirOf(env, cwd);
    if (!existsSync(dir)) return undefined;
    return new CreateJournal(path.join(dir, `${JOURNAL_PREFIX}${stateScope(dir, env, cwd)}.jsonl`), account);
  }

  constructor(file: string, account: string) {
    this.#file = file;
    // The account part of the key: never a secret in clear.
    this.#account = createHash('sha256').update(account).digest('hex');
  }

  get file(): string {
    return this.#file;
  }

  /** The key of an alert: its account, name and canonical settings. */
  keyOf(spec: AlertSpec): string {
    return createHash('sha256')
      .update(this.#account)
      .update(JSON.stringify(canonicalizeAlert({ ...spec })))
      .digest('hex')
      .slice(0, 32);
  }

  /** What an earlier create of this alert left that no state is known to hold, if anything (for messages only). */
  unfinished(key: string): Unfinished | undefined {
    this.#load();
    return this.#byKey.get(key);
  }

  /** Records a create about to be sent; resolves once the record is on disk. */
  intent(key: string): Promise<void> {
    this.#load();
    if (!this.#byKey.has(key)) this.#byKey.set(key, { kind: 'interrupted' });
    this.#pending.push(line({ t: 'intent', k: key, at: Date.now() }));
    return this.#flush();
  }

  /** The create proved this alert its own; recorded until a state is seen holding it. */
  created(key: string, id: number): void {
    this.#load();
    this.#forgetKey(key);
    this.#byKey.set(key, { kind: 'created', id });
    this.#keyOfId.set(id, key);
    this.#createdHere.add(id);
    this.#later({ t: 'created', k: key, id, at: Date.now() });
  }

  /**
   * Terraform shuts the provider down gracefully: it is alive and saves its state next, with
   * every alert this process created in it. Their records end, so that a later refusal (e.g.
   * `terraform test` after an apply) does not blame a killed run. A SIGKILL never gets here.
   */
  settle(): void {
    for (const id of [...this.#createdHere]) this.held(id);
    this.flushSync();
  }

  /** The create of this key left no alert (it failed, and the list proved nothing was made). */
  end(key: string): void {
    this.#load();
    if (!this.#byKey.has(key)) return;
    this.#forgetKey(key);
    this.#later({ t: 'end', k: key, at: Date.now() });
  }

  /** A state holds this alert (refreshed or planned), or it was deleted: its record ends. */
  held(id: number): void {
    this.#load();
    this.#createdHere.delete(id);
    const key = this.#keyOfId.get(id);
    if (key === undefined) return;
    this.#forgetKey(key);
    this.#later({ t: 'held', id, at: Date.now() });
  }

  #forgetKey(key: string): void {
    const entry = this.#byKey.get(key);
    if (entry?.kind === 'created') this.#keyOfId.delete(entry.id);
    this.#byKey.delete(key);
  }

  /** A record that needs no fsync: written with the next flush, or within LAZY_FLUSH_MS. */
  #later(r: JournalRecord): void {
    this.#pending.push(line(r));
    this.#lazyTimer ??= setTimeout(() => void this.#flush(), LAZY_FLUSH_MS).unref();
    // A provider process may end sooner (terraform shuts a plan's provider down at once).
    if (!this.#exitHook) {
      this.#exitHook = () => this.flushSync();
      process.once('exit', this.#exitHook);
    }
  }

  /** Writes what is pending now, synchronously (at exit: a pending end must not be lost). */
  flushSync(): void {
    if (!this.#pending.length) return;
    const text = this.#pending.join('');
    this.#pending = [];
    try {
      writeSync(this.#descriptor(), text);
    } catch {
      // See #flush.
    }
  }

  close(): void {
    this.flushSync();
    if (this.#exitHook) process.removeListener('exit', this.#exitHook);
    this.#exitHook = undefined;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #flush(): Promise<void> {
    this.#chain = this.#chain.then(async () => {
      if (this.#lazyTimer) clearTimeout(this.#lazyTimer);
      this.#lazyTimer = undefined;
      if (!this.#pending.length) return;
      const text = this.#pending.join('');
      this.#pending = [];
      try {
        const fd = this.#descriptor();
        await new Promise<void>((resolve, reject) => write(fd, text, (err) => (err ? reject(err) : resolve())));
        await new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
        this.writes++;
      } catch {
        // A read-only data directory loses only this protection, never the create itself.
      }
    });
    return this.#chain;
  }

  #descriptor(): number {
    if (this.#fd === undefined) this.#fd = openSync(this.#file, 'a', 0o600);
    return this.#fd;
  }

  #load(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch {
      return; // no journal yet
    }
    for (const l of text.split('\n')) {
      let r: JournalRecord;
      try {
        r = JSON.parse(l) as JournalRecord;
      } catch {
        continue; // a torn last line
      }
      this.#apply(r);
    }
    try {
      if (statSync(this.#file).size > COMPACT_BYTES) this.#compact();
    } catch {
      // compaction is an optimisation
    }
  }

  #apply(r: JournalRecord): void {
    if (r?.t === 'intent' && typeof r.k === 'string') {
      if (!this.#byKey.has(r.k)) this.#byKey.set(r.k, { kind: 'interrupted' });
    } else if (r?.t === 'created' && typeof r.k === 'string' && typeof r.id === 'number') {
      this.#forgetKey(r.k);
      this.#byKey.set(r.k, { kind: 'created', id: r.id });
      this.#keyOfId.set(r.id, r.k);
    } else if (r?.t === 'end' && typeof r.k === 'string') {
      this.#forgetKey(r.k);
    } else if (r?.t === 'held' && typeof r.id === 'number') {
      const key = this.#keyOfId.get(r.id);
      if (key !== undefined) this.#forgetKey(key);
    }
  }

  /** Rewrites the file with only the unfinished records (before this process opens it for appends). */
  #compact(): void {
    const at = Date.now();
    const lines: string[] = [];
    for (const [k, e] of this.#byKey)
      lines.push(line(e.kind === 'created' ? { t: 'created', k, id: e.id, at } : { t: 'intent', k, at }));
    // Replaced whole: a crash while compacting must not lose the intents it keeps.
    writeFileAtomicSync(this.#file, lines.join(''), { mode: 0o600 });
  }
}

const line = (r: JournalRecord) => `${JSON.stringify(r)}\n`;
