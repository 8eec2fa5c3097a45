/**
 * A CDK Terrain app installed from the packed package provisions an account that starts empty
 * with one `cdktn deploy`, as docs/constructs.md ("a new account from zero") tells users to: it
 * declares a Domain and a Subdomain, an alert over each and a report trigger. The emulator is
 * at its strictest: one DELETE form, latency, domain and subdomain creates answered without
 * their ids, and the domain create's answer lost once. Then `cdktn diff` has nothing to change
 * and `cdktn destroy` empties the account. cdktn-cli needs Node 22.19 or later: on older Node
 * the test is skipped (.ci/run's compat tier runs on Node 24).
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, requireTerraform } from '../provider/nc-harness';
import { APP_TSCONFIG, cdkCliEnv, cdktfJson, createUserApp, providerLockArgs, TSC, type UserApp } from './support';
import { CDKTN_CLI_RUNS, plain } from './user-app';

jest.setTimeout(420_000);

const TOKEN = 'fresh-token';
/** One account with no domains, subdomains, alerts or reports. */
const EMPTY = { accounts: [{ name: 'fresh', user_id: 7, tokens: [{ access_token: TOKEN }] }] };

const SOURCE = `import { App, TerraformStack } from 'cdktn';
import { Construct } from 'constructs';
import { Alert, AlertTarget, Domain, NetworkcalcAccount, ReportTarget, ReportTrigger } from 'cdktf-provider-networkcalc';

class TargetsStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NetworkcalcAccount(this, 'Account');
    const shop = new Domain(this, 'Shop', { name: 'shop.example' });
    const www = shop.subdomain('www');
    new Alert(this, 'WwwA', { name: 'www A', target: www, dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.1' } });
    new Alert(this, 'Tls', { name: 'shop tls', target: AlertTarget.domain('shop.example'), certificate: { expiresInDays: 14 } });
    new ReportTrigger(this, 'Report', { target: ReportTarget.of(shop) });
  }
}

const app = new App();
new TargetsStack(app, 'targets');
app.synth();
`;

(CDKTN_CLI_RUNS ? describe : describe.skip)(
  `a cdktn app using the packed package, from an empty account${CDKTN_CLI_RUNS ? '' : ` (skipped: cdktn-cli does not run on Node ${process.version})`}`,
  () => {
    let app: UserApp;
    let emu: RunningEmulator;
    const env = () => ({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: TOKEN, ...cdkCliEnv(app) });
    const cdktn = (args: string[]) => app.run(app.bin('cdktn'), args, { env: env(), timeoutMs: 240_000 });
    const account = async () => (await emu.control.state()).accounts.find((a) => a.name === 'fresh')!;

    beforeAll(async () => {
      requireTerraform();
      app = createUserApp('cdktn', { withCli: true });
      writeFileSync(path.join(app.dir, 'main.ts'), SOURCE);
      writeFileSync(path.join(app.dir, 'tsconfig.json'), JSON.stringify(APP_TSCONFIG, null, 2));
      writeFileSync(path.join(app.dir, 'cdktf.json'), cdktfJson());
      const tsc = await app.run(process.execPath, [TSC, '-p', '.']);
      if (tsc.status !== 0)
        throw new Error(`the cdktn app does not compile against the installed package:\n${tsc.output}`);
      emu = await startEmulator({ seed: EMPTY, deleteForm: 'body', targetCreateOmitsId: true });
    });
    afterAll(async () => {
      await emu?.close();
      app?.dispose();
    });

    test('GIVEN an empty account WHEN cdktn deploy once THEN one domain, one subdomain, both alerts and the report; cdktn diff has no changes; cdktn destroy empties the account, the subdomain before the domain', async () => {
      const lock = await app.run(process.execPath, [app.bin('ncalc'), ...providerLockArgs(app)], { env: env() });
      expectStatus(lock, 0);

      await emu.control.addFault({ kind: 'latency', latencyMs: 100 });
      await emu.control.addFault({
        kind: 'drop',
        phase: 'after',
        count: 1,
        match: { method: 'POST', path: '/api/domains' },
      });
      const deploy = await cdktn(['deploy', '--auto-approve']);
      expectStatus(deploy, 0);
      expect(plain(deploy.output)).toContain('Apply complete! Resources: 5 added, 0 changed, 0 destroyed.');
      expect(plain(deploy.output)).toContain('Domain found by a list after an unclear create');

      const made = await account();
      expect(made.domains.map((d) => d.domain)).toEqual(['shop.example']);
      const domainId = made.domains[0]!.id;
      expect(made.subdomains.map((s) => [s.prefix, s.domain_id])).toEqual([['www', domainId]]);
      const subdomainId = made.subdomains[0]!.id;
      expect(made.alerts.map((a) => [a.name, a.target_type, a.target_id]).sort()).toEqual([
        ['shop tls', 'domain', domainId],
        ['www A', 'subdomain', subdomainId],
      ]);
      expect(made.reports.map((r) => [r.kind, r.domain_id])).toEqual([['domain', domainId]]);

      await emu.control.clearFaults();
      const diff = await cdktn(['diff']);
      expectStatus(diff, 0);
      expect(plain(diff.output)).toContain('No changes.');
      expect(plain(diff.output)).not.toMatch(/Plan: \d+ to add/);

      await emu.control.clearRequests();
      const destroy = await cdktn(['destroy', '--auto-approve']);
      expectStatus(destroy, 0);
      expect(plain(destroy.output)).toContain('Destroy complete! Resources: 5 destroyed.');
      const after = await account();
      expect([after.domains, after.subdomains, after.alerts]).toEqual([[], [], []]);
      // A report cannot be deleted (the interface has no such endpoint): destroy forgets the trigger.
      expect(after.reports).toHaveLength(1);
      // The alerts go first: the provider learns the one DELETE form the emulator takes by one
      // probe (the path and query forms refused, the body form deleting), then uses it. Then the
      // subdomain, and the domain last: a domain delete takes its subdomains with it, which would
      // hide a wrong order.
      const deletes = (await emu.control.requests())
        .filter((q) => q.method === 'DELETE')
        .map((q) => ({ path: q.path, status: q.status }));
      const isAlert = (p: string) => p.startsWith('/api/alerts');
      expect(deletes.filter((q) => isAlert(q.path)).map((q) => q.status)).toEqual([400, 400, 200, 200]);
      expect(isAlert(deletes[0]!.path)).toBe(true);
      expect(deletes.filter((q) => !isAlert(q.path))).toEqual([
        { path: `/api/domains/${domainId}/subdomains/${subdomainId}`, status: 200 },
        { path: `/api/domains/${domainId}`, status: 200 },
      ]);
      expect(deletes.at(-1)!.path).toBe(`/api/domains/${domainId}`);
    });
  },
);
