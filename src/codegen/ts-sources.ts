/**
 * The app's source files as drift --suggest reads them: each read once (its snapshot taken,
 * and a problem when it changed after the synth started), a declaration parsed alone when it
 * can be, the whole file parsed once when a suggestion needs more (one problem naming file
 * and line when it does not parse).
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type * as B from '@babel/types';
import type { Frame } from '../contract/source-locations';
import {
  dominantQuote,
  lineOf,
  lineStartsOf,
  parseJsSource,
  parseNewExpressionAt,
  SourceSyntaxError,
  type JsSource,
  type Node,
} from './js-source';
import type { SourceSnapshot } from './suggestion';
import { sha256 } from './write';

/** A file of the app, read; parsed as a whole only when a suggestion needs more than one declaration. */
export interface Source {
  file: string;
  rel: string;
  text: string;
  lineStarts: number[];
  quote: "'" | '"';
  /** The whole file parsed, once asked for; null when it does not parse (a problem says where). */
  whole?: Whole | null;
}

export type Whole = Source & JsSource;

export type Quote = Source['quote'];

export class AppSources {
  readonly snapshots = new Map<string, SourceSnapshot>();
  private readonly files = new Map<string, Source | null>();
  /** The text of each file read, by its path relative to the app's directory. */
  private readonly texts = new Map<string, string>();

  /**
   * `dir`: the app's directory (paths in suggestions are relative to it); `synthStartedMs`:
   * a file modified after it is not what the app ran; `problems`: where what stops a write goes.
   */
  constructor(
    private readonly dir: string,
    private readonly synthStartedMs: number,
    private readonly problems: string[],
  ) {}

  source(file: string): Source | null {
    if (this.files.has(file)) return this.files.get(file)!;
    const rel = path.relative(this.dir, file);
    let src: Source | null = null;
    try {
      const text = readFileSync(file, 'utf8');
      const changed = statSync(file).mtimeMs > this.synthStartedMs;
      this.snapshots.set(rel, { file: rel, sha256: sha256(text), ...(changed ? { changedSincePlan: true } : {}) });
      if (changed) this.problems.push(`${rel} changed after the app was synthesized; run ncalc drift --suggest again`);
      src = { file, rel, text, lineStarts: lineStartsOf(text), quote: dominantQuote(text) };
      this.texts.set(rel, text);
    } catch (e) {
      this.problems.push(`${rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    this.files.set(file, src);
    return src;
  }

  /**
   * The `new` expression at `offset`: parsed alone when it can be, else from the whole file.
   * Undefined when the file does not parse.
   */
  newAt(src: Source, offset: number): B.NewExpression | null | undefined {
    if (src.whole === undefined) {
      const alone = parseNewExpressionAt(src.file, src.text, offset);
      if (alone) return alone;
    }
    const whole = this.whole(src);
    return whole ? (whole.news.get(offset) ?? null) : undefined;
  }

  /** The whole file parsed (once); null, and one problem naming file and line, when it does not parse. */
  whole(src: Source): Whole | null {
    if (src.whole !== undefined) return src.whole;
    try {
      const whole: Whole = { ...parseJsSource(src.file, src.text), ...src };
      whole.whole = whole; // a Whole is its own: its nodes are the ones its parents map knows
      src.whole = whole;
    } catch (e) {
      if (!(e instanceof SourceSyntaxError)) throw e;
      this.problems.push(
        `${src.rel}:${e.line}: ${e.message}: the file does not parse, so no edit can be made in it; fix it and run again`,
      );
      src.whole = null;
    }
    return src.whole;
  }

  /** The text of a file read, by its path relative to the app's directory. */
  textOf(rel: string): string | undefined {
    return this.texts.get(rel);
  }

  relLoc(loc: Frame): { file: string; line: number } {
    return { file: path.relative(this.dir, loc.file), line: loc.line };
  }
}

/** The file and 1-based line of a node. */
export function at(src: Source, node: Node): { file: string; line: number } {
  return { file: src.rel, line: lineOf(src, node.start!) };
}

/** `main.ts:12`: where a node is, for messages. */
export function where(src: Source, node: Node): string {
  const { file, line } = at(src, node);
  return `${file}:${line}`;
}
