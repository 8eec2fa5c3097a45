/**
 * A file through which an app run by `ncalc` hands data back to it: `ncalc` names the file in
 * the app's environment, the app writes one JSON document `{"<key>": [items]}` there, and
 * `ncalc` reads it once the app has exited. Best effort both ways: an app that cannot write
 * the file, or a file that is not one, leaves `ncalc` with what it shows without it. Free of
 * cdktf, so that `ncalc` reads the file without loading it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Environment } from '../public-types';
import { isObject, type Json } from '../support/json';

export class AppHandoff<T> {
  constructor(
    /** The environment variable that names the file. */
    readonly variable: string,
    /** The document's one member, the list of items. */
    private readonly key: string,
    /** One item as read back, only the members it has; null when it is not one (nor is the file). */
    private readonly item: (value: Json) => T | null,
  ) {}

  /** App side: the file `ncalc` asked for in `env`, if it did. */
  fileIn(env: Environment): string | undefined {
    return env[this.variable] || undefined;
  }

  /** App side: writes the items; a value JSON has no form for (bigint, function) as its text. */
  write(file: string, items: readonly T[]): void {
    try {
      writeFileSync(
        file,
        JSON.stringify({ [this.key]: items }, (_k, v: unknown) =>
          typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol' ? String(v) : v,
        ),
      );
    } catch {
      // Not writable: ncalc goes on without it.
    }
  }

  /** `ncalc` side: the items of a file's text; null when it is not such a file. */
  parse(text: string): T[] | null {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return null;
    }
    const list = isObject(doc) ? doc[this.key] : undefined;
    if (!Array.isArray(list)) return null;
    const out: T[] = [];
    for (const value of list) {
      const item = isObject(value) ? this.item(value) : null;
      if (item === null) return null;
      out.push(item);
    }
    return out;
  }

  /**
   * `ncalc` side: the items of the file; null when the app wrote none (nothing to hand over, or
   * an app built with a copy of the package that does not) or not such a file.
   */
  read(file: string): T[] | null {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    return this.parse(text);
  }
}
