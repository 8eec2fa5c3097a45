/**
 * networkcalc_domain and networkcalc_subdomain through real terraform and plain HCL: an empty
 * account provisioned in one apply (domain, subdomains, alerts, a report trigger) with latency,
 * creates answered without ids (the emulator's targetCreateOmitsId)
 * and a domain create whose answer is lost after the write; the second plan is empty and
 * nothing is duplicated; a name the account has is refused at plan with the id to import;
 * import by name; destroy removes everything it made.
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';

jest.setTimeout(240_000);

const TOKEN = 'empty-token';
const EMPTY = { accounts: [{ name: 'fresh', user_id: 7, tokens: [{ access_token: TOKEN }] }] };

const PROVIDER = `terraform {
  required_providers {
    networkcalc = { source = "networkcalc/networkcalc" }
  }
}
provider "networkcalc" {}
`;

const FROM_ZERO = `${PROVIDER}
resource "networkcalc_domain" "shop" {
  name = "Shop.Example"
}
resource "networkcalc_subdomain" "www" {
  domain_id = networkcalc_domain.shop.id
  prefix    = "www"
}
resource "networkcalc_subdomain" "demo" {
  domain_id = networkcalc_domain.shop.id
  prefix    = "my.demo"
}
resource "networkcalc_alert" "apex_tls" {
  name         = "shop tls"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = "14"
  target_type  = "domain"
  target_id    = networkcalc_domain.shop.id
}
resource "networkcalc_alert" "www_a" {
  name        = "www A"
  type        = "DNS Record"
  subtype     = "A"
  filter      = "equals"
  filter_value = "192.0.2.1"
  target_type = "subdomain"
  target_id   = networkcalc_subdomain.www.id
}
resource "networkcalc_report_trigger" "shop" {
  domain_id = networkcalc_domain.shop.id
}
`;

describe('declared targets through terraform', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;

  const account = async () => (await emu.control.state()).accounts.find((a) => a.name === 'fresh')!;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ seed: EMPTY, deleteForm: 'body' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: TOKEN });
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('GIVEN an empty account WHEN one apply with latency, creates answered without ids and a lost domain-create answer THEN everything once, second plan empty, destroy removes it all', async () => {
    // Creates of domains and subdomains answer without the id; the first domain create loses its answer.
    await emu.control.updateSettings({ targetCreateOmitsId: true });
    await emu.control.addFault({ kind: 'latency', latencyMs: 150, rate: 1 });
    await emu.control.addFault({
      kind: 'drop',
      phase: 'after',
      count: 1,
      match: { method: 'POST', path: '/api/domains' },
    });
    sb.writeConfig(FROM_ZERO);
    expectStatus(await sb.terraform(['init']), 0);
    const apply = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(apply, 0);
    expect(apply.output).toContain('Domain found by a list after an unclear create');
    expect(apply.output).toContain('Subdomain found by a list after an unclear create');
    expect(apply.output).toContain('6 added, 0 changed, 0 destroyed');

    const acct = await account();
    expect(acct.domains.map((d) => d.domain)).toEqual(['shop.example']);
    expect(acct.subdomains.map((s) => s.prefix).sort()).toEqual(['my.demo', 'www']);
    expect(acct.alerts.map((a) => a.name).sort()).toEqual(['shop tls', 'www A']);
    const domainId = acct.domains[0]!.id;
    expect(sb.stateOf('networkcalc_domain.shop').id).toBe(String(domainId));
    expect(sb.stateOf('networkcalc_subdomain.demo').name).toBe('my.demo.shop.example');
    const tls = acct.alerts.find((a) => a.name === 'shop tls')!;
    expect([tls.target_type, tls.target_id]).toEqual(['domain', domainId]);

    await emu.control.clearFaults();
    await emu.control.updateSettings({ targetCreateOmitsId: false });
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);

    const destroy = await sb.terraform(['destroy', '-auto-approve']);
    expectStatus(destroy, 0);
    const after = await account();
    expect([after.domains.length, after.subdomains.length, after.alerts.length]).toEqual([0, 0, 0]);
    // Subdomains before their domain: every subdomain DELETE precedes the domain's.
    const deletes = (await emu.control.requests()).filter((q) => q.method === 'DELETE').map((q) => q.path);
    const domainDelete = deletes.indexOf(`/api/domains/${domainId}`);
    expect(domainDelete).toBe(deletes.length - 1);
    expect(deletes.filter((p) => p.includes('/subdomains/'))).toHaveLength(2);
  });

  test('GIVEN a domain the account has WHEN declared THEN the plan refuses it with the id to import; import by name takes it; bad names fail at plan', async () => {
    await emu.control.seed({
      accounts: [
        {
          name: 'fresh',
          user_id: 7,
          tokens: [{ access_token: TOKEN }],
          domains: [{ id: 500, domain: 'kept.example', subdomains: [{ id: 501, prefix: 'api' }] }],
        },
      ],
    });
    sb.writeConfig(`${PROVIDER}
resource "networkcalc_domain" "kept" {
  name = "kept.example"
}
resource "networkcalc_subdomain" "api" {
  domain_id = networkcalc_domain.kept.id
  prefix    = "API"
}
`);
    const plan = await sb.terraform(['plan']);
    expectStatus(plan, 1);
    expect(plan.output).toContain('The account already has domain "kept.example" (id 500)');
    expect(plan.output.replace(/\s+/g, ' ')).toContain("terraform import <this resource's address> 500");

    expectStatus(await sb.terraform(['import', 'networkcalc_domain.kept', 'Kept.Example']), 0);
    expect(sb.stateOf('networkcalc_domain.kept').id).toBe('500');
    expectStatus(await sb.terraform(['import', 'networkcalc_subdomain.api', '501']), 0);
    // Other spellings of the imported names plan no replacement.
    const after = await sb.terraform(['plan', '-detailed-exitcode']);
    expect(after.output).not.toContain('must be replaced');
    expect((await account()).domains).toHaveLength(1);

    sb.writeConfig(`${PROVIDER}
resource "networkcalc_domain" "bad" {
  name = "https://bad.example/path"
}
`);
    await emu.control.clearRequests();
    const bad = await sb.terraform(['plan']);
    expectStatus(bad, 1);
    expect(bad.output).toContain('domain name "https://bad.example/path" is not valid');
    expect(await emu.control.countRequests({ method: 'POST' })).toBe(0);
  });
  test('GIVEN the service refuses a name (NOT_SAVED) THEN one sentence names it; GIVEN one name declared twice THEN the plan refuses it, nothing is created', async () => {
    await emu.control.seed(EMPTY);
    sb.writeConfig(`${PROVIDER}
resource "networkcalc_domain" "refused" {
  name = "refused.example"
}
`);
    const fault = await emu.control.addFault({
      kind: 'reject',
      code: 'NOT_SAVED',
      match: { method: 'POST', path: '/api/domains' },
    });
    const refused = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(refused, 1);
    expect(refused.output.replace(/\s+/g, ' ')).toContain(
      'NetworkCalc refused to save domain "refused.example" (NOT_SAVED): nothing was created',
    );
    await emu.control.removeFault(fault);

    sb.writeConfig(`${PROVIDER}
resource "networkcalc_domain" "one" {
  name = "twice.example"
}
resource "networkcalc_domain" "two" {
  name = "Twice.Example"
}
`);
    // Refused at plan, before anything is written.
    await emu.control.clearRequests();
    const twice = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(twice, 1);
    expect(twice.output).toContain('Error: Domain declared twice');
    expect(await emu.control.countRequests({ method: 'POST' })).toBe(0);
    expect((await account()).domains).toEqual([]);
  });
});
