/**
 * Alert policies end to end: the ncalc CLI (in-process) against the real emulator on
 * 127.0.0.1, an account with 3 domains and 4 subdomains, apps synthesized the way cdktf does
 * (and once by the example app itself). Domains are added and removed through the Domains API,
 * as the NetworkCalc console would.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import type { EmulatorSeed } from '../../src/emulator';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, ROOT, alert, cliEnv, ncalc, stack } from './support';

const TOKEN = 'cov-token-7d1e';
const SEED: EmulatorSeed = {
  accounts: [
    {
      name: 'cov',
      user_id: 20,
      tokens: [{ access_token: TOKEN }],
      domains: [
        {
          id: 1,
          domain: 'example.com',
          subdomains: [
            { id: 2, prefix: 'www' },
            { id: 3, prefix: 'api' },
          ],
        },
        { id: 4, domain: 'example.org', subdomains: [{ id: 5, prefix: 'www' }] },
        { id: 6, domain: 'example.net', subdomains: [{ id: 7, prefix: 'shop' }] },
      ],
    },
  ],
};

const emulator = useEmulator({ seed: SEED });
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

function app(stacks: Record<string, Record<string, unknown>>): FixtureApp {
  const a = new FixtureApp(stacks);
  apps.push(a);
  return a;
}

const env = (extra: Record<string, string> = {}) =>
  cliEnv({ NETWORKCALC_TOKEN: TOKEN, NETWORKCALC_BASE_URL: emulator().url, ...extra });
const client = () => new NetworkCalcClient({ baseUrl: emulator().url, token: TOKEN });

const CERT = {
  label: 'certificate expiry',
  type: 'Certificate (TLS)',
  filter: 'expires in (days)',
  filter_value: '21',
};
const SPF = { label: 'SPF validity', type: 'SPF Record', filter: 'validity' };

/** A stack as the AlertPolicy construct writes it: the policy in the `//` object. */
function policyStack(opts: {
  policies: Record<string, Record<string, unknown>>;
  alerts?: Record<string, Record<string, unknown>>;
  provider?: Record<string, unknown>;
}): Record<string, unknown> {
  const json = stack({ provider: opts.provider ?? {}, alerts: opts.alerts });
  json['//'] = { metadata: { stackName: 'main' }, networkcalc_alert_policies: opts.policies };
  return json;
}

const baseline = (targets: Record<string, unknown> = {}) => ({
  path: 'main/Baseline',
  mode: 'generate',
  targets: { domains: true, subdomains: true, include: ['*'], exclude: [], ...targets },
  checks: [CERT, SPF],
});

/** GET /api/alerts/ and GET /api/domains/ of the account since the last clear. */
async function lists(): Promise<{ alerts: number; domains: number; writes: number }> {
  const log = (await emulator().control.requests()).filter((r) => r.account === 'cov');
  const is = (method: string, re: RegExp) => log.filter((r) => r.method === method && re.test(r.path)).length;
  const writes = log.filter((r) => r.method !== 'GET').length;
  await emulator().control.clearRequests();
  return { alerts: is('GET', /^\/api\/alerts\/?$/), domains: is('GET', /^\/api\/domains\/?$/), writes };
}

async function liveNames(): Promise<string[]> {
  return (await client().listAlerts()).map((a) => a.name).sort();
}

const every = (hosts: string[], labels = ['SPF validity', 'certificate expiry']) =>
  hosts.flatMap((h) => labels.map((l) => `${l} · ${h}`)).sort();
const HOSTS = [
  'api.example.com',
  'example.com',
  'example.net',
  'example.org',
  'shop.example.net',
  'www.example.com',
  'www.example.org',
];

describe('generate: every domain and subdomain gets its alerts', () => {
  test('GIVEN 7 targets and 2 checks WHEN applied THEN 14 alerts named <label> · <host>, one alerts list and one domains list per plan', async () => {
    const a = app({ main: policyStack({ policies: { Baseline_1: baseline() } }) });
    await lists();

    let r = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('+ alert "certificate expiry · api.example.com" (main/Baseline)');
    expect(r.stdout).toContain('Plan: 14 to create, 0 to update, 0 to delete.');
    expect(r.stdout).toContain(
      'Coverage: no gaps; every target of the policies has its alerts (0 live, 14 made by apply).',
    );
    expect(await lists()).toEqual({ alerts: 1, domains: 1, writes: 0 });

    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete: 14 created, 0 updated, 0 deleted, 0 failed.');
    // The apply's plan lists once each; its after-check lists alerts once more.
    expect(await lists()).toEqual({ alerts: 2, domains: 1, writes: 14 });
    const live = await client().listAlerts();
    expect(live.map((x) => x.name).sort()).toEqual(every(HOSTS));
    const shop = live.find((x) => x.name === 'certificate expiry · shop.example.net')!;
    expect([shop.type, shop.filter, shop.filter_value, shop.target_type, shop.target_id]).toEqual([
      'Certificate (TLS)',
      'expires in (days)',
      '21',
      'subdomain',
      7,
    ]);
    await lists();

    r = await ncalc(['drift'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('In sync: 14 alerts match the code.');
    expect(await lists()).toEqual({ alerts: 1, domains: 1, writes: 0 });
  });

  test('a domain added out of band gets its alerts on the next apply; a removed one is not recreated; an excluded one loses them', async () => {
    const a = app({ main: policyStack({ policies: { Baseline_1: baseline() } }) });
    expect((await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() })).code).toBe(0);

    // Added in the console: a domain with a subdomain.
    const dev = await client().addDomain('example.dev');
    await client().addSubdomain(dev.id, 'docs');
    let r = await ncalc(['drift', '--json'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    // The targets are new in the account, so their alerts are new ones, not deleted out of band.
    expect(doc.accounts[0].changes.map((c: any) => [c.drift, c.name, c.path])).toEqual([
      ['new', 'SPF validity · docs.example.dev', 'main/Baseline'],
      ['new', 'SPF validity · example.dev', 'main/Baseline'],
      ['new', 'certificate expiry · docs.example.dev', 'main/Baseline'],
      ['new', 'certificate expiry · example.dev', 'main/Baseline'],
    ]);
    expect(doc.summary.coverage_gaps).toBe(0);
    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.stdout).toContain('Apply complete: 4 created, 0 updated, 0 deleted, 0 failed.');
    expect(await liveNames()).toEqual(every([...HOSTS, 'docs.example.dev', 'example.dev']));

    // Removed in the console: the service refuses to delete a domain that alerts target, so
    // its alerts go first, then the domain. The next plan does not bring them back.
    const api = client();
    for (const x of (await api.listAlerts()).filter((x) => x.name.endsWith('example.dev'))) await api.deleteAlert(x.id);
    await api.deleteDomain(dev.id);
    r = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes. 14 alerts in sync.');

    // Out of the selection: the generated alerts of example.net and its subdomain are deleted.
    a.write({ main: policyStack({ policies: { Baseline_1: baseline({ exclude: ['*example.net'] }) } }) });
    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.stdout).toContain('- alert "SPF validity · shop.example.net"');
    expect(r.stdout).toContain('Apply complete: 0 created, 0 updated, 4 deleted, 0 failed.');
    expect(await liveNames()).toEqual(every(HOSTS.filter((h) => !h.endsWith('example.net'))));
  });

  test('an explicit alert for the same target and check wins over the generated one', async () => {
    const explicit = {
      WwwCert: alert({
        name: 'www certificate',
        type: 'Certificate (TLS)',
        subtype: undefined,
        filter: 'expires in (days)',
        filter_value: '21',
        target_type: 'subdomain',
        target_id: 2,
      }),
    };
    // First without it: the generated alert exists.
    const a = app({ main: policyStack({ policies: { Baseline_1: baseline() } }) });
    expect((await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() })).code).toBe(0);
    a.write({ main: policyStack({ policies: { Baseline_1: baseline() }, alerts: explicit }) });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    // The generated alert has the explicit one's settings: it is renamed (id and history kept).
    expect(r.stdout).toMatch(
      /~ alert "www certificate" id \d+ \(main\/WwwCert\) {2}# renamed in the account to "certificate expiry · www\.example\.com"/,
    );
    expect(r.stdout).toContain('Apply complete: 0 created, 1 updated, 0 deleted, 0 failed.');
    const names = await liveNames();
    expect(names).toContain('www certificate');
    expect(names).not.toContain('certificate expiry · www.example.com');
    expect(names).toHaveLength(14);
    // An explicit alert of another value is another check: both stay.
    a.write({
      main: policyStack({
        policies: { Baseline_1: baseline() },
        alerts: { WwwCert: { ...explicit.WwwCert, filter_value: '30' } },
      }),
    });
    const again = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(again.stdout).toContain('+ alert "certificate expiry · www.example.com" (main/Baseline)');
    expect(again.stdout).toContain('~ alert "www certificate"');
  });

  test('in a prefix scope the labels carry the prefix and only the scope is touched', async () => {
    await client().createAlert({
      name: 'hand-made',
      type: 'SPF Record',
      subtype: null,
      filter: 'validity',
      filter_value: '',
      target_type: 'domain',
      target_id: 4,
    });
    const policy = { ...baseline({ subdomains: false }), checks: [{ ...SPF, label: 'team-SPF validity' }] };
    const a = app({
      main: policyStack({
        provider: { ownership: 'prefix', ownership_prefix: 'team-' },
        policies: { Baseline_1: policy },
      }),
    });
    const r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    // Only declared alerts win over generated ones: hand-made, live but outside the scope, is left alone.
    expect(await liveNames()).toEqual([
      'hand-made',
      'team-SPF validity · example.com',
      'team-SPF validity · example.net',
      'team-SPF validity · example.org',
    ]);

    a.write({
      main: policyStack({
        provider: { ownership: 'prefix', ownership_prefix: 'team-' },
        policies: { Baseline_1: baseline() },
      }),
    });
    const bad = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'stack main, policy main/Baseline: checks[0]: label "certificate expiry" does not start with the ownership prefix "team-" of provider networkcalc, so its alerts would be outside the scope; write label "team-certificate expiry"',
    );
  });
});

describe('require: gaps are reported, nothing is created', () => {
  const audit = {
    path: 'main/Audit',
    mode: 'require',
    targets: { domains: false, subdomains: true, include: ['*'], exclude: [] },
    checks: [CERT],
  };
  const wwwCert = {
    WwwCert: alert({
      name: 'www certificate',
      type: 'Certificate (TLS)',
      subtype: undefined,
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 2,
    }),
  };

  test('plan, drift and coverage report the subdomains without a certificate alert; covered ones by live or declared alerts', async () => {
    // Made by another tool; the scope is additive, so it stays.
    await client().createAlert({
      name: 'api cert',
      type: 'Certificate (TLS)',
      subtype: null,
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 3,
    });
    const a = app({
      main: policyStack({ provider: { ownership: 'additive' }, policies: { Audit_1: audit }, alerts: wwwCert }),
    });
    await lists();
    const summary = mkdtempSync(path.join(tmpdir(), 'ncalc-coverage-'));
    try {
      let r = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('+ alert "www certificate" (main/WwwCert)');
      expect(r.stdout).toContain(
        '✗ coverage gap: subdomain www.example.org has no "certificate expiry" alert  # policy main/Audit (require)',
      );
      expect(r.stdout).toContain('✗ coverage gap: subdomain shop.example.net has no "certificate expiry" alert');
      expect(r.stdout).not.toContain('coverage gap: subdomain www.example.com');
      expect(r.stdout).toContain('Coverage: 2 gaps, targets that no live or declared alert covers');
      expect(await lists()).toEqual({ alerts: 1, domains: 1, writes: 0 });

      // The table: api covered by the live alert, www by the declared one (after apply), two gaps.
      r = await ncalc(['coverage'], {
        cwd: a.dir,
        env: env({ GITHUB_STEP_SUMMARY: path.join(summary, 'summary.md') }),
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('  Policy main/Audit (require): subdomains; 4 targets × 1 check\n');
      expect(r.stdout).toContain(
        [
          '    target            certificate expiry',
          '    www.example.com   +',
          '    api.example.com   ✓',
          '    www.example.org   gap',
          '    shop.example.net  gap',
        ].join('\n'),
      );
      expect(r.stdout).toContain('Coverage: 1 covered, 1 made by apply, 2 gaps, of 4 checks');
      const markdown = readFileSync(path.join(summary, 'summary.md'), 'utf8');
      expect(markdown).toContain('## NetworkCalc alert coverage');
      expect(markdown).toContain('❌ **2 gaps**: targets that no live or declared alert covers.');
      expect(markdown).toContain('| `shop.example.net` | ❌ gap |');
      expect(await lists()).toEqual({ alerts: 1, domains: 1, writes: 0 });

      expect((await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() })).code).toBe(0);
      expect(await liveNames()).toEqual(['api cert', 'www certificate']);
      await lists();

      r = await ncalc(['drift'], { cwd: a.dir, env: env() });
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('✗ coverage gap: subdomain www.example.org has no "certificate expiry" alert');
      expect(r.stdout).toContain(
        'Drift: no alert differs from the code, but the alert policies have coverage gaps.\nCoverage: 2 gaps',
      );
      await lists();

      r = await ncalc(['drift', '--format', 'json'], { cwd: a.dir, env: env() });
      expect(r.code).toBe(2);
      let doc = JSON.parse(r.stdout);
      expect(doc.in_sync).toBe(false);
      expect(doc.summary).toMatchObject({ create: 0, update: 0, delete: 0, coverage_gaps: 2 });
      expect(doc.accounts[0].coverage_gaps).toEqual([
        {
          policy: 'main/Audit',
          mode: 'require',
          target_type: 'subdomain',
          target_id: 5,
          target: 'www.example.org',
          check: 'certificate expiry',
        },
        {
          policy: 'main/Audit',
          mode: 'require',
          target_type: 'subdomain',
          target_id: 7,
          target: 'shop.example.net',
          check: 'certificate expiry',
        },
      ]);

      // A subdomain added in the console is one more gap.
      await client().addSubdomain(1, 'status');
      r = await ncalc(['coverage', '--json'], { cwd: a.dir, env: env() });
      expect(r.code).toBe(2);
      doc = JSON.parse(r.stdout);
      expect(doc.covered).toBe(false);
      expect(doc.summary).toEqual({ checks: 5, covered: 2, pending: 0, gaps: 3, failed_accounts: 0 });
      expect(
        doc.accounts[0].policies[0].rows.map((row: any) => [row.target, row.cells[0].status, row.cells[0].alert]),
      ).toEqual([
        ['www.example.com', 'covered', 'www certificate'],
        ['api.example.com', 'covered', 'api cert'],
        ['status.example.com', 'gap', null],
        ['www.example.org', 'gap', null],
        ['shop.example.net', 'gap', null],
      ]);
      // drift, the subdomain added (one write), coverage; apply's lists were counted before it.
      expect(await lists()).toEqual({ alerts: 2, domains: 2, writes: 1 });
    } finally {
      rmSync(summary, { recursive: true, force: true });
    }
  });

  test('covered everywhere: coverage and drift exit 0', async () => {
    const alerts = Object.fromEntries(
      [2, 3, 5, 7].map((id) => [
        `Cert${id}`,
        alert({
          name: `cert ${id}`,
          type: 'Certificate (TLS)',
          subtype: undefined,
          filter: 'expires in (days)',
          filter_value: '21',
          target_type: 'subdomain',
          target_id: id,
        }),
      ]),
    );
    const a = app({ main: policyStack({ policies: { Audit_1: audit }, alerts }) });
    let r = await ncalc(['coverage'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(2); // pending: apply has yet to create them
    expect(r.stdout).toContain('Coverage: 0 covered, 4 made by apply, 0 gaps, of 4 checks');
    expect((await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() })).code).toBe(0);
    r = await ncalc(['coverage', '--format', 'markdown'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✅ **Covered**: every selected target has its alerts (4 checks).');
    expect((await ncalc(['drift'], { cwd: a.dir, env: env() })).code).toBe(0);
  });
});

describe('bad policies are refused before any call', () => {
  test('every problem at once, with the JSON path; no request', async () => {
    const broken = {
      Bad_1: {
        path: 'main/Bad',
        mode: 'sometimes',
        targets: { domains: 'yes', include: ['http://x'] },
        checks: [{ label: 'x', type: 'DNS Record', subtype: 'SRV', filter: 'equals', filter_value: 'v', extra: 1 }],
      },
      Worse_1: 'a string',
    };
    const a = app({ main: policyStack({ policies: broken as never }) });
    await lists();
    const r = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('  - '))).toEqual([
      '  - stack main, policy main/Bad: mode "sometimes" is not valid; use one of generate, require',
      '  - stack main, policy main/Bad: targets.domains is a string; expected true or false',
      '  - stack main, policy main/Bad: targets.include[0] "http://x" is not a valid pattern; use letters, digits, hyphens, dots and *, e.g. "*.example.com" or "example.*"',
      '  - stack main, policy main/Bad: checks[0]: unknown attribute "extra"; allowed: filter, filter_value, label, subtype, threshold, type',
      '  - stack main, policy main/Bad: checks[0]: subtype "SRV" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT',
      '  - stack main: //.networkcalc_alert_policies.Worse_1 is a string; expected an object (a policy)',
    ]);
    expect(await lists()).toEqual({ alerts: 0, domains: 0, writes: 0 });
  });

  test('coverage without a policy says what to add, also in the job summary', async () => {
    const a = app({ main: stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } }) });
    const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-coverage-'));
    try {
      const r = await ncalc(['coverage'], {
        cwd: a.dir,
        env: env({ GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md') }),
      });
      expect(r.code).toBe(1);
      const problem =
        'the app declares no alert policy, so there is no coverage to report; add an AlertPolicy (docs/constructs.md), or check the alerts with ncalc drift';
      expect(r.stderr).toBe(
        `Error: nothing to report: the app declares no alert policy; nothing was called.\n  - ${problem}\n`,
      );
      expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe(
        `## NetworkCalc alert coverage\n\n❌ **Not checked**: the configuration is not valid.\n\n- ${problem}\n\n\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('examples/alert-policy, synthesized by the app itself', () => {
  test('14 generated alerts and an MX alert; example.org and example.net reported as gaps of the require policy', async () => {
    const dir = path.join(ROOT, 'examples', 'alert-policy');
    const out = mkdtempSync(path.join(tmpdir(), 'ncalc-coverage-example-'));
    try {
      const appEnv = env({ HOME: process.env.HOME ?? '', CHECKPOINT_DISABLE: '1' });
      const r = await ncalc(['apply', '--auto-approve', '--out', out], { cwd: dir, env: appEnv });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Apply complete: 15 created, 0 updated, 0 deleted, 0 failed.');
      expect(r.stdout).toContain(
        '✗ coverage gap: domain example.org has no "MX" alert  # policy coverage/MailRequired (require)',
      );
      const cov = await ncalc(['coverage', '--no-synth', '--out', out], { cwd: dir, env: appEnv });
      expect(cov.code).toBe(2);
      expect(cov.stdout).toContain(
        'Policy coverage/Baseline (generate): domains and subdomains, except legacy.*; 7 targets × 2 checks',
      );
      expect(cov.stdout).toContain('Policy coverage/MailRequired (require): domains; 3 targets × 1 check');
      expect(cov.stdout).toMatch(/ {4}example\.com {2}✓\n {4}example\.org {2}gap\n {4}example\.net {2}gap\n/);
      expect(cov.stdout).toContain('Coverage: 15 covered, 0 made by apply, 2 gaps, of 17 checks');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('declared targets', () => {
  test('a policy over a domain and subdomain the app declares: coverage counts their alerts as made by apply, then covered', async () => {
    const json = policyStack({
      provider: { ownership: 'additive' },
      policies: { Baseline_1: baseline({ include: ['new.example', '*.new.example'] }) },
    });
    (json.resource as Record<string, unknown>) = {
      ...(json.resource as Record<string, unknown>),
      networkcalc_domain: { fresh: { name: 'new.example' } },
      networkcalc_subdomain: { www: { domain_id: '${networkcalc_domain.fresh.id}', prefix: 'www' } },
    };
    const a = app({ main: json });
    await lists();

    let r = await ncalc(['coverage'], { cwd: a.dir, env: env() });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('new.example');
    expect(r.stdout).toContain('www.new.example');
    expect(r.stdout).toContain('Coverage: 0 covered, 4 made by apply, 0 gaps, of 4 checks');
    // Planned like drift: one list of each, no write (the targets are not made by coverage).
    expect(await lists()).toEqual({ alerts: 1, domains: 1, writes: 0 });

    r = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect((await liveNames()).filter((n) => n.includes('new.example'))).toEqual(
      every(['new.example', 'www.new.example']),
    );
    await lists();

    r = await ncalc(['coverage'], { cwd: a.dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Coverage: 4 covered, 0 made by apply, 0 gaps, of 4 checks');
  });
});
