/**
 * `ncalc plan` and `ncalc apply` of an app declaring domains and subdomains, in process,
 * against the emulator over HTTP at its strictest for targets (creates answer without ids, a
 * third of them lose their answer after the write, latency): three empty accounts provisioned
 * in one apply, the target changes in the text and JSON output, and the next plan empty.
 */
import { call, useEmulator } from '../helpers/emulator';
import type { Json } from '../../src/support/json';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator({ targetCreateOmitsId: true, randomSeed: 3 });
const names = ['red', 'green', 'blue'];

function stacks(): Record<string, Json> {
  return Object.fromEntries(
    names.map((name) => {
      const json = stack({
        provider: { token_env: `${name.toUpperCase()}_TOKEN` },
        alerts: {
          Www: alert({ name: 'www a', target_type: 'subdomain', target_id: '${networkcalc_subdomain.www.id}' }),
        },
        triggers: { Report: { domain_id: '${networkcalc_domain.apex.id}' } },
      });
      (json.resource as Record<string, Json>).networkcalc_domain = { apex: { name: `${name}.example` } };
      (json.resource as Record<string, Json>).networkcalc_subdomain = {
        www: { domain_id: '${networkcalc_domain.apex.id}', prefix: 'www' },
      };
      return [name, json];
    }),
  );
}

describe('ncalc with declared targets', () => {
  let app: FixtureApp;
  beforeEach(() => {
    app = new FixtureApp(stacks());
  });
  afterEach(() => app.remove());

  it('provisions empty accounts in one apply; plan shows the targets first; the next plan is empty', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    await control.addFault({ kind: 'latency', latencyMs: 5 });
    await control.addFault({
      kind: 'drop',
      phase: 'after',
      rate: 0.34,
      match: { method: 'POST', path: '/api/domains' },
    });
    const env = cliEnv({
      NETWORKCALC_BASE_URL: emulator().url,
      ...Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-token`])),
    });

    const plan = await ncalc(['plan', '--json'], { cwd: app.dir, env });
    expect(plan.stderr).toBe('');
    const doc = JSON.parse(plan.stdout) as { accounts: Array<{ target_changes: Array<{ name: string }> }> };
    expect(doc.accounts.map((a) => a.target_changes.map((c) => c.name))).toEqual(
      names.map((n) => [`${n}.example`, `www.${n}.example`]),
    );

    const text = await ncalc(['plan'], { cwd: app.dir, env });
    expect(text.stdout).toContain('+ domain "red.example"');
    expect(text.stdout).toContain('+ subdomain "www.red.example"');
    expect(text.stdout).toContain(
      'Plan: 6 domains and subdomains to create, then 3 to create, 0 to update, 0 to delete.',
    );

    const applied = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('red: domain "red.example"');

    const state = await control.state();
    for (const account of state.accounts) {
      expect(account.domains.map((d) => d.domain)).toEqual([`${account.name}.example`]);
      expect(account.subdomains.map((s) => s.prefix)).toEqual(['www']);
      expect(account.alerts.map((a) => [a.target_type, a.target_id])).toEqual([
        ['subdomain', account.subdomains[0]!.id],
      ]);
    }
    const again = await ncalc(['plan', '--detailed-exitcode'], { cwd: app.dir, env });
    expect(again.stdout).not.toContain('+ domain');
    expect(again.code).toBe(0);

    // In the console: red's subdomain deleted (taking its alert, as assumed), a domain added.
    await control.updateSettings({ targetDeleteTakesAlerts: true });
    const red = (await control.state()).accounts.find((a) => a.name === 'red')!;
    const www = red.subdomains[0]!;
    const api = (method: string, path: string, json?: unknown) =>
      call(emulator().url, method, path, { token: 'red-token', ...(json ? { json } : {}) });
    expect((await api('DELETE', `/api/domains/${www.domain_id}/subdomains/${www.id}`)).status).toBe(200);
    expect((await api('POST', '/api/domains', { domain: 'extra.example' })).status).toBe(200);
    const drift = await ncalc(['drift'], { cwd: app.dir, env });
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(
      '! subdomain "www.red.example" (red/www): missing from the account; apply creates it',
    );
    // Under exclusive ownership (the default) a target the app does not declare is drift: apply deletes it.
    expect(drift.stdout).toMatch(
      /! domain "extra\.example" \(id \d+\): not in the app; apply deletes domain extra\.example\n/,
    );
    expect(drift.stdout).toContain(
      'Drift: 3 differences (1 domains or subdomains missing, 1 domains or subdomains not in the app, 1 missing',
    );
    const planned = await ncalc(['plan', '--json'], { cwd: app.dir, env });
    const redPlan = JSON.parse(planned.stdout).accounts.find((a: { label: string }) => a.label === 'red');
    expect(redPlan.target_changes.map((c: { action: string; name: string }) => [c.action, c.name])).toEqual([
      ['create', 'www.red.example'],
      ['delete', 'extra.example'],
    ]);
    expect(redPlan.target_changes[1].assumed_to_delete).toEqual({ alerts: 0, subdomains: 0 });
    const fixed = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env });
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/✓ red: domain "extra\.example" \(id \d+\) deleted/);
    const after = (await control.state()).accounts.find((a) => a.name === 'red')!;
    expect(after.domains.map((d) => d.domain)).toEqual(['red.example']);
  });

  it('destroy leaves the targets without --include-targets; with it deletes them after their alerts, in text and --json', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    // One DELETE form: a target delete while its alert is still there is refused (NOT_DELETED).
    await control.updateSettings({ deleteForm: 'body' });
    await control.addFault({ kind: 'latency', latencyMs: 3 });
    const env = cliEnv({
      NETWORKCALC_BASE_URL: emulator().url,
      ...Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-token`])),
    });
    expect((await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env })).code).toBe(0);

    const kept = await ncalc(['destroy', '--auto-approve', '--stack', 'red'], { cwd: app.dir, env });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain(
      'the declared domains and subdomains (2) are left in place: destroy deletes alerts only, unless given --include-targets',
    );
    const red = () => control.state().then((st) => st.accounts.find((a) => a.name === 'red')!);
    expect((await red()).alerts).toEqual([]);
    expect((await red()).domains).toHaveLength(1);

    const text = await ncalc(['destroy', '--stack', 'green', '--include-targets'], {
      cwd: app.dir,
      env,
      input: 'no\n',
    });
    expect(text.stdout).toMatch(
      /- alert "www a" id \d+ \(green\/Www\) {2}# destroy\n {2}- subdomain "www\.green\.example" \(id \d+, after the alert changes: deletes subdomain www\.green\.example and, we assume, its 1 alert\)\n {2}- domain "green\.example" \(id \d+, after the alert changes: deletes domain green\.example and, we assume, its 1 alert and 1 subdomain\)/,
    );
    expect(text.stdout).toContain(
      'Plan: 0 to create, 0 to update, 1 to delete, then 2 domains and subdomains to delete.',
    );

    const json = await ncalc(['destroy', '--auto-approve', '--json', '--include-targets', '--stack', 'blue'], {
      cwd: app.dir,
      env,
    });
    expect(json.code).toBe(0);
    const blue = JSON.parse(json.stdout).accounts.find((a: { label: string }) => a.label === 'blue');
    expect(blue.changes.map((c: { action: string }) => c.action)).toEqual(['delete']);
    expect(
      blue.target_changes.map((c: { action: string; target_type: string; result: { status: string } }) => [
        c.action,
        c.target_type,
        c.result.status,
      ]),
    ).toEqual([
      ['delete', 'subdomain', 'ok'],
      ['delete', 'domain', 'ok'],
    ]);
    const st = await control.state();
    const b = st.accounts.find((a) => a.name === 'blue')!;
    expect([b.alerts, b.domains, b.subdomains]).toEqual([[], [], []]);
    // green was not confirmed: untouched.
    expect(st.accounts.find((a) => a.name === 'green')!.domains).toHaveLength(1);
  });

  it('apply refuses a mass delete of targets unless --allow-mass-delete is given', async () => {
    const control = emulator().control;
    await control.seed({
      accounts: names.map((name, i) => ({ name, user_id: i + 1, tokens: [{ access_token: `${name}-token` }] })),
    });
    const env = cliEnv({
      NETWORKCALC_BASE_URL: emulator().url,
      ...Object.fromEntries(names.map((n) => [`${n.toUpperCase()}_TOKEN`, `${n}-token`])),
    });
    expect((await ncalc(['apply', '--auto-approve', '--stack', 'red'], { cwd: app.dir, env })).code).toBe(0);
    // 12 domains added in the console: the exclusive scope would delete 12 of its 15 alerts and targets.
    for (let i = 0; i < 12; i++)
      expect(
        (await call(emulator().url, 'POST', '/api/domains', { token: 'red-token', json: { domain: `x${i}.example` } }))
          .status,
      ).toBe(200);
    const planned = JSON.parse((await ncalc(['plan', '--json', '--stack', 'red'], { cwd: app.dir, env })).stdout);
    expect(planned.accounts[0].guards.map((g: Json) => [g.kind, g.deletes, g.owned, g.target_deletes])).toEqual([
      ['mass_delete', 12, 15, 12],
    ]);
    const domains = async () => (await control.state()).accounts.find((a) => a.name === 'red')!.domains.length;
    const refused = await ncalc(['apply', '--auto-approve', '--stack', 'red'], { cwd: app.dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('--allow-mass-delete');
    expect(await domains()).toBe(13);
    const allowed = await ncalc(['apply', '--auto-approve', '--stack', 'red', '--allow-mass-delete'], {
      cwd: app.dir,
      env,
    });
    expect(allowed.code).toBe(0);
    expect(await domains()).toBe(1);
  });
});
