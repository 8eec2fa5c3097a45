/**
 * The import graph of src/ as the files spell it: every relative import, re-export, dynamic
 * import() and require() between files. Read as text (no compiler), so that the architecture
 * test needs no build and runs in a fraction of a second.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

export type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}(?:\/[^'"]*)?)\1/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = path.join(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base.replace(/\.js$/, '.ts')])
    if (existsSync(candidate)) return candidate;
  return null;
}

/** Files relative to `root`, each with the files it imports. */
export function importGraph(root: string): ImportGraph {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const targets = new Set<string>();
    // Comments may quote an import; template strings hold generated code, not imports.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/`(?:\\[\s\S]|[^`\\])*`/g, '``');
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolve(file, m[2]!);
      if (target) targets.add(path.relative(root, target));
    }
    graph.set(path.relative(root, file), targets);
  }
  return graph;
}

/** The strongly connected components with more than one file: each is an import cycle. */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

/** The part of src/ a file belongs to: its top folder, or the file itself at the top. */
export const partOf = (file: string): string => file.split(path.sep)[0]!;
