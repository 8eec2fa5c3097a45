/**
 * `ncalc export` writes an app for the CDK library its users have: `--cdk`, else the one
 * installed in the app directory (NCALC_CDK choosing when both are), else cdktn.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { cliEnv, ncalc } from './support';

const emulator = useEmulator();
let dir: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-export-cdk-'));
  await emulator().control.createAlert('demo', {
    name: 'apex A',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '192.0.2.1',
    target: 'example.com',
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An app directory with these CDK libraries installed (just enough for require.resolve). */
function appWith(libraries: string[], declared: string[] = libraries): string {
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'app', dependencies: Object.fromEntries(declared.map((l) => [l, '*'])) }),
  );
  for (const library of libraries) {
    const at = path.join(dir, 'node_modules', library);
    mkdirSync(path.join(at, 'lib'), { recursive: true });
    writeFileSync(path.join(at, 'package.json'), JSON.stringify({ name: library, main: 'lib/index.js' }));
    writeFileSync(path.join(at, 'lib', 'index.js'), '');
  }
  return dir;
}

const exportIn = (cwd: string, extra: string[] = [], vars: Record<string, string> = {}) =>
  ncalc(['export', '-C', cwd, ...extra], {
    cwd: process.cwd(),
    env: cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url, ...vars }),
  });

const importLine = (ts: string) => ts.split('\n').find((l) => l.includes('TerraformStack }'));

it('GIVEN --cdk cdktn THEN the app imports App and TerraformStack from cdktn', async () => {
  const r = await exportIn(dir, ['--cdk', 'cdktn']);
  expect(r.code).toBe(0);
  expect(importLine(r.stdout)).toBe("import { App, TerraformStack } from 'cdktn';");
  expect(r.stdout).toContain("name: 'apex A'");
});

it('GIVEN an app directory with CDK Terrain installed THEN the export is written for it', async () => {
  const r = await exportIn(appWith(['cdktn']));
  expect(r.code).toBe(0);
  expect(importLine(r.stdout)).toBe("import { App, TerraformStack } from 'cdktn';");
});

it('GIVEN both installed THEN the one package.json declares wins, and NCALC_CDK overrides it', async () => {
  expect(importLine((await exportIn(appWith(['cdktn', 'cdktf'], ['cdktf']))).stdout)).toBe(
    "import { App, TerraformStack } from 'cdktf';",
  );
  expect(importLine((await exportIn(dir, [], { NCALC_CDK: 'cdktn' })).stdout)).toBe(
    "import { App, TerraformStack } from 'cdktn';",
  );
});

it('GIVEN nothing installed in the app directory THEN CDK Terrain (cdktn), the maintained line', async () => {
  const r = await exportIn(dir);
  expect(r.code).toBe(0);
  expect(importLine(r.stdout)).toBe("import { App, TerraformStack } from 'cdktn';");
});

it('GIVEN an unknown --cdk or NCALC_CDK THEN a clear error before any request, and nothing written', async () => {
  const bad = await exportIn(dir, ['--cdk', 'cdk8s', '--out', path.join(dir, 'main.ts')]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('--cdk "cdk8s": give cdktn (CDK Terrain) or cdktf');
  expect(bad.stderr).not.toMatch(/\n\s+at /);
  const env = await exportIn(dir, [], { NCALC_CDK: 'cdk8s' });
  expect(env.code).toBe(1);
  expect(env.stderr).toContain('NCALC_CDK=cdk8s is not a CDK library this package supports');
  expect(await emulator().control.requests()).toEqual([]);
  expect(existsSync(path.join(dir, 'main.ts'))).toBe(false);
});
