/**
 * The merge's half of a synth spread over worker processes that needs no app: the manifest
 * written as cdktf writes it, parts merged or refused, and the number of workers asked for.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../../src/contract/config-error';
import { mergeParts, stableJson, synthWorkerCount } from '../../src/read/synth-workers';

// cdktf's own serializer, which wrote the manifest of a one-process synth.
const cdktfStringify = require(require.resolve('safe-stable-stringify', { paths: [require.resolve('cdktn')] })) as (
  v: unknown,
  r: null,
  s: number,
) => string;

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ncalc-merge-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const manifest = (stacks: Record<string, unknown>) => ({ version: '0.24.0', stacks });
const entry = (name: string) => ({
  name,
  constructPath: name,
  workingDirectory: `stacks/${name}`,
  synthesizedStackPath: `stacks/${name}/cdk.tf.json`,
  annotations: [],
  dependencies: [],
});

function part(name: string, stacks: Record<string, string>): string {
  const p = path.join(dir, name);
  for (const [stack, text] of Object.entries(stacks)) {
    mkdirSync(path.join(p, 'stacks', stack), { recursive: true });
    writeFileSync(path.join(p, 'stacks', stack, 'cdk.tf.json'), text);
  }
  writeFileSync(
    path.join(p, 'manifest.json'),
    cdktfStringify(manifest(Object.fromEntries(Object.keys(stacks).map((s) => [s, entry(s)]))), null, 2),
  );
  return p;
}

describe('stableJson', () => {
  it('writes what cdktf writes: keys sorted as strings (numbers too), two spaces, empty objects and lists inline', () => {
    const value = { b: [1, 'x', { z: null, a: true }], a: {}, '10': [], '9': 'é\u2028"', c: [[]] };
    expect(stableJson(value)).toBe(cdktfStringify(value, null, 2));
  });
});

describe('mergeParts', () => {
  it('moves every part into one output whose manifest lists every stack, as one process writes it', () => {
    const out = path.join(dir, 'out');
    mkdirSync(out);
    const merged = mergeParts(
      [part('p1', { b: '{"b":1}', plain: '{}' }), part('p2', { a: '{"a":1}', plain: '{}' })],
      out,
    );
    expect(merged).toBe(true);
    expect(readFileSync(path.join(out, 'manifest.json'), 'utf8')).toBe(
      cdktfStringify(manifest({ a: entry('a'), b: entry('b'), plain: entry('plain') }), null, 2),
    );
    expect(readFileSync(path.join(out, 'stacks', 'a', 'cdk.tf.json'), 'utf8')).toBe('{"a":1}');
  });

  it('refuses parts that wrote one file differently, or a part without a manifest', () => {
    const out = path.join(dir, 'out');
    mkdirSync(out);
    expect(mergeParts([part('p1', { plain: '{"n":1}' }), part('p2', { plain: '{"n":2}' })], out)).toBe(false);
    mkdirSync(path.join(dir, 'empty'));
    expect(mergeParts([part('p3', { a: '{}' }), path.join(dir, 'empty')], out)).toBe(false);
  });
});

describe('synthWorkerCount', () => {
  it('is 1 unless asked; a number; auto is the cores, at most 8', () => {
    expect(synthWorkerCount({}, 16)).toBe(1);
    expect(synthWorkerCount({ NCALC_SYNTH_WORKERS: '4' }, 2)).toBe(4);
    expect(synthWorkerCount({ NCALC_SYNTH_WORKERS: 'auto' }, 2)).toBe(2);
    expect(synthWorkerCount({ NCALC_SYNTH_WORKERS: 'auto' }, 64)).toBe(8);
  });

  it.each(['0', 'two', '-1', '1.5'])('refuses %j, saying what to set', (value) => {
    expect(() => synthWorkerCount({ NCALC_SYNTH_WORKERS: value })).toThrow(ConfigError);
    expect(() => synthWorkerCount({ NCALC_SYNTH_WORKERS: value })).toThrow(
      /set it to a whole number of at least 1.*or auto/,
    );
  });
});
