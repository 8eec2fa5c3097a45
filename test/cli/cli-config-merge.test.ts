/**
 * `provider install --cli-config` merges into what terraform parses, checked by terraform
 * itself: each merged file is given to the real terraform (TF_CLI_CONFIG_FILE) and must raise
 * no CLI configuration problem. Quoted dev_overrides keys (terraform's documented form), CRLF
 * files and `direct {}` merge; a byte-order mark (which terraform rejects) and one-line blocks
 * are refused with a sentence.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { mergeCliConfig } from '../../src/install/cli-config';

jest.setTimeout(120_000);

const MIRROR = '/opt/mirror';
const INCLUDE = 'registry.terraform.io/networkcalc/networkcalc';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-cli-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const merge = (text: string) => mergeCliConfig(text, 'terraform.rc', MIRROR, INCLUDE, INCLUDE);

/** What terraform says about a CLI configuration file: '' when it has no problem with it. */
function terraformProblems(text: string): string {
  const file = path.join(dir, 'cli.rc');
  writeFileSync(file, text);
  const r = spawnSync('terraform', ['version'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: file },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status).toBe(0);
  return /problems with the CLI configuration/.test(r.stdout + r.stderr) ? r.stdout + r.stderr : '';
}

test('GIVEN dev_overrides with quoted keys THEN it merges, and terraform reads the result', () => {
  const text = 'provider_installation {\n  dev_overrides {\n    "hashicorp/aws" = "/tmp/aws"\n  }\n  direct {}\n}\n';
  expect(terraformProblems(text)).toBe('');
  const r = merge(text);
  expect(r).toMatchObject({ ok: true, changed: true });
  const out = (r as { text: string }).text;
  expect(out).toBe(
    'provider_installation {\n' +
      '  dev_overrides {\n    "hashicorp/aws" = "/tmp/aws"\n  }\n' +
      '  filesystem_mirror {\n    path    = "/opt/mirror"\n    include = ["registry.terraform.io/networkcalc/networkcalc"]\n  }\n' +
      '  direct {\n    exclude = ["registry.terraform.io/networkcalc/networkcalc"]\n  }\n}\n',
  );
  expect(terraformProblems(out)).toBe('');
});

test('GIVEN a CRLF file THEN every added line ends in CRLF too', () => {
  const text =
    'disable_checkpoint = true\r\nprovider_installation {\r\n  direct {\r\n    exclude = ["a/b"]\r\n  }\r\n}\r\n';
  const out = (merge(text) as { text: string }).text;
  expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  expect(out).toContain('exclude = ["a/b", "registry.terraform.io/networkcalc/networkcalc"]');
  expect(terraformProblems(out)).toBe('');
  const fresh = (merge('disable_checkpoint = true\r\n') as { text: string }).text;
  expect(fresh.replace(/\r\n/g, '')).not.toContain('\n');
  expect(terraformProblems(fresh)).toBe('');
});

test('GIVEN a byte-order mark THEN, as terraform rejects it, the merge is refused with a sentence', () => {
  const text = '\ufeffprovider_installation {\n  direct {}\n}\n';
  expect(terraformProblems(text)).toContain('illegal char');
  expect(merge(text)).toEqual({
    ok: false,
    reason:
      'terraform.rc starts with a byte-order mark, which terraform rejects ("illegal char" at 1:1); save it as UTF-8 without one',
  });
});

test('GIVEN provider_installation { direct {} } on one line THEN refused, never a tangle', () => {
  const text = 'provider_installation { direct {} }\n';
  expect(terraformProblems(text)).toBe('');
  const r = merge(text);
  expect(r).toEqual({
    ok: false,
    reason:
      'the direct block on line 1 of terraform.rc shares its line with other braces; put each block of provider_installation on lines of its own',
  });
});
