/**
 * The Terraform door to coverage: the networkcalc_domains data source and the example that
 * gives every domain and subdomain the same alerts with for_each
 * (examples/terraform-hcl/every-domain), through real terraform against the emulator.
 */
import { copyFileSync } from 'node:fs';
import * as path from 'node:path';
import { NetworkCalcClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { REPO_ROOT } from './harness';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from './nc-harness';

jest.setTimeout(240_000);

const TOKEN = 'tok-domains-3c9e71';
const SEED = {
  accounts: [
    {
      name: 'cov',
      user_id: 30,
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

let emu: RunningEmulator;
let sb: NetworkcalcSandbox;
const client = () => new NetworkCalcClient({ baseUrl: emu.url, token: TOKEN });

beforeAll(async () => {
  requirePrerequisites();
  emu = await startEmulator({ seed: SEED });
  sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: TOKEN });
});
afterAll(async () => {
  sb?.dispose();
  await emu?.close();
});

test('networkcalc_domains lists every domain with its subdomains, by name, from one domains list', async () => {
  sb.writeConfig(`${REQUIRED_PROVIDERS}
provider "networkcalc" {}
data "networkcalc_domains" "all" {}
output "domains" { value = data.networkcalc_domains.all.domains }
output "subdomains" { value = [for s in data.networkcalc_domains.all.subdomains : "\${s.name} \${s.id} \${s.prefix} \${s.domain_id} \${s.domain}"] }
`);
  expectStatus(await sb.terraform(['init']), 0);
  await emu.control.clearRequests();
  expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
  const out = await sb.terraform(['output', '-json']);
  expectStatus(out, 0);
  const outputs = JSON.parse(out.stdout) as Record<string, { value: any }>;
  expect(outputs.subdomains.value).toEqual([
    'api.example.com 3 api 1 example.com',
    'shop.example.net 7 shop 6 example.net',
    'www.example.com 2 www 1 example.com',
    'www.example.org 5 www 4 example.org',
  ]);
  expect(outputs.domains.value.map((d: any) => [d.name, d.id, d.subdomains.map((s: any) => s.name)])).toEqual([
    ['example.com', 1, ['api.example.com', 'www.example.com']],
    ['example.net', 6, ['shop.example.net']],
    ['example.org', 4, ['www.example.org']],
  ]);
  expect(typeof outputs.domains.value[0].created_at).toBe('string');
  // Every read of the run (plan and apply each read the data source) shares the process's one list.
  expect(await emu.control.countRequests({ method: 'GET', path: '/api/domains/' })).toBeLessThanOrEqual(2);
});

test('examples/terraform-hcl/every-domain: 14 alerts; a domain added in the console gets its two on the next apply', async () => {
  sb.writeConfig('');
  copyFileSync(
    path.join(REPO_ROOT, 'examples', 'terraform-hcl', 'every-domain', 'main.tf'),
    path.join(sb.workDir, 'main.tf'),
  );
  expectStatus(await sb.terraform(['init']), 0);
  const apply = await sb.terraform(['apply', '-auto-approve']);
  expectStatus(apply, 0);
  expect(apply.stdout).toContain('Apply complete! Resources: 14 added, 0 changed, 0 destroyed.');
  const names = async () => (await client().listAlerts()).map((a) => a.name).sort();
  expect(await names()).toContain('certificate expiry · shop.example.net');
  expect(await names()).toHaveLength(14);

  const added = await client().addDomain('example.dev');
  await client().addDomain('legacy.example.io');
  const plan = await sb.terraform(['plan', '-detailed-exitcode']);
  expectStatus(plan, 2);
  expect(plan.stdout).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
  expect(plan.stdout).toContain('networkcalc_alert.spf["example.dev"] will be created');
  expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
  const live = await client().listAlerts();
  expect(
    live
      .filter((a) => a.target_type === 'domain' && a.target_id === added.id)
      .map((a) => a.name)
      .sort(),
  ).toEqual(['SPF validity · example.dev', 'certificate expiry · example.dev']);
  expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  expectStatus(await sb.terraform(['destroy', '-auto-approve']), 0);
  expect(await names()).toEqual([]);
});
