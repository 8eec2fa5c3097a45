/**
 * A rename in the console, end to end against the emulator (one DELETE form only, as the
 * service may be): plan, drift and apply see one update that names the alert back, and apply
 * sends one PATCH, so the alert keeps its id and its history.
 */
import { NetworkCalcClient } from '../../src/client';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator({ deleteForm: 'path' });
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

const env = () => cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });

function app(provider: Record<string, unknown> = {}): FixtureApp {
  const a = new FixtureApp({
    main: stack({
      provider,
      alerts: {
        Cert: alert({
          name: 'team-cert expiry',
          type: 'Certificate (TLS)',
          subtype: undefined,
          filter: 'expires in (days)',
          filter_value: '30',
          target_id: 4,
        }),
        Www: alert({ name: 'team-www A', target_id: 1 }),
      },
    }),
  });
  apps.push(a);
  return a;
}

const live = () => new NetworkCalcClient({ baseUrl: emulator().url, token: 'demo-token' }).listAlerts();

/** Applies the app, then renames its certificate alert in the console, with a history. */
async function renamedInConsole(a: FixtureApp, to: string): Promise<number> {
  const applied = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
  expect(applied.code).toBe(0);
  const id = (await live()).find((x) => x.name === 'team-cert expiry')!.id;
  await emulator().control.patchAlert('demo', id, {
    name: to,
    current_status: 'triggered',
    last_triggered_at: '2026-01-02T03:04:05.000Z',
  });
  await emulator().control.clearRequests();
  return id;
}

const writes = async () =>
  (await emulator().control.requests())
    .filter((r) => r.method !== 'GET' && r.path.startsWith('/api/'))
    .map((r) => `${r.method} ${r.path}`);

describe('a rename in the console', () => {
  it('plan, drift and apply: one update naming it back; apply sends one PATCH; id and history kept', async () => {
    // GIVEN an applied app whose alert was renamed in the console
    const a = app();
    const id = await renamedInConsole(a, 'cert (renamed by hand)');

    // WHEN planned
    const plan = await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() });
    // THEN one update, nothing created or deleted
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(
      `  ~ alert "team-cert expiry" id ${id} (main/Cert)  # renamed in the account to "cert (renamed by hand)"; the update names it back, keeping id ${id}\n` +
        '      name: "cert (renamed by hand)" → "team-cert expiry"\n',
    );
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete.');

    const drift = await ncalc(['drift', '--format', 'markdown'], { cwd: a.dir, env: env() });
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(
      `| ~ | \`team-cert expiry\` | ${id} | renamed out of band; apply names it back (one update, same id) | name: \`"cert (renamed by hand)"\` → \`"team-cert expiry"\` |`,
    );
    const json = await ncalc(['drift', '--json'], { cwd: a.dir, env: env() });
    const changes = JSON.parse(json.stdout).accounts[0].changes;
    expect(changes.map((c: Record<string, unknown>) => [c.action, c.reason, c.drift, c.id])).toEqual([
      ['update', 'renamed', 'renamed', id],
    ]);

    // WHEN applied
    const applied = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });
    // THEN one PATCH of that id; the alert keeps its id, status and last trigger
    expect(applied.code).toBe(0);
    expect(await writes()).toEqual([`PATCH /api/alerts/${id}`]);
    const after = (await live()).find((x) => x.id === id)!;
    expect(after).toMatchObject({
      name: 'team-cert expiry',
      current_status: 'triggered',
      last_triggered_at: '2026-01-02T03:04:05.000Z',
    });
    expect((await live()).map((x) => x.name).sort()).toEqual(['team-cert expiry', 'team-www A']);
    expect((await ncalc(['plan', '--detailed-exitcode'], { cwd: a.dir, env: env() })).code).toBe(0);
  });

  it('prefix ownership: renamed out of the prefix is not taken back; the plan creates and says why', async () => {
    const a = app({ ownership: 'prefix', ownership_prefix: 'team-' });
    const id = await renamedInConsole(a, 'cert (renamed by hand)');
    const plan = await ncalc(['plan'], { cwd: a.dir, env: env() });
    expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    expect(plan.stdout).toContain(
      `"team-cert expiry" is not in the account, but alert ${id} "cert (renamed by hand)" looks like it renamed: apply creates a new alert and leaves it alone (it is outside this scope); to keep the old one, rename it back by hand`,
    );
    expect(await writes()).toEqual([]);
  });
});
