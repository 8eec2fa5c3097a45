/**
 * The TypeScript snippets of the README and docs/ (```ts blocks), as files a consumer app can
 * compile. A comment on the line before a block says how to read it:
 * - `<!-- snippet: continues -->`: it goes on from the previous snippet of the same file (before
 *   the previous one's closing `app.synth();`, which stays last, as in the app a user writes);
 * - `<!-- snippet: in a stack -->`: it is the body of a stack's constructor (`this` is the
 *   stack); the names of the package root and of the CDK library are imported for it;
 * - `<!-- snippet: partial -->`: a deliberate fragment (an API listing, lines of a test), not compiled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as root from '../../src';
import { REPO_ROOT } from '../helpers/build';

export interface Snippet {
  /** `docs/constructs.md:135`: where the block starts. */
  where: string;
  /** The module to compile. */
  source: string;
  /** The CDK library it imports ('cdktn' unless it imports 'cdktf'). */
  flavor: 'cdktn' | 'cdktf';
}

const MARKER = /<!-- snippet: (continues|in a stack|partial) -->\s*$/;
/** A snippet's closing `app.synth();` (its last line): a continuation goes before it. */
const SYNTH_LAST = /^([ \t]*app\.synth\(\);)\s*$(?![\s\S])/m;
const CDK_NAMES = ['App', 'TerraformStack', 'TerraformOutput', 'TerraformResource'];

export function docFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(path.join(REPO_ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

function inStack(body: string): string {
  const names = Object.keys(root).filter((n) => new RegExp(`\\b${n}\\b`).test(body));
  return `import { ${CDK_NAMES.join(', ')} } from 'cdktn';
import { Construct } from 'constructs';
${names.length ? `import { ${names.join(', ')} } from 'cdktf-provider-networkcalc';\n` : ''}
export class SnippetStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
${body}
  }
}
new SnippetStack(new App(), 'snippet');
`;
}

/** Every ```ts block of `file` (relative to the repository) but the partial ones. */
export function snippetsOf(file: string): Snippet[] {
  const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
    const marker = MARKER.exec(lines[start - 1] ?? '')?.[1];
    if (marker === 'partial') continue;
    const text = body.join('\n');
    const where = `${file}:${start + 1}`;
    if (marker === 'continues') {
      const previous = out[out.length - 1];
      if (!previous) throw new Error(`${where}: "continues", but no snippet comes before it`);
      const synth = SYNTH_LAST.exec(previous.source);
      previous.source = synth
        ? `${previous.source.slice(0, synth.index)}\n${text}\n\n${synth[1]}\n`
        : `${previous.source}\n${text}\n`;
      continue;
    }
    const source = marker === 'in a stack' ? inStack(text) : `${text}\n`;
    out.push({ where, source, flavor: /from 'cdktf'/.test(text) ? 'cdktf' : 'cdktn' });
  }
  return out;
}

/**
 * The body of each ```sh block (or ```json, with `lang`) of `file` in the section under the
 * heading `heading` (its own text, any level), in order: what a test runs as written.
 */
export function blocksUnder(file: string, heading: string, lang = 'sh'): string[] {
  const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
  const at = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, '') === heading);
  if (at < 0) throw new Error(`${file} has no heading "${heading}"`);
  const level = /^#+/.exec(lines[at]!)![0].length;
  const out: string[] = [];
  for (let i = at + 1; i < lines.length; i++) {
    const h = /^(#+) /.exec(lines[i]!);
    if (h && h[1]!.length <= level) break;
    if (lines[i]!.trim() !== `\`\`\`${lang}`) {
      if (lines[i]!.startsWith('```')) for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++);
      continue;
    }
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
    out.push(body.join('\n'));
  }
  if (!out.length) throw new Error(`${file}, "${heading}": no \`\`\`${lang} block`);
  return out;
}
