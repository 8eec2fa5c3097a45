/**
 * The release's one version: the tag (v<version>), package.json, the provider
 * (PROVIDER_VERSION) and a section of CHANGELOG.md must all say the same.
 *
 *   npx tsx release/check-version.ts <tag>
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { packageVersion, RELEASE_DIR, versionMismatch } from './platforms';

/** What is wrong with releasing `tag`, in one sentence each; empty when nothing is. */
export function versionProblems(tag: string, changelog: string, pkgVersion: string): string[] {
  const problems: string[] = [];
  const mismatch = versionMismatch(pkgVersion);
  if (mismatch) problems.push(mismatch);
  if (tag !== `v${pkgVersion}`) problems.push(`the tag ${tag} is not v${pkgVersion}, the version of package.json.`);
  if (!new RegExp(`^## ${pkgVersion.replace(/\./g, '\\.')}( |$)`, 'm').test(changelog))
    problems.push(`CHANGELOG.md has no section "## ${pkgVersion}"; add what changed in it.`);
  return problems;
}

if (require.main === module) {
  const tag = process.argv[2];
  if (!tag) {
    console.error('usage: check-version.ts <tag>, e.g. v0.1.0');
    process.exit(2);
  }
  const changelog = readFileSync(path.join(RELEASE_DIR, '..', 'CHANGELOG.md'), 'utf8');
  const problems = versionProblems(tag, changelog, packageVersion());
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log(`${tag}: package.json, the provider and CHANGELOG.md agree.`);
}
