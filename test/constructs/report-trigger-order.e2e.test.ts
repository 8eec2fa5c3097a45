/**
 * A ReportTrigger is written after the alerts of its target, in both doors: the report's
 * request starts only once the alerts' writes have been answered. The emulator holds every
 * alert write for 1.5 s and answers the report at once, so a report sent alongside the
 * writes would be logged before them; the request log (in order of answers) shows it after.
 */
import { Testing, type TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, ReportTarget, ReportTrigger } from '../../src/constructs';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from '../provider/nc-harness';
import { FixtureApp, cliEnv, ncalc } from '../cli/support';
// Testing.synthScope's temporary directories, removed after this file's tests.
import './support';

jest.setTimeout(180_000);

const HOLD_MS = 1500;

/** The app's stack: a report on example.com, declared before its three alerts. */
function synth(value: string): string {
  return Testing.synthScope((scope) => {
    const stack = scope as TerraformStack;
    new NetworkcalcAccount(stack, 'Account');
    new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1) });
    for (const n of [1, 2, 3])
      new Alert(stack, `Www${n}`, {
        name: `www ${n}`,
        target: AlertTarget.domainId(1),
        dnsRecord: { record: 'A', filter: 'equals', value },
      });
  });
}

describe('the report after the alerts of its target', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'path' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  /** The writes since the log was cleared, in the order they were answered. */
  const writes = async () =>
    (await emu.control.requests())
      .filter((r) => r.method !== 'GET' && r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${r.path.startsWith('/api/reports/') ? 'report' : 'alert'}`);

  /**
   * In terraform's output, the alerts' `<done>` lines and the report's `Creating...` line, in
   * the order terraform printed them.
   */
  const order = (output: string, done: string) =>
    output
      .split('\n')
      .flatMap((line) =>
        line.startsWith('networkcalc_alert.') && line.includes(`: ${done} after`)
          ? ['alert']
          : line.startsWith('networkcalc_report_trigger.') && line.includes(': Creating...')
            ? ['report']
            : [],
      );

  /** Holds the alert writes (not the report) from now on. */
  async function holdAlertWrites(): Promise<void> {
    for (const method of ['POST', 'PATCH'])
      await emu.control.addFault({ kind: 'latency', latencyMs: HOLD_MS, match: { method, path: '/api/alerts' } });
  }

  test('terraform: the report is created after the alerts are created, and replaced after they are modified', async () => {
    const sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    try {
      await emu.control.reset();
      const config = JSON.parse(synth('192.0.2.1'));
      const [trigger] = Object.values(config.resource.networkcalc_report_trigger) as Array<{ depends_on: string[] }>;
      expect(trigger!.depends_on).toHaveLength(3);
      sb.writeConfig(JSON.stringify(config), 'main.tf.json');
      expectStatus(await sb.terraform(['init']), 0);
      await holdAlertWrites();
      await emu.control.clearRequests();
      const created = await sb.terraform(['apply', '-auto-approve']);
      expectStatus(created, 0);
      expect(await writes()).toEqual(['POST alert', 'POST alert', 'POST alert', 'POST report']);
      expect(order(created.output, 'Creation complete')).toEqual(['alert', 'alert', 'alert', 'report']);

      sb.writeConfig(synth('192.0.2.2'), 'main.tf.json');
      await emu.control.clearRequests();
      const modified = await sb.terraform(['apply', '-auto-approve']);
      expectStatus(modified, 0);
      expect(await writes()).toEqual(['PATCH alert', 'PATCH alert', 'PATCH alert', 'POST report']);
      expect(order(modified.output, 'Modifications complete')).toEqual(['alert', 'alert', 'alert', 'report']);
    } finally {
      sb.dispose();
      await emu.control.clearFaults();
    }
  });

  test('ncalc: the report runs after the alert writes of its account are answered', async () => {
    await emu.control.reset();
    const stacks = (value: string) => ({ main: JSON.parse(synth(value)) });
    const app = new FixtureApp(stacks('192.0.2.1'));
    const env = cliEnv({ NETWORKCALC_TOKEN: DEMO_ACCOUNT.token, NETWORKCALC_BASE_URL: emu.url });
    try {
      await holdAlertWrites();
      for (const [value, verb] of [
        ['192.0.2.1', 'POST'],
        ['192.0.2.2', 'PATCH'],
      ] as const) {
        app.write(stacks(value));
        await emu.control.clearRequests();
        const r = await ncalc(['apply', '--auto-approve'], { cwd: app.dir, env });
        expect(r.code).toBe(0);
        expect(await writes()).toEqual([`${verb} alert`, `${verb} alert`, `${verb} alert`, 'POST report']);
      }
    } finally {
      app.remove();
      await emu.control.clearFaults();
    }
  });
});
