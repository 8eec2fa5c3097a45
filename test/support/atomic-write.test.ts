import * as fs from 'node:fs';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTempFileOf, writeFileAtomic, writeFileAtomicSync } from '../../src/support/atomic-write';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ncalc-atomic-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o7777;
const asRoot = process.getuid?.() === 0;

describe.each([
  ['writeFileAtomicSync', async (p: string, d: string, o?: { mode?: number }) => writeFileAtomicSync(p, d, o)],
  ['writeFileAtomic', writeFileAtomic],
])('%s', (_name, write) => {
  test('GIVEN a file THEN it is replaced whole, keeps its mode, and no temp file stays', async () => {
    const file = join(dir, 'plan.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    await write(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(mode(file)).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['plan.json']);
  });

  test('GIVEN a mode THEN the file has exactly it, whatever it had and whatever the umask', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    await write(file, 'secret', { mode: 0o600 });
    expect(mode(file)).toBe(0o600);
    await write(join(dir, 'run'), '#!/bin/sh\n', { mode: 0o755 });
    expect(mode(join(dir, 'run'))).toBe(0o755);
  });

  test('GIVEN a link THEN its target is written and the link stays a link', async () => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'terraformrc'), 'old');
    symlinkSync(join(dir, 'real', 'terraformrc'), join(dir, 'link'));
    await write(join(dir, 'link'), 'new');
    expect(fs.lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real', 'terraformrc'), 'utf8')).toBe('new');
    expect(readdirSync(join(dir, 'real'))).toEqual(['terraformrc']);
  });

  test('GIVEN a rename that fails THEN the target is untouched and the temp file is gone', async () => {
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    await expect(write(target, 'new')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
    });
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  (asRoot ? test.skip : test)(
    'GIVEN a read-only file THEN EACCES as a plain write, and the file is unchanged',
    async () => {
      const file = join(dir, 'main.tf');
      writeFileSync(file, 'old');
      chmodSync(file, 0o444);
      await expect(write(file, 'new')).rejects.toMatchObject({ code: 'EACCES' });
      expect(readFileSync(file, 'utf8')).toBe('old');
      expect(readdirSync(dir)).toEqual(['main.tf']);
    },
  );

  test('GIVEN a missing folder THEN ENOENT and nothing is made', async () => {
    await expect(write(join(dir, 'missing', 'plan.json'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

test('GIVEN a write THEN the data is fsynced before the rename, and the folder after it when asked', () => {
  // Spies that call through: the order of the real calls is what is checked.
  const real = require('node:fs') as typeof fs;
  const calls: string[] = [];
  const { fsyncSync, renameSync } = real;
  jest.spyOn(real, 'fsyncSync').mockImplementation((fd) => {
    calls.push(fs.fstatSync(fd).isDirectory() ? 'fsync folder' : 'fsync file');
    return fsyncSync(fd);
  });
  jest.spyOn(real, 'renameSync').mockImplementation((from, to) => {
    calls.push('rename');
    return renameSync(from, to);
  });
  writeFileAtomicSync(join(dir, 'a.json'), '{}');
  expect(calls).toEqual(['fsync file', 'rename']);
  calls.length = 0;
  writeFileAtomicSync(join(dir, 'a.json'), '[]', { syncDirectory: true });
  expect(calls).toEqual(['fsync file', 'rename', 'fsync folder']);
  expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('[]');
});

test('GIVEN names beside a file THEN only the temp files of its writers are recognised', () => {
  expect(isTempFileOf('/x/state.json', 'state.json.4242.deadbeef.tmp')).toBe(true);
  expect(isTempFileOf('/x/state.json', 'state.json.x.deadbeef.tmp')).toBe(false);
  expect(isTempFileOf('/x/state.json', 'other.json.4242.deadbeef.tmp')).toBe(false);
  expect(isTempFileOf('/x/state.json', 'state.json.4242.deadbeef.tmp.keep')).toBe(false);
  expect(isTempFileOf('/x/state.json', 'state.json')).toBe(false);
});
