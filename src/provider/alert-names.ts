/**
 * Who holds each alert name of an account, as one provider process knows it: the first list
 * of the process, then this process's own writes (creates, renames, deletes). A create checks
 * it before sending: an alert is identified by its name within its account (as `ncalc` does),
 * so a name that already exists live is someone's alert to import, never a second one to make.
 */
import type { Listing } from '../converge';

/** Names compare as `ncalc` compares them: case-insensitively. */
const nameKey = (name: string) => name.trim().toLowerCase();

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
