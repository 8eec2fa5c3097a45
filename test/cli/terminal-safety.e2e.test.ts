/**
 * Names and records from the service never reach a terminal raw. A stand-in API (a small HTTP
 * server in front of the real emulator that renames a domain to one holding control
 * characters) serves alert names, filter values and a domain name with C0 (NUL, BEL, ESC),
 * DEL, C1 and bidi controls; a local DNS server serves a TXT record holding them too. The
 * built `ncalc` (a real process) prints plan, drift, coverage, preview and apply as text (with
 * and without colour) and markdown: no raw control character, only the escapes; the JSON of
 * the same runs holds the exact values.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { EmulatorSeed } from '../../src/emulator';
import { requireBuild } from '../helpers/build';
import { startDnsServer, type RunningDns } from '../helpers/dns-server';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalcProcess, stack } from './support';

// Each case is one or two runs of the built ncalc; generous for a loaded machine.
jest.setTimeout(240_000);

const TOKEN = 'hostile-token';
/** What the stand-in API calls example.org: a title change, a clear screen, C1 CSI, an override. */
const HOSTILE_DOMAIN = 'exa\u001b]0;pwned\u0007mple\u001b[2J\u009b8m\u202eorg';
const NAMES = [
  'bell\u0007',
  'title\u001b]0;pwned\u0007',
  'clear\u001b[2J\u001b[H',
  'c1\u009b31m\u0085',
  'del\u007f',
  'rlo\u202etxt.exe\u2066',
  'nul\u0000byte',
  'forged\nline',
];
const HOSTILE_VALUE = '192.0.2.1\u001b[8m\u0000';
// ASCII controls only: how TXT bytes beyond ASCII are decoded is another matter.
const HOSTILE_TXT = 'owner=\u001b]52;c;cGF5bG9hZA==\u0007\u007f\u001b[2J';

const SEED: EmulatorSeed = {
  accounts: [
    {
      name: 'hostile',
      user_id: 7,
      tokens: [{ access_token: TOKEN }],
      domains: [
        { id: 1, domain: 'example.com' },
        { id: 4, domain: 'example.org', subdomains: [{ id: 5, prefix: 'www' }] },
      ],
      alerts: [
        ...NAMES.map((name) => ({
          name,
          type: 'DNS Record',
          subtype: 'A',
          filter: 'equals',
          filter_value: HOSTILE_VALUE,
          target_type: 'domain' as const,
          target_id: 4,
        })),
        // Declared below with a clean value: the update shows the live one.
        {
          name: 'kept',
          type: 'DNS Record',
          subtype: 'A',
          filter: 'equals',
          filter_value: HOSTILE_VALUE,
          target_type: 'domain' as const,
          target_id: 4,
        },
      ],
    },
  ],
};

const emulator = useEmulator({ seed: SEED });

/** Forwards every request to the emulator; the domains it lists name example.org `HOSTILE_DOMAIN`. */
function rename(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/example\.org$/, HOSTILE_DOMAIN);
  if (Array.isArray(v)) return v.map(rename);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)]));
  return v;
}

async function startStandIn(upstream: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers.host;
      delete headers['content-length'];
      request(`${upstream}${req.url}`, {
        method: req.method as 'GET',
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(
        async (answer) => {
          let body = await answer.body.text();
          if (req.url!.startsWith('/api/domains')) body = JSON.stringify(rename(JSON.parse(body)));
          res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let standIn: { url: string; server: Server };
let dns: RunningDns;
let app: FixtureApp;
beforeAll(async () => {
  requireBuild('dist/cli/main.js');
  standIn = await startStandIn(emulator().url);
  dns = await startDnsServer({
    'example.com': { A: ['192.0.2.1'], TXT: [HOSTILE_TXT] },
    [HOSTILE_DOMAIN.toLowerCase()]: { A: ['192.0.2.1'] },
  });
  const json = stack({
    provider: {},
    alerts: {
      Kept: alert({ name: 'kept', target_id: 4 }),
      Txt: alert({ name: 'owner record', subtype: 'TXT', filter: 'contains', filter_value: 'owner=' }),
    },
  });
  // A policy that requires a certificate alert on every domain: a gap on the renamed one.
  json['//'] = {
    metadata: { stackName: 'main' },
    networkcalc_alert_policies: {
      Audit: {
        path: 'main/Audit',
        mode: 'require',
        targets: { domains: true, subdomains: false, include: ['*'], exclude: [] },
        checks: [
          { label: 'certificate expiry', type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' },
        ],
      },
    },
  };
  app = new FixtureApp({ main: json });
});
afterAll(async () => {
  app?.remove();
  await dns?.close();
  if (standIn) {
    standIn.server.closeAllConnections();
    await new Promise((resolve) => standIn.server.close(resolve));
  }
});

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ NETWORKCALC_TOKEN: TOKEN, NETWORKCALC_BASE_URL: standIn.url, ...extra });

/** Any raw C0 (but the line break), DEL, C1, bidi control or line separator. */
const RAW = /(?!\n)[\p{Cc}\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
/** ncalc's own colours, the only escape sequences a coloured run may hold. */
// eslint-disable-next-line no-control-regex -- ncalc's own colour sequences
const OWN_COLOURS = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

async function run(args: string[], extra: Record<string, string> = {}) {
  const r = await ncalcProcess(args, { cwd: app.dir, env: env(extra), timeoutMs: 30_000 });
  return { ...r, text: r.stdout + r.stderr };
}

/** The escaped forms the output shows instead of the raw characters. */
const ESCAPED = ['bell\\u0007', 'title\\u001b]0;pwned\\u0007', 'c1\\u009b31m\\u0085', 'rlo\\u202etxt.exe\\u2066'];

describe('text and markdown never hold a raw control character', () => {
  test.each([
    ['plan', ['plan'], {}],
    ['plan, coloured', ['plan'], { NO_COLOR: '', FORCE_COLOR: '1' }],
    ['drift', ['drift'], {}],
    ['drift --format markdown', ['drift', '--format', 'markdown'], {}],
    ['coverage', ['coverage'], {}],
    ['coverage --format markdown', ['coverage', '--format', 'markdown'], {}],
  ] as Array<[string, string[], Record<string, string>]>)('%s', async (_label, args, extra) => {
    const r = await run(args, extra);
    expect(r.text.replace(OWN_COLOURS, '')).not.toMatch(RAW);
    // The names are there, escaped; the renamed domain too (in the coverage gaps).
    const shown = r.text.replace(OWN_COLOURS, '');
    if (args[0] !== 'coverage') for (const e of ESCAPED) expect(shown).toContain(e);
    // (ncalc reads host names in lower case.)
    expect(shown).toContain('exa\\u001b]0;pwned\\u0007mple\\u001b[2j\\u009b8m\\u202eorg');
    if (extra.FORCE_COLOR) expect(r.text).toMatch(OWN_COLOURS);
  });

  test('preview (text and markdown): the TXT record is shown escaped', async () => {
    for (const format of ['text', 'markdown']) {
      const r = await run(['preview', '--format', format, '--resolver', dns.address]);
      expect(r.text).not.toMatch(RAW);
      expect(r.text).toContain('owner=\\u001b]52;c;cGF5bG9hZA==\\u0007\\u007f\\u001b[2J');
    }
  });

  test('JSON keeps the exact names, values and records', async () => {
    const plan = JSON.parse((await run(['plan', '--json'])).stdout) as Record<string, unknown>;
    const text = JSON.stringify(plan);
    for (const name of NAMES) expect(text).toContain(JSON.stringify(name).slice(1, -1));
    expect(text).toContain(JSON.stringify(HOSTILE_VALUE).slice(1, -1));
    const preview = await run(['preview', '--json', '--resolver', dns.address]);
    expect(preview.stdout).not.toMatch(RAW);
    expect(JSON.stringify(JSON.parse(preview.stdout))).toContain(JSON.stringify(HOSTILE_TXT).slice(1, -1));
  });

  test('apply (deleting the hostile names, updating the other): the report is escaped too', async () => {
    const r = await run(['apply', '--auto-approve']);
    expect(r.text).not.toMatch(RAW);
    for (const e of ESCAPED) expect(r.text).toContain(e);
    const live = (await emulator().control.state()).accounts[0].alerts.map((a) => a.name).sort();
    expect(live).toEqual(['kept', 'owner record']);
  });
});
