import { spawnSync } from 'node:child_process';
import type * as fs from 'node:fs';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_FILE_MODE, DataFileError, DEMO_ACCOUNT, PortInUseError, startEmulator } from '../../src/emulator';
import { call } from '../helpers/emulator';

const T = DEMO_ACCOUNT.token;
const mode = (path: string) => statSync(path).mode & 0o777;

let dir: string;
let dataFile: string;
let lockFile: string;
let journalFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ncalc-data-'));
  dataFile = join(dir, 'state.json');
  lockFile = `${dataFile}.lock`;
  journalFile = `${dataFile}.journal`;
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A pid that was just in use and whose process has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  return child.pid;
}

describe('data file mode', () => {
  it('the data file, the temp file it is written through and the journal are owner-only (0600) from their creation', async () => {
    // The module object the emulator calls (a namespace import would be a frozen copy).
    const fsp = (require('node:fs') as typeof fs).promises;
    const tempModes: number[] = [];
    const rename = fsp.rename;
    jest.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
      if (String(to) === dataFile) tempModes.push(mode(String(from)));
      return rename(from, to);
    });
    const emu = await startEmulator({ dataFile });
    try {
      expect(DATA_FILE_MODE).toBe(0o600);
      expect(mode(dataFile)).toBe(0o600);
      await call(emu.url, 'POST', '/api/domains/', { token: T, json: { domain: 'secret.dev' } });
      expect(mode(dataFile)).toBe(0o600);
      expect(mode(journalFile)).toBe(0o600);
      expect(readFileSync(journalFile, 'utf8')).toContain('secret.dev');
      expect(mode(lockFile)).toBe(0o600);
    } finally {
      await emu.close();
    }
    expect(tempModes).toHaveLength(2); // the start and the close (a change goes to the journal)
    expect(tempModes.every((m) => m === 0o600)).toBe(true);
  });

  it('a state file and a journal saved readable by others become owner-only when the emulator starts', async () => {
    let emu = await startEmulator({ dataFile });
    await emu.close();
    chmodSync(dataFile, 0o644);
    writeFileSync(journalFile, '', { mode: 0o644 });
    chmodSync(journalFile, 0o644);
    emu = await startEmulator({ dataFile });
    try {
      expect(mode(dataFile)).toBe(0o600);
      expect(mode(journalFile)).toBe(0o600);
    } finally {
      await emu.close();
    }
  });
});

describe('stale temp files', () => {
  it('the temp files of this data file left by a crash are removed at start; nothing else is', async () => {
    const stale = ['state.json.4242.deadbeef.tmp', 'state.json.1.0123abcd.tmp'];
    const kept = [
      'state.json.bak',
      'state.json.x.deadbeef.tmp',
      'other.json.4242.deadbeef.tmp',
      'state.json.4242.deadbeef.tmp.keep',
    ];
    for (const name of [...stale, ...kept]) writeFileSync(join(dir, name), '{"half": ');
    const emu = await startEmulator({ dataFile });
    try {
      expect(readdirSync(dir).sort()).toEqual([...kept, 'state.json', 'state.json.journal', 'state.json.lock'].sort());
    } finally {
      await emu.close();
    }
  });
});

describe('data file lock', () => {
  it('a second emulator on the same file fails at start naming the file and the pid; the first keeps working', async () => {
    const first = await startEmulator({ dataFile });
    try {
      expect(readFileSync(lockFile, 'utf8')).toBe(`${process.pid}\n`);
      const err = await startEmulator({ dataFile }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DataFileError);
      expect((err as Error).message).toBe(
        `data file ${dataFile} is in use by another emulator (pid ${process.pid}, lock file ${lockFile}); stop it or give another --data file`,
      );
      expect(readFileSync(lockFile, 'utf8')).toBe(`${process.pid}\n`);
      expect((await call(first.url, 'POST', '/api/domains/', { token: T, json: { domain: 'first.dev' } })).status).toBe(
        200,
      );
    } finally {
      await first.close();
    }
    expect(existsSync(lockFile)).toBe(false);
    const second = await startEmulator({ dataFile });
    try {
      const domains = (await call(second.url, 'GET', '/api/domains/', { token: T })).body.domains.map(
        (d: { domain: string }) => d.domain,
      );
      expect(domains).toContain('first.dev');
    } finally {
      await second.close();
    }
  });

  it('a lock whose process is gone is taken over, and removed on close', async () => {
    writeFileSync(lockFile, `${deadPid()}\n`);
    const emu = await startEmulator({ dataFile });
    try {
      expect(readFileSync(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    } finally {
      await emu.close();
    }
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a lock that holds no pid is left alone, with a message saying what to do', async () => {
    writeFileSync(lockFile, 'hello');
    await expect(startEmulator({ dataFile })).rejects.toThrow(
      `the lock file ${lockFile} of data file ${dataFile} holds no pid; if no emulator uses ${dataFile}, delete the lock file`,
    );
    expect(readFileSync(lockFile, 'utf8')).toBe('hello');
    expect(existsSync(dataFile)).toBe(false);
  });

  it('a start that fails after taking the lock gives it back', async () => {
    writeFileSync(dataFile, 'not json');
    await expect(startEmulator({ dataFile })).rejects.toThrow(DataFileError);
    expect(existsSync(lockFile)).toBe(false);

    rmSync(dataFile);
    const other = await startEmulator();
    try {
      await expect(startEmulator({ dataFile, port: Number(new URL(other.url).port) })).rejects.toThrow(PortInUseError);
      expect(existsSync(lockFile)).toBe(false);
    } finally {
      await other.close();
    }

    await expect(startEmulator({ dataFile, tokenLifetimeSeconds: 0 })).rejects.toThrow(/tokenLifetimeSeconds/);
    expect(readdirSync(dir).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });
});
