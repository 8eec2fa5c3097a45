/**
 * The CDK library the constructs and the generated bindings build on: CDK Terrain (`cdktn`)
 * or cdktf 0.21, whichever the app uses. Every module of this package takes the CDK from
 * here, never from 'cdktf' directly.
 *
 * It must be the app's own copy: both libraries mark their elements with the same
 * `Symbol.for` keys, so a cdktf resource inside a cdktn stack passes cdktn's checks and then
 * fails its synth (`_resetResolveDiscoveredProviderFeatureUsage is not a function`). Types
 * come from cdktf (a development dependency); cdktn 0.24's API is a superset of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Cdktf from 'cdktf';

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
  env: NodeJS.ProcessEnv;
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

function resolveFrom(library: CdkLibrary, dirs?: string[]): string | undefined {
  try {
    return require.resolve(library, dirs ? { paths: dirs } : undefined);
  } catch {
    return undefined;
  }
}

function appDirs(): string[] {
  const main = require.main?.filename ?? process.argv[1];
  const dirs = main ? [path.dirname(path.resolve(main))] : [];
  return [...dirs, process.cwd()];
}

export const cdkChoice: CdkChoice = chooseCdk({
  env: process.env,
  appDirs: appDirs(),
  loaded: Object.keys(require.cache ?? {}),
  resolve: resolveFrom,
});

const cdk = require(cdkChoice.entry) as typeof Cdktf;

// Types of every name; values of those the constructs and the bindings generator use.
export type * from 'cdktf';
export const {
  App,
  TerraformStack,
  TerraformElement,
  TerraformResource,
  TerraformDataSource,
  TerraformProvider,
  ImportableResource,
  Token,
  Tokenization,
  Lazy,
  Fn,
  ComplexList,
  ComplexObject,
  ComplexMap,
  canInspect,
  isComplexElement,
  stringToTerraform,
  stringToHclTerraform,
  numberToTerraform,
  numberToHclTerraform,
  booleanToTerraform,
  booleanToHclTerraform,
  anyToTerraform,
  anyToHclTerraform,
  listMapper,
  listMapperHcl,
  hashMapper,
  hashMapperHcl,
} = cdk;
export type App = Cdktf.App;
export type TerraformStack = Cdktf.TerraformStack;
export type TerraformElement = Cdktf.TerraformElement;
export type TerraformResource = Cdktf.TerraformResource;
export type TerraformDataSource = Cdktf.TerraformDataSource;
export type TerraformProvider = Cdktf.TerraformProvider;
export type ImportableResource = Cdktf.ImportableResource;
export type Token = Cdktf.Token;
export type Tokenization = Cdktf.Tokenization;
export type Lazy = Cdktf.Lazy;
export type Fn = Cdktf.Fn;
export type ComplexList = Cdktf.ComplexList;
export type ComplexObject = Cdktf.ComplexObject;
export type ComplexMap = Cdktf.ComplexMap;
