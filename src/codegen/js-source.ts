/**
 * An app's TypeScript or JavaScript file, parsed by the package's own parser (`@babel/parser`,
 * pure JavaScript), never by the app's `typescript`: the app may have none, or a version whose
 * main entry has no compiler API (TypeScript 7). The parser keeps exact UTF-16 offsets, so
 * edits are spans of the text and everything else in the file (formatting, comments) stays.
 */
import type * as BabelParser from '@babel/parser';
import type { ParserPlugin } from '@babel/parser';
import type * as B from '@babel/types';
import { JS_LINE_BREAKS, lineIndexAt, lineStarts } from '../support/lines';

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
    quote: dominantQuote(text),
  };
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
  return src;
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** Line starts as in V8's positions (`\r\n`, `\n`, `\r`, U+2028 and U+2029 end a line). */
export function lineStartsOf(text: string): number[] {
  return lineStarts(text, JS_LINE_BREAKS);
}

/** 1-based line of `offset`. */
export function lineOf(src: Pick<JsSource, 'lineStarts'>, offset: number): number {
  return lineIndexAt(src.lineStarts, offset) + 1;
}

/** The offset of a 1-based line and column. */
export function offsetOf(src: Pick<JsSource, 'lineStarts' | 'text'>, line: number, column: number): number {
  return (src.lineStarts[line - 1] ?? src.text.length) + column - 1;
}

export function textOf(src: Pick<JsSource, 'text'>, node: Node): string {
  return src.text.slice(node.start!, node.end!);
}

/**
 * The `new …(…)` that starts at `offset`, parsed alone: its end is found by a scan for the
 * matching parenthesis (strings, templates, comments and regular expressions skipped), and
 * the parser checks the result, so a wrong end is a failure, never a wrong node. Most drift
 * needs only the declaration of the alert: this spares the parse of a whole 5,000-line file.
 * Null when it cannot be read this way (the caller parses the file).
 */
export function parseNewExpressionAt(file: string, text: string, offset: number): B.NewExpression | null {
  // `new Name(` or `new ns.Name(` only: `new (factory())(…)` would end at the wrong parenthesis.
  const callee = /new\s+[\w$.\s]+\(/y;
  callee.lastIndex = offset;
  if (!callee.test(text)) return null;
  const end = closingParen(text, offset + 3);
  if (end === -1) return null;
  const { parseExpression } = require('@babel/parser') as typeof BabelParser;
  try {
    const node = parseExpression(text.slice(offset, end), {
      startIndex: offset,
      plugins: pluginsFor(file),
      attachComment: false,
    });
    return node.type === 'NewExpression' ? node : null;
  } catch {
    return null;
  }
}

/** The offset just past the parenthesis that closes the first one at or after `from`; -1 when not found. */
function closingParen(text: string, from: number): number {
  const open = text.indexOf('(', from);
  if (open === -1) return -1;
  // Open brackets, and `` ` `` for a template whose `${` is open: a `}` then returns into it.
  const stack: string[] = [];
  let i = open;
  let prev = '('; // the last significant character: tells a regular expression from a division
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      if (nl === -1) return -1;
      i = nl;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return -1;
      i = close + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      i = skipQuoted(text, i, c);
      if (i === -1) return -1;
      prev = c;
      continue;
    }
    if (c === '`' || (c === '}' && stack[stack.length - 1] === '`')) {
      if (c === '}') stack.pop();
      // In a template: up to its end, or into a `${`.
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '\\') j++;
        else if (text[j] === '`') break;
        else if (text[j] === '$' && text[j + 1] === '{') break;
      }
      if (j >= text.length) return -1;
      if (text[j] === '$') {
        stack.push('`');
        i = j + 2;
        prev = '{';
      } else {
        i = j + 1;
        prev = '`';
      }
      continue;
    }
    if (c === '/' && '(,=:[!&|?{};+-*%<>~^'.includes(prev)) {
      i = skipRegExp(text, i);
      if (i === -1) return -1;
      prev = '/';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (c === ')' || c === ']' || c === '}') {
      const want = c === ')' ? '(' : c === ']' ? '[' : '{';
      if (stack.pop() !== want) return -1;
      if (!stack.length) return i + 1;
    }
    if (!/\s/.test(c)) prev = c;
    i++;
  }
  return -1;
}

function skipQuoted(text: string, at: number, quote: string): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
    else if (text[i] === '\n') return -1;
  }
  return -1;
}

function skipRegExp(text: string, at: number): number {
  let inClass = false;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i + 1;
    else if (c === '\n') return -1;
  }
  return -1;
}

/** The quote most string literals use, by a count of the quote characters (cheap, no parse). */
export function dominantQuote(text: string): "'" | '"' {
  let single = 0;
  let double = 0;
  for (let i = text.indexOf("'"); i !== -1; i = text.indexOf("'", i + 1)) single++;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) double++;
  return single >= double ? "'" : '"';
}
