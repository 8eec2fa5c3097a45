/**
 * ReportTrigger through real terraform: the default re-runs the report when the alerts of its
 * target change, so a plan with nothing changed is empty (`plan -detailed-exitcode` exits 0);
 * a state made with the old default (`always = timestamp()`) migrates with one last report.
 */
import { Testing, type TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, ReportTarget, ReportTrigger } from '../../src/constructs';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';
// Testing.synthScope's temporary directories, removed after this file's tests.
import '../constructs/support';

jest.setTimeout(180_000);

/** The app's stack as cdktf synthesizes it, written as the sandbox's configuration. */
function synth(value: string, options: { everyApply?: boolean } = {}): string {
  return Testing.synthScope((scope) => {
    const stack = scope as TerraformStack;
    new NetworkcalcAccount(stack, 'Account');
    new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1), ...options });
    new Alert(stack, 'Www', {
      name: 'www',
      target: AlertTarget.domainId(1),
      dnsRecord: { record: 'A', filter: 'equals', value },
    });
  });
}

describe('report trigger that terraform can leave alone', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  const reports = async () =>
    (await emu.control.requests()).filter((q) => q.method === 'POST' && q.path.startsWith('/api/reports/')).length;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test('GIVEN a state made with the old default THEN one replacement migrates it; then plans are empty until an alert of the target changes', async () => {
    sb.writeConfig(synth('192.0.2.1', { everyApply: true }), 'main.tf.json');
    expectStatus(await sb.terraform(['init']), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    expect(await reports()).toBe(1);
    // The old default: every plan replaces the trigger.
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 2);

    sb.writeConfig(synth('192.0.2.1'), 'main.tf.json');
    const migrate = await sb.terraform(['apply', '-auto-approve']);
    expectStatus(migrate, 0);
    expect(migrate.output).toContain('1 added, 0 changed, 1 destroyed');
    expect(await reports()).toBe(2);

    // Nothing changed: empty, in a fresh synthesis too.
    sb.writeConfig(synth('192.0.2.1'), 'main.tf.json');
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    expect(await reports()).toBe(2);

    // An alert of the target changed: it is updated, and the report runs again after it.
    sb.writeConfig(synth('192.0.2.2'), 'main.tf.json');
    const plan = await sb.terraform(['plan', '-detailed-exitcode']);
    expectStatus(plan, 2);
    expect(plan.output).toContain('Plan: 1 to add, 1 to change, 1 to destroy.');
    expectStatus(await sb.terraform(['apply', '-auto-approve']), 0);
    expect(await reports()).toBe(3);
    expectStatus(await sb.terraform(['plan', '-detailed-exitcode']), 0);
  });
});
