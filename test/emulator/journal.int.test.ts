import { spawn } from 'node:child_process';
import type * as fs from 'node:fs';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataFileError,
  DEMO_ACCOUNT,
  startEmulator,
  type EmulatorState,
  type RunningEmulator,
} from '../../src/emulator';
import { loadDataFile, readStateFile } from '../../src/emulator/data-file';
import { COMPACT_MIN_BYTES } from '../../src/emulator/journal';
import { call } from '../helpers/emulator';

const T = DEMO_ACCOUNT.token;
const alert = (name: string, target_id = 1) => ({
  name,
  type: 'DNS Record',
  subtype: 'A',
  filter: 'equals',
  filter_value: '192.0.2.1',
  target_type: 'domain',
  target_id,
});

let dir: string;
let dataFile: string;
let journal: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ncalc-journal-'));
  dataFile = join(dir, 'state.json');
  journal = `${dataFile}.journal`;
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** The data file and its journal as they are on disk now: what a crash at this moment leaves. */
function crashImage(name: string): string {
  const imageDir = join(dir, name);
  mkdirSync(imageDir);
  const image = join(imageDir, 'state.json');
  copyFileSync(dataFile, image);
  copyFileSync(journal, `${image}.journal`);
  return image;
}

async function stateAfterRestart(file: string): Promise<EmulatorState> {
  const emu = await startEmulator({ dataFile: file });
  try {
    return await emu.control.state();
  } finally {
    await emu.close();
  }
}

/** Makes one change of every kind the API and the control surface have; every answer is 200. */
async function changeEverything(emu: RunningEmulator): Promise<void> {
  const ok = async (p: Promise<{ status: number }>) => expect((await p).status).toBe(200);
  await ok(call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert('one') }));
  await ok(call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert('two') }));
  await ok(call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert('three') }));
  await ok(call(emu.url, 'PATCH', '/api/alerts/1', { token: T, json: { filter_value: '192.0.2.99' } }));
  await ok(call(emu.url, 'DELETE', '/api/alerts/2', { token: T }));
  await ok(call(emu.url, 'POST', '/api/domains/', { token: T, json: { domain: 'journal.dev' } }));
  await ok(call(emu.url, 'POST', '/api/domains/5/subdomains/www', { token: T }));
  await ok(call(emu.url, 'DELETE', '/api/domains/4', { token: T }));
  await ok(call(emu.url, 'POST', '/api/reports/domain-reports/1', { token: T }));
  await ok(
    call(emu.url, 'POST', '/api/auth/token', {
      json: {
        client_id: DEMO_ACCOUNT.clientId,
        client_secret: DEMO_ACCOUNT.clientSecret,
        grant_type: 'client_credentials',
      },
    }),
  );
  await emu.control.patchAlert('demo', 3, { current_status: 'triggered' });
  await emu.control.createAlert('demo', {
    id: 40,
    name: 'planted',
    type: 'SPF Record',
    filter: 'validity',
    target: 'example.com',
  });
  await emu.control.expireTokens('demo', DEMO_ACCOUNT.token);
}

describe('the journal', () => {
  it('a crash image restarts with exactly the state that was answered, for every kind of change', async () => {
    const emu = await startEmulator({ dataFile });
    let before: EmulatorState;
    let image: string;
    try {
      await changeEverything(emu);
      before = await emu.control.state();
      image = crashImage('image');
      // Every change went to the journal; the data file is still the one written at start.
      expect(readStateFile(dataFile)!.seq).toBe(0);
      expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(13);
    } finally {
      await emu.close();
    }
    expect(await stateAfterRestart(image)).toEqual(before);
    // Ids go on after the highest used, as before the crash.
    expect(before.next_alert_id).toBe(41);
    expect(before.next_resource_id).toBe(7);
  });

  it('changes that arrive together share one fsync, and none is answered before it', async () => {
    const fsp = (require('node:fs') as typeof fs).promises;
    const probe = await fsp.open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    // The original, called below with the spied handle as `this`.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const datasync = proto.datasync;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let syncs = 0;
    jest.spyOn(proto, 'datasync').mockImplementation(async function (this: FileHandle) {
      syncs++;
      await gate;
      return datasync.call(this);
    });

    const emu = await startEmulator({ dataFile });
    try {
      let answered = 0;
      const writes = Array.from({ length: 30 }, (_, i) =>
        call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert(`together ${i}`) }).then((res) => {
          answered++;
          return res.status;
        }),
      );
      // All 30 are applied in memory (the emulator has them) while the first sync is held.
      const deadline = Date.now() + 10_000;
      while (emu.app.emulator.store.state.accounts[0]!.alerts.length < 30) {
        if (Date.now() > deadline) throw new Error('the 30 creates did not arrive within 10 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(answered).toBe(0);
      release();
      expect(await Promise.all(writes)).toEqual(Array(30).fill(200));
      expect(syncs).toBeLessThanOrEqual(2); // the first arrival's, then one for all the others
      const seqs = readFileSync(journal, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).seq);
      expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    } finally {
      release();
      await emu.close();
    }
  });

  it('a torn last line is ignored; a damaged earlier line or a journal that does not continue the data file is refused', async () => {
    const emu = await startEmulator({ dataFile });
    let before: EmulatorState;
    let image: string;
    try {
      await call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert('kept') });
      await call(emu.url, 'POST', '/api/domains/', { token: T, json: { domain: 'kept.dev' } });
      before = await emu.control.state();
      image = crashImage('torn');
    } finally {
      await emu.close();
    }
    const imageJournal = `${image}.journal`;
    const entries = readFileSync(imageJournal, 'utf8');
    // The write of a third change was cut short: its request was never answered.
    appendFileSync(imageJournal, '{"seq":3,"changes":[{"op":"put","account":"demo","list":"alerts","item":{"id":2,"na');
    expect(await stateAfterRestart(image)).toEqual(before);
    // The restart folded both entries into its data file (the torn line is gone with the journal).
    expect(readStateFile(image)!.seq).toBe(2);
    expect(() => statSync(imageJournal)).toThrow();

    // A data file written at start (entry 0) with journals written by hand from those entries.
    const damaged = join(dir, 'damaged.json');
    await (await startEmulator({ dataFile: damaged })).close();
    const second = entries.split('\n')[1]!;
    writeFileSync(`${damaged}.journal`, `{"seq":1,"changes":[{"op":"pu\n${second}\n`);
    await expect(startEmulator({ dataFile: damaged })).rejects.toThrow(
      new DataFileError(
        `the journal ${damaged}.journal is damaged at line 1; move it away (the changes it holds are lost) or give another --data file`,
      ),
    );
    writeFileSync(`${damaged}.journal`, `${second}\n`); // entry 2 without entry 1
    await expect(startEmulator({ dataFile: damaged })).rejects.toThrow(
      `the journal ${damaged}.journal does not continue the data file ${damaged} (entry 2 after 0); move the journal away`,
    );
    expect(() => statSync(`${damaged}.lock`)).toThrow(); // the failed start gave the lock back
  });

  it('is folded into the data file once it outgrows it; entries the data file already has are skipped on replay', async () => {
    const emu = await startEmulator({ dataFile });
    let early: string;
    let before: EmulatorState;
    let image: string;
    try {
      for (let i = 0; i < 20; i++) await call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert(`early ${i}`) });
      early = crashImage('early'); // a journal of 20 entries on the data file written at start
      let creates = 20;
      // About 400 bytes an entry: the journal outgrows COMPACT_MIN_BYTES within a few hundred.
      while (readStateFile(dataFile)!.seq === 0) {
        if (creates > 1000) throw new Error('the journal was never folded into the data file');
        const batch = Array.from({ length: 10 }, (_, i) =>
          call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert(`load ${creates + i}`) }),
        );
        expect((await Promise.all(batch)).every((r) => r.status === 200)).toBe(true);
        creates += 10;
      }
      const folded = readStateFile(dataFile)!;
      expect(folded.state.accounts[0]!.alerts.length).toBe(folded.seq); // one alert per entry, all in the file
      expect(statSync(journal).size).toBeLessThan(COMPACT_MIN_BYTES);
      before = await emu.control.state();
      image = crashImage('late');
    } finally {
      await emu.close();
    }
    expect(await stateAfterRestart(image)).toEqual(before);

    // A crash between writing the new data file and emptying the journal: the old entries
    // (all in the data file already) are skipped, not applied twice.
    copyFileSync(`${early}.journal`, `${image}.journal`);
    const replayed = loadDataFile(image)!;
    expect(replayed.state).toEqual(readStateFile(image)!.state);
  });

  it('reset and a new seed write a whole data file and empty the journal', async () => {
    const emu = await startEmulator({ dataFile });
    try {
      await call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert('gone on reset') });
      expect(statSync(journal).size).toBeGreaterThan(0);
      await emu.control.reset();
      expect(statSync(journal).size).toBe(0);
      const saved = readStateFile(dataFile)!;
      expect(saved.seq).toBe(2);
      expect(saved.state.accounts[0]!.alerts).toEqual([]);
      await call(emu.url, 'POST', '/api/alerts/', { token: T, json: alert('after reset') });
      expect(loadDataFile(crashImage('after-reset'))!.state.accounts[0]!.alerts.map((a) => a.name)).toEqual([
        'after reset',
      ]);

      await emu.control.seed({ accounts: [{ name: 'other', user_id: 9, tokens: [{ access_token: 'other-token' }] }] });
      expect(statSync(journal).size).toBe(0);
      expect(readStateFile(dataFile)!.state.accounts.map((a) => a.name)).toEqual(['other']);
    } finally {
      await emu.close();
    }
  });
});

describe('a killed emulator process', () => {
  it('loses no acknowledged change (SIGKILL while 50 clients write)', async () => {
    // The sources, compiled on load by tsx's require hook in this very process (the tsx CLI
    // would run a second process, out of reach of the SIGKILL): no build needed.
    const entry = join(__dirname, '..', '..', 'src', 'emulator', 'index.ts');
    const script =
      `require(${JSON.stringify(entry)}).startEmulator({ dataFile: ${JSON.stringify(dataFile)} })` +
      '.then((e) => console.log(e.url), (err) => { console.error(err); process.exit(1); });';
    const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const deadline = Date.now() + 15_000;
      while (!/^http:\S+/m.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the emulator did not start: ${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const url = /^(http:\S+)/m.exec(out)![1]!;

      // 50 clients create alerts one after another until the process is killed.
      const acknowledged: string[] = [];
      let killed = false;
      const client = async (c: number) => {
        for (let i = 0; !killed; i++) {
          const name = `client ${c} alert ${i}`;
          try {
            const res = await call(url, 'POST', '/api/alerts/', { token: T, json: alert(name) });
            if (res.status === 200) acknowledged.push(name);
          } catch {
            return; // the connection went with the process
          }
        }
      };
      const clients = Array.from({ length: 50 }, (_, c) => client(c));
      while (acknowledged.length < 300) {
        if (Date.now() > deadline + 15_000) throw new Error(`only ${acknowledged.length} creates answered`);
        await new Promise((r) => setTimeout(r, 5));
      }
      child.kill('SIGKILL');
      killed = true;
      await exited;
      await Promise.all(clients);
      const sure = [...acknowledged];

      const names = new Set((await stateAfterRestart(dataFile)).accounts[0]!.alerts.map((a) => a.name));
      expect(sure.filter((name) => !names.has(name))).toEqual([]);
      expect(sure.length).toBeGreaterThanOrEqual(300);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }, 60_000);
});
