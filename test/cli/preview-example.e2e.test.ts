/**
 * examples/preview, synthesized by the app itself and previewed by ncalc against the emulator's
 * demo account, whose domains a local DNS server points at local TLS servers: no internet.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TLS_PORT_ENV } from '../../src/preview';
import { startDnsServer, type RunningDns } from '../helpers/dns-server';
import { useEmulator } from '../helpers/emulator';
import { SERVES, lifetimeCertificate, startTlsServers, type RunningTls } from '../helpers/tls-servers';
import { ROOT, cliEnv, ncalc } from './support';

const emulator = useEmulator();
let dns: RunningDns;
let tls: RunningTls;
beforeAll(async () => {
  dns = await startDnsServer({
    'example.com': { MX: [{ exchange: 'mail.example.com', priority: 10 }], TXT: ['v=spf1 mx -all'] },
    'www.example.com': { A: [SERVES] },
    'mail.example.com': { A: [SERVES] },
  });
  tls = await startTlsServers({
    // 47 days, 12.5 left; 100 days, 90.5 left.
    'www.example.com': lifetimeCertificate('www.example.com', 47, 34.5),
    'mail.example.com': lifetimeCertificate('mail.example.com', 100, 9.5),
  });
});
afterAll(async () => {
  await Promise.all([dns?.close(), tls?.close()]);
});

test('the example: 2 of 5 new alerts would fire; the fixed 30-day threshold is flagged, the per-target ones are 15 and 33', async () => {
  const dir = path.join(ROOT, 'examples', 'preview');
  const out = mkdtempSync(path.join(tmpdir(), 'ncalc-preview-example-'));
  try {
    const env = cliEnv({
      NETWORKCALC_TOKEN: 'demo-token',
      NETWORKCALC_BASE_URL: emulator().url,
      [TLS_PORT_ENV]: String(tls.port),
      HOME: process.env.HOME ?? '',
      CHECKPOINT_DISABLE: '1',
    });
    const r = await ncalc(['preview', '--json', '--out', out, '--resolver', dns.address], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const seen = doc.accounts[0].alerts.map((a: Record<string, unknown>) => [
      a.name,
      a.filter_value,
      a.state,
      a.suggested_days,
    ]);
    expect(seen).toEqual([
      ['example.com MX moved', 'mail.example.com', 'quiet', null],
      ['example.com SPF valid', '', 'quiet', null],
      ['www certificate expiry', '30', 'fires', 15],
      ['renewal failed · www.example.com', '15', 'fires', null],
      ['renewal failed · mail.example.com', '33', 'quiet', null],
    ]);
    expect(doc.summary).toMatchObject({ alerts: 5, fires: 2, quiet: 3, unknown: 0, new_firing: 2 });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 90_000);
