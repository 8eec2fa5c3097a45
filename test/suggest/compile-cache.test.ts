/**
 * GIVEN a CommonJS module and an app folder with node_modules
 * WHEN it is loaded through the code cache, again, with a damaged cache, and with no place to write
 * THEN it always loads and works, and the cache is written once, kept, and rebuilt when damaged.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cacheDirOf, requireWithCodeCache } from '../../src/suggest/compile-cache';
import { ROOT } from '../cli/support';
import { requireBuild } from '../helpers/build';

beforeAll(() => requireBuild('dist/suggest/compile-cache.js'));

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-cache-'));
  mkdirSync(path.join(dir, 'node_modules'));
  file = path.join(dir, 'lib.js');
  writeFileSync(
    file,
    "const path = require('path');\nexports.twice = (n) => n * 2;\nexports.base = path.basename(__filename);\nmodule.exports.self = module.exports;\n",
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Lib = { twice(n: number): number; base: string; self: unknown };
const cacheFiles = () => readdirSync(path.join(dir, 'node_modules', '.cache', 'ncalc'));

it('loads like require (exports, require, __filename), writes the cache once, then reads it', () => {
  const cacheDir = cacheDirOf(dir)!;
  expect(cacheDir).toBe(path.join(dir, 'node_modules', '.cache', 'ncalc'));
  const first = requireWithCodeCache<Lib>(file, cacheDir);
  expect(first.exports.twice(21)).toBe(42);
  expect(first.exports.base).toBe('lib.js');
  expect(first.exports.self).toBe(first.exports);
  first.save();
  const [name] = cacheFiles();
  const written = readFileSync(path.join(cacheDir, name));
  const second = requireWithCodeCache<Lib>(file, cacheDir);
  expect(second.exports.twice(2)).toBe(4);
  second.save(); // accepted: nothing to write
  expect(readFileSync(path.join(cacheDir, name))).toEqual(written);
  expect(cacheFiles()).toEqual([name]);
});

it('a damaged cache is rejected by V8 and written again (a new process, as each ncalc run is)', () => {
  const cacheDir = cacheDirOf(dir)!;
  requireWithCodeCache<Lib>(file, cacheDir).save();
  const [name] = cacheFiles();
  writeFileSync(path.join(cacheDir, name), 'not a code cache');
  // In this process V8 would reuse the script it compiled above and never look at the cache.
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      `const { requireWithCodeCache } = require(${JSON.stringify(path.join(ROOT, 'dist', 'suggest', 'compile-cache.js'))});
       const m = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
       m.save();
       process.stdout.write(String(m.exports.twice(5)));`,
    ],
    { encoding: 'utf8' },
  );
  expect(out).toBe('10');
  expect(readFileSync(path.join(cacheDir, name)).toString()).not.toBe('not a code cache');
});

it('without node_modules there is no cache, and nowhere to write is no error', () => {
  expect(cacheDirOf(path.join(dir, 'elsewhere'))).toBeNull();
  const loaded = requireWithCodeCache<Lib>(file, null);
  expect(loaded.exports.twice(1)).toBe(2);
  expect(() => loaded.save()).not.toThrow();
  writeFileSync(path.join(dir, 'node_modules', '.cache'), 'a file where a folder should be');
  const blocked = requireWithCodeCache<Lib>(file, cacheDirOf(dir));
  expect(() => blocked.save()).not.toThrow();
  expect(readdirSync(path.join(dir, 'node_modules'))).toEqual(['.cache']);
});
