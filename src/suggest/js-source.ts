/**
 * An app's TypeScript or JavaScript file, parsed by the package's own parser (`@babel/parser`,
 * pure JavaScript), never by the app's `typescript`: the app may have none, or a version whose
 * main entry has no compiler API (TypeScript 7). The parser keeps exact UTF-16 offsets, so
 * edits are spans of the text and everything else in the file (formatting, comments) stays.
 */
import type * as BabelParser from '@babel/parser';
import type { ParserPlugin } from '@babel/parser';
import type * as B from '@babel/types';

export type Node = B.Node;

export interface JsSource {
  text: string;
  program: B.Program;
  /** Offset where each line starts (line breaks as V8 counts them for stack traces). */
  lineStarts: number[];
  /** Each node's parent (the program has none). */
  parents: Map<Node, Node>;
  /** Every `new …(…)` by its start offset. */
  news: Map<number, B.NewExpression>;
  /** Variables and parameters declared in the file, by name. */
  declarations: Map<string, Node[]>;
  /** Every identifier's name in the file, to choose a new one that clashes with none. */
  identifiers: Set<string>;
  /** The quote most string literals use. */
  quote: "'" | '"';
}

/** The file does not parse: `line` is 1-based, `message` the parser's, without its position. */
export class SourceSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Syntax the parser accepts beyond plain ECMAScript, by file kind. */
function pluginsFor(file: string): ParserPlugin[] {
  const common: ParserPlugin[] = ['decorators', 'decoratorAutoAccessors', 'explicitResourceManagement'];
  if (/\.[cm]?tsx?$/.test(file)) return ['typescript', ...(file.endsWith('x') ? (['jsx'] as const) : []), ...common];
  return ['jsx', ...common];
}

export function parseJsSource(file: string, text: string): JsSource {
  // Loaded on first use: plain `ncalc drift` never pays for it.
  const { parse } = require('@babel/parser') as typeof BabelParser;
  let ast: B.File;
  try {
    ast = parse(text, {
      sourceType: 'unambiguous',
      plugins: pluginsFor(file),
      // What the runtime accepted but a strict reading reports (an `override` without a base
      // class, a duplicate declaration) leaves the tree whole: the app ran, so it is read.
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      attachComment: false,
    });
  } catch (e) {
    const err = e as Error & { loc?: { line: number } };
    throw new SourceSyntaxError(err.loc?.line ?? 1, err.message.replace(/ \(\d+:\d+\)$/, ''));
  }
  const src: JsSource = {
    text,
    program: ast.program,
    lineStarts: lineStartsOf(text),
    parents: new Map(),
    news: new Map(),
    declarations: new Map(),
    identifiers: new Set(),
    quote: "'",
  };
  let single = 0;
  let double = 0;
  const declare = (name: B.Node | null | undefined, at: Node) => {
    if (name?.type !== 'Identifier') return;
    if (!src.declarations.has(name.name)) src.declarations.set(name.name, []);
    src.declarations.get(name.name)!.push(at);
  };
  // One walk indexes what the suggestions look up, so none walks the file again. Iterative,
  // with `for … in` (no key arrays): at 5,000 lines it costs a tenth of the parse.
  const stack: Node[] = [ast.program];
  while (stack.length) {
    const node = stack.pop()!;
    switch (node.type) {
      case 'NewExpression':
        src.news.set(node.start!, node);
        break;
      case 'Identifier':
        src.identifiers.add(node.name);
        break;
      case 'StringLiteral':
        if (text[node.start!] === "'") single++;
        else double++;
        break;
      case 'VariableDeclarator':
        declare(node.id, node);
        break;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ObjectMethod':
      case 'ClassMethod':
      case 'ClassPrivateMethod':
        for (const p of node.params) {
          const param = p.type === 'TSParameterProperty' ? p.parameter : p;
          declare(param.type === 'AssignmentPattern' ? param.left : param, param);
        }
        break;
    }
    for (const key in node) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        for (const child of value)
          if (isNode(child)) {
            src.parents.set(child, node);
            stack.push(child);
          }
      } else if (isNode(value)) {
        src.parents.set(value, node);
        stack.push(value);
      }
    }
  }
  src.quote = single >= double ? "'" : '"';
  return src;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** Line starts: `\r\n`, `\n`, `\r`, U+2028 and U+2029 end a line, as in V8's positions. */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  const breaks = /\r\n|[\n\r\u2028\u2029]/g;
  for (let m = breaks.exec(text); m; m = breaks.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/** 1-based line of `offset`. */
export function lineOf(src: JsSource, offset: number): number {
  let lo = 0;
  let hi = src.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (src.lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The offset of a 1-based line and column. */
export function offsetOf(src: JsSource, line: number, column: number): number {
  return (src.lineStarts[line - 1] ?? src.text.length) + column - 1;
}

export function textOf(src: JsSource, node: Node): string {
  return src.text.slice(node.start!, node.end!);
}
