/**
 * Drift of Terraform HCL configurations turned into edits of their `.tf` files. The drift is
 * Terraform's own: the `resource_drift` of a refresh-only plan (`terraform show -json`). Each
 * drifted `networkcalc_alert` is located in the `.tf` files of the directory (parsed by
 * `hcl-parse.ts`, which keeps offsets), and each attribute the live alert changed becomes an
 * edit when its expression is a literal: the literal replaced, a line added or removed. Other
 * expressions (variables, references, templates, count and for_each instances, modules) get
 * one line saying where the value comes from and what it should be.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ALERT_FIELDS, SPEC_FIELDS, type SpecField } from '../model/fields';
import { hclString } from './export';
import {
  HclSyntaxError,
  literalOf,
  parseHcl,
  type HclAttribute,
  type HclBlock,
  type HclFile,
  type HclLiteral,
} from './hcl-parse';
import { assemble, type Draft } from './assemble';
import { isObject } from '../support/json';
import { lineIndexAt } from '../support/lines';
import type { SourceSnapshot, Suggestion, TextEdit } from './suggestion';
import { sha256 } from './write';

export interface TerraformPlanSuggestions {
  suggestions: Suggestion[];
  /** Every `.tf` file read, as it was read. */
  snapshots: SourceSnapshot[];
  /** What stopped a suggestion or the whole run: a plan that is not one, a file that does not parse, a block not found. */
  problems: string[];
  /**
   * `.tf` files this reader could not parse that no suggestion needed (each `file:line: why`):
   * the suggestions were still made (see `Sources`).
   */
  warnings?: string[];
}

export interface TerraformPlanOptions {
  /** Modification time of the plan file: `.tf` files modified later are marked `changedSincePlan`. */
  planFileMtimeMs?: number;
}

const RESOURCE_TYPE = 'networkcalc_alert';
const SHOW_COMMANDS =
  'terraform plan -refresh-only -out=drift.tfplan, then terraform show -json drift.tfplan > drift.json';
const NUMBER_FIELDS = new Set<string>(ALERT_FIELDS.filter((f) => f.type === 'number').map((f) => f.name));
const OPTIONAL_FIELDS = new Set<string>(ALERT_FIELDS.filter((f) => f.optional).map((f) => f.name));

type Values = Record<string, unknown>;

interface DriftEntry {
  address: string;
  /** `module.a` (or `module.a.module.b`) for a resource in a module. */
  moduleAddress: string | undefined;
  name: string;
  /** The count index or for_each key of an instance. */
  index: string | number | undefined;
  action: 'update' | 'delete';
  before: Values;
  after: Values | null;
}

interface ConfigResource {
  providerConfigKey: string | undefined;
  repetition: 'count' | 'for_each' | undefined;
}

interface ReadPlan {
  drift: DriftEntry[];
  /** By `module.a.` prefix plus resource address. */
  config: Map<string, ConfigResource>;
}

/** A plan JSON that cannot be used; the message says why and what to give instead. */
class PlanShapeError extends Error {}

function shapeError(what: string): never {
  throw new PlanShapeError(`not the JSON of a refresh-only terraform plan: ${what}; make it with ${SHOW_COMMANDS}`);
}

function readConfigModule(module: unknown, prefix: string, where: string, out: Map<string, ConfigResource>): void {
  if (module === undefined) return;
  if (!isObject(module)) shapeError(`${where} is not an object`);
  const resources = module.resources ?? [];
  if (!Array.isArray(resources)) shapeError(`${where}.resources is not a list`);
  resources.forEach((r: unknown, i) => {
    if (!isObject(r) || typeof r.address !== 'string') shapeError(`${where}.resources[${i}] has no address`);
    out.set(prefix + r.address, {
      providerConfigKey: typeof r.provider_config_key === 'string' ? r.provider_config_key : undefined,
      repetition: 'count_expression' in r ? 'count' : 'for_each_expression' in r ? 'for_each' : undefined,
    });
  });
  const calls = module.module_calls ?? {};
  if (!isObject(calls)) shapeError(`${where}.module_calls is not an object`);
  for (const [name, call] of Object.entries(calls)) {
    if (!isObject(call)) shapeError(`${where}.module_calls.${name} is not an object`);
    readConfigModule(call.module, `${prefix}module.${name}.`, `${where}.module_calls.${name}.module`, out);
  }
}

function readPlan(plan: unknown): ReadPlan {
  if (!isObject(plan))
    shapeError(`expected a JSON object, found ${Array.isArray(plan) ? 'a list' : JSON.stringify(plan)}`);
  if (typeof plan.format_version !== 'string') shapeError('it has no format_version');
  if (!plan.format_version.startsWith('1.'))
    shapeError(`format_version ${plan.format_version} is not supported (1.x is, from terraform 1.x)`);
  if (!('planned_values' in plan) && !('configuration' in plan) && 'values' in plan)
    shapeError('it is the JSON of a state (terraform show -json without a plan file), not of a plan');
  if (!isObject(plan.configuration) || !isObject(plan.configuration.root_module))
    shapeError('it has no configuration.root_module');
  if (plan.errored === true) shapeError('the plan failed (errored is true): fix the errors terraform printed');
  const changes = plan.resource_changes ?? [];
  if (!Array.isArray(changes)) shapeError('resource_changes is not a list');
  const acting = changes.filter(
    (c: unknown) =>
      !isObject(c) ||
      !isObject(c.change) ||
      !Array.isArray(c.change.actions) ||
      c.change.actions.some((a) => a !== 'no-op' && a !== 'read'),
  );
  if (acting.length)
    shapeError(
      `it plans changes (${acting
        .slice(0, 3)
        .map((c: unknown) => (isObject(c) && typeof c.address === 'string' ? c.address : '?'))
        .join(', ')}${acting.length > 3 ? ', …' : ''}), so it is a normal plan; drift is read from a refresh-only one`,
    );
  const config = new Map<string, ConfigResource>();
  readConfigModule(plan.configuration.root_module, '', 'configuration.root_module', config);

  const rawDrift = plan.resource_drift ?? [];
  if (!Array.isArray(rawDrift)) shapeError('resource_drift is not a list');
  const drift: DriftEntry[] = [];
  rawDrift.forEach((d: unknown, i) => {
    const at = `resource_drift[${i}]`;
    if (!isObject(d)) shapeError(`${at} is not an object`);
    if (typeof d.address !== 'string' || typeof d.type !== 'string' || typeof d.name !== 'string')
      shapeError(`${at} has no address, type or name`);
    if (d.type !== RESOURCE_TYPE || d.mode !== 'managed') return;
    const change = d.change;
    if (!isObject(change) || !Array.isArray(change.actions)) shapeError(`${at}.change.actions is not a list`);
    const actions = change.actions.join(',');
    if (actions !== 'update' && actions !== 'delete')
      shapeError(`${at} (${d.address}) has the actions [${actions}], where a refresh shows update or delete`);
    if (!isObject(change.before)) shapeError(`${at}.change.before is not an object`);
    if (actions === 'update' ? !isObject(change.after) : change.after !== null)
      shapeError(`${at}.change.after is not ${actions === 'update' ? 'an object' : 'null'}`);
    drift.push({
      address: d.address,
      moduleAddress: typeof d.module_address === 'string' ? d.module_address : undefined,
      name: d.name,
      index: typeof d.index === 'string' || typeof d.index === 'number' ? d.index : undefined,
      action: actions,
      before: change.before,
      after: (change.after as Values | null) ?? null,
    });
  });
  return { drift, config };
}

/** A located block and the file it is in. */
interface Located {
  file: HclFile;
  block: HclBlock;
}

/**
 * The `.tf` files of the directory, parsed. A file this reader cannot parse (Terraform could,
 * or it made no plan) stops only what it may hold: Terraform allows one block per resource
 * address, so a block found in a parsed file is the one; but a missing block, a deletion
 * (references and import blocks in the unread file are unknown) and any override file (it
 * changes the blocks of the others) need every file.
 */
class Sources {
  readonly files: HclFile[] = [];
  readonly snapshots: SourceSnapshot[] = [];
  readonly problems: string[] = [];
  readonly jsonFiles: string[] = [];
  /** Files that did not parse, as `file:line: why`. */
  readonly unparsed: string[] = [];
  overrideUnparsed = false;

  constructor(dir: string, planFileMtimeMs: number | undefined) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      this.problems.push(
        `cannot read the directory ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
      return;
    }
    for (const name of names) {
      if (name.endsWith('.tf.json')) this.jsonFiles.push(name);
      if (!name.endsWith('.tf') || name.startsWith('.')) continue;
      const path = join(dir, name);
      let text: string;
      let mtimeMs: number;
      try {
        const st = statSync(path);
        if (!st.isFile()) continue;
        mtimeMs = st.mtimeMs;
        text = readFileSync(path, 'utf8');
      } catch (e) {
        this.problems.push(`${name}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        continue;
      }
      this.snapshots.push({
        file: name,
        sha256: sha256(text),
        ...(planFileMtimeMs !== undefined && mtimeMs > planFileMtimeMs ? { changedSincePlan: true } : {}),
      });
      try {
        this.files.push(parseHcl(text, name));
      } catch (e) {
        if (!(e instanceof HclSyntaxError)) throw e;
        this.unparsed.push(e.message);
        if (/(^|_)override\.tf$/.test(name)) this.overrideUnparsed = true;
      }
    }
  }

  blocks(type: string, ...labels: string[]): Located[] {
    const out: Located[] = [];
    for (const file of this.files)
      for (const block of file.blocks)
        if (block.type === type && labels.every((l, i) => block.labels[i] === l)) out.push({ file, block });
    return out;
  }
}

const lineOf = (file: HclFile, offset: number): number => lineIndexAt(file.lineStarts, offset) + 1;

/** Start offset of a 1-based line; the text's length past the last line. */
const lineStart = (file: HclFile, line: number): number => file.lineStarts[line - 1] ?? file.text.length;

const lineText = (file: HclFile, line: number): string | undefined =>
  line < 1 || line > file.lineStarts.length
    ? undefined
    : file.text.slice(lineStart(file, line), lineStart(file, line + 1)).replace(/\r?\n$/, '');

/** The file's line ending, from its first line: a line added to a CRLF file ends in CRLF. */
const lineEnding = (file: HclFile): string => {
  const first = file.text.indexOf('\n');
  return first > 0 && file.text[first - 1] === '\r' ? '\r\n' : '\n';
};

const isUnset = (field: string, v: unknown): boolean =>
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

/** The attribute is alone on its lines: nothing but blanks before it and blanks or a comment after. */
function aloneOnLines(file: HclFile, attr: HclAttribute): boolean {
  if (file.text.slice(lineStart(file, attr.line), attr.nameStart).trim() !== '') return false;
  const rest = file.text.slice(attr.exprEnd, lineStart(file, attr.endLine + 1)).trim();
  return rest === '' || rest.startsWith('#') || rest.startsWith('//');
}

/**
 * Whether `terraform fmt` aligns the attribute's `=` with its neighbours: it is alone on its
 * line and no bracket is left open at the end of its first line (a heredoc is one token).
 */
function alignable(file: HclFile, attr: HclAttribute): boolean {
  if (!aloneOnLines(file, attr)) return false;
  let depth = 0;
  for (const t of attr.expr) {
    if (t.line !== attr.line) break;
    if (t.kind === 'punct' && '([{'.includes(t.text)) depth++;
    else if (t.kind === 'punct' && ')]}'.includes(t.text)) depth--;
  }
  return depth === 0;
}

type Row = { attr: HclAttribute } | { insert: string } | 'break';

/** The block's attribute lines as `terraform fmt` groups them: runs of alignable attributes on consecutive lines. */
function rowsOf(
  file: HclFile,
  block: HclBlock,
  removed: ReadonlySet<HclAttribute> = new Set(),
  inserts: ReadonlyMap<HclAttribute, string[]> = new Map(),
  insertsBefore: ReadonlyMap<HclAttribute, string[]> = new Map(),
): Row[] {
  const rows: Row[] = [];
  let prev: HclAttribute | undefined;
  for (const attr of block.attributes) {
    if (prev && attr.line !== prev.endLine + 1) rows.push('break');
    prev = attr;
    for (const name of insertsBefore.get(attr) ?? []) rows.push({ insert: name });
    if (!removed.has(attr)) rows.push(alignable(file, attr) ? { attr } : 'break');
    for (const name of inserts.get(attr) ?? []) rows.push({ insert: name });
  }
  return rows;
}

function runsOf(rows: Row[]): Exclude<Row, 'break'>[][] {
  const runs: Exclude<Row, 'break'>[][] = [[]];
  for (const r of rows) {
    if (r === 'break') runs.push([]);
    else runs[runs.length - 1].push(r);
  }
  return runs.filter((r) => r.length);
}

const rowName = (r: Exclude<Row, 'break'>): string => ('attr' in r ? r.attr.name : r.insert);

/** Every run of the block already has `terraform fmt`'s alignment (one space after the longest name). */
function fmtAligned(file: HclFile, block: HclBlock): boolean {
  return runsOf(rowsOf(file, block)).every((run) => {
    const width = Math.max(...run.map((r) => rowName(r).length));
    return run.every(
      (r) =>
        'attr' in r && file.text.slice(r.attr.nameEnd, r.attr.equals) === ' '.repeat(width - r.attr.name.length + 1),
    );
  });
}

interface BlockChange {
  edits: TextEdit[];
  /** What the edits do, for the summary. */
  done: string[];
  /** Values the edits cannot set, one clause each. */
  notes: string[];
  /** Line of the first attribute concerned. */
  line: number;
}

/** The edits that give the block's attributes the live values. */
function editBlock(file: HclFile, block: HclBlock, diffs: [SpecField, unknown, unknown][], after: Values): BlockChange {
  const out: BlockChange = { edits: [], done: [], notes: [], line: block.line };
  const lines: number[] = [];
  const attrs = new Map<string, HclAttribute>();
  for (const a of block.attributes) if (!attrs.has(a.name)) attrs.set(a.name, a);
  const removed = new Set<HclAttribute>();
  const values = new Map<string, string>();
  const toInsert: SpecField[] = [];
  const where = (a: HclAttribute) => `${file.file}:${a.line}: ${exprText(file, a)}`;

  for (const [field, before, value] of diffs) {
    const attr = attrs.get(field);
    const unset = isUnset(field, value);
    const change = `${field} ${shown(field, before)} → ${shown(field, value)}`;
    if (!attr) {
      if (unset) continue;
      toInsert.push(field);
      values.set(field, literalSource(field, value, undefined));
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

  if (toInsert.length) {
    // Each new line goes after the nearest attribute before it in the schema's order (before the next one otherwise).
    const present = (f: string) => {
      const a = attrs.get(f);
      return a && !removed.has(a) ? a : undefined;
    };
    const afterMap = new Map<HclAttribute, string[]>();
    const beforeMap = new Map<HclAttribute, string[]>();
    for (const field of toInsert) {
      const i = SPEC_FIELDS.indexOf(field);
      const prev = SPEC_FIELDS.slice(0, i).reverse().map(present).find(Boolean);
      const next = prev
        ? undefined
        : SPEC_FIELDS.slice(i + 1)
            .map(present)
            .find(Boolean);
      const anchor = prev ?? next;
      if (!anchor || block.line === block.endLine || !aloneOnLines(file, anchor)) {
        out.notes.push(`add ${field} = ${values.get(field)!} to the block (${file.file}:${block.line})`);
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
    const aligned = fmtAligned(file, block);
    const widths = new Map<string, number>();
    if (aligned)
      for (const run of runsOf(rowsOf(file, block, removed, afterMap, beforeMap))) {
        const width = Math.max(...run.map((r) => rowName(r).length));
        for (const r of run) {
          if ('insert' in r) widths.set(r.insert, width);
          else if (file.text.slice(r.attr.nameEnd, r.attr.equals) !== ' '.repeat(width - r.attr.name.length + 1))
            out.edits.push({
              start: r.attr.nameEnd,
              end: r.attr.equals,
              text: ' '.repeat(width - r.attr.name.length + 1),
            });
        }
      }
    const eol = lineEnding(file);
    const lineFor = (anchor: HclAttribute, field: string) => {
      const indent = file.text.slice(lineStart(file, anchor.line), anchor.nameStart);
      const pad = ' '.repeat((widths.get(field) ?? field.length) - field.length + 1);
      return `${indent}${field}${pad}= ${values.get(field)!}${eol}`;
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
  } else if (removed.size && fmtAligned(file, block)) {
    // A removed line can make a shorter longest name: terraform fmt realigns the rest.
    for (const run of runsOf(rowsOf(file, block, removed))) {
      const width = Math.max(...run.map((r) => rowName(r).length));
      for (const r of run)
        if (
          'attr' in r &&
          file.text.slice(r.attr.nameEnd, r.attr.equals) !== ' '.repeat(width - r.attr.name.length + 1)
        )
          out.edits.push({
            start: r.attr.nameEnd,
            end: r.attr.equals,
            text: ' '.repeat(width - r.attr.name.length + 1),
          });
    }
  }
  if (lines.length) out.line = Math.min(...lines);
  return out;
}

/**
 * The lines of a block to delete: the block's own lines, and the blank line after it when the
 * line before is blank too (or the block is the first thing in the file), so that no double
 * blank line is left; at the end of the file, the blank line before it. Comments above the block stay. A block sharing a line with something
 * else loses only its own text.
 */
function blockDeletion(file: HclFile, block: HclBlock): TextEdit {
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

/** Where `networkcalc_alert.<name>` is referred to in the files: traversals, and inside string templates. */
function referencesTo(sources: Sources, name: string): { file: HclFile; offset: number }[] {
  const out: { file: HclFile; offset: number }[] = [];
  const inTemplate = new RegExp(
    `(?<![\\p{L}\\p{N}_.-])${RESOURCE_TYPE}\\s*\\.\\s*${escapeRegExp(name)}(?![\\p{L}\\p{N}_-])`,
    'gu',
  );
  for (const file of sources.files) {
    const ts = file.tokens.filter((t) => t.kind !== 'newline' && t.kind !== 'comment');
    ts.forEach((t, i) => {
      if (
        t.kind === 'ident' &&
        t.text === RESOURCE_TYPE &&
        ts[i + 1]?.text === '.' &&
        ts[i + 2]?.kind === 'ident' &&
        ts[i + 2].text === name &&
        ts[i - 1]?.text !== '.'
      )
        out.push({ file, offset: t.start });
      else if ((t.kind === 'string' || t.kind === 'heredoc') && t.template)
        for (const m of file.text.slice(t.start, t.end).matchAll(inTemplate))
          out.push({ file, offset: t.start + m.index });
    });
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** Whether an import block imports exactly `address`. */
function importsTo(block: HclBlock, address: string): boolean {
  const to = block.attributes.find((a) => a.name === 'to');
  return block.type === 'import' && !!to && to.expr.map((t) => t.text).join('') === address;
}

/** Describes the live values of an alert that cannot be edited here, for the summary. */
function liveValues(diffs: [SpecField, unknown, unknown][]): string {
  return diffs.map(([f, , v]) => (isUnset(f, v) ? `${f} unset` : `${f} = ${JSON.stringify(v)}`)).join(', ');
}

function suggestion(
  entry: DriftEntry,
  account: string,
  located: { file: HclFile; line: number } | undefined,
  summary: string,
  edits: TextEdit[] = [],
): Draft {
  const file = located?.file;
  return {
    kind: entry.action === 'update' ? 'changed' : 'deleted',
    account,
    alert: String((entry.after ?? entry.before).name ?? entry.name),
    path: entry.address,
    file: file?.file ?? null,
    line: located?.line ?? null,
    summary,
    edits: file ? edits : [],
  };
}

const DELETED = 'deleted in the account: `terraform apply` re-creates it';

/**
 * The suggestions for a refresh-only plan's drift of `networkcalc_alert` resources, with
 * edits of the `.tf` files of `dir` (not its subdirectories, as terraform reads them).
 * `plan` is the parsed output of `terraform show -json <refresh-only plan file>`.
 */
export function suggestFromTerraformPlan(
  plan: unknown,
  dir: string,
  options: TerraformPlanOptions = {},
): TerraformPlanSuggestions {
  let read: ReadPlan;
  try {
    read = readPlan(plan);
  } catch (e) {
    if (e instanceof PlanShapeError) return { suggestions: [], snapshots: [], problems: [e.message] };
    throw e;
  }
  if (!read.drift.length) return { suggestions: [], snapshots: [], problems: [] };
  const sources = new Sources(dir, options.planFileMtimeMs);
  if (sources.problems.length) return { suggestions: [], snapshots: sources.snapshots, problems: sources.problems };
  const unreadable = (why: string) =>
    `${sources.unparsed.join('; ')}: ${sources.unparsed.length === 1 ? 'this file does' : 'these files do'} not parse here, and ${why}; fix ${sources.unparsed.length === 1 ? 'it' : 'them'} (terraform validate points there too) and make the plan again, or make the edit by hand`;
  if (sources.overrideUnparsed)
    return {
      suggestions: [],
      snapshots: sources.snapshots,
      problems: [unreadable('an override file changes the blocks of every other file')],
    };

  const suggestions: Draft[] = [];
  const problems: string[] = [];
  for (const entry of read.drift) {
    const resourceAddress = `${entry.moduleAddress ? `${entry.moduleAddress}.` : ''}${RESOURCE_TYPE}.${entry.name}`;
    const config = read.config.get(resourceAddress);
    const key = config?.providerConfigKey ?? 'networkcalc';
    const account = key.slice(key.lastIndexOf(':') + 1);
    const diffs: [SpecField, unknown, unknown][] = [];
    if (entry.after)
      for (const f of SPEC_FIELDS)
        if (JSON.stringify(entry.before[f] ?? null) !== JSON.stringify(entry.after[f] ?? null))
          diffs.push([f, entry.before[f] ?? null, entry.after[f] ?? null]);
    if (entry.action === 'update' && !diffs.length) continue; // only server-owned values moved

    const wanted = entry.action === 'update' ? `to adopt the live alert set ${liveValues(diffs)}` : DELETED;
    if (entry.moduleAddress) {
      const call = entry.moduleAddress.split('.')[1];
      const found = sources.blocks('module', call)[0];
      suggestions.push(
        suggestion(
          entry,
          account,
          found && { file: found.file, line: found.block.line },
          `${entry.address}: declared in module "${call}"${found ? ` (${found.file.file}:${found.block.line})` : ''}, whose source is not edited here; ${wanted}`,
        ),
      );
      continue;
    }
    const found = sources.blocks('resource', RESOURCE_TYPE, entry.name);
    if (!found.length && sources.unparsed.length) {
      problems.push(unreadable(`the block of ${entry.address} is not in the other files`));
      continue;
    }
    if (!found.length) {
      problems.push(
        `${entry.address} is in the plan, but no resource "${RESOURCE_TYPE}" "${entry.name}" block is in the .tf files of ${dir}` +
          (sources.jsonFiles.length ? ` (.tf.json files are not edited: ${sources.jsonFiles.join(', ')})` : '') +
          '; make the plan and the suggestions from the same directory',
      );
      continue;
    }
    if (found.length > 1) {
      const at = found.map((f) => `${f.file.file}:${f.block.line}`).join(', ');
      suggestions.push(
        suggestion(
          entry,
          account,
          { file: found[0].file, line: found[0].block.line },
          `${entry.address}: declared more than once (${at}, an override file?), so no edit is made; ${wanted}`,
        ),
      );
      continue;
    }
    const { file, block } = found[0];
    const repetition = config?.repetition ?? (entry.index !== undefined ? 'count' : undefined) ?? repeatedBy(block);
    if (repetition) {
      suggestions.push(
        suggestion(
          entry,
          account,
          { file, line: block.line },
          entry.action === 'update'
            ? `${entry.address}: one instance of a block with ${repetition} (${file.file}:${block.line}), so its values come from expressions; ${wanted} for this instance`
            : `${entry.address}: ${DELETED}, or leave it out of the ${repetition} expression (${file.file}:${block.line}) to accept the deletion`,
        ),
      );
      continue;
    }

    if (entry.action === 'update') {
      const change = editBlock(file, block, diffs, entry.after!);
      const parts = [
        ...(change.done.length ? [change.done.join(', ') + (change.notes.length ? ' (the diff)' : '')] : []),
        ...change.notes,
      ];
      suggestions.push(
        suggestion(entry, account, { file, line: change.line }, `${entry.address}: ${parts.join('; ')}`, change.edits),
      );
      continue;
    }

    // Deleted live. Terraform refreshes it out of the state, so without its block the plan is
    // empty; `terraform apply -refresh-only` records that in the state. An import block of the
    // same address would be an error without the resource block, so it goes too.
    if (sources.unparsed.length) {
      problems.push(
        unreadable(`references to ${entry.address} or an import block in it would break if its block were deleted`),
      );
      continue;
    }
    const imports = sources.files.flatMap((f) =>
      f.blocks.filter((b) => importsTo(b, resourceAddress)).map((b) => ({ file: f, block: b })),
    );
    const within = (r: { file: HclFile; offset: number }) =>
      [{ file, block }, ...imports].some(
        (l) => l.file === r.file && r.offset >= l.block.start && r.offset < l.block.end,
      );
    const refs = referencesTo(sources, entry.name).filter((r) => !within(r));
    if (refs.length) {
      const at = refs.map((r) => `${r.file.file}:${lineOf(r.file, r.offset)}`);
      suggestions.push(
        suggestion(
          entry,
          account,
          { file, line: block.line },
          `${entry.address}: ${DELETED}; to accept the deletion instead, remove the references to it (${[...new Set(at)].join(', ')}) and its block (${file.file}:${block.line}), then run \`terraform apply -refresh-only\``,
        ),
      );
      continue;
    }
    const sameFile = imports.filter((i) => i.file === file);
    const tail = sameFile.length ? ' and its import block' : '';
    suggestions.push(
      suggestion(
        entry,
        account,
        { file, line: block.line },
        `${entry.address}: ${DELETED}, or delete the block${tail} (the diff) and run \`terraform apply -refresh-only\` to accept the deletion`,
        [blockDeletion(file, block), ...sameFile.map((i) => blockDeletion(i.file, i.block))],
      ),
    );
    for (const other of imports.filter((i) => i.file !== file))
      suggestions.push(
        suggestion(
          entry,
          account,
          { file: other.file, line: other.block.line },
          `${entry.address}: with its block deleted, also delete its import block (${other.file.file}:${other.block.line}), which would name a resource that is not declared`,
          [blockDeletion(other.file, other.block)],
        ),
      );
  }
  const warnings = sources.unparsed.map(
    (u) =>
      `${u}: this file does not parse here; the suggestions above did not need it (fix it, terraform validate points there too)`,
  );
  return {
    // Deletions of neighbouring blocks may both claim the blank line between them: merged there.
    suggestions: assemble(suggestions, (name) => sources.files.find((f) => f.file === name)?.text),
    snapshots: sources.snapshots,
    problems,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** `count` or `for_each` of a resource block, when the plan's configuration did not say. */
function repeatedBy(block: HclBlock): 'count' | 'for_each' | undefined {
  const a = block.attributes.find((x) => x.name === 'count' || x.name === 'for_each');
  return a?.name as 'count' | 'for_each' | undefined;
}
