/**
 * The `.tf` files of a directory, parsed with their offsets, and what the suggestions look up
 * in them: the blocks of a resource, the references to it and the import blocks naming it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RESOURCE_TYPE } from '../read/terraform-plan';
import { HclSyntaxError, parseHcl, type HclBlock, type HclFile } from './hcl-parse';
import type { SourceSnapshot } from './suggestion';
import { sha256 } from './write';

/** A located block and the file it is in. */
export interface Located {
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
export class Sources {
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

/** Where `networkcalc_alert.<name>` is referred to in the files: traversals, and inside string templates. */
export function referencesTo(sources: Sources, name: string): { file: HclFile; offset: number }[] {
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
export function importsTo(block: HclBlock, address: string): boolean {
  const to = block.attributes.find((a) => a.name === 'to');
  return block.type === 'import' && !!to && to.expr.map((t) => t.text).join('') === address;
}
