/** `ncalc validate`: plan's checks without credentials and without any API call. */
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, ncalcProcess, stack } from './support';

const emulator = useEmulator();
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));
const app = (stacks: Record<string, Record<string, unknown>>) => {
  const a = new FixtureApp(stacks);
  apps.push(a);
  return a;
};

// No credential variable at all: what a pull request from a fork gets.
const noSecrets = () => cliEnv({ NETWORKCALC_BASE_URL: emulator().url });

describe('ncalc validate', () => {
  it('accepts a valid app with no credentials set and makes no API call (real process)', async () => {
    const a = app({
      main: stack({
        provider: {},
        alerts: {
          A: alert({ name: 'www A' }),
          Spf: alert({
            name: 'spf',
            type: 'SPF Record',
            subtype: undefined,
            filter: 'validity',
            filter_value: undefined,
          }),
        },
        triggers: { R: { domain_id: 1 } },
      }),
    });
    const r = await ncalcProcess(['validate'], { cwd: a.dir, env: noSecrets() });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'The configuration is valid: 2 alerts and 1 report trigger in 1 stack (1 provider configuration). No API call was made.\n',
    );
    expect(r.code).toBe(0);
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('lists every problem, as plan would, and exits 1', async () => {
    const a = app({
      main: stack({
        provider: {},
        alerts: { A: alert({ name: 'a', subtype: 'AAAA' }), B: alert({ name: 'b', filter: 'validity' }) },
      }),
    });
    const r = await ncalc(['validate'], { cwd: a.dir, env: noSecrets() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('subtype "AAAA" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT');
    expect(r.stderr).toContain('filter "validity" is not valid for type "DNS Record"');
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('finds overlapping scopes of stacks that read the same credential variables, without their values', async () => {
    const a = app({
      one: stack({
        provider: { ownership: 'prefix', ownership_prefix: 'team' },
        alerts: { A: alert({ name: 'team-x' }) },
      }),
      two: stack({
        provider: { ownership: 'prefix', ownership_prefix: 'team-b' },
        alerts: { B: alert({ name: 'team-b1' }) },
      }),
      other: stack({ provider: { token_env: 'OTHER_TOKEN' }, alerts: { C: alert({ name: 'c' }) } }),
    });
    const r = await ncalc(['validate', '--json'], { cwd: a.dir, env: noSecrets() });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { command: string; error: { code: string; problems: string[] } };
    expect(out.command).toBe('validate');
    expect(out.error.code).toBe('CONFIG_ERROR');
    expect(out.error.problems).toHaveLength(1);
    expect(out.error.problems[0]).toMatch(
      /is claimed by stack one \(provider networkcalc, prefix "team"\) and stack two \(provider networkcalc, prefix "team-b"\): prefixes "team" and "team-b" overlap/,
    );
  });

  it('counts alert policies, whose alerts are known only at plan time, and still makes no call', async () => {
    const json = stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } });
    json['//'] = {
      metadata: { stackName: 'main' },
      networkcalc_alert_policies: {
        Baseline: {
          path: 'main/Baseline',
          mode: 'generate',
          targets: { domains: true, subdomains: false, include: ['*'], exclude: [] },
          checks: [{ label: 'SPF validity', type: 'SPF Record', filter: 'validity' }],
        },
      },
    };
    const a = app({ main: json });
    const r = await ncalc(['validate'], { cwd: a.dir, env: noSecrets() });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'The configuration is valid: 1 alert, 0 report triggers and 1 alert policy in 1 stack (1 provider configuration). No API call was made.\n',
    );
    expect(r.code).toBe(0);
    const j = await ncalc(['validate', '--json'], { cwd: a.dir, env: noSecrets() });
    expect(JSON.parse(j.stdout).summary).toEqual({
      stacks: 1,
      providers: 1,
      alerts: 1,
      report_triggers: 0,
      alert_policies: 1,
    });
    expect(await emulator().control.requests()).toEqual([]);
  });

  it('--json describes a valid app', async () => {
    const a = app({ main: stack({ provider: {}, alerts: { A: alert({ name: 'a' }) } }) });
    const r = await ncalc(['validate', '--json'], { cwd: a.dir, env: noSecrets() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: '1.0',
      command: 'validate',
      valid: true,
      summary: { stacks: 1, providers: 1, alerts: 1, report_triggers: 0, alert_policies: 0 },
      accounts: [],
    });
  });
});
