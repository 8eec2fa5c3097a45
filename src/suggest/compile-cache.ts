/**
 * Loads one large CommonJS module (the TypeScript compiler, 9 MB) with a V8 code cache kept
 * in the app's `node_modules/.cache/ncalc`, where jest, babel and eslint keep theirs. Loading
 * the compiler was most of what `ncalc drift --suggest` costs beyond `ncalc drift`: with the
 * cache V8 skips parsing and compiling it again. Node 20 has no module compile cache of its
 * own, so this is the `vm.Script` `cachedData` mechanism, keyed by the module file, its size
 * and mtime, and the Node version; V8 rejects data that does not fit, and then it is rebuilt.
 * Any failure to read or write the cache is ignored: the module loads without it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';

export interface CachedModule<T> {
  exports: T;
  /** Writes the cache when it was missing or rejected; call after the module has been used, so the functions used are in it. */
  save(): void;
}

/** `<dir>/node_modules/.cache/ncalc`, when the app has a node_modules folder. */
export function cacheDirOf(dir: string): string | null {
  const modules = path.join(dir, 'node_modules');
  return existsSync(modules) ? path.join(modules, '.cache', 'ncalc') : null;
}

export function requireWithCodeCache<T>(file: string, cacheDir: string | null): CachedModule<T> {
  const stat = statSync(file);
  const key = createHash('sha256')
    .update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)
    .digest('hex')
    .slice(0, 16);
  const cacheFile = cacheDir ? path.join(cacheDir, `${path.basename(file, '.js')}-${key}.v8`) : null;
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // no cache yet
  }
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} as T };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  const fresh = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    save() {
      if (!fresh || !cacheDir || !cacheFile) return;
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        try {
          rmSync(temp, { force: true });
        } catch {
          // nothing was written there
        }
      }
    },
  };
}
