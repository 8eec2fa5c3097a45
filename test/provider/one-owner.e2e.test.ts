/**
 * One account, one owner; one object, one state. Real terraform against the emulator in its
 * strict mode (one DELETE form, creates answered without an id):
 * - `ncalc apply`, then terraform apply of the same alerts: refused with the import fix, no
 *   duplicate; import blocks then move them to terraform with an empty plan;
 * - two workspaces of one configuration never share an alert; destroying one leaves the other;
 * - `count = 1`, then `count = 2` with -refresh=false: never two addresses for one alert;
 * - read-only values refreshed (refresh-only shows them, a normal plan stays empty) and kept
 *   through an update; a respelling plans nothing.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from '../cli/support';
import { expectStatus, NetworkcalcSandbox, REQUIRED_PROVIDERS, requirePrerequisites } from './nc-harness';
import { alertHcl } from './owner-support';

jest.setTimeout(240_000);

// The one HCL alert builder of the one-owner suites.
const resource = alertHcl;

describe('one owner per alert', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  const liveNames = async () => (await emu.control.state()).accounts[0]!.alerts.map((a) => a.name).sort();

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
  });
  beforeEach(async () => {
    await emu.control.reset();
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  });
  afterEach(() => sb?.dispose());
  afterAll(async () => {
    await emu?.close();
  });

  test('GIVEN alerts applied by ncalc WHEN terraform applies the same alerts THEN refused with the import fix, 0 duplicates; import blocks then take them over', async () => {
    const app = new FixtureApp({
      main: stack({
        provider: {},
        alerts: { www: alert({ name: 'www' }), apex: alert({ name: 'apex' }) },
      }),
    });
    try {
      const env = cliEnv({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
      const applied = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env });
      expect(applied.code).toBe(0);
    } finally {
      app.remove();
    }
    const ids = new Map((await emu.control.state()).accounts[0]!.alerts.map((a) => [a.name, a.id]));
    expect([...ids.keys()].sort()).toEqual(['apex', 'www']);

    const config = `${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resource('www', '"www"')}${resource('apex', '"apex"')}`;
    sb.writeConfig(config);
    expectStatus(await sb.terraform(['init']), 0);
    const refused = await sb.terraform(['apply', '-auto-approve']);
    expect(refused.status).toBe(1);
    const text = refused.output.replace(/\s+/g, ' ');
    expect(text.match(/Error: Alert already exists/g)).toHaveLength(2);
    expect(text).toContain(`terraform import <this resource's address> ${ids.get('www')}`);
    expect(text).toContain('with networkcalc_alert.www');
    expect(await liveNames()).toEqual(['apex', 'www']);

    // The documented move: import blocks (as `ncalc export --hcl` writes them), then an empty plan.
    sb.writeConfig(
      `${config}\nimport {\n  to = networkcalc_alert.www\n  id = "${ids.get('www')}"\n}\nimport {\n  to = networkcalc_alert.apex\n  id = "${ids.get('apex')}"\n}\n`,
    );
    const imported = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(imported, 0);
    expect(imported.output).toContain('2 imported, 0 added, 0 changed, 0 destroyed');
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expect(await liveNames()).toEqual(['apex', 'www']);
  });

  test('GIVEN one configuration in two workspaces THEN each holds its own alert, a shared name is refused, and destroying one leaves the other', async () => {
    sb.writeConfig(
      `${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resource('per_workspace', '"web-${terraform.workspace}"')}${resource('shared', '"shared"')}`,
    );
    expectStatus(await sb.terraform(['init']), 0);
    expectStatus(await sb.terraform(['workspace', 'new', 'x']), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    expectStatus(await sb.terraform(['workspace', 'new', 'y']), 0);
    const y = await sb.terraform(['apply', '-auto-approve']);
    // Before: one POST for both workspaces, y adopting x's alerts ("no state holds it").
    expect(y.status).toBe(1);
    expect(y.output).not.toContain('Alert adopted');
    expect(y.output).toContain('Alert already exists');
    // Refused by the plan, so y applied nothing; its destroy then deletes nothing of x's.
    expect(await liveNames()).toEqual(['shared', 'web-x']);
    expectStatus(await sb.terraform(['apply', '-auto-approve', '-target=networkcalc_alert.per_workspace']), 0);
    expect(await liveNames()).toEqual(['shared', 'web-x', 'web-y']);

    // terraform destroy plans the configuration first, and that plan refuses "shared": it is
    // skipped with -refresh=false (docs/terraform.md).
    expect((await sb.terraform(['destroy', '-auto-approve'])).status).toBe(1);
    expectStatus(await sb.terraform(['destroy', '-auto-approve', '-refresh=false']), 0);
    expect(await liveNames()).toEqual(['shared', 'web-x']);
    expectStatus(await sb.terraform(['workspace', 'select', 'x']), 0);
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  });

  test('GIVEN count = 1 applied WHEN count = 2 is applied with -refresh=false THEN the second is refused, not given the first one alert', async () => {
    const config = (count: number) =>
      `${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resource('n', '"same"', `count = ${count}`)}${resource('indexed', '"idx-${count.index}"', `count = ${count}`)}`;
    sb.writeConfig(config(1));
    expectStatus(await sb.terraform(['init']), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    sb.writeConfig(config(2));
    const r = await sb.terraform(['apply', '-auto-approve', '-refresh=false']);
    expect(r.status).toBe(1);
    expect(r.output).toContain('Alert already exists');
    expect(r.output).toContain('with networkcalc_alert.n[1]');
    // Refused by the plan (another resource of this state holds the name): nothing is applied.
    expect(r.output.replace(/\s+/g, ' ')).toContain(
      'is held by another resource of this state at networkcalc_alert.n[0]',
    );
    expect(await liveNames()).toEqual(['idx-0', 'same']);
    const state = JSON.parse(sb.readState()) as {
      resources: { name: string; instances: { attributes: { id: unknown } }[] }[];
    };
    const ids = state.resources.flatMap((res) => res.instances.map((i) => i.attributes.id));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  test('GIVEN a deployed alert THEN a status change shows in refresh-only but not in a plan, survives an update unchanged, and a respelling plans nothing', async () => {
    sb.writeConfig(`${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resource('a', '"status"')}`);
    expectStatus(await sb.terraform(['init']), 0);
    const created = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(created, 0);
    const id = (await emu.control.state()).accounts[0]!.alerts[0]!.id;
    // The id is a string, as terraform users expect: progress lines name it.
    expect(created.output).toContain(`networkcalc_alert.a: Creation complete after`);
    expect(created.output).toContain(`[id=${id}]`);

    // A state written before the id became a string (schema version 0) upgrades in place.
    const state = JSON.parse(sb.readState()) as {
      resources: { instances: { schema_version: number; attributes: Record<string, unknown> }[] }[];
    };
    state.resources[0]!.instances[0]!.schema_version = 0;
    state.resources[0]!.instances[0]!.attributes.id = id;
    writeFileSync(path.join(sb.workDir, 'terraform.tfstate'), JSON.stringify(state));
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expectStatus(await sb.terraform(['apply', '-refresh-only', '-auto-approve']), 0);
    expect(sb.stateOf('networkcalc_alert.a').id).toBe(String(id));
    expect(sb.readState()).toContain('"schema_version": 1');

    await emu.control.patchAlert('demo', id, {
      is_active: false,
      current_status: 'triggered',
      last_triggered_at: '2026-01-02T03:04:05Z',
    });
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    const refresh = await sb.terraform(['plan', '-refresh-only', '-detailed-exitcode']);
    expectStatus(refresh, 2);
    expect(refresh.output).toMatch(/current_status\s+= "healthy" -> "triggered"/);
    expectStatus(await sb.terraform(['apply', '-refresh-only', '-auto-approve']), 0);

    // An update shows only what it changes; the read-only values stay known.
    sb.writeConfig(
      `${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resource('a', '"status"').replace('192.0.2.1', '192.0.2.2')}`,
    );
    const update = await sb.terraform(['plan']);
    expectStatus(update, 0);
    expect(update.output).toContain('1 to change');
    expect(update.output).not.toContain('known after apply');
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    expect(sb.stateOf('networkcalc_alert.a')).toMatchObject({ current_status: 'triggered', is_active: false });

    // Equal spellings of one value: no plan.
    sb.writeConfig(
      `${REQUIRED_PROVIDERS}\nprovider "networkcalc" {}\n${resource('a', '" status "')
        .replace('"DNS Record"', '"dns  record"')
        .replace('"A"', '"a"')
        .replace('"equals"', '"Equals"')
        .replace('192.0.2.1', '192.0.2.2')}`,
    );
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expect(
      (await emu.control.requests()).filter((q) => q.method === 'PATCH' && q.path.startsWith('/api/alerts')),
    ).toHaveLength(1);
  });
});
