/**
 * Reading a synthesized output: each stack file is read once (no existence check before it),
 * and a missing or unreadable one is still refused with one sentence that names the file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../../src/contract/config-error';
import { readSynthesized } from '../../src/read/synth-output';

let out: string;
beforeEach(() => {
  out = mkdtempSync(path.join(tmpdir(), 'ncalc-synth-output-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

function manifest(...names: string[]) {
  const stacks = Object.fromEntries(names.map((n) => [n, { synthesizedStackPath: `stacks/${n}/cdk.tf.json` }]));
  writeFileSync(path.join(out, 'manifest.json'), JSON.stringify({ stacks }));
}
function stack(name: string, text: string) {
  mkdirSync(path.join(out, 'stacks', name), { recursive: true });
  writeFileSync(path.join(out, 'stacks', name, 'cdk.tf.json'), text);
}
function refusal(wanted: string[] | null = null): string {
  try {
    readSynthesized(out, wanted);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('not refused');
}

test('GIVEN every stack file THEN each is read, in the order of the manifest', () => {
  manifest('b', 'a');
  stack('a', '{"resource": {}}');
  stack('b', '{}');
  expect(readSynthesized(out).stacks).toEqual([
    { name: 'b', json: {} },
    { name: 'a', json: { resource: {} } },
  ]);
  expect(readSynthesized(out, ['a']).stacks.map((s) => s.name)).toEqual(['a']);
});

test('GIVEN a stack file is missing THEN one sentence names the stack and the file, and says to synthesize again', () => {
  manifest('a', 'b');
  stack('a', '{}');
  const file = path.join(out, 'stacks', 'b', 'cdk.tf.json');
  expect(refusal()).toBe(`stack b: ${file} is missing; synthesize again`);
  // Not asked for: not read, so not refused.
  expect(readSynthesized(out, ['a']).stacks.map((s) => s.name)).toEqual(['a']);
});

test('GIVEN a stack file that is not JSON, or an unknown stack asked for THEN each is refused by name', () => {
  manifest('a');
  stack('a', '{');
  expect(refusal()).toContain(`${path.join(out, 'stacks', 'a', 'cdk.tf.json')} is not valid JSON`);
  expect(refusal(['a', 'zz'])).toContain('unknown stack zz; the app has a');
});
