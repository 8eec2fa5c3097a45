/**
 * The edits of an app's TypeScript: a literal prop replaced (the quote it was written with
 * kept), a check prop's fields replaced, added or removed, the target replaced, a new `Alert`
 * declared after a statement, a statement deleted, and the names an import lacks added. A
 * value that is not a literal of this one alert is `NotLiteral`, naming where it comes from.
 */
import type * as B from '@babel/types';
import { checkPropsSource, tsValue, type CheckProps } from '../contract/alert-props';
import { textOf, type Node } from './js-source';
import type { TextEdit } from './suggestion';
import { where, type AppSources, type Quote, type Source, type Whole } from './ts-sources';

/** Why a value cannot be edited here: where it comes from. */
/** Thrown to leave a nested walk when a value is not a literal the suggester can edit. */
export class NotLiteral extends Error {
  constructor(readonly what: string) {
    super(what);
    this.name = 'NotLiteral';
  }
}

/** The edits of an alert's props object; a value that is not a literal throws `NotLiteral`. */
export class PropsEdits {
  /** `sources` parses a whole file when a message names where a value is declared. */
  constructor(private readonly sources: AppSources) {}

  private property(src: Source, obj: B.ObjectExpression, key: string): B.ObjectProperty | null {
    for (const p of obj.properties) {
      if (p.type === 'SpreadElement') continue;
      const name =
        !p.computed && p.key.type === 'Identifier' ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : null;
      if (name !== key) continue;
      if (p.type === 'ObjectProperty' && !p.shorthand) return p;
      throw new NotLiteral(`${key} is not a literal (${where(src, p)}: ${textOf(src, p)})`);
    }
    const spread = obj.properties.find((p) => p.type === 'SpreadElement');
    if (spread) throw new NotLiteral(`${key} may come from ${textOf(src, spread)} (${where(src, spread)})`);
    return null;
  }

  /** A string or number literal's replacement; anything else names where the value comes from. */
  replaceLiteral(src: Source, obj: B.ObjectExpression, key: string, value: string | number): TextEdit {
    const p = this.property(src, obj, key);
    if (!p) throw new NotLiteral(`${key} is not given (${where(src, obj)})`);
    const init = this.literalOf(src, p);
    const quote = init.type === 'StringLiteral' ? (src.text[init.start!] as Quote) : src.quote;
    return { start: init.start!, end: init.end!, text: tsValue(value, quote) };
  }

  /** The property's value when it is a string or number literal; otherwise where it comes from, thrown. */
  private literalOf(src: Source, p: B.ObjectProperty): Node {
    const key = textOf(src, p.key);
    const init = p.value;
    const literal =
      init.type === 'StringLiteral' ||
      (init.type === 'TemplateLiteral' && init.expressions.length === 0) ||
      init.type === 'NumericLiteral' ||
      (init.type === 'UnaryExpression' &&
        (init.operator === '-' || init.operator === '+') &&
        init.argument.type === 'NumericLiteral');
    if (!literal) throw new NotLiteral(`${key} is not a literal (${where(src, init)}: ${this.origin(src, init)})`);
    return init;
  }

  /** `days` (main.ts:5), `props.days`, …: the expression, and where an identifier is declared. */
  private origin(src: Source, expr: Node): string {
    const text = textOf(src, expr).replace(/\s+/g, ' ');
    if (expr.type !== 'Identifier') return text;
    // The nearest declaration of that name before it in the file.
    let found: Node | null = null;
    for (const d of this.sources.whole(src)?.declarations.get(expr.name) ?? [])
      if (d.start! < expr.start! && (!found || d.start! > found.start!)) found = d;
    return found ? `${text}, declared at ${where(src, found)}` : text;
  }

  replaceTarget(src: Source, obj: B.ObjectExpression, replacement: string): TextEdit {
    const p = this.property(src, obj, 'target');
    if (!p) throw new NotLiteral(`target is not given (${where(src, obj)})`);
    const init = p.value;
    const arg = init.type === 'CallExpression' ? init.arguments : [];
    const isFactoryCall =
      init.type === 'CallExpression' &&
      init.callee.type === 'MemberExpression' &&
      !init.callee.computed &&
      init.callee.object.type === 'Identifier' &&
      init.callee.object.name === 'AlertTarget' &&
      arg.length === 1 &&
      (arg[0].type === 'StringLiteral' || arg[0].type === 'NumericLiteral');
    if (!isFactoryCall)
      throw new NotLiteral(`target is not a literal (${where(src, init)}: ${this.origin(src, init)})`);
    return { start: init.start!, end: init.end!, text: replacement };
  }

  /** The edits that turn the check prop `code` into `live` in the props object. */
  checkEdits(src: Source, obj: B.ObjectExpression, code: CheckProps, live: CheckProps): TextEdit[] {
    const p = this.property(src, obj, code.prop);
    if (!p) throw new NotLiteral(`${code.prop} is not given (${where(src, obj)})`);
    const init = p.value;
    if (init.type !== 'ObjectExpression')
      throw new NotLiteral(`${code.prop} is not an object literal (${where(src, init)}: ${this.origin(src, init)})`);
    if (code.prop !== live.prop) {
      // Another kind of check: the whole prop is replaced, once every value in it is a literal.
      for (const key of Object.keys(code.fields)) this.replaceLiteral(src, init, key, code.fields[key]);
      return [{ start: p.start!, end: p.end!, text: checkPropsSource(live, src.quote) }];
    }
    const edits: TextEdit[] = [];
    const removed: string[] = [];
    const added: string[] = [];
    for (const key of new Set([...Object.keys(code.fields), ...Object.keys(live.fields)])) {
      const want = live.fields[key];
      const have = code.fields[key];
      if (want === have) continue;
      if (want === undefined) removed.push(key);
      else if (have === undefined) added.push(key);
      else edits.push(this.replaceLiteral(src, init, key, want));
    }
    // A prop that gives way to another (expiresInDays → subject) is replaced where it stands.
    while (removed.length && added.length) {
      const key = added.shift()!;
      const p = this.property(src, init, removed.shift()!)!;
      this.literalOf(src, p);
      edits.push({ start: p.start!, end: p.end!, text: `${key}: ${tsValue(live.fields[key], src.quote)}` });
    }
    for (const key of removed) edits.push(this.removeProperty(src, init, key));
    for (const key of added) edits.push(this.addProperty(src, init, key, live.fields[key]));
    return edits;
  }

  private removeProperty(src: Source, obj: B.ObjectExpression, key: string): TextEdit {
    const p = this.property(src, obj, key)!;
    const i = obj.properties.indexOf(p);
    this.literalOf(src, p); // only a literal may go without a word
    const text = src.text;
    if (i > 0) {
      // From the comma after the previous property to the end of this one (a trailing comma stays).
      const prev = obj.properties[i - 1];
      const comma = text.indexOf(',', prev.end!);
      return { start: comma, end: p.end!, text: '' };
    }
    // The first: up to the start of the next one (or the closing brace).
    const next = obj.properties[i + 1];
    return { start: p.start!, end: next ? next.start! : p.end!, text: '' };
  }

  private addProperty(src: Source, obj: B.ObjectExpression, key: string, value: string | number): TextEdit {
    const last = obj.properties[obj.properties.length - 1];
    const entry = `${key}: ${tsValue(value, src.quote)}`;
    if (!last) return { start: obj.start! + 1, end: obj.start! + 1, text: ` ${entry} ` };
    const multiline = textOf(src, obj).includes('\n');
    const text = multiline ? `,\n${indentOf(src.text, last.start!)}${entry}` : `, ${entry}`;
    return { start: last.end!, end: last.end!, text };
  }
}

/**
 * Alert and AlertTarget added to the import that brings in this package's constructs, when
 * missing. None when the file has no such import (a `require`, which the author extends).
 */
export function importEdits(src: Whole): TextEdit[] {
  const names = ['Alert', 'AlertTarget'];
  for (const s of src.program.body) {
    if (s.type !== 'ImportDeclaration') continue;
    const named = s.specifiers.filter((x): x is B.ImportSpecifier => x.type === 'ImportSpecifier');
    const have = named.map((e) => e.local.name);
    if (!have.some((n) => OWN_CONSTRUCTS.has(n))) continue;
    const missing = names.filter((n) => !have.includes(n));
    if (!missing.length) return [];
    return [{ start: named[0].start!, end: named[0].start!, text: missing.map((n) => `${n}, `).join('') }];
  }
  return [];
}

/** Names of this package's exports an app's import of it has; the one to extend. */
const OWN_CONSTRUCTS = new Set(['NetworkcalcAccount', 'Alert', 'AlertTarget', 'AlertPolicy']);

/**
 * `new Alert(scope, 'Id', {…});` on the lines after `after` (after its trailing comment,
 * which stays its own). When `after` ends its line, the lines go in at the start of the next
 * one: an edit that deletes `after`'s lines then ends where this one starts, so both apply.
 */
export function newAlert(src: Source, after: Node, scope: string, id: string, props: readonly string[]): TextEdit {
  const indent = indentOf(src.text, after.start!);
  const q = src.quote;
  const lines = [
    `${indent}new Alert(${scope}, ${tsValue(id, q)}, {`,
    ...props.map((p) => `${indent}  ${p},`),
    `${indent}});`,
  ];
  const at = afterTrailingComment(src.text, after.end!);
  const eol = /^(\r\n|\n)/.exec(src.text.slice(at, at + 2))?.[0];
  if (eol) return { start: at + eol.length, end: at + eol.length, text: lines.map((l) => l + eol).join('') };
  return { start: at, end: at, text: lines.map((l) => '\n' + l).join('') };
}

/**
 * The deletion of the statement [start, end): its lines, whole, when nothing else is on them
 * (the statement, blanks, a trailing comment); otherwise only its text and the blanks after
 * it, so that the code sharing its lines stays.
 */
export function statementDeletion(src: Source, start: number, end: number): TextEdit {
  const text = src.text;
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const after = afterTrailingComment(text, end);
  const alone =
    text.slice(from, start).trim() === '' && (after >= text.length || text[after] === '\n' || text[after] === '\r');
  if (!alone) {
    // The blanks after it go, or those before it when it ends its line.
    let to = end;
    while (text[to] === ' ' || text[to] === '\t') to++;
    let at = start;
    if (to >= text.length || text[to] === '\n' || text[to] === '\r') {
      to = end;
      while (at > from && (text[at - 1] === ' ' || text[at - 1] === '\t')) at--;
    }
    return { start: at, end: to, text: '' };
  }
  const nl = text.indexOf('\n', end);
  return { start: from, end: nl === -1 ? text.length : nl + 1, text: '' };
}

function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/**
 * Where text goes after a statement ending at `end`: past the comments on the rest of its
 * line (`}); // why`), which belong to it; at `end` when code follows on that line.
 */
function afterTrailingComment(text: string, end: number): number {
  let i = end;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text.startsWith('//', i)) {
      const nl = text.slice(i).search(/[\r\n\u2028\u2029]/);
      return nl === -1 ? text.length : i + nl;
    }
    if (!text.startsWith('/*', i)) break;
    const close = text.indexOf('*/', i + 2);
    if (close === -1 || /[\r\n\u2028\u2029]/.test(text.slice(i, close))) return end;
    i = close + 2;
  }
  return i >= text.length || /[\r\n\u2028\u2029]/.test(text[i]) ? i : end;
}
