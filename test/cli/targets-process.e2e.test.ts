/**
 * The CLI as users run it (a spawned `ncalc` process) over an app that declares a domain and a
 * subdomain, alerts on both and a report trigger, for an EMPTY account on the emulator at its
 * strictest: one DELETE form, latency, target creates answering without their ids, and the
 * domain create's answer lost after the write. `plan` shows the target creates first, `apply`
 * makes exactly one of each, the next plan has no changes and `drift` finds none.
 */
import { useEmulator } from '../helpers/emulator';
import type { Json } from '../../src/support/json';
import { FixtureApp, alert, cliEnv, ncalcProcess, stack } from './support';

const emulator = useEmulator({ deleteForm: 'path', targetCreateOmitsId: true, randomSeed: 7 });

function appStack(): Json {
  const json = stack({
    provider: { token_env: 'SHOP_TOKEN' },
    alerts: {
      Apex: alert({ name: 'apex a', target_type: 'domain', target_id: '${networkcalc_domain.apex.id}' }),
      Www: alert({ name: 'www a', target_type: 'subdomain', target_id: '${networkcalc_subdomain.www.id}' }),
    },
    triggers: { Report: { domain_id: '${networkcalc_domain.apex.id}' } },
  });
  const resource = json.resource as Record<string, Json>;
  resource.networkcalc_domain = { apex: { name: 'shop.example' } };
  resource.networkcalc_subdomain = { www: { domain_id: '${networkcalc_domain.apex.id}', prefix: 'www' } };
  return json;
}

describe('ncalc (spawned) provisions declared targets in an empty account', () => {
  let app: FixtureApp;
  beforeEach(() => {
    app = new FixtureApp({ shop: appStack() });
  });
  afterEach(() => app.remove());

  it('plans the targets first, applies one of each, then plans no changes and finds no drift', async () => {
    const control = emulator().control;
    await control.seed({ accounts: [{ name: 'shop', user_id: 1, tokens: [{ access_token: 'shop-token' }] }] });
    await control.addFault({ kind: 'latency', latencyMs: 20 });
    // The first domain create is written but its answer lost: apply must prove it by the list.
    await control.addFault({ kind: 'drop', phase: 'after', count: 1, match: { method: 'POST', path: '/api/domains' } });
    const env = cliEnv({ NETWORKCALC_BASE_URL: emulator().url, SHOP_TOKEN: 'shop-token' });
    const run = (args: string[]) => ncalcProcess(args, { cwd: app.dir, env, timeoutMs: 60_000 });

    const json = await run(['plan', '--json']);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      accounts: Array<{ target_changes: Array<{ name: string }>; changes: unknown[] }>;
    };
    expect(doc.accounts).toHaveLength(1);
    expect(doc.accounts[0]!.target_changes.map((c) => c.name)).toEqual(['shop.example', 'www.shop.example']);
    expect(doc.accounts[0]!.changes).toHaveLength(2);

    const text = await run(['plan', '--detailed-exitcode']);
    expect(text.code).toBe(2);
    const lines = text.stdout.split('\n');
    const first = (needle: string) => lines.findIndex((l) => l.includes(needle));
    expect(first('+ domain "shop.example"')).toBeGreaterThan(-1);
    expect(first('+ subdomain "www.shop.example"')).toBeGreaterThan(first('+ domain "shop.example"'));
    expect(first('+ alert "apex a"')).toBeGreaterThan(first('+ subdomain "www.shop.example"'));
    expect(first('+ alert "www a"')).toBeGreaterThan(first('+ subdomain "www.shop.example"'));
    expect(text.stdout).toContain(
      'Plan: 2 domains and subdomains to create, then 2 to create, 0 to update, 0 to delete.',
    );

    const applied = await run(['apply', '--auto-approve']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);

    const [account] = (await control.state()).accounts;
    expect(account!.domains.map((d) => d.domain)).toEqual(['shop.example']);
    expect(account!.subdomains.map((s) => [s.domain_id, s.prefix])).toEqual([[account!.domains[0]!.id, 'www']]);
    expect(account!.alerts.map((a) => [a.name, a.target_type, a.target_id]).sort()).toEqual([
      ['apex a', 'domain', account!.domains[0]!.id],
      ['www a', 'subdomain', account!.subdomains[0]!.id],
    ]);
    expect(account!.reports.map((r) => [r.kind, r.domain_id])).toEqual([['domain', account!.domains[0]!.id]]);
    // The lost answer was proven by the list, not re-sent: one domain POST, one subdomain POST.
    const posts = (await control.requests()).filter((r) => r.method === 'POST' && r.path.startsWith('/api/domains'));
    expect(posts.map((r) => [r.path.replace(/\/$/, ''), r.status])).toEqual([
      ['/api/domains', 0],
      [`/api/domains/${account!.domains[0]!.id}/subdomains/www`, 200],
    ]);

    const again = await run(['plan', '--detailed-exitcode']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/^\s*[+~-] /m);

    const drift = await run(['drift']);
    expect(drift.stderr).toBe('');
    expect(drift.code).toBe(0);
  }, 120_000);
});
