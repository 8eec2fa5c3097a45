/**
 * Creates that outlive terraform. When terraform dies (SIGKILL, a crash, a CI runner torn
 * down) while creates are in flight, the alerts exist but the state never records them, and
 * the next apply would create them again. Before each POST the provider appends an intent to a
 * journal in terraform's data directory; after learning the id it appends the id. A later
 * create of the same alert (same account, name and settings) that finds an unfinished record
 * adopts the alert instead of creating a second one.
 *
 * A record is finished when the alert is seen in a refresh by id (so the state holds it) or
 * deleted: from then on an identical new resource is a genuine second alert. The journal is
 * JSON lines appended with O_APPEND (small writes are not interleaved between processes), and
 * is rewritten with only unfinished records when it grows past COMPACT_BYTES.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalizeAlert, type AlertSpec } from '../model';

export const JOURNAL_FILE = 'networkcalc-creates.jsonl';
const COMPACT_BYTES = 1024 * 1024;

type JournalRecord =
  | { t: 'intent'; k: string; at: number }
  | { t: 'created'; k: string; id: number; at: number }
  | { t: 'done'; id: number; at: number }
  | { t: 'clear'; k: string; at: number };

/** What an earlier process left unfinished for one alert. */
export type Unfinished = { kind: 'interrupted' } | { kind: 'created'; id: number };

export class CreateJournal {
  readonly #file: string;
  readonly #account: string;
  #loaded = false;
  /** key → the latest unfinished record for it. */
  readonly #byKey = new Map<string, Unfinished>();
  /** ids with an unfinished 'created' record → their key. */
  readonly #keyOfId = new Map<number, string>();

  /**
   * The journal of the terraform working directory (`TF_DATA_DIR`, default `.terraform`), or
   * undefined outside one (the provider then works as before, without this protection).
   */
  static open(account: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CreateJournal | undefined {
    const dir = path.resolve(cwd, env.TF_DATA_DIR || '.terraform');
    return existsSync(dir) ? new CreateJournal(path.join(dir, JOURNAL_FILE), account) : undefined;
  }

  constructor(file: string, account: string) {
    this.#file = file;
    // The account part of the key: never a secret in clear.
    this.#account = createHash('sha256').update(account).digest('hex');
  }

  /** The key of an alert: its account, name and canonical settings. */
  keyOf(spec: AlertSpec): string {
    return createHash('sha256')
      .update(this.#account)
      .update(JSON.stringify(canonicalizeAlert({ ...spec })))
      .digest('hex')
      .slice(0, 32);
  }

  unfinished(key: string): Unfinished | undefined {
    this.#load();
    return this.#byKey.get(key);
  }

  intent(key: string): void {
    this.#load();
    this.#append({ t: 'intent', k: key, at: Date.now() });
    if (!this.#byKey.has(key)) this.#byKey.set(key, { kind: 'interrupted' });
  }

  created(key: string, id: number): void {
    this.#load();
    this.#append({ t: 'created', k: key, id, at: Date.now() });
    this.#byKey.set(key, { kind: 'created', id });
    this.#keyOfId.set(id, key);
  }

  /** The alert is in the state (read by id) or gone: its record is finished. */
  done(id: number): void {
    this.#load();
    const key = this.#keyOfId.get(id);
    if (key === undefined) return;
    this.#append({ t: 'done', id, at: Date.now() });
    this.#keyOfId.delete(id);
    const entry = this.#byKey.get(key);
    if (entry?.kind === 'created' && entry.id === id) this.#byKey.delete(key);
  }

  /** The create of this key ended without leaving an alert, or its alert was found by name. */
  clear(key: string): void {
    this.#load();
    if (!this.#byKey.has(key)) return;
    this.#append({ t: 'clear', k: key, at: Date.now() });
    const entry = this.#byKey.get(key);
    if (entry?.kind === 'created') this.#keyOfId.delete(entry.id);
    this.#byKey.delete(key);
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
    for (const line of text.split('\n')) {
      let r: JournalRecord;
      try {
        r = JSON.parse(line) as JournalRecord;
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
    if (r.t === 'intent' && typeof r.k === 'string') {
      if (!this.#byKey.has(r.k)) this.#byKey.set(r.k, { kind: 'interrupted' });
    } else if (r.t === 'created' && typeof r.k === 'string' && typeof r.id === 'number') {
      this.#byKey.set(r.k, { kind: 'created', id: r.id });
      this.#keyOfId.set(r.id, r.k);
    } else if (r.t === 'clear' && typeof r.k === 'string') {
      const entry = this.#byKey.get(r.k);
      if (entry?.kind === 'created') this.#keyOfId.delete(entry.id);
      this.#byKey.delete(r.k);
    } else if (r.t === 'done' && typeof r.id === 'number') {
      const key = this.#keyOfId.get(r.id);
      this.#keyOfId.delete(r.id);
      const entry = key === undefined ? undefined : this.#byKey.get(key);
      if (key !== undefined && entry?.kind === 'created' && entry.id === r.id) this.#byKey.delete(key);
    }
  }

  #compact(): void {
    const now = Date.now();
    const lines: string[] = [];
    for (const [k, entry] of this.#byKey) {
      lines.push(
        JSON.stringify(
          entry.kind === 'created' ? { t: 'created', k, id: entry.id, at: now } : { t: 'intent', k, at: now },
        ),
      );
    }
    writeFileSync(this.#file, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
  }

  #append(r: JournalRecord): void {
    try {
      appendFileSync(this.#file, `${JSON.stringify(r)}\n`, { mode: 0o600 });
    } catch {
      // A read-only data directory loses only this protection, never the create itself.
    }
  }
}
