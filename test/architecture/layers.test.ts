/**
 * The pipeline as folders (docs/architecture.md, "Layout"): each part of src/ may import only
 * from its own folder and from the parts in lower layers, and no files import each other in a
 * circle. A new folder or top-level file must be given a layer here.
 */
import * as path from 'node:path';
import { cycles, importGraph, partOf } from './import-graph';

/** Lowest first. */
const LAYERS: readonly (readonly string[])[] = [
  ['support'],
  ['model', 'public-types.ts', 'version.ts'],
  ['accounts', 'cdk-choice.ts'],
  ['schema', 'client', 'emulator', 'cdk.ts'],
  ['contract', 'converge', 'gen'],
  ['plan', 'constructs'],
  ['read', 'provider', 'preview'],
  ['engine'],
  ['codegen'],
  ['render', 'install'],
  ['github'],
  ['cli'],
  ['index.ts'],
];

const SRC = path.join(__dirname, '..', '..', 'src');
const graph = importGraph(SRC);
const layerOf = new Map(LAYERS.flatMap((parts, i) => parts.map((p) => [p, i] as const)));

test('GIVEN src/ THEN every part of it has a layer', () => {
  const parts = new Set([...graph.keys()].map(partOf));
  expect([...parts].filter((p) => !layerOf.has(p))).toEqual([]);
});

test('GIVEN the imports between parts of src/ THEN each runs to a lower layer, never up or sideways', () => {
  const wrong: string[] = [];
  for (const [file, targets] of graph)
    for (const target of targets) {
      const [from, to] = [partOf(file), partOf(target)];
      if (from !== to && !(layerOf.get(from)! > layerOf.get(to)!)) wrong.push(`${file} -> ${target}`);
    }
  expect(wrong).toEqual([]);
});

test('GIVEN the imports between files of src/ THEN there is no cycle', () => {
  expect(cycles(graph)).toEqual([]);
});

test('GIVEN a cycle or an import up a layer THEN the checks see it (they can fail)', () => {
  const made = new Map([
    ['engine/a.ts', new Set(['engine/b.ts'])],
    ['engine/b.ts', new Set(['engine/a.ts', 'model/x.ts'])],
    ['model/x.ts', new Set<string>()],
  ]);
  expect(cycles(made)).toEqual([['engine/a.ts', 'engine/b.ts']]);
  expect(layerOf.get(partOf('model/x.ts'))! < layerOf.get(partOf('engine/a.ts'))!).toBe(true);
});
