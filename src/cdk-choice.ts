/**
 * Which CDK library an app uses: CDK Terrain (`cdktn`) or cdktf 0.21. Kept apart from
 * src/cdk.ts, which loads the chosen library, so that the CLI can ask (for the code
 * `ncalc export` writes) without loading either.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Environment } from './public-types';

export const CDK_LIBRARIES = ['cdktn', 'cdktf'] as const;
export type CdkLibrary = (typeof CDK_LIBRARIES)[number];
/** Names the library to use when the choice below is not the one wanted. */
export const CDK_ENV = 'NCALC_CDK';

export interface CdkChoice {
  library: CdkLibrary;
  /** The library's main file, as the app resolves it. */
  entry: string;
  /** Why this one, for the message of a later error. */
  reason: string;
}

export interface CdkProbe {
  env: Environment;
  /** Directories the app resolves packages from, nearest first. */
  appDirs: string[];
  /** Files already loaded in this process (require.cache keys). */
  loaded: string[];
  /** Main file of `library` as resolved from `dirs` (from this package when omitted), or undefined. */
  resolve(library: CdkLibrary, dirs?: string[]): string | undefined;
}

const LIBRARY_MAIN = /[\\/]node_modules[\\/](cdktn|cdktf)[\\/]lib[\\/]index\.js$/;

/** The nearest package.json above `dir` that declares dependencies, if any. */
function declaredByApp(dir: string): CdkLibrary[] {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const file = path.join(d, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
        const deps = { ...pkg.devDependencies, ...pkg.dependencies };
        return CDK_LIBRARIES.filter((l) => l in deps);
      } catch {
        return [];
      }
    }
    if (path.dirname(d) === d) return [];
  }
}

/**
 * Picks the library, in this order: the one named by NCALC_CDK; the one the app has already
 * loaded (an app imports its `App` before this package); the one installed for the app (both
 * installed: the one its package.json declares, else cdktn); the one installed beside this package.
 */
export function chooseCdk(probe: CdkProbe): CdkChoice {
  const wanted = probe.env[CDK_ENV]?.trim();
  if (wanted) {
    const library = CDK_LIBRARIES.find((l) => l === wanted.toLowerCase());
    if (!library)
      throw new Error(
        `${CDK_ENV}=${wanted} is not a CDK library this package supports; set it to cdktn or cdktf, or unset it`,
      );
    const entry = probe.resolve(library, probe.appDirs) ?? probe.resolve(library);
    if (!entry)
      throw new Error(
        `${CDK_ENV}=${library}, but ${library} is not installed for this app; run npm install ${library}, or unset ${CDK_ENV}`,
      );
    return { library, entry, reason: `${CDK_ENV}=${library}` };
  }

  const loaded = probe.loaded.flatMap((file) => {
    const m = LIBRARY_MAIN.exec(file);
    return m ? [{ library: m[1] as CdkLibrary, entry: file }] : [];
  });
  const loadedLibraries = new Set(loaded.map((l) => l.library));
  if (loadedLibraries.size === 1) {
    const [library] = loadedLibraries;
    // Several copies of one library: the one the app resolves.
    const resolved = probe.resolve(library!, probe.appDirs);
    const entry = loaded.find((l) => l.entry === resolved)?.entry ?? loaded[0]!.entry;
    return { library: library!, entry, reason: `the app loaded ${library}` };
  }

  const forApp = CDK_LIBRARIES.flatMap((library) => {
    const entry = probe.resolve(library, probe.appDirs);
    return entry ? [{ library, entry }] : [];
  });
  if (forApp.length === 1)
    return { ...forApp[0]!, reason: `${forApp[0]!.library} is the CDK library installed for the app` };
  if (forApp.length === 2) {
    const declared = probe.appDirs.map(declaredByApp).find((d) => d.length > 0) ?? [];
    const pick = forApp.find((c) => declared.length === 1 && c.library === declared[0]) ?? forApp[0]!;
    return {
      ...pick,
      reason: `both cdktn and cdktf are installed for the app; ${pick.library} was chosen (set ${CDK_ENV} to choose)`,
    };
  }

  for (const library of CDK_LIBRARIES) {
    const entry = probe.resolve(library);
    if (entry) return { library, entry, reason: `${library} is installed beside cdktf-provider-networkcalc` };
  }
  throw new Error(
    'cdktf-provider-networkcalc needs the CDK library of your app and found none: ' +
      'install CDK Terrain (npm install cdktn constructs) or cdktf (npm install cdktf@0.21 constructs)',
  );
}

export function resolveFrom(library: CdkLibrary, dirs?: string[]): string | undefined {
  try {
    return require.resolve(library, dirs ? { paths: dirs } : undefined);
  } catch {
    return undefined;
  }
}
