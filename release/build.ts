/**
 * Builds the provider's release: standalone executables (Node.js single executable
 * applications: the provider bundled into one script by esbuild, its .proto files as assets,
 * injected by postject into the Node.js 24 binary of each platform) zipped and named as the
 * Terraform and OpenTofu registries expect, with the manifest, the SHA256SUMS and (with a key)
 * its detached GPG signature.
 *
 *   npx tsx release/build.ts [--out DIR] [--platform NAME]... [--node PATH] [--sign KEY] [--no-code-cache]
 *   npx tsx release/build.ts --zips-only ...   one runner's zips (release.yml), then
 *   npx tsx release/build.ts --finish --out DIR [--sign KEY]   the rest, over every zip in DIR
 *
 * Run `npm ci --force --prefix release/node24` first: it installs the pinned Node.js binaries.
 * `npm run release:build -- [flags]` does both: on Linux, linux_amd64, linux_arm64 and
 * windows_amd64 into release/out/ (the macOS ones need a Mac: codesign signs them ad hoc).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { build, stop, type Plugin } from 'esbuild';
import { inject } from 'postject';
import { PROTO_FILES, protoDir } from '../src/provider/proto';
import { PROVIDER_TYPE, PROVIDER_VERSION } from '../src/schema';
import {
  hostPlatform,
  NODE24_DIR,
  nodeBinaryOf,
  PLATFORMS,
  platformNamed,
  RELEASE_DIR,
  type Platform,
  packageVersion,
  versionMismatch,
} from './platforms';
import { zipOneFile } from './zip';

export const DEFAULT_OUT = path.join(RELEASE_DIR, 'out');
/** What Node.js looks for in its binary to know it carries an application. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const PROJECT = `terraform-provider-${PROVIDER_TYPE}`;

export interface BuildOptions {
  outDir: string;
  platforms: readonly Platform[];
  /** A Node.js 24 binary to use instead of the pinned package's (one platform only). */
  node?: string;
  /** A GPG key (id or fingerprint) that signs the SHA256SUMS; without one, no .sig is written. */
  signKey?: string;
  /** A V8 code cache in the executable; only where the build runs on the platform itself. */
  codeCache?: boolean;
  /** The environment of gpg (GNUPGHOME); default this process's. */
  env?: NodeJS.ProcessEnv;
}

export const artifactNames = (version: string) => ({
  zip: (p: Platform) => `${PROJECT}_${version}_${p.name}.zip`,
  executable: (p: Platform) => `${PROJECT}_v${version}${p.exe}`,
  sums: `${PROJECT}_${version}_SHA256SUMS`,
  signature: `${PROJECT}_${version}_SHA256SUMS.sig`,
  manifest: `${PROJECT}_${version}_manifest.json`,
});

/**
 * src/version.ts reads the package.json above it, which the executable does not have: the
 * bundle gets the version as a constant instead.
 */
function packageVersionInline(): Plugin {
  const version = packageVersion();
  const mismatch = versionMismatch(version);
  if (mismatch) throw new Error(mismatch);
  return {
    name: 'package-version',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
        contents: `export const PACKAGE_VERSION = ${JSON.stringify(version)};`,
        loader: 'ts',
      }));
    },
  };
}

/** The provider and everything it requires in one CommonJS script. */
async function bundle(workDir: string): Promise<string> {
  const outfile = path.join(workDir, 'provider.cjs');
  const result = await build({
    entryPoints: [path.join(RELEASE_DIR, 'provider-entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    minify: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [packageVersionInline()],
  });
  if (result.errors.length > 0 || result.warnings.length > 0) {
    throw new Error(`esbuild: ${[...result.errors, ...result.warnings].map((m) => m.text).join('; ')}`);
  }
  await stop();
  return outfile;
}

/** Can this machine run the platform's Node.js (to make a code cache that fits it)? */
const runsHere = (p: Platform) => p.platform === process.platform && p.arch === process.arch;

/** The SEA preparation blob: the script, its assets and, with `codeCache`, V8's code cache for it. */
function seaBlob(p: Platform, script: string, workDir: string, opts: BuildOptions): Buffer {
  const node = nodeBinaryOf(p, opts.node);
  const codeCache = (opts.codeCache ?? true) && runsHere(p);
  // Without a code cache the blob holds no machine code, so any Node.js of the same version makes it.
  const generator = runsHere(p) ? node : process.execPath;
  const output = path.join(workDir, `${p.name}.blob`);
  const config = path.join(workDir, `${p.name}.sea.json`);
  const assets = Object.fromEntries(PROTO_FILES.map((f) => [f, path.join(protoDir(), f)]));
  writeFileSync(
    config,
    JSON.stringify({ main: script, output, disableExperimentalSEAWarning: true, useCodeCache: codeCache, assets }),
  );
  if (!runsHere(p) && process.version !== nodeVersionOfPackage(p)) {
    throw new Error(
      `${p.name} is Node.js ${nodeVersionOfPackage(p)}, but this build runs on ${process.version}; build it on Node.js ${nodeVersionOfPackage(p)}`,
    );
  }
  const run = spawnSync(generator, ['--experimental-sea-config', config], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node --experimental-sea-config failed for ${p.name}: ${run.stderr}`);
  return readFileSync(output);
}

function nodeVersionOfPackage(p: Platform): string {
  const file = path.join(NODE24_DIR, 'node_modules', p.nodePackage ?? '', 'package.json');
  return `v${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}`;
}

/** The executable of one platform: its Node.js with the blob injected (and, on macOS, signed ad hoc). */
async function executable(p: Platform, blob: Buffer, file: string, opts: BuildOptions): Promise<void> {
  copyFileSync(nodeBinaryOf(p, opts.node), file);
  chmodSync(file, 0o755);
  const codesign = p.macho && process.platform === 'darwin';
  if (codesign) execFileSync('codesign', ['--remove-signature', file]);
  // LIEF (inside postject) warns about the note sections of Node's ELF binary, which it leaves as they are.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/^warning: Can't find string offset for section name/.test(String(args[0]))) warn(...args);
  };
  try {
    await inject(file, 'NODE_SEA_BLOB', blob, {
      sentinelFuse: SEA_FUSE,
      ...(p.macho ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
  } finally {
    console.warn = warn;
  }
  if (codesign) execFileSync('codesign', ['--sign', '-', file]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The zips of opts.platforms, into opts.outDir (emptied first). */
export async function buildZips(opts: BuildOptions): Promise<void> {
  const names = artifactNames(PROVIDER_VERSION);
  rmSync(opts.outDir, { recursive: true, force: true });
  const workDir = path.join(opts.outDir, '.work');
  mkdirSync(workDir, { recursive: true });
  try {
    const script = await bundle(workDir);
    for (const p of opts.platforms) {
      const file = path.join(workDir, names.executable(p));
      await executable(p, seaBlob(p, script, workDir, opts), file, opts);
      writeFileSync(path.join(opts.outDir, names.zip(p)), zipOneFile(names.executable(p), readFileSync(file)));
      rmSync(file);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Completes a folder of zips (of one or several builds) into a release: the manifest, the
 * SHA256SUMS of every zip and the manifest, and with a key its detached signature.
 * Returns the files of the release, by name.
 */
export function finishRelease(outDir: string, signKey?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const names = artifactNames(PROVIDER_VERSION);
  const manifest = `${JSON.stringify({ version: 1, metadata: { protocol_versions: ['6.0'] } }, null, 2)}\n`;
  writeFileSync(path.join(outDir, names.manifest), manifest);
  const files = readdirSync(outDir)
    .filter((f) => f === names.manifest || (f.startsWith(`${PROJECT}_${PROVIDER_VERSION}_`) && f.endsWith('.zip')))
    .sort();
  const sumsFile = path.join(outDir, names.sums);
  writeFileSync(sumsFile, files.map((f) => `${sha256(readFileSync(path.join(outDir, f)))}  ${f}\n`).join(''));
  const sig = path.join(outDir, names.signature);
  rmSync(sig, { force: true });
  if (signKey) {
    execFileSync('gpg', ['--batch', '--yes', '--local-user', signKey, '--output', sig, '--detach-sign', sumsFile], {
      env,
      stdio: 'pipe',
    });
  }
  return [...files, names.sums, ...(signKey ? [names.signature] : [])];
}

/** Builds the whole release of opts.platforms into opts.outDir. Returns its files, by name. */
export async function buildRelease(opts: BuildOptions): Promise<string[]> {
  await buildZips(opts);
  return finishRelease(opts.outDir, opts.signKey, opts.env);
}

/** The platforms a build here makes by default: the macOS ones only on macOS (they need codesign). */
export function defaultPlatforms(): Platform[] {
  return PLATFORMS.filter((p) => p.nodePackage && (!p.macho || process.platform === 'darwin'));
}

interface CliOptions extends BuildOptions {
  /** Only the zips (one runner's part of a release). */
  zipsOnly?: boolean;
  /** Only the manifest, SHA256SUMS and signature, over the zips already in --out. */
  finish?: boolean;
}

function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = { outDir: DEFAULT_OUT, platforms: [] };
  const platforms: Platform[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--out') opts.outDir = path.resolve(value());
    else if (arg === '--platform') platforms.push(...value().split(',').map(platformNamed));
    else if (arg === '--node') opts.node = path.resolve(value());
    else if (arg === '--sign') opts.signKey = value();
    else if (arg === '--no-code-cache') opts.codeCache = false;
    else if (arg === '--zips-only') opts.zipsOnly = true;
    else if (arg === '--finish') opts.finish = true;
    else throw new Error(`unknown argument ${arg}; see the top of release/build.ts`);
  }
  opts.platforms = platforms.length > 0 ? platforms : defaultPlatforms();
  if (opts.node && opts.platforms.length !== 1) throw new Error('--node names the Node.js of one --platform');
  return opts;
}

if (require.main === module) {
  void (async () => {
    try {
      const opts = parseArgs(process.argv.slice(2));
      const started = Date.now();
      if (!opts.finish) await buildZips(opts);
      const files = opts.zipsOnly ? readdirSync(opts.outDir) : finishRelease(opts.outDir, opts.signKey);
      const host = hostPlatform()?.name;
      console.log(
        `Built ${PROJECT} ${PROVIDER_VERSION} in ${((Date.now() - started) / 1000).toFixed(0)} s into ${opts.outDir}:`,
      );
      for (const f of files) console.log(`  ${f}`);
      if (!opts.signKey && !opts.zipsOnly) console.log('Not signed (no --sign): the registries need the .sig.');
      if (host && !opts.finish && !opts.platforms.some((p) => p.name === host))
        console.log(`(${host}, this machine, was not built.)`);
    } catch (err) {
      console.error(`release/build: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    }
  })();
}
