import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataFileError,
  DEMO_ACCOUNT,
  loadSeedFile,
  parseSeed,
  PortInUseError,
  SeedError,
  startEmulator,
  type EmulatorSeed,
} from '../../src/emulator';
import { call } from '../helpers/emulator';
import { alertSpec } from '../helpers/fixtures';

const T = DEMO_ACCOUNT.token;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ncalc-emu-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('persistence', () => {
  it('a restart with the same data file loses nothing', async () => {
    const dataFile = join(dir, 'state', 'emulator.json');
    let emu = await startEmulator({ dataFile });
    const json = alertSpec({ name: 'kept' });
    await call(emu.url, 'POST', '/api/alerts/', { token: T, json });
    await call(emu.url, 'POST', '/api/alerts/', { token: T, json: { ...json, name: 'gone' } });
    await call(emu.url, 'DELETE', '/api/alerts/2', { token: T });
    const issued = (
      await call(emu.url, 'POST', '/api/auth/token', {
        json: {
          client_id: DEMO_ACCOUNT.clientId,
          client_secret: DEMO_ACCOUNT.clientSecret,
          grant_type: 'client_credentials',
        },
      })
    ).body.token.access_token;
    await call(emu.url, 'POST', '/api/domains/', { token: T, json: { domain: 'added.dev' } });
    const report = (await call(emu.url, 'POST', '/api/reports/domain-reports/1', { token: T })).body
      .report_url as string;
    await emu.control.patchAlert('demo', 1, { current_status: 'triggered' });
    await emu.close();

    emu = await startEmulator({ dataFile });
    try {
      const alerts = (await call(emu.url, 'GET', '/api/alerts/', { token: issued })).body.alerts;
      expect(alerts.map((a: any) => [a.id, a.name, a.current_status])).toEqual([[1, 'kept', 'triggered']]);
      expect(
        (await call(emu.url, 'GET', '/api/domains/', { token: T })).body.domains.map((d: any) => d.domain),
      ).toEqual(['example.com', 'example.org', 'added.dev']);
      const path = new URL(report).pathname;
      expect((await call(emu.url, 'GET', path)).status).toBe(200);
      // Ids go on from where they were: 2 was used and deleted, so the next is 3.
      await call(emu.url, 'POST', '/api/alerts/', { token: T, json: { ...json, name: 'third' } });
      expect((await call(emu.url, 'GET', '/api/alerts/3', { token: T })).body.alerts[0].name).toBe('third');
    } finally {
      await emu.close();
    }
  });

  it('every change is in the journal before it is answered; close folds it into the data file (no temp files left)', async () => {
    const dataFile = join(dir, 'emulator.json');
    const emu = await startEmulator({ dataFile });
    try {
      await call(emu.url, 'POST', '/api/domains/', { token: T, json: { domain: 'now.dev' } });
      const lines = readFileSync(`${dataFile}.journal`, 'utf8').split('\n');
      expect(lines).toHaveLength(2); // one entry, and the end of the last line
      expect(JSON.parse(lines[0]!)).toMatchObject({
        seq: 1,
        changes: [{ op: 'put', account: 'demo', list: 'domains', item: { id: 5, domain: 'now.dev' } }],
      });
      expect(readdirSync(dir).sort()).toEqual(['emulator.json', 'emulator.json.journal', 'emulator.json.lock']);
    } finally {
      await emu.close();
    }
    expect(readdirSync(dir)).toEqual(['emulator.json']);
    const saved = JSON.parse(readFileSync(dataFile, 'utf8'));
    expect(saved).toMatchObject({ format: 'networkcalc-emulator-state', version: 1, journal_seq: 1 });
    expect(saved.accounts[0].domains.map((d: any) => d.domain)).toContain('now.dev');
  });

  it('refuses a data file that is not a saved state instead of overwriting it', async () => {
    const dataFile = join(dir, 'notes.json');
    writeFileSync(dataFile, '{"hello": 1}');
    await expect(startEmulator({ dataFile })).rejects.toThrow(DataFileError);
    writeFileSync(dataFile, 'not json');
    await expect(startEmulator({ dataFile })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(dataFile, 'utf8')).toBe('not json');
  });

  it('in memory without a data file: a restart starts from the seed', async () => {
    let emu = await startEmulator();
    await call(emu.url, 'POST', '/api/domains/', { token: T, json: { domain: 'temp.dev' } });
    await emu.close();
    emu = await startEmulator();
    try {
      expect((await call(emu.url, 'GET', '/api/domains/', { token: T })).body.domains).toHaveLength(2);
    } finally {
      await emu.close();
    }
  });
});

describe('seeds', () => {
  const good: EmulatorSeed = {
    accounts: [
      {
        name: 'team-a',
        user_id: 10,
        credentials: [{ client_id: 'a', client_secret: 'sa' }],
        tokens: [{ access_token: 'ta' }, { access_token: 'ta-old', expires_at: '2000-01-01T00:00:00Z' }],
        domains: [
          { domain: 'a.dev', subdomains: [{ prefix: 'www' }] },
          { id: 50, domain: 'b.dev' },
        ],
        alerts: [
          { name: 'by name', type: 'SPF Record', filter: 'validity', target: 'www.a.dev', current_status: 'triggered' },
          {
            id: 9,
            name: 'by id',
            type: 'DNS Record',
            subtype: 'MX',
            filter: 'contains',
            filter_value: 'mx',
            target_type: 'domain',
            target_id: 50,
          },
        ],
      },
    ],
  };

  it('a seed file with accounts, ids given or assigned, alerts by name or id, expired tokens', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify(good));
    const emu = await startEmulator({ seed: file });
    try {
      expect((await call(emu.url, 'GET', '/api/alerts/', { token: 'ta-old' })).status).toBe(401);
      const alerts = (await call(emu.url, 'GET', '/api/alerts/', { token: 'ta' })).body.alerts;
      expect(alerts.map((a: any) => [a.id, a.name, a.user_id, a.current_status])).toEqual([
        [9, 'by id', 10, 'healthy'],
        [10, 'by name', 10, 'triggered'],
      ]);
      expect(alerts[1].target_subdomain).toMatchObject({ id: 52, subdomain: 'www.a.dev' });
      expect((await call(emu.url, 'GET', '/api/domains/', { token: 'ta' })).body.domains.map((d: any) => d.id)).toEqual(
        [51, 50],
      );
    } finally {
      await emu.close();
    }
  });

  it.each([
    [{}, /seed.accounts must list at least one account/],
    [{ accounts: [{ name: 'a' }] }, /accounts\[0\]\.user_id must be a positive whole number/],
    [
      { accounts: [{ name: 'a', user_id: 1, credentials: [{ client_id: 'x' }] }] },
      /accounts\[0\]\.credentials\[0\]\.client_secret/,
    ],
    [
      { accounts: [{ name: 'a', user_id: 1, domains: [{ domain: 'Not A Domain' }] }] },
      /accounts\[0\]\.domains\[0\]\.domain/,
    ],
    [
      { accounts: [{ name: 'a', user_id: 1, domains: [{ domain: 'example.co-' }] }] },
      /accounts\[0\]\.domains\[0\]\.domain must be a lower-case domain name/,
    ],
    [
      {
        accounts: [{ name: 'a', user_id: 1, domains: [{ domain: 'a.dev', subdomains: [{ prefix: 'x'.repeat(64) }] }] }],
      },
      /domains\[0\]\.subdomains\[0\]\.prefix must be lower-case labels/,
    ],
    [
      { accounts: [{ name: 'a', user_id: 1, tokens: [{ access_token: 't', expires_at: 'soon' }] }] },
      /tokens\[0\]\.expires_at/,
    ],
    [
      {
        accounts: [
          { name: 'a', user_id: 1 },
          { name: 'a', user_id: 2 },
        ],
      },
      /accounts\[1\]\.name is used by another account/,
    ],
    [
      {
        accounts: [
          { name: 'a', user_id: 1, domains: [{ id: 1, domain: 'a.dev', subdomains: [{ id: 1, prefix: 'w' }] }] },
        ],
      },
      /subdomains\[0\]\.id is used/,
    ],
    [{ accounts: [{ name: 'a', user_id: 1, colour: 'red' }] }, /accounts\[0\]\.colour is not a known field/],
    [
      { accounts: [{ name: 'a', user_id: 1, alerts: [{ name: 'x', type: 't', filter: 'f', target: 'nope.dev' }] }] },
      /alerts\[0\]\.target/,
    ],
    [
      {
        accounts: [
          {
            name: 'a',
            user_id: 1,
            alerts: [{ name: 'x', type: 't', filter: 'f', target_type: 'domain', target_id: 3 }],
          },
        ],
      },
      /alerts\[0\]\.target_id/,
    ],
  ])('an invalid seed %j names the field', (seed, message) => {
    expect(() => parseSeed(seed)).toThrow(SeedError);
    expect(() => parseSeed(seed)).toThrow(message);
  });

  it('seed file errors name the file', () => {
    const missing = join(dir, 'missing.json');
    expect(() => loadSeedFile(missing)).toThrow(new RegExp(`cannot read seed file .*missing\\.json`));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{');
    expect(() => loadSeedFile(broken)).toThrow(/broken\.json is not valid JSON/);
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, '{"accounts":[{"name":"a","user_id":"1"}]}');
    expect(() => loadSeedFile(wrong)).toThrow(/wrong\.json: accounts\[0\]\.user_id/);
  });
});

describe('startEmulator', () => {
  it('binds 127.0.0.1 on a free port by default; the URL has no trailing slash', async () => {
    const emu = await startEmulator();
    try {
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emu.controlToken.length).toBeGreaterThan(16);
    } finally {
      await emu.close();
    }
  });

  it('a given control token is used; a port in use is a PortInUseError', async () => {
    const a = await startEmulator({ controlToken: 'fixed' });
    try {
      expect(a.controlToken).toBe('fixed');
      expect((await call(a.url, 'GET', '/_emulator/state', { headers: { 'x-emulator-token': 'fixed' } })).status).toBe(
        200,
      );
      const port = Number(new URL(a.url).port);
      await expect(startEmulator({ port })).rejects.toThrow(PortInUseError);
    } finally {
      await a.close();
    }
  });

  it('close can be called twice', async () => {
    const emu = await startEmulator();
    await emu.close();
    await emu.close();
  });
});
