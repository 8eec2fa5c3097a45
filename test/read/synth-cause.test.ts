/**
 * An app that does not run: the message puts the cause (`Error: Cannot find module …/mian.ts`)
 * first, and keeps the app's output (the Node stack) below it. Through the CLI in-process,
 * running the app for real: plain node, and tsx as `npx tsx mian.ts` would run it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT, cliEnv, ncalc } from '../cli/support';
import { causeLine } from '../../src/read/synth';

jest.setTimeout(60_000);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-cause-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function validate(app: string) {
  writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app }));
  return ncalc(['validate'], { cwd: dir, env: cliEnv({}) });
}

test.each([
  ['node mian.js', 'mian.js'],
  [`${path.join(ROOT, 'node_modules', '.bin', 'tsx')} mian.ts`, 'mian.ts'],
])('GIVEN the app "%s" names a missing file THEN the cause comes first, the stack below', async (app, file) => {
  const r = await validate(app);
  expect(r.code).toBe(1);
  const [head, problem] = r.stderr.split('\n');
  expect(head).toBe('Error: the configuration is not valid; nothing was changed.');
  expect(problem).toMatch(
    new RegExp(
      `^  - synth: the app ".*${file.replace('.', '\\.')}" exited with code 1: Error(?: \\[ERR_MODULE_NOT_FOUND\\])?: Cannot find module '${path.join(dir, file).replace(/[.\\/]/g, '\\$&')}'.*; its output ends with:$`,
    ),
  );
  // The Node stack is still there, below.
  expect(r.stderr.split('\n').slice(2).join('\n')).toMatch(/^\s+at .+[:(]/m);
});

test('GIVEN an app that throws THEN its first error line is the cause', () => {
  const output = [
    '/app/main.ts:12',
    '    throw new TypeError("props.domain is undefined");',
    '          ^',
    'TypeError: props.domain is undefined',
    '    at new Stack (/app/main.ts:12:11)',
    'Error: a later consequence',
  ].join('\n');
  expect(causeLine(output)).toBe('TypeError: props.domain is undefined');
  expect(causeLine('Segmentation fault (core dumped)')).toBeNull();
});
