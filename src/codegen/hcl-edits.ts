/**
 * The edits of a `resource` block that give its attributes the live values: a literal
 * replaced, a line added (aligned as `terraform fmt` aligns the block) or removed, and the
 * deletion of a whole block. An attribute that is not a literal gets a note saying where the
 * value comes from and what it should be.
 */
import { ALERT_FIELDS, SPEC_FIELDS, type SpecField } from '../model/fields';
import type { Values } from '../read/terraform-plan';
import { hclString } from './export';
import { aloneOnLines, fmtAligned, realign } from './hcl-align';
import {
  lineEnding,
  lineStart,
  lineText,
  literalOf,
  type HclAttribute,
  type HclBlock,
  type HclFile,
  type HclLiteral,
} from './hcl-parse';
import type { TextEdit } from './suggestion';

const NUMBER_FIELDS = new Set<string>(ALERT_FIELDS.filter((f) => f.type === 'number').map((f) => f.name));
const OPTIONAL_FIELDS = new Set<string>(ALERT_FIELDS.filter((f) => f.optional).map((f) => f.name));

/** A field and its value before and after the drift. */
export type FieldDiff = [SpecField, unknown, unknown];

export const isUnset = (field: string, v: unknown): boolean =>
  v === null || v === undefined || (v === '' && OPTIONAL_FIELDS.has(field));

const shown = (field: string, v: unknown): string => (isUnset(field, v) ? 'unset' : JSON.stringify(v));

function exprText(file: HclFile, attr: HclAttribute): string {
  const s = file.text.slice(attr.exprStart, attr.exprEnd).replace(/\s+/g, ' ');
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

/** HCL source of a new value, in the style of the literal it replaces when there is one. */
function literalSource(field: string, value: unknown, old: HclLiteral | undefined): string {
  const s = String(value);
  if (NUMBER_FIELDS.has(field)) return old?.kind === 'string' ? hclString(s) : s;
  if (old?.kind === 'number' && /^[0-9]+$/.test(s)) return s;
  return hclString(s);
}

function literalEquals(lit: HclLiteral, value: unknown): boolean {
  if (lit.kind === 'null') return value === null;
  if (typeof value === 'number') return lit.value !== '' && Number(lit.value) === value;
  return lit.value === value;
}

export interface BlockChange {
  edits: TextEdit[];
  /** What the edits do, for the summary. */
  done: string[];
  /** Values the edits cannot set, one clause each. */
  notes: string[];
  /** Line of the first attribute concerned. */
  line: number;
}

/** The changed attributes that are in the block: their literals replaced, or a line removed when unset. */
function attributeEdits(
  file: HclFile,
  attrs: ReadonlyMap<string, HclAttribute>,
  diffs: readonly FieldDiff[],
  after: Values,
  out: BlockChange,
): { removed: Set<HclAttribute>; lines: number[]; missing: Map<SpecField, string> } {
  const removed = new Set<HclAttribute>();
  const lines: number[] = [];
  /** Fields the block lacks and the live value sets, with their source. */
  const missing = new Map<SpecField, string>();
  const where = (a: HclAttribute) => `${file.file}:${a.line}: ${exprText(file, a)}`;
  for (const [field, before, value] of diffs) {
    const attr = attrs.get(field);
    const unset = isUnset(field, value);
    const change = `${field} ${shown(field, before)} → ${shown(field, value)}`;
    if (!attr) {
      if (unset) continue;
      missing.set(field, literalSource(field, value, undefined));
      out.done.push(change);
      continue;
    }
    lines.push(attr.line);
    const lit = literalOf(attr);
    if (!lit) {
      out.notes.push(
        field === 'target_id' && !unset
          ? `target_id is not a literal (${where(attr)}); the alert now watches ${String(after.target_type ?? 'target')} id ${String(value)}: point the expression at it`
          : `${field} is not a literal (${where(attr)}); ${unset ? 'leave it unset' : `set it to ${JSON.stringify(value)}`} where it comes from`,
      );
      continue;
    }
    if (unset ? lit.kind === 'null' : literalEquals(lit, value)) continue;
    out.done.push(change);
    if (unset && aloneOnLines(file, attr)) {
      removed.add(attr);
      out.edits.push({ start: lineStart(file, attr.line), end: lineStart(file, attr.endLine + 1), text: '' });
    } else
      out.edits.push({
        start: attr.exprStart,
        end: attr.exprEnd,
        text: unset ? 'null' : literalSource(field, value, lit),
      });
  }
  return { removed, lines, missing };
}

/**
 * Where each missing field's line goes: after the nearest attribute before it in the schema's
 * order (before the next one otherwise). A field with no such place is a note, not an edit.
 */
function placeMissing(
  file: HclFile,
  block: HclBlock,
  attrs: ReadonlyMap<string, HclAttribute>,
  removed: ReadonlySet<HclAttribute>,
  missing: ReadonlyMap<SpecField, string>,
  out: BlockChange,
): { afterMap: Map<HclAttribute, string[]>; beforeMap: Map<HclAttribute, string[]> } {
  const present = (f: string) => {
    const a = attrs.get(f);
    return a && !removed.has(a) ? a : undefined;
  };
  const afterMap = new Map<HclAttribute, string[]>();
  const beforeMap = new Map<HclAttribute, string[]>();
  for (const [field, value] of missing) {
    const i = SPEC_FIELDS.indexOf(field);
    const prev = SPEC_FIELDS.slice(0, i).reverse().map(present).find(Boolean);
    const next = prev
      ? undefined
      : SPEC_FIELDS.slice(i + 1)
          .map(present)
          .find(Boolean);
    const anchor = prev ?? next;
    if (!anchor || block.line === block.endLine || !aloneOnLines(file, anchor)) {
      out.notes.push(`add ${field} = ${value} to the block (${file.file}:${block.line})`);
      out.done.splice(
        out.done.findIndex((d) => d.startsWith(`${field} `)),
        1,
      );
      continue;
    }
    const map = prev ? afterMap : beforeMap;
    if (!map.has(anchor)) map.set(anchor, []);
    map.get(anchor)!.push(field);
  }
  return { afterMap, beforeMap };
}

/** The edits that give the block's attributes the live values. */
export function editBlock(file: HclFile, block: HclBlock, diffs: readonly FieldDiff[], after: Values): BlockChange {
  const out: BlockChange = { edits: [], done: [], notes: [], line: block.line };
  const attrs = new Map<string, HclAttribute>();
  for (const a of block.attributes) if (!attrs.has(a.name)) attrs.set(a.name, a);
  const { removed, lines, missing } = attributeEdits(file, attrs, diffs, after, out);
  const { afterMap, beforeMap } = placeMissing(file, block, attrs, removed, missing, out);
  // Lines added take their run's width; a removed line can make a shorter longest name, so
  // terraform fmt would realign the rest.
  let widths = new Map<string, number>();
  if ((missing.size || removed.size) && fmtAligned(file, block)) {
    const aligned = realign(file, block, removed, afterMap, beforeMap);
    out.edits.push(...aligned.edits);
    widths = aligned.widths;
  }
  const eol = lineEnding(file);
  const lineFor = (anchor: HclAttribute, field: string) => {
    const indent = file.text.slice(lineStart(file, anchor.line), anchor.nameStart);
    const pad = ' '.repeat((widths.get(field) ?? field.length) - field.length + 1);
    return `${indent}${field}${pad}= ${missing.get(field as SpecField)!}${eol}`;
  };
  for (const [anchor, fields] of afterMap)
    out.edits.push({
      start: lineStart(file, anchor.endLine + 1),
      end: lineStart(file, anchor.endLine + 1),
      text: fields.map((f) => lineFor(anchor, f)).join(''),
    });
  for (const [anchor, fields] of beforeMap)
    out.edits.push({
      start: lineStart(file, anchor.line),
      end: lineStart(file, anchor.line),
      text: fields.map((f) => lineFor(anchor, f)).join(''),
    });
  if (lines.length) out.line = Math.min(...lines);
  return out;
}

/**
 * The lines of a block to delete: the block's own lines, and the blank line after it when the
 * line before is blank too (or the block is the first thing in the file), so that no double
 * blank line is left; at the end of the file, the blank line before it. Comments above the block stay. A block sharing a line with something
 * else loses only its own text.
 */
export function blockDeletion(file: HclFile, block: HclBlock): TextEdit {
  const first = lineStart(file, block.line);
  const rest = file.text.slice(block.end, lineStart(file, block.endLine + 1)).trim();
  if (
    file.text.slice(first, block.start).trim() !== '' ||
    (rest !== '' && !rest.startsWith('#') && !rest.startsWith('//'))
  )
    return { start: block.start, end: block.end, text: '' };
  const blank = (line: number) => lineText(file, line)?.trim() === '';
  let start = first;
  let end = lineStart(file, block.endLine + 1);
  if (block.line === 1 || blank(block.line - 1)) {
    if (file.text.slice(end).trim() === '' && block.line > 1) start = lineStart(file, block.line - 1);
    else if (blank(block.endLine + 1)) end = lineStart(file, block.endLine + 2);
  }
  return { start, end, text: '' };
}
