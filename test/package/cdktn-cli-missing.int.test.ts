/**
 * `npx cdktn deploy`, as README.md and docs/terraform.md write it, in an app that has the cdktn
 * library but not cdktn-cli: npm's answer is the one their troubleshooting tables name, and
 * the text before the command says the CLI is needed. Offline: nothing is asked of a registry.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/build';

jest.setTimeout(60_000);

const NPM_SAYS = 'npm error could not determine executable to run';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-no-cli-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  mkdirSync(path.join(dir, 'node_modules'));
  for (const dep of ['cdktn', 'constructs'])
    symlinkSync(path.join(REPO_ROOT, 'node_modules', dep), path.join(dir, 'node_modules', dep));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('without cdktn-cli, npx cdktn deploy fails with the message the docs name', () => {
  const r = spawnSync('npx', ['cdktn', 'deploy'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 50_000,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      TMPDIR: tmpdir(),
      npm_config_cache: path.join(dir, '.npm'),
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      NODE_DISABLE_COMPILE_CACHE: '1',
    },
  });
  expect(r.status).not.toBe(0);
  expect(r.stderr.split('\n')).toContain(NPM_SAYS);
});

test.each(['README.md', 'docs/terraform.md'])('%s says cdktn-cli is needed, and names the message', (file) => {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  expect(text).toContain(
    "`npx cdktn deploy` runs CDK Terrain's CLI, which is its own package: install it in the app\nonce (`npm install --save-dev cdktn-cli@0.24`",
  );
  expect(text).toContain(`| \`${NPM_SAYS}\` from \`npx cdktn deploy\``);
});
