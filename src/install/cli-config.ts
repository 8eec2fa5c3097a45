/**
 * `ncalc provider install --cli-config <file>` into a file the user already has: our mirror is
 * merged into its `provider_installation`, and every other setting and method stays (credentials,
 * plugin_cache_dir, network mirrors, direct with its excludes). Every other method gets our
 * provider added to its `exclude`, so terraform never asks a registry or a network mirror for
 * it. What cannot be merged safely is refused with the lines to add by hand.
 */
import { HclSyntaxError, literalOf, parseHcl, type HclAttribute, type HclBlock } from '../codegen/hcl-parse';

export type CliConfigMerge =
  { ok: true; text: string; changed: boolean; excluded: number } | { ok: false; reason: string };

const METHODS = new Set(['filesystem_mirror', 'network_mirror', 'direct']);

/** Whether a provider source pattern (`host/namespace/type`, `*` wildcards, host optional) matches `address`. */
export function patternMatches(pattern: string, address: string): boolean {
  const parts = pattern.trim().toLowerCase().split('/');
  const full = parts.length === 2 ? ['registry.terraform.io', ...parts] : parts;
  const want = address.toLowerCase().split('/');
  return full.length === 3 && full.every((p, i) => p === '*' || p === want[i]);
}

/** The strings of a literal list attribute (`["a", "b"]`), or undefined for any other expression. */
function stringList(attr: HclAttribute): string[] | undefined {
  const e = attr.expr;
  if (e.length < 2 || e[0]!.text !== '[' || e[e.length - 1]!.text !== ']') return undefined;
  const out: string[] = [];
  for (const t of e.slice(1, -1)) {
    if (t.kind === 'punct' && t.text === ',') continue;
    const lit = literalOf({ ...attr, expr: [t] });
    if (lit?.kind !== 'string') return undefined;
    out.push(lit.value);
  }
  return out;
}

/**
 * The text with each quoted attribute name (`"hashicorp/aws" = "/path"`, how terraform's docs
 * write dev_overrides) replaced by an identifier of the same length, for a parser that reads
 * only identifiers there. Offsets stay the same; the blocks merged never have such keys.
 */
function maskQuotedKeys(text: string): string {
  let n = 0;
  return text.replace(/^([ \t]*)("(?:[^"\\\r\n]|\\.)*")(?=[ \t]*=)/gm, (_m, indent: string, key: string) => {
    const id = `k${(n++).toString(36)}`;
    return indent + (id.length <= key.length ? id.padEnd(key.length, '_') : key);
  });
}

/** Offset just after a block's opening brace. */
function bodyStart(text: string, block: HclBlock): number {
  return text.indexOf('{', block.start) + 1;
}

/** A text edit: `insert` at offset `at`, after removing `remove` characters there. */
interface TextEdit {
  at: number;
  insert: string;
  remove?: number;
}

/** Why a file cannot be merged whatever it holds (a byte-order mark, JSON syntax); null when it can. */
function syntaxRefusal(text: string, file: string): string | null {
  // terraform refuses a byte-order mark ("At 1:1: illegal char"): merging would hide that.
  if (text.startsWith('\ufeff')) {
    return `${file} starts with a byte-order mark, which terraform rejects ("illegal char" at 1:1); save it as UTF-8 without one`;
  }
  if (/^\s*\{/.test(text)) return `${file} is in JSON syntax, which this merge does not edit`;
  return null;
}

/**
 * A block opened on the line of another's brace (`provider_installation { direct {} }`)
 * has no line of its own to add to: refused rather than merged into a tangle.
 */
function sharedLineRefusal(text: string, file: string, install: HclBlock): string | null {
  for (const method of install.blocks) {
    const before = text.slice(text.lastIndexOf('\n', method.start) + 1, method.start);
    if (before.trim() !== '') {
      return `the ${method.type} block on line ${method.line} of ${file} shares its line with other braces; put each block of provider_installation on lines of its own`;
    }
  }
  return null;
}

/** An `exclude` with our include, added to a method block that has none. */
function newExcludeEdit(text: string, method: HclBlock, include: string): TextEdit {
  const blockIndent = /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', method.start) + 1))![0];
  const indent = `${blockIndent}  `;
  const open = bodyStart(text, method);
  const close = text.lastIndexOf('}', method.end);
  const line = `${indent}exclude = [${JSON.stringify(include)}]`;
  // `direct {}`: the body becomes lines of its own, the brace closes under the block.
  if (text.slice(open, close).trim() === '')
    return { at: open, remove: close - open, insert: `\n${line}\n${blockIndent}` };
  return { at: open, insert: `\n${line}` };
}

/** Our include, added to an existing `exclude` list in its own layout. */
function extendExcludeEdit(text: string, exclude: HclAttribute, include: string): TextEdit {
  const close = exclude.expr[exclude.expr.length - 1]!;
  const before = exclude.expr[exclude.expr.length - 2]!;
  if (before.text !== '[' && text.slice(before.end, close.start).includes('\n')) {
    // One entry per line: ours on a line of its own, indented as the last one.
    const lineStart = text.lastIndexOf('\n', before.start) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    return { at: before.end, insert: `${before.text === ',' ? '' : ','}\n${indent}${JSON.stringify(include)},` };
  }
  const bare = before.text === '[' || before.text === ',';
  return { at: close.start, insert: `${bare ? '' : ', '}${JSON.stringify(include)}` };
}

/**
 * The edits that make every other installation method exclude our provider, and whether our
 * mirror is there already; a reason when an exclude cannot be edited.
 */
function methodEdits(
  text: string,
  file: string,
  install: HclBlock,
  mirrorDir: string,
  include: string,
  address: string,
): { edits: TextEdit[]; hasOurs: boolean; excluded: number } | { reason: string } {
  const edits: TextEdit[] = [];
  let hasOurs = false;
  let excluded = 0;
  for (const method of install.blocks) {
    if (!METHODS.has(method.type)) continue; // dev_overrides and the like stay as they are
    const pathAttr = method.attributes.find((a) => a.name === 'path');
    const pathLit = pathAttr && literalOf(pathAttr);
    if (method.type === 'filesystem_mirror' && pathLit?.kind === 'string' && pathLit.value === mirrorDir) {
      hasOurs = true;
      continue;
    }
    const exclude = method.attributes.find((a) => a.name === 'exclude');
    if (!exclude) {
      edits.push(newExcludeEdit(text, method, include));
      excluded++;
      continue;
    }
    const list = stringList(exclude);
    if (!list) {
      return {
        reason: `the exclude of the ${method.type} block on line ${method.line} of ${file} is not a plain list of strings`,
      };
    }
    if (list.some((p) => patternMatches(p, address))) continue;
    edits.push(extendExcludeEdit(text, exclude, include));
    excluded++;
  }
  return { edits, hasOurs, excluded };
}

/**
 * Merges the mirror block `ours` (a `filesystem_mirror` for `mirrorDir` including `include`)
 * into `text`. `address` is a provider address the include covers, to recognise exclusions.
 */
export function mergeCliConfig(
  text: string,
  file: string,
  mirrorDir: string,
  include: string,
  address: string,
): CliConfigMerge {
  const mirrorBlock = (indent: string) =>
    `${indent}filesystem_mirror {\n${indent}  path    = ${JSON.stringify(mirrorDir)}\n${indent}  include = [${JSON.stringify(include)}]\n${indent}}\n`;
  const fullBlock = `provider_installation {\n${mirrorBlock('  ')}  direct {\n    exclude = [${JSON.stringify(include)}]\n  }\n}\n`;
  const refusal = syntaxRefusal(text, file);
  if (refusal) return { ok: false, reason: refusal };
  let parsed;
  try {
    parsed = parseHcl(maskQuotedKeys(text), file);
  } catch (err) {
    if (err instanceof HclSyntaxError) return { ok: false, reason: `${file} line ${err.line}: ${err.reason}` };
    throw err;
  }
  const installs = parsed.blocks.filter((b) => b.type === 'provider_installation');
  if (installs.length > 1) {
    return { ok: false, reason: `${file} has ${installs.length} provider_installation blocks (terraform accepts one)` };
  }
  // The file's own line endings for every line added (terraform reads CRLF files too).
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = (t: string) => t.replace(/\n/g, eol);
  if (installs.length === 0) {
    const lf = text.replace(/\r\n/g, '\n');
    const sep = lf === '' || lf.endsWith('\n\n') ? '' : lf.endsWith('\n') ? '\n' : '\n\n';
    return { ok: true, text: `${text}${lines(`${sep}${fullBlock}`)}`, changed: true, excluded: 0 };
  }
  const install = installs[0]!;
  const shared = sharedLineRefusal(text, file, install);
  if (shared) return { ok: false, reason: shared };
  const found = methodEdits(text, file, install, mirrorDir, include, address);
  if ('reason' in found) return { ok: false, reason: found.reason };
  const { edits, hasOurs, excluded } = found;
  if (!hasOurs) {
    // terraform wants dev_overrides before every installation method: ours goes after it.
    const overrides = install.blocks.filter((b) => b.type === 'dev_overrides').at(-1);
    edits.push({
      at: overrides ? overrides.end : bodyStart(text, install),
      insert: `\n${mirrorBlock('  ').replace(/\n$/, '')}`,
    });
  }
  if (!edits.length) return { ok: true, text, changed: false, excluded: 0 };
  let out = text;
  for (const e of edits.sort((a, b) => b.at - a.at))
    out = out.slice(0, e.at) + lines(e.insert) + out.slice(e.at + (e.remove ?? 0));
  return { ok: true, text: out, changed: true, excluded };
}
