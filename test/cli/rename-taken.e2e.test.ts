/**
 * A rename in the app into a name the account already has (an alert made in the console):
 * ncalc refuses before any write, naming the alert that holds the name and its id; it neither
 * takes that alert over nor deletes it, nor the renamed one. Emulator strict: one DELETE form.
 */
import { NetworkCalcClient } from '../../src/client';
import { useEmulator } from '../helpers/emulator';
import { FixtureApp, alert, cliEnv, ncalc, stack } from './support';

const emulator = useEmulator({ deleteForm: 'path' });
const apps: FixtureApp[] = [];
afterAll(() => apps.forEach((a) => a.remove()));

const env = () => cliEnv({ NETWORKCALC_TOKEN: 'demo-token', NETWORKCALC_BASE_URL: emulator().url });
const live = () => new NetworkCalcClient({ baseUrl: emulator().url, token: 'demo-token' }).listAlerts();

function app(name: string, provider: Record<string, unknown> = {}): FixtureApp {
  const a = new FixtureApp({
    main: stack({ provider, alerts: { Www: alert({ name, filter_value: '192.0.2.1' }) } }),
  });
  apps.push(a);
  return a;
}

describe.each([
  ['exclusive', {}],
  ['additive', { ownership: 'additive' }],
])('a rename in the app into a name the console already uses (ownership %s)', (_mode, provider) => {
  it('plan and apply refuse before any write, naming the existing alert and its id; both alerts stay as they were', async () => {
    // GIVEN the app's alert "www A" applied, and the console's own "www (console)" of other settings
    const a = app('www A', provider);
    expect((await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() })).code).toBe(0);
    const mine = (await live()).find((x) => x.name === 'www A')!;
    await emulator().control.createAlert('demo', {
      name: 'www (console)',
      type: 'DNS Record',
      subtype: 'MX',
      filter: 'contains',
      filter_value: 'mail.example.com',
      target: 'example.com',
    });
    const before = await live();
    const console = before.find((x) => x.name === 'www (console)')!;

    // WHEN the app renames its alert to the console's name
    a.write({
      main: stack({ provider, alerts: { Www: alert({ name: 'www (console)', filter_value: '192.0.2.1' }) } }),
    });
    await emulator().control.clearRequests();
    const plan = await ncalc(['plan'], { cwd: a.dir, env: env() });
    const apply = await ncalc(['apply', '--auto-approve'], { cwd: a.dir, env: env() });

    // THEN both refuse with one sentence naming the alert that holds the name, and nothing is written
    const sentence =
      `alert main/Www looks renamed in the app from "www A" (alert ${mine.id}, same settings) to "www (console)", ` +
      `but the account already has alert ${console.id} "www (console)", which this plan does not remove`;
    for (const r of [plan, apply]) {
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain(sentence);
      expect(r.stdout + r.stderr).toContain(`rename or delete alert ${console.id} in the account first`);
    }
    const writes = (await emulator().control.requests()).filter(
      (r) => r.method !== 'GET' && r.path.startsWith('/api/'),
    );
    expect(writes).toEqual([]);
    expect(await live()).toEqual(before);
  });
});
