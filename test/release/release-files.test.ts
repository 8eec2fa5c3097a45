/**
 * The release's own rules without building: the zip of one executable is the same bytes every
 * time and unpacks with its mode; the version check names each disagreement.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { versionProblems } from '../../release/check-version';
import { zipOneFile } from '../../release/zip';
import { PROVIDER_VERSION } from '../../src/schema';

describe('zipOneFile', () => {
  it('is reproducible and unpacks (unzip -t) to the same bytes, executable', () => {
    const data = Buffer.concat([Buffer.from('#!/bin/sh\necho hi\n'), Buffer.alloc(70_000, 7)]);
    const zip = zipOneFile('terraform-provider-networkcalc_v1.2.3', data);
    expect(zipOneFile('terraform-provider-networkcalc_v1.2.3', data).equals(zip)).toBe(true);
    const dir = mkdtempSync(path.join(tmpdir(), 'nc-zip-'));
    try {
      writeFileSync(path.join(dir, 'a.zip'), zip);
      execFileSync('unzip', ['-tq', path.join(dir, 'a.zip')]);
      execFileSync('unzip', ['-q', path.join(dir, 'a.zip'), '-d', path.join(dir, 'out')]);
      const file = path.join(dir, 'out', 'terraform-provider-networkcalc_v1.2.3');
      expect(readFileSync(file).equals(data)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o755);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('versionProblems', () => {
  const changelog = `# Changelog\n\n## ${PROVIDER_VERSION} (2026-12-02)\n\n- First release.\n`;

  it('passes when tag, package.json, provider and CHANGELOG.md agree', () => {
    expect(versionProblems(`v${PROVIDER_VERSION}`, changelog, PROVIDER_VERSION)).toEqual([]);
  });

  it('names the tag, the package version and the missing CHANGELOG section', () => {
    expect(versionProblems('v9.9.9', changelog, PROVIDER_VERSION)).toEqual([
      `the tag v9.9.9 is not v${PROVIDER_VERSION}, the version of package.json.`,
    ]);
    expect(versionProblems('v9.9.9', changelog, '9.9.9')).toEqual([
      `package.json says 9.9.9 but the provider serves ${PROVIDER_VERSION} (src/schema/provider-schema.ts); make them one version.`,
      'CHANGELOG.md has no section "## 9.9.9"; add what changed in it.',
    ]);
  });

  it('the repository itself agrees with its own tag', () => {
    const root = path.join(__dirname, '..', '..');
    const pkg = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    expect(versionProblems(`v${pkg}`, readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'), pkg)).toEqual([]);
  });
});
