/**
 * A small HCL reader for locating things in `.tf` files, not for evaluating them: a tokenizer
 * that keeps every token's offsets (UTF-16, as JavaScript strings count) and line, and a
 * parser of the body structure: blocks with their labels and braces, attributes with the span
 * of their expression. Expressions are kept as token runs; only brackets are matched, which is
 * all it takes to know where an expression ends.
 */
import { lineIndexAt } from '../support/lines';
import { lineStarts } from '../support/lines';

export type TokenKind =
  | 'ident'
  | 'number'
  /** A quoted string, quotes included; `template` when it interpolates (`${`, `%{`). */
  | 'string'
  /** `<<EOT` … `EOT`, from the `<<` to the end of the closing marker. */
  | 'heredoc'
  | 'comment'
  | 'newline'
  /** Brackets, `=`, `,`, `.`, operators. */
  | 'punct';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
  /** The source text, for `ident` and `punct` (and `number`). */
  text: string;
  /** Strings and heredocs: the value interpolates (`${…}` or `%{…}`), so it is not a literal. */
  template?: boolean;
}

/** A file that does not parse; `line` is 1-based. */
export class HclSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'HclSyntaxError';
  }
}

export interface HclAttribute {
  name: string;
  nameStart: number;
  nameEnd: number;
  /** Offset of the `=`. */
  equals: number;
  /** The expression's span, comments around it excluded. */
  exprStart: number;
  exprEnd: number;
  /** 1-based lines of the name and of the expression's end. */
  line: number;
  endLine: number;
  /** The expression's tokens, comments and newlines excluded. */
  expr: Token[];
}

export interface HclBlock {
  type: string;
  labels: string[];
  /** From the type's first character to after the closing brace. */
  start: number;
  end: number;
  line: number;
  endLine: number;
  attributes: HclAttribute[];
  blocks: HclBlock[];
}

export interface HclBody {
  attributes: HclAttribute[];
  blocks: HclBlock[];
}

export interface HclFile extends HclBody {
  file: string;
  text: string;
  tokens: Token[];
  /** Offsets where each line starts (index 0 is line 1). */
  lineStarts: number[];
}

/** An identifier as HCL defines it: Unicode ID_Start (or `_`), then ID_Continue or `-`. */
const IDENT_START = /[\p{ID_Start}_]/uy;
const IDENT_PART = /[\p{ID_Continue}-]+/uy;
/** ASCII letters, digits, `_` and `-`: most identifiers, checked without a regular expression. */
const asciiPart = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 45;
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEREDOC_START = /<<(-?)([\p{ID_Start}_][\p{ID_Continue}-]*)\r?\n/uy;
const OPERATORS = ['...', '==', '!=', '<=', '>=', '&&', '||', '=>'];
const SINGLE = '{}[]()=,.:?!+-*/%<>';

class Scanner {
  readonly tokens: Token[] = [];
  private pos = 0;
  private line = 1;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  fail(reason: string, line = this.line): never {
    throw new HclSyntaxError(this.file, line, reason);
  }

  private push(kind: TokenKind, start: number, line: number, extra: Partial<Token> = {}): void {
    this.tokens.push({ kind, start, end: this.pos, line, text: this.text.slice(start, this.pos), ...extra });
  }

  /** Advances over `text[pos]`, counting lines. */
  private step(n = 1): void {
    for (let i = 0; i < n; i++) if (this.text[this.pos++] === '\n') this.line++;
  }

  run(): Token[] {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      const start = this.pos;
      const line = this.line;
      if (c === ' ' || c === '\t' || c === '\r' || c === '\ufeff') {
        this.pos++;
      } else if (c === '\n') {
        this.step();
        this.push('newline', start, line);
      } else if (c === '#' || (c === '/' && t[this.pos + 1] === '/')) {
        while (this.pos < t.length && t[this.pos] !== '\n') this.pos++;
        if (t[this.pos - 1] === '\r') this.pos--;
        this.push('comment', start, line);
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2);
        if (close === -1) this.fail('unterminated /* comment');
        this.step(close + 2 - this.pos);
        this.push('comment', start, line);
      } else if (c === '"') {
        const template = this.quoted();
        this.push('string', start, line, { template });
      } else if (c === '<' && t[this.pos + 1] === '<') {
        HEREDOC_START.lastIndex = this.pos;
        const m = HEREDOC_START.exec(t);
        if (!m) this.fail('a heredoc starts with <<MARKER or <<-MARKER and a line break');
        const template = this.heredoc(m[2], m[0].length);
        this.push('heredoc', start, line, { template });
      } else if (c >= '0' && c <= '9') {
        NUMBER.lastIndex = this.pos;
        this.pos += NUMBER.exec(t)![0].length;
        this.push('number', start, line);
      } else if (this.identStart(c)) {
        this.identRest();
        this.push('ident', start, line);
      } else {
        const op = OPERATORS.find((o) => t.startsWith(o, this.pos));
        if (op) this.pos += op.length;
        else if (SINGLE.includes(c)) this.pos++;
        else this.fail(`unexpected character ${JSON.stringify(c)}`);
        this.push('punct', start, line);
      }
    }
    return this.tokens;
  }

  /** Whether an identifier starts here; moves past its first character when it does. */
  private identStart(c: string): boolean {
    const code = c.charCodeAt(0);
    if (code < 128) {
      // A letter or `_` (digits and `-` only continue one).
      if (!asciiPart(code) || (code >= 48 && code <= 57) || code === 45) return false;
      this.pos++;
      return true;
    }
    IDENT_START.lastIndex = this.pos;
    if (!IDENT_START.test(this.text)) return false;
    this.pos = IDENT_START.lastIndex;
    return true;
  }

  /** Past the rest of an identifier: ASCII by hand, the rest of Unicode by ID_Continue. */
  private identRest(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const code = t.charCodeAt(this.pos);
      if (asciiPart(code)) this.pos++;
      else if (code < 128) return;
      else {
        IDENT_PART.lastIndex = this.pos;
        if (!IDENT_PART.test(t)) return;
        this.pos = IDENT_PART.lastIndex;
      }
    }
  }

  /**
   * A quoted string from its opening quote; returns whether it interpolates. Escapes (`\"`,
   * `$${`, `%%{`) are literal; `${…}` and `%{…}` are scanned to their matching brace.
   */
  private quoted(): boolean {
    const t = this.text;
    const line = this.line;
    let template = false;
    this.pos++;
    for (;;) {
      const c = t[this.pos];
      if (c === undefined || c === '\n') this.fail('unterminated string (a quoted string ends on its line)', line);
      if (c === '"') {
        this.pos++;
        return template;
      }
      if (c === '\\') this.pos += 2;
      else if ((c === '$' || c === '%') && t[this.pos + 1] === c && t[this.pos + 2] === '{') this.pos += 3;
      else if ((c === '$' || c === '%') && t[this.pos + 1] === '{') {
        template = true;
        this.pos += 2;
        this.interpolation();
      } else this.pos++;
    }
  }

  /** From after `${` or `%{` to after its closing brace: nested braces and strings, any lines. */
  private interpolation(): void {
    const t = this.text;
    const line = this.line;
    let depth = 1;
    while (depth > 0) {
      const c = t[this.pos];
      if (c === undefined) this.fail('unterminated ${ or %{ in a string', line);
      if (c === '"') this.quoted();
      else if (c === '#' || (c === '/' && t[this.pos + 1] === '/')) {
        // A comment: a quote or a brace in it is text.
        while (this.pos < t.length && t[this.pos] !== '\n') this.pos++;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2);
        if (close === -1) this.fail('unterminated /* comment', this.line);
        this.step(close + 2 - this.pos);
      } else if (c === '<' && t[this.pos + 1] === '<') {
        HEREDOC_START.lastIndex = this.pos;
        const m = HEREDOC_START.exec(t);
        if (m) this.heredoc(m[2], m[0].length);
        else this.pos += 2;
      } else {
        if (c === '{') depth++;
        else if (c === '}') depth--;
        this.step();
      }
    }
  }

  /** From `<<`: the opening line, the body (templates included), the closing marker's line. */
  private heredoc(marker: string, openLength: number): boolean {
    const t = this.text;
    const line = this.line;
    let template = false;
    this.step(openLength);
    for (;;) {
      // At a line's start: the closing marker, alone on its line (spaces before and after allowed).
      let i = this.pos;
      while (t[i] === ' ' || t[i] === '\t') i++;
      if (t.startsWith(marker, i)) {
        let after = i + marker.length;
        while (t[after] === ' ' || t[after] === '\t') after++;
        if (after === t.length || t[after] === '\n' || t[after] === '\r') {
          this.pos = i + marker.length;
          return template;
        }
      }
      for (;;) {
        const c = t[this.pos];
        if (c === undefined) this.fail(`unterminated heredoc: no line ${marker} closes it`, line);
        if ((c === '$' || c === '%') && t[this.pos + 1] === c && t[this.pos + 2] === '{') this.pos += 3;
        else if ((c === '$' || c === '%') && t[this.pos + 1] === '{') {
          template = true;
          this.pos += 2;
          this.interpolation();
        } else {
          this.step();
          if (c === '\n') break;
        }
      }
    }
  }
}

export function tokenizeHcl(text: string, file: string): Token[] {
  return new Scanner(text, file).run();
}

const OPEN: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

class Parser {
  private i = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly file: string,
    private readonly eofLine: number,
  ) {}

  private fail(reason: string, token?: Token): never {
    throw new HclSyntaxError(this.file, token?.line ?? this.eofLine, reason);
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  /** Comments within a line: between a name and its `=`, or a block's type and labels. A line comment stops at its newline. */
  private skipComments(): void {
    while (this.peek()?.kind === 'comment') this.i++;
  }

  private skipTrivia(): void {
    for (let t = this.peek(); t && (t.kind === 'newline' || t.kind === 'comment'); t = this.peek()) this.i++;
  }

  /** Items until a `}` (inside a block) or the end of the file (top level). */
  body(inBlock: boolean, opener?: Token): HclBody {
    const out: HclBody = { attributes: [], blocks: [] };
    for (;;) {
      this.skipTrivia();
      const t = this.peek();
      if (!t) {
        if (inBlock) this.fail('a block is not closed: missing }', opener);
        return out;
      }
      if (t.kind === 'punct' && t.text === '}') {
        if (!inBlock) this.fail('unexpected }: no block is open here', t);
        return out;
      }
      if (t.kind !== 'ident') this.fail(`expected an argument name or a block type, found ${describe(t)}`, t);
      this.i++;
      this.skipComments();
      const next = this.peek();
      if (next?.kind === 'punct' && next.text === '=') {
        this.i++;
        out.attributes.push(this.attribute(t, next, inBlock));
      } else out.blocks.push(this.block(t));
    }
  }

  private attribute(name: Token, equals: Token, inBlock: boolean): HclAttribute {
    const expr: Token[] = [];
    const stack: Token[] = [];
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.kind === 'newline' && !stack.length) break;
      if (t.kind === 'punct' && t.text === '}' && !stack.length && inBlock) break; // `{ a = 1 }` on one line
      this.i++;
      if (t.kind === 'newline' || t.kind === 'comment') continue;
      if (t.kind === 'punct' && OPEN[t.text]) stack.push(t);
      else if (t.kind === 'punct' && (t.text === '}' || t.text === ']' || t.text === ')')) {
        const open = stack.pop();
        if (!open || OPEN[open.text] !== t.text) this.fail(`unexpected ${t.text}`, t);
      }
      expr.push(t);
    }
    if (stack.length) this.fail(`${stack[stack.length - 1].text} is not closed`, stack[stack.length - 1]);
    if (!expr.length) this.fail(`the argument ${name.text} has no value after =`, equals);
    const last = expr[expr.length - 1];
    return {
      name: name.text,
      nameStart: name.start,
      nameEnd: name.end,
      equals: equals.start,
      exprStart: expr[0].start,
      exprEnd: last.end,
      line: name.line,
      endLine: last.line + countNewlines(last.text),
      expr,
    };
  }

  private block(type: Token): HclBlock {
    const labels: string[] = [];
    for (let t = this.peek(); ; t = this.peek()) {
      if (t?.kind === 'comment') {
        this.i++;
        continue;
      }
      if (!t) this.fail(`the block ${type.text} has no body`, type);
      if (t.kind === 'string' && !t.template) labels.push(decodeString(t.text));
      else if (t.kind === 'ident') labels.push(t.text);
      else if (t.kind === 'punct' && t.text === '{') break;
      else this.fail(`expected = or a block after ${type.text}, found ${describe(t)}`, t);
      this.i++;
    }
    const open = this.peek()!;
    this.i++;
    const body = this.body(true, open);
    const close = this.peek()!;
    this.i++;
    return {
      type: type.text,
      labels,
      start: type.start,
      end: close.end,
      line: type.line,
      endLine: close.line,
      ...body,
    };
  }
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function describe(t: Token): string {
  if (t.kind === 'newline') return 'the end of the line';
  if (t.kind === 'string' || t.kind === 'heredoc') return 'a string';
  return JSON.stringify(t.text);
}

/** Parses one file; throws `HclSyntaxError` naming `file` and the line. */
export function parseHcl(text: string, file: string): HclFile {
  const tokens = tokenizeHcl(text, file);
  const starts = lineStarts(text);
  const body = new Parser(tokens, file, starts.length).body(false);
  return { file, text, tokens, lineStarts: starts, ...body };
}

/** The value of a literal expression, or undefined when the expression is anything else. */
export type HclLiteral = { kind: 'string'; value: string } | { kind: 'number'; value: string } | { kind: 'null' };

/**
 * A literal the suggestions may replace: a quoted string or a heredoc without interpolation, a
 * number, or `null`. References, templates, calls and operators are not.
 */
export function literalOf(attr: HclAttribute): HclLiteral | undefined {
  if (attr.expr.length !== 1) return undefined;
  const [t] = attr.expr;
  if (t.kind === 'string' && !t.template) return { kind: 'string', value: decodeString(t.text) };
  if (t.kind === 'heredoc' && !t.template) return { kind: 'string', value: heredocValue(t.text) };
  if (t.kind === 'number') return { kind: 'number', value: t.text };
  if (t.kind === 'ident' && t.text === 'null') return { kind: 'null' };
  return undefined;
}

/** The value of a quoted string without interpolation (HCL escapes, `$${` and `%%{`). */
export function decodeString(quoted: string): string {
  let out = '';
  for (let i = 1; i < quoted.length - 1; i++) {
    const c = quoted[i];
    if (c === '\\') {
      const e = quoted[++i];
      const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };
      if (e in simple) out += simple[e];
      else if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8;
        out += String.fromCodePoint(parseInt(quoted.slice(i + 1, i + 1 + len), 16));
        i += len;
      } else out += c + e;
    } else if ((c === '$' || c === '%') && quoted[i + 1] === c && quoted[i + 2] === '{') {
      out += `${c}{`;
      i += 2;
    } else out += c;
  }
  return out;
}

/** Leading white space as HCL trims it for `<<-` (Go's unicode.IsSpace). */
const LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/**
 * The value of a heredoc without interpolation, as HCL reads it: its body lines with their
 * line endings as written (a CRLF file gives `\r\n`). `<<-` removes the common indentation of
 * the lines that are not blank; a blank line (white space only) keeps its spaces.
 */
function heredocValue(source: string): string {
  const lines = source.split('\n');
  const body = lines.slice(1, -1).map((l) => `${l.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{')}\n`);
  if (!source.startsWith('<<-')) return body.join('');
  const blank = (l: string) => LEADING_SPACE.exec(l)![0].length === l.length;
  const indents = body.filter((l) => !blank(l)).map((l) => [...LEADING_SPACE.exec(l)![0]].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return body.map((l) => (blank(l) ? l : l.slice(cut))).join('');
}

// ---- lines of a parsed file ----------------------------------------------------------------

/** The 1-based line of an offset. */
export const lineOf = (file: HclFile, offset: number): number => lineIndexAt(file.lineStarts, offset) + 1;

/** Start offset of a 1-based line; the text's length past the last line. */
export const lineStart = (file: HclFile, line: number): number => file.lineStarts[line - 1] ?? file.text.length;

export const lineText = (file: HclFile, line: number): string | undefined =>
  line < 1 || line > file.lineStarts.length
    ? undefined
    : file.text.slice(lineStart(file, line), lineStart(file, line + 1)).replace(/\r?\n$/, '');

/** The file's line ending, from its first line: a line added to a CRLF file ends in CRLF. */
export const lineEnding = (file: HclFile): string => {
  const first = file.text.indexOf('\n');
  return first > 0 && file.text[first - 1] === '\r' ? '\r\n' : '\n';
};
