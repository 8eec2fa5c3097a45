/**
 * Creates that outlive terraform. When terraform dies (SIGKILL, a crash, a CI runner torn
 * down) while a create's POST is in flight, the alert may exist but no state records it, and
 * the next apply would create it again. Before each POST the provider appends an intent to a
 * journal in terraform's data directory, on disk (fsync) before the POST is sent; when the
 * create returns to terraform, whatever its outcome, it appends an end. A later create of the
 * same alert (same account, name and settings) that finds an intent without an end adopts
 * the alert instead of creating a second one.
 *
 * Only a create that did not return is eligible: a returned create's alert is in terraform's
 * hands (in a state, or refused), and adopting it again would give one alert two owners.
 *
 * One journal per terraform workspace and state (the file name carries a hash of the working
 * directory, the workspace and the backend configuration), so one workspace never adopts what
 * another one created. The file is opened once per process; records written while a flush is
 * running go out together with the next one, so parallel creates share one write and one
 * fsync. An end needs no fsync: losing it only makes a later create check the live list.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasync,
  openSync,
  readFileSync,
  statSync,
  write,
  writeFileSync,
  writeSync,
} from 'node:fs';
import * as path from 'node:path';
import { canonicalizeAlert, type AlertSpec } from '../model';

/** Journal files are `<data dir>/networkcalc-creates-<scope>.jsonl`. */
export const JOURNAL_PREFIX = 'networkcalc-creates-';
const COMPACT_BYTES = 1024 * 1024;
/** How long an end may wait for a durable write to carry it. */
const LAZY_FLUSH_MS = 50;

type JournalRecord = { t: 'intent'; k: string; at: number } | { t: 'end'; k: string; at: number };

/**
 * The state a working directory writes to: the current workspace (TF_WORKSPACE, else the one
 * `terraform workspace select` recorded in the data directory) and the backend configuration
 * terraform keeps there after `init`.
 */
export function stateScope(dataDir: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const read = (file: string) => {
    try {
      return readFileSync(path.join(dataDir, file), 'utf8');
    } catch {
      return '';
    }
  };
  const workspace = env.TF_WORKSPACE?.trim() || read('environment').trim() || 'default';
  let backend = '';
  try {
    backend = JSON.stringify((JSON.parse(read('terraform.tfstate') || '{}') as { backend?: unknown }).backend ?? null);
  } catch {
    // An unreadable backend file: the workspace and the directory still separate states.
  }
  return createHash('sha256')
    .update(`${path.resolve(cwd)}\0${workspace}\0${backend}`)
    .digest('hex')
    .slice(0, 16);
}

export class CreateJournal {
  readonly #file: string;
  readonly #account: string;
  #loaded = false;
  /** Keys with an intent and no end, and how many such intents. */
  readonly #open = new Map<string, number>();
  #fd: number | undefined;
  #pending: string[] = [];
  #chain: Promise<void> = Promise.resolve();
  #lazyTimer: NodeJS.Timeout | undefined;
  #exitHook: (() => void) | undefined;
  /** Writes made (one per flush), for tests. */
  writes = 0;

  /**
   * The journal of the terraform working directory (`TF_DATA_DIR`, default `.terraform`) and
   * its current workspace, or undefined outside one (the provider then works without it).
   */
  static open(account: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CreateJournal | undefined {
    const dir = path.resolve(cwd, env.TF_DATA_DIR || '.terraform');
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

  /** Whether an earlier process sent this create and never returned it to terraform. */
  interrupted(key: string): boolean {
    this.#load();
    return (this.#open.get(key) ?? 0) > 0;
  }

  /** Records a create about to be sent; resolves once the record is on disk. */
  intent(key: string): Promise<void> {
    this.#load();
    this.#open.set(key, (this.#open.get(key) ?? 0) + 1);
    this.#pending.push(line({ t: 'intent', k: key, at: Date.now() }));
    return this.#flush();
  }

  /**
   * The create of this key returned to terraform (created, adopted, failed or unsettled), or
   * an interrupted one was adopted: no later create may take its alert.
   */
  end(key: string): void {
    this.#load();
    if (!this.#open.has(key)) return;
    this.#open.delete(key);
    this.#pending.push(line({ t: 'end', k: key, at: Date.now() }));
    this.#lazyTimer ??= setTimeout(() => void this.#flush(), LAZY_FLUSH_MS).unref();
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
    if (this.#fd === undefined) {
      this.#fd = openSync(this.#file, 'a', 0o600);
      this.#exitHook = () => this.flushSync();
      process.once('exit', this.#exitHook);
    }
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
      if (typeof r?.k !== 'string') continue;
      if (r.t === 'intent') this.#open.set(r.k, (this.#open.get(r.k) ?? 0) + 1);
      else if (r.t === 'end') this.#open.delete(r.k);
    }
    try {
      if (statSync(this.#file).size > COMPACT_BYTES) this.#compact();
    } catch {
      // compaction is an optimisation
    }
  }

  /** Rewrites the file with only the open intents (before this process opens it for appends). */
  #compact(): void {
    const now = Date.now();
    const lines: string[] = [];
    for (const [k, n] of this.#open) for (let i = 0; i < n; i++) lines.push(line({ t: 'intent', k, at: now }));
    writeFileSync(this.#file, lines.join(''), { mode: 0o600 });
  }
}

const line = (r: JournalRecord) => `${JSON.stringify(r)}\n`;
