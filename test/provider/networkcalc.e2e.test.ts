/**
 * networkcalc_alert, networkcalc_report_trigger and the data sources through the real
 * terraform binary against the emulator: one working directory walks the whole life cycle.
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from './nc-harness';

jest.setTimeout(240_000);

const flat = (text: string) => text.replace(/\s+/g, ' ');

const TOKEN = 'tok-e2e-9f3ac17d5b2e';
const SEED = {
  accounts: [
    {
      name: 'acme',
      user_id: 7,
      tokens: [{ access_token: TOKEN }],
      domains: [
        {
          id: 1,
          domain: 'example.com',
          subdomains: [
            { id: 2, prefix: 'www' },
            { id: 3, prefix: 'mail' },
          ],
        },
        { id: 4, domain: 'example.org' },
      ],
    },
  ],
};

interface Vars {
  aValue?: string;
  week?: string;
  extra?: string;
}

function config({ aValue = '1.2.3.4', week = '1', extra = '' }: Vars = {}): string {
  return `${REQUIRED_PROVIDERS}
provider "networkcalc" {
  max_retries     = 2
  timeout_seconds = 10
}

data "networkcalc_domain" "example" {
  name = "example.com"
}

data "networkcalc_subdomain" "www" {
  name = "WWW.example.com"
}

# Spelled unlike the service on purpose: canonically equal values never show as a diff.
resource "networkcalc_alert" "apex_a" {
  name         = "apex A"
  type         = "dns record"
  subtype      = "a"
  filter       = "Equals"
  filter_value = "${aValue}"
  target_type  = "domain"
  target_id    = data.networkcalc_domain.example.id
}

resource "networkcalc_alert" "www_cert" {
  name         = "www certificate"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = "021"
  target_type  = "subdomain"
  target_id    = data.networkcalc_subdomain.www.id
}

resource "networkcalc_alert" "spf" {
  name        = "apex SPF"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = "1"
}

resource "networkcalc_report_trigger" "weekly" {
  domain_id = data.networkcalc_domain.example.id
  triggers  = { week = "${week}" }
}

data "networkcalc_alerts" "dns" {
  type       = "DNS Record"
  depends_on = [networkcalc_alert.apex_a, networkcalc_alert.www_cert, networkcalc_alert.spf]
}

output "report_url" {
  value = networkcalc_report_trigger.weekly.report_url
}

output "dns_alerts" {
  value = [for a in data.networkcalc_alerts.dns.alerts : a.name]
}
${extra}`;
}

describe('networkcalc provider through terraform', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  const liveAlerts = async () =>
    (await emu.control.state()).accounts.find((a: { name: string }) => a.name === 'acme')!.alerts as unknown as Array<
      Record<string, unknown>
    >;
  const idOf = (address: string) => Number(sb.stateOf(address).id);

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ seed: SEED });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: TOKEN });
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('init installs the provider from the mirror written by ncalc provider install', async () => {
    sb.writeConfig(config());
    const r = await sb.terraform(['init']);
    expectStatus(r, 0);
    expect(r.output).toContain('Installed networkcalc/networkcalc v0.1.0');
  });

  test('a bad combination is a plan-time error at the attribute, with the model message', async () => {
    sb.writeConfig(
      config({
        extra: `
resource "networkcalc_alert" "bad" {
  name        = "bad"
  type        = "SPF Record"
  subtype     = "A"
  filter      = "validity"
  target_type = "domain"
  target_id   = data.networkcalc_domain.example.id
}

resource "networkcalc_report_trigger" "both" {
  domain_id    = 1
  subdomain_id = 2
}

data "networkcalc_alerts" "typo" {
  type = "DNS Records"
}

resource "networkcalc_report_trigger" "fraction" {
  domain_id = 1.5
}

resource "networkcalc_report_trigger" "huge" {
  subdomain_id = 9007199254740993
}
`,
      }),
    );
    const r = await sb.terraform(['plan']);
    expectStatus(r, 1);
    expect(r.output).toContain('Error: Invalid alert');
    // terraform wraps long lines: compare with white space collapsed.
    expect(flat(r.output)).toContain(
      'subtype "A" is not valid for type "SPF Record"; it takes no subtype (leave it empty)',
    );
    expect(r.output).toMatch(
      /with networkcalc_alert\.bad,\s+on main\.tf line \d+, in resource "networkcalc_alert" "bad":\s+\d+:\s+subtype\s+= "A"/,
    );
    expect(r.output).toContain('Error: Conflicting report target');
    expect(r.output).toMatch(/\d+:\s+subdomain_id = 2/);
    expect(flat(r.output)).toContain(
      'type "DNS Records" is not an alert type; allowed: DNS Record, SPF Record, Certificate (TLS).',
    );
    expect(r.output).toMatch(/\d+:\s+type = "DNS Records"/);
    expect(flat(r.output)).toContain('domain_id 1.5 is not valid; give the positive whole-number id of the domain.');
    // Not rounded (terraform would call that an invalid plan and blame the provider).
    expect(flat(r.output)).toContain('9007199254740993 is larger than 9007199254740991');
    expect(r.output).toMatch(/\d+:\s+subdomain_id = 9007199254740993/);
    expect(r.output).not.toContain('Provider produced invalid plan');
    expect(await liveAlerts()).toEqual([]);
  });

  test('missing credentials are a provider error naming the variables to set', async () => {
    sb.writeConfig(config());
    const r = await sb.terraform(['plan'], { env: { NETWORKCALC_TOKEN: '' } });
    expectStatus(r, 1);
    expect(r.output).toContain('Missing NetworkCalc credentials');
    expect(flat(r.output)).toContain(
      'Set the environment variable NETWORKCALC_TOKEN to an access token, or NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET',
    );
  });

  test('plan shows the creates; apply makes them, with ids learned by listing', async () => {
    const plan = await sb.terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 2);
    expect(plan.stdout).toContain('Plan: 4 to add, 0 to change, 0 to destroy.');
    expect(plan.stdout).toMatch(/\+ current_status\s+= \(known after apply\)/);
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain('Apply complete! Resources: 4 added, 0 changed, 0 destroyed.');
    expect(apply.stdout).toMatch(/report_url = "http:\/\/127\.0\.0\.1:\d+\/reports\/[0-9a-f-]+"/);
    expect(apply.stdout).toMatch(/dns_alerts = \[\s+"apex A",\s+\]/);
    const live = await liveAlerts();
    expect(live.map((a) => a.name).sort()).toEqual(['apex A', 'apex SPF', 'www certificate']);
    // The service got the canonical spelling; the state keeps the user's.
    const apex = live.find((a) => a.name === 'apex A')!;
    expect(apex).toMatchObject({ type: 'DNS Record', subtype: 'A', filter: 'equals' });
    expect(live.find((a) => a.name === 'www certificate')).toMatchObject({
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 2,
    });
    expect(sb.stateOf('networkcalc_alert.apex_a')).toMatchObject({
      id: String(apex.id),
      type: 'dns record',
      subtype: 'a',
      filter: 'Equals',
      user_id: 7,
      action: 'email',
      is_active: true,
    });
    expect(sb.stateOf('networkcalc_alert.www_cert')).toMatchObject({ filter_value: '021' });
  });

  test('nothing changed: plan and plan -refresh-only both exit 0', async () => {
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expectStatus(await sb.terraform(['plan', '-refresh-only', '-detailed-exitcode']), 0);
  });

  test('secrets stay out of the state and out of TF_LOG=trace output', async () => {
    const r = await sb.terraform(['plan', '-refresh-only'], { env: { TF_LOG: 'trace' } });
    expectStatus(r, 0);
    // The trace really holds the provider's request log, and no token.
    expect(r.stderr).toContain('[networkcalc] GET /api/alerts/ 200');
    expect(r.output).not.toContain(TOKEN);
    expect(sb.readState()).not.toContain(TOKEN);
  });

  test('server-side status changes show in a refresh-only plan, and plan nothing', async () => {
    await emu.control.patchAlert('acme', idOf('networkcalc_alert.apex_a'), {
      current_status: 'triggered',
      last_triggered_at: '2026-01-02T03:04:05Z',
    });
    const refresh = await sb.terraform(['plan', '-refresh-only', '-detailed-exitcode']);
    expectStatus(refresh, 2);
    expect(refresh.stdout).toMatch(/~ current_status\s+= "healthy" -> "triggered"/);
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  });

  test('a changed value updates in place: id kept, read-only values refreshed without inconsistency', async () => {
    const id = idOf('networkcalc_alert.apex_a');
    sb.writeConfig(config({ aValue: '5.6.7.8' }));
    const plan = await sb.terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 2);
    expect(plan.stdout).toContain('networkcalc_alert.apex_a will be updated in-place');
    expect(plan.stdout).toMatch(/~ filter_value\s+= "1\.2\.3\.4" -> "5\.6\.7\.8"/);
    expect(plan.stdout).toMatch(new RegExp(`id\\s+= "${id}"\\n`));
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    expect((await liveAlerts()).find((a) => a.id === id)).toMatchObject({ filter_value: '5.6.7.8' });
    // The refresh before the write recorded the server-owned values; the update kept them.
    expect(sb.stateOf('networkcalc_alert.apex_a')).toMatchObject({
      id: String(id),
      current_status: 'triggered',
      last_triggered_at: '2026-01-02T03:04:05Z',
    });
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  });

  test('an out-of-band edit is drift: plan -refresh-only exits 2, apply puts it back', async () => {
    const id = idOf('networkcalc_alert.apex_a');
    await emu.control.patchAlert('acme', id, { name: 'renamed in the web UI' });
    const r = await sb.terraform(['plan', '-refresh-only', '-detailed-exitcode']);
    expectStatus(r, 2);
    expect(r.stdout).toMatch(/~ name\s+= "apex A" -> "renamed in the web UI"/);
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain('0 added, 1 changed, 0 destroyed');
    expect((await liveAlerts()).find((a) => a.id === id)).toMatchObject({ name: 'apex A' });
  });

  test('an out-of-band delete leaves the state with a warning and plans a re-create', async () => {
    const id = idOf('networkcalc_alert.www_cert');
    await emu.control.deleteAlert('acme', id);
    const plan = await sb.terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 2);
    expect(plan.output).toContain('Warning: Alert deleted outside Terraform');
    expect(flat(plan.output)).toContain(`Alert ${id} ("www certificate") no longer exists in the account`);
    expect(plan.stdout).toContain('networkcalc_alert.www_cert will be created');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    expect(idOf('networkcalc_alert.www_cert')).not.toBe(id);
    expect((await liveAlerts()).map((a) => a.name).sort()).toEqual(['apex A', 'apex SPF', 'www certificate']);
  });

  test('terraform import by id adopts an alert; then no changes', async () => {
    const id = idOf('networkcalc_alert.spf');
    expectStatus(await sb.terraform(['state', 'rm', 'networkcalc_alert.spf']), 0);
    const r = await sb.terraform(['import', 'networkcalc_alert.spf', String(id)]);
    expectStatus(r, 0);
    expect(r.stdout).toContain('Import successful!');
    expect(sb.stateOf('networkcalc_alert.spf')).toMatchObject({
      id: String(id),
      name: 'apex SPF',
      type: 'SPF Record',
      filter: 'validity',
      filter_value: null,
      subtype: null,
      user_id: 7,
    });
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  });

  test('importing an id that does not exist is an error, not an empty state', async () => {
    const id = idOf('networkcalc_alert.spf');
    expectStatus(await sb.terraform(['state', 'rm', 'networkcalc_alert.spf']), 0);
    const r = await sb.terraform(['import', 'networkcalc_alert.spf', '99999']);
    expectStatus(r, 1);
    expect(flat(r.output)).toContain('no alert with id 99999 in this account');
    const bad = await sb.terraform(['import', 'networkcalc_alert.spf', 'apex SPF']);
    expectStatus(bad, 1);
    expect(flat(bad.output)).toContain('Import a networkcalc_alert by its numeric id');
    // An import block adopts it back during plan and apply.
    sb.writeConfig(
      config({ aValue: '5.6.7.8', extra: `\nimport {\n  to = networkcalc_alert.spf\n  id = "${id}"\n}\n` }),
    );
    const plan = await sb.terraform(['plan']);
    expectStatus(plan, 0);
    expect(plan.stdout).toContain('networkcalc_alert.spf will be imported');
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain('Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    sb.writeConfig(config({ aValue: '5.6.7.8' }));
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  });

  test('a changed triggers map replaces the report trigger and runs a new report', async () => {
    const before = sb.stateOf('networkcalc_report_trigger.weekly');
    await emu.control.clearRequests();
    sb.writeConfig(config({ aValue: '5.6.7.8', week: '2' }));
    const plan = await sb.terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 2);
    expect(plan.stdout).toContain('networkcalc_report_trigger.weekly must be replaced');
    expect(plan.stdout).toMatch(/~ "week" = "1" -> "2"/);
    expect(plan.stdout).toContain('# forces replacement');
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.stdout).toContain('Resources: 1 added, 0 changed, 1 destroyed.');
    const after = sb.stateOf('networkcalc_report_trigger.weekly');
    expect(after.report_url).not.toBe(before.report_url);
    const reports = (await emu.control.requests()).filter(
      (q) => q.method === 'POST' && q.path.startsWith('/api/reports/'),
    );
    expect(reports.map((q) => q.path)).toEqual(['/api/reports/domain-reports/1']);
  });

  test('a report that is not generated is an apply error with a clear message', async () => {
    sb.writeConfig(
      config({
        aValue: '5.6.7.8',
        week: '2',
        extra: '\nresource "networkcalc_report_trigger" "nowhere" {\n  domain_id = 999\n}\n',
      }),
    );
    const r = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(r, 1);
    expect(r.output).toContain('Error: Report not generated');
    expect(flat(r.output)).toContain('NetworkCalc did not generate the report for domain 999 (NOT_GENERATED)');
    expect(r.output).not.toContain('nowhere: Creation complete');
  });

  test('destroy deletes every alert it manages', async () => {
    sb.writeConfig(config({ aValue: '5.6.7.8', week: '2' }));
    const r = await sb.terraform(['destroy', '-auto-approve']);
    expectStatus(r, 0);
    expect(r.stdout).toContain('Destroy complete! Resources: 4 destroyed.');
    expect(await liveAlerts()).toEqual([]);
  });
});
