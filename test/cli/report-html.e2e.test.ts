/**
 * `ncalc report --html` end to end, in a real browser: the built ncalc against the emulator on
 * 127.0.0.1 (four accounts: one drifted with alerts firing, one in sync, one with coverage
 * gaps, one whose token is refused), a local DNS server and local TLS servers for the
 * preview's lookups, then the page opened from file:// in headless Chromium (Debian's
 * `chromium`, driven by playwright-core): no request leaves the file, the summary and the
 * table say what the data says, the table sorts, filters and opens an account from the
 * keyboard, the timeline's marks sit where the data puts them, text colours meet WCAG AA, and
 * the print stylesheet drops the controls.
 *
 * Screenshots go to a temporary directory; UPDATE_SCREENSHOTS=1 writes them to docs/images/.
 * Without Chromium (CHROMIUM=<path> or /usr/bin/chromium) the browser part fails under CI and
 * is skipped, saying so, elsewhere.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { TLS_PORT_ENV } from '../../src/preview';
import type { EmulatorSeed } from '../../src/emulator';
import { requireBuild } from '../helpers/build';
import { useEmulator } from '../helpers/emulator';
import { startDnsServer, type RunningDns } from '../helpers/dns-server';
import { SERVES, lifetimeCertificate, startTlsServers, type RunningTls } from '../helpers/tls-servers';
import { FixtureApp, ROOT, alert, cliEnv, ncalcProcess, stack } from './support';

// The browser's globals, for the callbacks run in the page (the project compiles without the DOM library).
declare const document: any, location: any, getComputedStyle: (el: any) => any;
type Element = any;
type HTMLElement = any;

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM && !process.env.CI)
  console.warn(
    `report-html: ${CHROMIUM} does not exist, so the browser tests are skipped (apt-get install chromium, or CHROMIUM=<path>); under CI they fail instead.`,
  );
const browserTest = HAVE_CHROMIUM || process.env.CI ? test : test.skip;

const TOKENS = { ALPHA_TOKEN: 'alpha-token-5e1c9', BETA_TOKEN: 'beta-token-77a02', GAMMA_TOKEN: 'gamma-token-0b3f4' };
const REFUSED = 'delta-token-refused-c4d';
/** A name made to break out of the data's script element and into HTML if it were not escaped. */
const HOSTILE = `</script><!-- <img src=x onerror="document.title='owned'"> & "q"`;

const SEED: EmulatorSeed = {
  accounts: [
    {
      name: 'alpha',
      user_id: 1,
      tokens: [{ access_token: TOKENS.ALPHA_TOKEN }],
      domains: [
        { id: 1, domain: 'c47.test' },
        { id: 2, domain: 'mail.test' },
      ],
      alerts: [
        {
          id: 10,
          name: 'old MX',
          type: 'DNS Record',
          subtype: 'MX',
          filter: 'does not equal',
          filter_value: 'mx1.mail.test',
          target: 'mail.test',
          current_status: 'triggered',
          last_triggered_at: '2026-11-20T08:00:00Z',
        },
        // Not declared: drift (apply deletes it).
        {
          id: 11,
          name: 'made by hand',
          type: 'DNS Record',
          subtype: 'A',
          filter: 'equals',
          filter_value: '192.0.2.9',
          target: 'mail.test',
        },
      ],
    },
    {
      name: 'beta',
      user_id: 2,
      tokens: [{ access_token: TOKENS.BETA_TOKEN }],
      domains: [{ id: 3, domain: 'c90.test' }],
      alerts: [
        {
          id: 20,
          name: 'c90 expiry',
          type: 'Certificate (TLS)',
          subtype: null,
          filter: 'expires in (days)',
          filter_value: '14',
          target: 'c90.test',
        },
      ],
    },
    {
      name: 'gamma',
      user_id: 3,
      tokens: [{ access_token: TOKENS.GAMMA_TOKEN }],
      domains: [{ id: 4, domain: 'gamma.test', subdomains: [{ id: 5, prefix: 'www' }] }],
    },
    { name: 'delta', user_id: 4, tokens: [{ access_token: 'delta-token-real' }] },
  ],
};

const emulator = useEmulator({ seed: SEED });
let dns: RunningDns;
let tls: RunningTls;
let app: FixtureApp;
let dir: string;

const byName = (kind: 'domain', key: string) => ({
  target_type: kind,
  target_id: `\${data.networkcalc_${kind}.${key}.id}`,
});
const certAlert = (name: string, days: string, key: string) =>
  alert({
    name,
    type: 'Certificate (TLS)',
    subtype: null,
    filter: 'expires in (days)',
    filter_value: days,
    ...byName('domain', key),
  });

beforeAll(async () => {
  requireBuild('dist/cli/main.js');
  dir = mkdtempSync(path.join(tmpdir(), 'ncalc-report-'));
  dns = await startDnsServer({
    'c47.test': { A: [SERVES] },
    'c90.test': { A: [SERVES] },
    'mail.test': {
      MX: [
        { exchange: 'mx1.mail.test', priority: 10 },
        { exchange: 'mx2.mail.test', priority: 20 },
      ],
    },
  });
  // c47: 47 days of life, 7.5 left (within 14; a threshold of 21 fires before the renewal at
  // 15.7 days left). c90: 90 days, 60 left; renewal in 30 days.
  tls = await startTlsServers({
    'c47.test': lifetimeCertificate('c47.test', 47, 39.5),
    'c90.test': lifetimeCertificate('c90.test', 90, 30),
  });
  const gamma = stack({ provider: { token_env: 'GAMMA_TOKEN' } });
  gamma['//'] = {
    metadata: { stackName: 'gamma' },
    networkcalc_alert_policies: {
      Baseline: {
        path: 'gamma/Baseline',
        mode: 'require',
        targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
        checks: [
          { label: 'certificate expiry', type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '10' },
        ],
      },
    },
  };
  app = new FixtureApp({
    alpha: stack({
      provider: { token_env: 'ALPHA_TOKEN' },
      alerts: {
        Cert: certAlert('c47 expiry', '21', 'c47'),
        Old: alert({
          name: 'old MX',
          subtype: 'MX',
          filter: 'does not equal',
          filter_value: 'mx1.mail.test',
          ...byName('domain', 'mail'),
        }),
        Hostile: alert({ name: HOSTILE, filter: 'equals', filter_value: '192.0.2.1', ...byName('domain', 'mail') }),
      },
      data: { networkcalc_domain: { c47: { name: 'c47.test' }, mail: { name: 'mail.test' } } },
    }),
    beta: stack({
      provider: { token_env: 'BETA_TOKEN' },
      alerts: { Cert: certAlert('c90 expiry', '14', 'c90') },
      data: { networkcalc_domain: { c90: { name: 'c90.test' } } },
    }),
    gamma,
    delta: stack({ provider: { token_env: 'DELTA_TOKEN' }, alerts: { A: alert({ name: 'delta A' }) } }),
  });
});

afterAll(async () => {
  app?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await Promise.all([dns?.close(), tls?.close()]);
});

const env = () =>
  cliEnv({ ...TOKENS, DELTA_TOKEN: REFUSED, NETWORKCALC_BASE_URL: emulator().url, [TLS_PORT_ENV]: String(tls.port) });

type Doc = {
  summary: Record<string, any>;
  accounts: Array<{
    label: string;
    status: string;
    summary: Record<string, number>;
    changes: unknown[];
    preview: any[] | null;
  }>;
  certificates: Array<{
    host: string;
    days_left: number;
    renewal_in_days: number;
    alerts: Array<{ threshold: number | null; name: string }>;
  }>;
};

/** One run: the page and, on stdout, the same document as JSON. */
async function report(file: string, extra: string[] = []): Promise<{ code: number; doc: Doc; stderr: string }> {
  const r = await ncalcProcess(
    ['report', '--html', file, '--json', '--resolver', dns.address, '--lookup-timeout', '5000', ...extra],
    { cwd: app.dir, env: env(), timeoutMs: 60_000 },
  );
  return { code: r.code, doc: JSON.parse(r.stdout) as Doc, stderr: r.stderr };
}

describe('the report file', () => {
  test('GIVEN four accounts WHEN reported THEN one file, the plan requests only, no secret in it, and exit 1 for the account that failed', async () => {
    await emulator().control.clearRequests();
    const file = path.join(dir, 'report.html');
    const { code, doc, stderr } = await report(file);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^Wrote .*report\.html \(\d+ KB\): 4 accounts, 1 in sync, 2 drifted, 1 failed; 2 alerts firing now; 2 coverage gaps\.\n$/,
    );
    // Per account that could be reached: one alerts list, one domains list, nothing written.
    const log = await emulator().control.requests();
    for (const account of ['alpha', 'beta', 'gamma'])
      expect([
        account,
        log
          .filter((r) => r.account === account)
          .map((r) => `${r.method} ${r.path}`)
          .sort(),
      ]).toEqual([account, ['GET /api/alerts/', 'GET /api/domains/']]);
    expect(log.filter((r) => r.method !== 'GET')).toEqual([]);

    expect(doc.summary).toMatchObject({ accounts: 4, in_sync: 1, drift: 2, failed: 1, firing: 2, coverage_gaps: 2 });
    expect(doc.summary.certificates).toEqual({ hosts: 2, expiring_14: 1, expiring_30: 1, not_evaluated: 0 });
    // The account that failed is not evaluated: null, never 0; the run's preview says it left it out.
    const delta = doc.accounts.find((a) => a.label === 'delta')!;
    expect(delta.summary).toMatchObject({
      create: null,
      firing: null,
      fires: null,
      coverage_gaps: null,
      soonest_expiry: null,
    });
    expect([delta.changes, delta.preview, (delta as any).coverage_gaps]).toEqual([null, null, null]);
    expect(doc.summary.preview).toMatchObject({ accounts_not_evaluated: 1 });
    const alpha = doc.accounts.find((a) => a.label === 'alpha')!;
    expect(alpha.summary).toMatchObject({
      firing: 2,
      firing_by_kind: { 'Certificate (TLS)': 1, 'DNS Record': 1 },
      soonest_expiry: { host: 'c47.test', days_left: expect.closeTo(7.5, 1) },
    });
    const html = readFileSync(file, 'utf8');
    for (const secret of [...Object.values(TOKENS), REFUSED])
      expect([secret, html.includes(secret)]).toEqual([secret, false]);
    // The hostile name is in the data, escaped: nothing in it ends the data's element.
    const element = (id: string) =>
      new RegExp(`<script type="application/json" id="${id}">([^]*?)</script>`).exec(html)![1]!;
    const [index, previews] = [element('ncalc-report-data'), element('ncalc-report-previews')];
    expect(index + previews).not.toMatch(/[<>]/);
    // Together they are the document of --json: the verdicts apart, read when an account is opened.
    const verdicts = JSON.parse(previews) as unknown[];
    const whole = JSON.parse(index) as Doc;
    whole.accounts.forEach((a, i) => (a.preview = verdicts[i] as any[]));
    expect(whole).toEqual(doc);
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(statSync(file).size).toBeLessThan(200_000);
  }, 90_000);

  test('GIVEN --no-preview THEN nothing is looked up: no verdict, no certificate', async () => {
    await emulator().control.clearRequests();
    const queries = dns.queries.length;
    const { doc } = await report(path.join(dir, 'plain.html'), ['--no-preview']);
    expect(dns.queries.length).toBe(queries);
    expect(doc.certificates).toBeNull();
    expect(doc.accounts.every((a) => a.preview === null)).toBe(true);
  }, 90_000);

  test('GIVEN bad flags, --shard and --help THEN a bad path or a missing output is refused before any call, a shard reports its accounts', async () => {
    await emulator().control.clearRequests();
    const bad = await ncalcProcess(['report', '--html', path.join(dir, 'no-such-dir', 'r.html')], {
      cwd: app.dir,
      env: env(),
      timeoutMs: 60_000,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--html');
    expect(bad.stderr).toContain('does not exist; create it first');
    expect(await emulator().control.requests()).toEqual([]);
    // --shard as everywhere: each shard reports its own accounts, named in its document, and the
    // two shards together report every account once.
    const shards = await Promise.all(
      ['1/2', '2/2'].map(async (shard) => {
        const r = await ncalcProcess(['report', '--json', '--no-preview', '--shard', shard], {
          cwd: app.dir,
          env: env(),
          timeoutMs: 60_000,
        });
        return JSON.parse(r.stdout) as Doc & { shard: Record<string, number> };
      }),
    );
    shards.forEach((doc, i) => {
      expect(doc.shard).toMatchObject({ index: i + 1, count: 2, total_accounts: 4 });
      expect(doc.accounts.length).toBe(doc.shard.accounts);
    });
    const labels = shards.flatMap((doc) => doc.accounts.map((a) => a.label));
    expect(labels.sort()).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    const help = await ncalcProcess(['report', '--help'], { cwd: app.dir, env: env() });
    for (const line of [
      '--html <file>',
      '--no-preview',
      '--no-synth',
      '--shard <i/n>',
      'Exit codes:\n  0  the report was written',
    ])
      expect(help.stdout).toContain(line);
    await emulator().control.clearRequests();
    const none = await ncalcProcess(['report'], { cwd: app.dir, env: env() });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('give one of them');
    expect(await emulator().control.requests()).toEqual([]);
  }, 90_000);
});

describe('the page in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let doc: Doc;
  let file: string;
  const requests: string[] = [];
  const shots = process.env.UPDATE_SCREENSHOTS ? path.join(ROOT, 'docs', 'images') : undefined;

  beforeAll(async () => {
    if (!HAVE_CHROMIUM) return;
    file = path.join(dir, 'browser.html');
    ({ doc } = await report(file));
    profile = mkdtempSync(path.join(tmpdir(), 'ncalc-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1200, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    context.on('request', (r) => requests.push(r.url()));
    // Anything but the file itself is refused (and recorded above).
    await context.route(
      (url) => url.protocol !== 'file:',
      (route) => route.abort(),
    );
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  browserTest('GIVEN the page THEN it is drawn from the data with no request but the file itself', async () => {
    if (!HAVE_CHROMIUM)
      throw new Error(`${CHROMIUM} does not exist: install Debian's chromium (apt-get install chromium)`);
    const band = await page.$$eval('[data-summary]', (els) =>
      Object.fromEntries(els.map((e) => [e.getAttribute('data-summary'), Number(e.querySelector('.n')!.textContent)])),
    );
    expect(band).toEqual({
      all: 4,
      attention: 3,
      in_sync: 1,
      drift: 2,
      failed: 1,
      firing: 2,
      expiring_14: 1,
      expiring_30: 1,
      coverage_gaps: 2,
    });
    expect(await page.title()).toBe('NetworkCalc alerts report');
    if (shots) await page.screenshot({ path: path.join(shots, 'report-summary.png') });
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(new Set(requests)).toEqual(new Set([pathToFileURL(file).href]));
  });

  const labels = () => page.$$eval('#accounts-body tr td:first-child a', (as) => as.map((a) => a.textContent));

  browserTest('GIVEN the table THEN its headers sort (aria-sort) and the filter and status narrow it', async () => {
    // Default: failed first, then drift, then in sync.
    expect(await labels()).toEqual(['delta', 'alpha', 'gamma', 'beta']);
    const firing = page.locator('th button[data-sort="firing"]');
    await firing.focus();
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('th:has(button[data-sort="firing"])', 'aria-sort')).toBe('descending');
    // The failed account has no figures: first in every order, never among the healthy.
    expect((await labels()).slice(0, 2)).toEqual(['delta', 'alpha']);
    await page.keyboard.press('Space');
    expect(await page.getAttribute('th:has(button[data-sort="firing"])', 'aria-sort')).toBe('ascending');
    expect((await labels())[0]).toBe('delta');
    expect((await labels()).at(-1)).toBe('alpha');
    await page.click('th button[data-sort="label"]');
    expect(await labels()).toEqual(['delta', 'alpha', 'beta', 'gamma']);
    expect(await page.getAttribute('th:has(button[data-sort="firing"])', 'aria-sort')).toBe('none');
    await page.click('#order-attention');
    expect(await labels()).toEqual(['delta', 'alpha', 'gamma', 'beta']);

    await page.fill('#filter', 'gam');
    expect(await labels()).toEqual(['gamma']);
    expect(await page.textContent('#accounts-count')).toBe('1 of 4 accounts match');
    await page.fill('#filter', '');
    await page.selectOption('#status-filter', 'failed');
    expect(await labels()).toEqual(['delta']);
    await page.selectOption('#status-filter', 'all');
    expect(await labels()).toHaveLength(4);
  });

  browserTest(
    'GIVEN an account link THEN the keyboard opens its details: changes, preview verdicts with what was observed, names as text',
    async () => {
      const alpha = doc.accounts.findIndex((a) => a.label === 'alpha');
      await page.focus(`#accounts-body a[href="#account-${alpha}"]`);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'account-title');
      const details = page.locator('#details');
      expect(await details.locator('h2').textContent()).toContain('alpha');
      expect(
        await details.locator('tr[data-change]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-change'))),
      ).toEqual(['create', 'create', 'delete']);
      const verdicts = await details
        .locator('tr[data-state]')
        .evaluateAll((rows) =>
          rows.map((r) => [r.children[1]!.textContent, r.getAttribute('data-state'), r.children[4]!.textContent]),
        );
      expect(verdicts).toHaveLength(3);
      const cert = verdicts.find((v) => v[0] === 'c47 expiry')!;
      expect(cert[1]).toBe('fires');
      expect(cert[2]).toMatch(
        /expires \d{4}-\d\d-\d\d, in 7 days; threshold 21.*fires before the renewal of this 47-day certificate/,
      );
      // The hostile name is shown as the text it is: no element made of it, the title untouched.
      expect(verdicts.map((v) => v[0])).toContain(HOSTILE);
      expect(await page.$$('#details img')).toHaveLength(0);
      expect(await page.title()).toBe('NetworkCalc alerts report');
      if (shots) await page.locator('#details').screenshot({ path: path.join(shots, 'report-account.png') });
      // Back to the table, from the keyboard too.
      await page.focus('#details a[href="#accounts"]');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => location.hash === '#accounts');
      expect(await details.isHidden()).toBe(true);
    },
  );

  browserTest(
    'GIVEN the timeline THEN each host, expiry, renewal and threshold mark is where the data puts it',
    async () => {
      const certs = await page.$$eval('#timeline g.cert', (gs) =>
        gs.map((g) => ({
          host: g.getAttribute('data-host'),
          daysLeft: Number(g.getAttribute('data-days-left')),
          life: Number(g.querySelector('rect.life')!.getAttribute('data-day')),
          renewal: [
            Number(g.querySelector('line.renewal')!.getAttribute('data-day')),
            Number(g.querySelector('line.renewal')!.getAttribute('x1')),
          ],
          thresholds: [...g.querySelectorAll('path.threshold')].map((m) => ({
            threshold: Number(m.getAttribute('data-threshold')),
            day: Number(m.getAttribute('data-day')),
            alert: m.getAttribute('data-alert'),
            fires: !m.classList.contains('quiet'),
            x: Number(/^M([\d.]+)/.exec(m.getAttribute('d')!)![1]),
          })),
        })),
      );
      expect(certs.map((c) => c.host)).toEqual(['c47.test', 'c90.test']);
      expect(certs.map((c) => c.host)).toEqual(doc.certificates.map((c) => c.host));
      const [c47, c90] = certs;
      expect(c47!.daysLeft).toBeCloseTo(7.5, 1);
      expect(c47!.renewal[0]).toBeCloseTo(7.5 - 47 / 3, 1);
      expect(c47!.thresholds).toEqual([
        { threshold: 21, day: expect.closeTo(7.5 - 21, 1), alert: 'c47 expiry', fires: true, x: expect.any(Number) },
      ]);
      expect(c90!.daysLeft).toBeCloseTo(60, 1);
      expect(c90!.renewal[0]).toBeCloseTo(30, 1);
      expect(c90!.thresholds).toEqual([
        { threshold: 14, day: expect.closeTo(46, 1), alert: 'c90 expiry', fires: false, x: expect.any(Number) },
      ]);
      // One scale for every mark: x grows with the day at one slope.
      const points = certs.flatMap((c) => [
        c.renewal as [number, number],
        ...c.thresholds.map((t) => [t.day, t.x] as [number, number]),
      ]);
      const slope = (points[1]![1] - points[0]![1]) / (points[1]![0] - points[0]![0]);
      expect(slope).toBeGreaterThan(0);
      for (const [day, x] of points) expect(x - points[0]![1]).toBeCloseTo((day - points[0]![0]) * slope, 0);
      for (const c of doc.certificates)
        for (const a of c.alerts)
          expect(a.threshold === null || certs.some((g) => g.thresholds.some((t) => t.alert === a.name))).toBe(true);
      if (shots) await page.locator('#timeline').screenshot({ path: path.join(shots, 'report-timeline.png') });
    },
  );

  browserTest(
    'GIVEN the summary cards THEN each one shows its accounts in the table, and pressed again all of them',
    async () => {
      const pick = async (key: string) => {
        await page.click(`#summary button[data-show="${key}"]`);
        return {
          labels: await labels(),
          pressed: await page.$$eval('#summary button[aria-pressed="true"]', (bs) =>
            bs.map((b) => b.getAttribute('data-show')),
          ),
          shown: await page.$eval('#status-filter', (el) => el.value),
        };
      };
      expect(await pick('failed')).toEqual({ labels: ['delta'], pressed: ['failed'], shown: 'failed' });
      expect((await pick('attention')).labels).toEqual(['delta', 'alpha', 'gamma']);
      expect((await pick('firing')).labels).toEqual(['alpha']);
      expect((await pick('expiring_14')).labels).toEqual(['alpha']);
      expect((await pick('coverage_gaps')).labels).toEqual(['gamma']);
      expect(await pick('coverage_gaps')).toEqual({
        labels: ['delta', 'alpha', 'gamma', 'beta'],
        pressed: ['all'],
        shown: 'all',
      });
      // Per account: firing by kind and the soonest expiry, written in the row.
      const alpha = page.locator('#accounts-body tr', { hasText: 'alpha' });
      expect(await alpha.locator('td').nth(4).locator('.kinds').textContent()).toBe(
        '1 Certificate (TLS) · 1 DNS Record',
      );
      expect(await alpha.locator('td').nth(5).textContent()).toMatch(/^7\.\d+ d leftc47\.test$/);
      // The failed account's row says so instead of zeros.
      const delta = page.locator('#accounts-body tr', { hasText: 'delta' });
      expect(await delta.locator('td.not-evaluated').textContent()).toMatch(/^Not evaluated/);
      expect(await delta.locator('td').count()).toBe(3);
      // A base URL does not wrap mid-address.
      expect(await page.$eval('#accounts-body .url', (el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
    },
  );

  browserTest(
    'GIVEN a failed account THEN its details say not evaluated, never 0 or None, and its name is isolated',
    async () => {
      const delta = doc.accounts.findIndex((a) => a.label === 'delta');
      await page.click(`#accounts-body a[href="#account-${delta}"]`);
      await page.waitForFunction(() => document.activeElement?.id === 'account-title');
      const headings = await page.$$eval('#details h3', (hs) => hs.map((x) => x.textContent));
      expect(headings).toEqual([
        'Planned changes and drift: not evaluated',
        'Preview: not evaluated',
        'Coverage gaps: not evaluated',
      ]);
      const text = await page.textContent('#details');
      expect(text).not.toMatch(/\(0\)|None|No alert to evaluate/);
      // The title's name is its own <bdi>, isolated; the status badge follows it, outside.
      const title = await page.$eval('#account-title', (h) => ({
        bdi: h.querySelector('bdi')?.textContent,
        isolate: getComputedStyle(h.querySelector('bdi')).unicodeBidi,
        badgeInside: !!h.querySelector('bdi .badge'),
      }));
      expect(title).toEqual({ bdi: 'delta', isolate: 'isolate', badgeInside: false });
      await page.click('#details a[href="#accounts"]');
      await page.waitForFunction(() => location.hash === '#accounts');
    },
  );

  browserTest(
    'GIVEN the timeline THEN each row names its accounts and days left, a legend names every mark, and it filters by account',
    async () => {
      const rows = () =>
        page.$$eval('#timeline g.cert', (gs) =>
          gs.map((g) => [
            g.getAttribute('data-host'),
            g.querySelector('text.owner')!.textContent,
            g.querySelector('text.days')!.textContent,
          ]),
        );
      expect(await rows()).toEqual([
        ['c47.test', 'alpha', expect.stringMatching(/^7\.\d+ d left$/)],
        ['c90.test', 'beta', expect.stringMatching(/^(59|60)(\.\d+)? d left$/)],
      ]);
      expect(await page.$$eval('.legend span', (ls) => ls.map((l) => l.className))).toEqual([
        'l-life',
        'l-soon',
        'l-renewal',
        'l-fires',
        'l-quiet',
        'l-today',
      ]);
      // Fires and quiet differ by shape (filled, hollow), not by a shade alone.
      const fills = await page.$$eval('#timeline path.threshold', (ms) => ms.map((m) => getComputedStyle(m).fill));
      expect(new Set(fills).size).toBe(2);
      expect(fills).toContain('rgb(255, 255, 255)');
      const beta = doc.accounts.findIndex((a) => a.label === 'beta');
      await page.selectOption('#timeline-account', String(beta));
      expect((await rows()).map((r) => r[0])).toEqual(['c90.test']);
      expect(await page.textContent('#timeline-count')).toBe('1 of 1 host shown');
      await page.selectOption('#timeline-account', 'all');
      expect(await rows()).toHaveLength(2);
    },
  );

  browserTest(
    'GIVEN the documents of two shards WHEN merged THEN one page of the fleet, drawn as the whole run is',
    async () => {
      const files = await Promise.all(
        ['1/2', '2/2'].map(async (shard) => {
          const r = await ncalcProcess(
            ['report', '--json', '--shard', shard, '--resolver', dns.address, '--lookup-timeout', '5000'],
            { cwd: app.dir, env: env(), timeoutMs: 60_000 },
          );
          const out = path.join(dir, `shard-${shard[0]}.json`);
          writeFileSync(out, r.stdout);
          return out;
        }),
      );
      const fleet = path.join(dir, 'fleet.html');
      const merged = await ncalcProcess(['report', '--merge', ...files, '--html', fleet], {
        cwd: dir,
        env: env(),
        timeoutMs: 60_000,
      });
      expect(merged.stderr).toBe('');
      expect(merged.stdout).toMatch(
        /^Wrote .*fleet\.html \(\d+ KB\): 4 accounts, 1 in sync, 2 drifted, 1 failed; 2 alerts firing now; 2 coverage gaps\.\n$/,
      );
      const other = await context.newPage();
      try {
        await other.goto(pathToFileURL(fleet).href);
        await other.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
        expect(await other.textContent('#joined')).toBe('One page for the fleet, joined from 2 shards of one run.');
        const band = await other.$$eval('[data-summary]', (els) =>
          Object.fromEntries(els.map((e) => [e.getAttribute('data-summary'), e.querySelector('.n')!.textContent])),
        );
        expect(band).toMatchObject({ all: '4', failed: '1', firing: '2', expiring_14: '1', coverage_gaps: '2' });
        expect(await other.$$eval('#accounts-body tr td:first-child a', (as) => as.map((a) => a.textContent))).toEqual([
          'delta',
          'alpha',
          'gamma',
          'beta',
        ]);
        expect(await other.$$eval('#timeline g.cert', (gs) => gs.map((g) => g.getAttribute('data-host')))).toEqual([
          'c47.test',
          'c90.test',
        ]);
      } finally {
        await other.close();
      }
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    },
    120_000,
  );

  browserTest(
    'GIVEN the page THEN text meets WCAG AA contrast, focus is visible, and print drops the controls',
    async () => {
      const low = await page.evaluate(() => {
        const lum = (c: string) => {
          const [r, g, b] = (c.match(/[\d.]+/g) ?? []).map(Number).map((v) => {
            const s = v / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        // The test's tsconfig has no DOM library, so Element is `any` here; the page's own script is typed.
        // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
        const background = (el: Element | null): string => {
          for (; el; el = el.parentElement) {
            const bg = getComputedStyle(el).backgroundColor;
            if (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
          }
          return 'rgb(255, 255, 255)';
        };
        const out: string[] = [];
        for (const el of document.querySelectorAll('body *')) {
          const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
          if (!own || (el as HTMLElement).offsetParent === null) continue;
          const [a, b] = [lum(getComputedStyle(el).color), lum(background(el))];
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          if (ratio < 4.5)
            out.push(`${el.tagName}.${el.className} ${ratio.toFixed(2)}: ${el.textContent!.slice(0, 40)}`);
        }
        return out;
      });
      expect(low).toEqual([]);
      // From the keyboard (the tests above clicked): the focus ring is for keyboard focus.
      await page.keyboard.press('Shift');
      await page.focus('th button[data-sort="status"]');
      expect(await page.$eval('th button[data-sort="status"]', (b) => getComputedStyle(b).outlineStyle)).toBe('solid');
      await page.emulateMedia({ media: 'print' });
      expect(await page.isHidden('.controls')).toBe(true);
      expect(await page.isHidden('.pager')).toBe(true);
      expect(await page.isVisible('#accounts-table')).toBe(true);
      await page.emulateMedia({ media: 'screen' });
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    },
  );
});
