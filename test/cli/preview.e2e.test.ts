/**
 * `ncalc preview` and `plan --preview` end to end, with no internet: the CLI (in-process)
 * against the emulator on 127.0.0.1, whose domains a local DNS server (dns-packet) points at
 * local TLS servers (node-forge certificates). Also: plan and drift show the live alerts that
 * are triggered, and a preview adds no API request to the plan's.
 */
import { TLS_PORT_ENV } from '../../src/preview';
import type { EmulatorSeed } from '../../src/emulator';
import { useEmulator } from '../helpers/emulator';
import { startDnsServer, type RunningDns } from '../helpers/dns-server';
import { SERVES, STALLS, lifetimeCertificate, startTlsServers, type RunningTls } from '../helpers/tls-servers';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const TOKEN = 'preview-token-51c2';
const SEED: EmulatorSeed = {
  accounts: [
    {
      name: 'pv',
      user_id: 30,
      tokens: [{ access_token: TOKEN }],
      domains: [
        { id: 1, domain: 'mail.test', subdomains: [{ id: 2, prefix: 'www' }] },
        { id: 3, domain: 'c47.test' },
        { id: 4, domain: 'stall.test' },
        { id: 5, domain: 'too-many.test' },
        { id: 6, domain: 'big.test' },
      ],
      alerts: [
        {
          id: 40,
          name: 'old MX',
          type: 'DNS Record',
          subtype: 'MX',
          filter: 'does not equal',
          filter_value: 'mx1.mail.test',
          target: 'mail.test',
          current_status: 'triggered',
          last_triggered_at: '2026-11-20T08:00:00Z',
        },
      ],
    },
  ],
};

const emulator = useEmulator({ seed: SEED });
let dns: RunningDns;
let tls: RunningTls;
let app: FixtureApp;
/** Alerts on a host whose TXT records are large: the markdown is over a comment's size. */
let bigApp: FixtureApp;
const BIG_ALERTS = 8;

beforeAll(async () => {
  dns = await startDnsServer({
    'mail.test': {
      MX: [
        { exchange: 'mx1.mail.test', priority: 10 },
        { exchange: 'mx2.mail.test', priority: 20 },
      ],
    },
    'www.mail.test': { CNAME: 'edge.cdn.test' },
    'edge.cdn.test': { A: ['192.0.2.20', '192.0.2.21'] },
    'c47.test': { A: [SERVES] },
    'stall.test': { A: [STALLS] },
    'too-many.test': {
      TXT: [`v=spf1 ${[1, 2, 3, 4, 5, 6].map((i) => `include:i${i}.spf.test`).join(' ')} -all`],
    },
    ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`i${i}.spf.test`, { TXT: ['v=spf1 a:ok.spf.test -all'] }])),
    'ok.spf.test': { A: ['192.0.2.40'], AAAA: ['2001:db8::40'] },
    // 4 records of 3,000 characters: each alert's row shows 12,000 characters of them.
    'big.test': { TXT: ['a', 'b', 'c', 'd'].map((c) => `${c}=${c.repeat(3000)}`) },
  });
  // 47-day certificate with 7.5 days left.
  tls = await startTlsServers({ 'c47.test': lifetimeCertificate('c47.test', 47, 39.5) });
  const by = (kind: 'domain' | 'subdomain', key: string) => ({
    target_type: kind,
    target_id: `\${data.networkcalc_${kind}.${key}.id}`,
  });
  app = new FixtureApp({
    main: stack({
      provider: {},
      alerts: {
        Mx: alert({
          name: 'mx check',
          subtype: 'MX',
          filter: 'equals',
          filter_value: 'mx2.example.net',
          ...by('domain', 'mail'),
        }),
        Spf: alert({
          name: 'spf limits',
          type: 'SPF Record',
          subtype: null,
          filter: 'validity',
          filter_value: null,
          ...by('domain', 'many'),
        }),
        Cert: alert({
          name: 'cert 21',
          type: 'Certificate (TLS)',
          subtype: null,
          filter: 'expires in (days)',
          filter_value: '21',
          ...by('domain', 'c47'),
        }),
        Stall: alert({
          name: 'cert stall',
          type: 'Certificate (TLS)',
          subtype: null,
          filter: 'expires in (days)',
          filter_value: '7',
          ...by('domain', 'stall'),
        }),
        Www: alert({ name: 'www A', filter: 'equals', filter_value: '192.0.2.21', ...by('subdomain', 'www') }),
        Old: alert({
          name: 'old MX',
          subtype: 'MX',
          filter: 'does not equal',
          filter_value: 'mx1.mail.test',
          ...by('domain', 'mail'),
        }),
      },
      data: {
        networkcalc_domain: {
          mail: { name: 'mail.test' },
          c47: { name: 'c47.test' },
          stall: { name: 'stall.test' },
          many: { name: 'too-many.test' },
        },
        networkcalc_subdomain: { www: { name: 'www.mail.test' } },
      },
    }),
  });
  bigApp = new FixtureApp({
    main: stack({
      provider: {},
      alerts: Object.fromEntries(
        Array.from({ length: BIG_ALERTS }, (_, i) => [
          `Big${i}`,
          alert({
            name: `big txt ${i}`,
            subtype: 'TXT',
            filter: 'contains',
            filter_value: `marker-${i}`,
            ...by('domain', 'big'),
          }),
        ]),
      ),
      data: { networkcalc_domain: { big: { name: 'big.test' } } },
    }),
  });
});
afterAll(async () => {
  app?.remove();
  bigApp?.remove();
  await Promise.all([dns?.close(), tls?.close()]);
});

const env = () =>
  cliEnv({ NETWORKCALC_TOKEN: TOKEN, NETWORKCALC_BASE_URL: emulator().url, [TLS_PORT_ENV]: String(tls.port) });
const run = (args: string[]) =>
  ncalc([...args, '--resolver', dns.address, '--lookup-timeout', '500'], { cwd: app.dir, env: env() });

/** The account's API requests since the last call, as `METHOD path`. */
async function requests(): Promise<string[]> {
  const log = (await emulator().control.requests()).filter((r) => r.account === 'pv');
  await emulator().control.clearRequests();
  return log.map((r) => `${r.method} ${r.path}`).sort();
}

const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);

test('GIVEN 6 alerts WHEN previewed THEN each fires now, is quiet or cannot be evaluated, with what was observed, and no API request is added', async () => {
  await requests();
  const plan = await ncalc(['plan'], { cwd: app.dir, env: env() });
  expect(plan.code).toBe(0);
  const planRequests = await requests();
  expect(planRequests).toEqual(['GET /api/alerts/', 'GET /api/domains/']);

  const r = await run(['preview']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(await requests()).toEqual(planRequests);
  const lines = r.stdout.split('\n').map((l) => l.trimEnd());
  const block = (name: string) => {
    const at = lines.findIndex(
      (l) => l.includes(`${JSON.stringify(name)}`) && /fires now|quiet|cannot evaluate/.test(l),
    );
    return lines.slice(at, at + 2).map((l) => l.trim());
  };
  expect(block('mx check')).toEqual([
    '○ quiet           "mx check" [create]  mail.test',
    'MX is mx1.mail.test, mx2.mail.test, not "mx2.example.net"',
  ]);
  expect(block('spf limits')).toEqual([
    '● fires now       "spf limits" [create]  too-many.test',
    'SPF is not valid: more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect): the 11th is "include:i6.spf.test" in the record of too-many.test (RFC 7208 4.6.4)',
  ]);
  expect(block('cert 21')[0]).toBe('● fires now       "cert 21" [create]  c47.test');
  expect(block('cert 21')[1]).toMatch(new RegExp(`^expires ${day(7.5)}, in 7 days; threshold 21 \\[does not verify: `));
  expect(r.stdout).toContain(
    '! threshold 21 fires before the renewal of this 47-day certificate at a third of its lifetime left (15.7 days): it fires every cycle; 15 or less fires only when renewal fails',
  );
  expect(block('cert stall')).toEqual([
    '? cannot evaluate "cert stall" [create]  stall.test',
    `stall.test (${STALLS}:${tls.port}) did not complete a TLS handshake within 500 ms`,
  ]);
  expect(block('www A')).toEqual([
    '● fires now       "www A" [create]  www.mail.test',
    'A is 192.0.2.20, 192.0.2.21; one equals "192.0.2.21" (via CNAME edge.cdn.test)',
  ]);
  expect(block('old MX')).toEqual([
    '○ quiet           "old MX"  mail.test',
    'MX is mx1.mail.test, mx2.mail.test; one equals "mx1.mail.test"',
  ]);
  expect(r.stdout).toContain(
    'Preview of 6 alerts: 3 fire now, 2 quiet, 1 cannot be evaluated. 1 certificate threshold fires before renewal.',
  );
  expect(r.stdout).toContain('3 new alerts would fire as soon as they are created.');
  // The plan is shown above, with the alert that is triggered already.
  expect(r.stdout).toContain('Plan: 5 to create, 0 to update, 0 to delete.');
  expect(r.stdout).toContain('▲ triggered now: "old MX" (id 40), last triggered 2026-11-20T08:00:00Z');
});

test('--fail-on-firing exits 2; --changes-only leaves out the unchanged alert; --json and markdown carry the same', async () => {
  const fail = await run(['preview', '--fail-on-firing', '--changes-only']);
  expect(fail.code).toBe(2);
  expect(fail.stdout).not.toContain('"old MX"  mail.test');
  expect(fail.stdout).toContain('Preview of 5 alerts: 3 fire now, 1 quiet, 1 cannot be evaluated.');

  const json = await run(['preview', '--json']);
  expect(json.code).toBe(0);
  const doc = JSON.parse(json.stdout);
  expect(doc).toMatchObject({
    format_version: '1.0',
    command: 'preview',
    resolver: dns.address,
    summary: { alerts: 6, fires: 3, quiet: 2, unknown: 1, new_firing: 3, renewal_warnings: 1 },
  });
  const byName = Object.fromEntries(doc.accounts[0].alerts.map((a: { name: string }) => [a.name, a]));
  expect(byName['www A']).toMatchObject({
    plan: 'create',
    host: 'www.mail.test',
    target_type: 'subdomain',
    target_id: 2,
    state: 'fires',
    observed: 'A is 192.0.2.20, 192.0.2.21; one equals "192.0.2.21" (via CNAME edge.cdn.test)',
    data: { records: ['192.0.2.20', '192.0.2.21'], cname_chain: ['edge.cdn.test'] },
  });
  expect(byName['cert 21']).toMatchObject({
    state: 'fires',
    suggested_days: 15,
    data: { subject: 'CN=c47.test', lifetime_days: 47 },
  });
  expect(byName['cert stall']).toMatchObject({
    state: 'unknown',
    observed: null,
    reason: expect.stringContaining('did not complete a TLS handshake'),
  });

  const md = await run(['preview', '--format', 'markdown']);
  expect(md.code).toBe(0);
  expect(md.stdout.split('\n').slice(0, 5)).toEqual([
    '<!-- ncalc-preview -->',
    '## NetworkCalc alert preview',
    '',
    '⚠️ **3 new alerts would fire as soon as they are created** (5 of 6 alerts evaluated, 1 cannot be).',
    '',
  ]);
  expect(md.stdout).toContain(
    '| 🔴 fires now | `www A` | create | `www.mail.test` | A is 192.0.2.20, 192.0.2.21; one equals "192.0.2.21" (via CNAME edge.cdn.test) |',
  );
});

test('plan --preview shows the plan and the preview; plan and drift list the triggered alerts (text, JSON, markdown)', async () => {
  const r = await run(['plan', '--preview', '--changes-only']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Plan: 5 to create, 0 to update, 0 to delete.');
  expect(r.stdout).toContain('Preview of 5 alerts: 3 fire now, 1 quiet, 1 cannot be evaluated.');
  const json = JSON.parse((await run(['plan', '--preview', '--json'])).stdout);
  expect(json.preview.summary).toMatchObject({ alerts: 6, new_firing: 3 });
  expect(json.accounts[0].triggered).toEqual([{ id: 40, name: 'old MX', last_triggered_at: '2026-11-20T08:00:00Z' }]);

  const drift = await ncalc(['drift'], { cwd: app.dir, env: env() });
  expect(drift.stdout).toContain('▲ triggered now: "old MX" (id 40), last triggered 2026-11-20T08:00:00Z');
  const driftMd = await ncalc(['drift', '--format', 'markdown'], { cwd: app.dir, env: env() });
  expect(driftMd.stdout).toContain('🔺 **Triggered now** (1): `old MX` (id 40, last triggered 2026-11-20T08:00:00Z)');
  const driftJson = JSON.parse((await ncalc(['drift', '--json'], { cwd: app.dir, env: env() })).stdout);
  expect(driftJson.accounts[0].triggered).toEqual([
    { id: 40, name: 'old MX', last_triggered_at: '2026-11-20T08:00:00Z' },
  ]);
});

test('bad lookup flags: one clear line each, before any API call', async () => {
  await requests();
  const r = await ncalc(['preview', '--resolver', 'dns.example:53', '--lookup-timeout', '0'], {
    cwd: app.dir,
    env: env(),
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'Error: --resolver "dns.example:53" is not an IP address with an optional port, such as 192.0.2.53, 192.0.2.53:5353 or [2001:db8::53]:53',
  );
  expect(r.stderr).toContain('Error: --lookup-timeout must be a whole number from 1 to 60000, got "0"');
  const plan = await ncalc(['plan', '--changes-only'], { cwd: app.dir, env: env() });
  expect(plan.code).toBe(1);
  expect(plan.stderr).toContain('--changes-only chooses what --preview evaluates; give --preview with it');
  expect(await requests()).toEqual([]);
});

test('GIVEN large TXT records WHEN previewed as markdown THEN the comment stays within 65,536 characters and says how many lines it left out', async () => {
  const full = await ncalc(['preview', '--resolver', dns.address, '--lookup-timeout', '500'], {
    cwd: bigApp.dir,
    env: env(),
  });
  expect(full.code).toBe(0);
  expect(full.stdout).toContain(`Preview of ${BIG_ALERTS} alerts: 0 fire now, ${BIG_ALERTS} quiet.`);
  const r = await ncalc(['preview', '--format', 'markdown', '--resolver', dns.address, '--lookup-timeout', '500'], {
    cwd: bigApp.dir,
    env: env(),
  });
  expect(r.code).toBe(0);
  expect(r.stdout.length).toBeLessThanOrEqual(65_536);
  const lines = r.stdout.split('\n');
  expect(lines.slice(0, 4)).toEqual([
    '<!-- ncalc-preview -->',
    '## NetworkCalc alert preview',
    '',
    `✅ **No alert would fire now** (all ${BIG_ALERTS} alerts evaluated).`,
  ]);
  const rows = lines.filter((l) => l.startsWith('| 🟢 quiet | `big txt '));
  // Each row holds the 4 records in full, so only some fit; the notice counts the lines cut.
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThan(BIG_ALERTS);
  expect(rows[0]).toContain(`"a=${'a'.repeat(3000)}", "b=`);
  const notice =
    /^_… (\d+) more lines? not shown: the report is over GitHub's 65,536-character limit\. The job's log has all of it \(`ncalc preview`\)\._$/;
  const cut = lines.map((l) => notice.exec(l)).find((m) => m);
  expect(cut).toBeTruthy();
  // The rows not shown, the blank line after the table: as many lines as the notice says.
  expect(Number(cut![1])).toBe(BIG_ALERTS - rows.length + 1);
});

test('GIVEN no DNS answers WHEN previewed as markdown THEN the headline says no alert could be evaluated, with no green mark', async () => {
  const silent = await startDnsServer({}, { silent: true });
  try {
    const r = await ncalc(
      ['preview', '--format', 'markdown', '--resolver', silent.address, '--lookup-timeout', '200'],
      {
        cwd: app.dir,
        env: env(),
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('✅');
    expect(r.stdout.split('\n')[3]).toBe('❔ **No alert could be evaluated** (6 alerts); the reasons are below.');
    expect(r.stdout).toContain('Preview of 6 alerts: 0 fire now, 0 quiet, 6 cannot be evaluated.');
    expect(r.stdout.match(/\| ❔ cannot evaluate \|/g)).toHaveLength(6);
  } finally {
    await silent.close();
  }
});
