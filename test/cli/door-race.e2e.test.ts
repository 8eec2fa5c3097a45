/**
 * Both doors racing on one name: `ncalc apply` of a CDK Terrain app and `terraform apply` of a
 * configuration in another folder create the same alert name at the same moment (a saved plan;
 * ncalc started 0–450 ms later), ROUNDS rounds at 20 ms (test/helpers/soak.ts). Whenever the account ends with two alerts of the name, at
 * least one side fails naming both ids (docs/cli.md, "Concurrent runs": what the check after
 * apply guarantees); the tally of who reported is printed for the reader of the log.
 */
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { NetworkcalcSandbox, requirePrerequisites } from '../provider/nc-harness';
import { alertHcl, configOf, initDirs, resetDir, writeConfig } from '../provider/owner-support';
import { ROUNDS } from '../helpers/soak';
import { cliEnv, ncalcProcess, writeCdktnApp } from './support';

jest.setTimeout(Math.max(240_000, ROUNDS * 30_000));

const MAIN = `const { App, TerraformStack } = require('cdktn');
const { Alert, AlertTarget, NetworkcalcAccount } = require('cdktf-provider-networkcalc');
const app = new App();
const stack = new TerraformStack(app, 'prod');
new NetworkcalcAccount(stack, 'Account');
new Alert(stack, 'Race', {
  name: 'race',
  target: AlertTarget.domain('example.com'),
  dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.1' },
});
app.synth();
`;

describe('ncalc and terraform applying one name at once', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let app: string;
  let tfDir: string;

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token }, 'app');
    app = sb.workDir;
    writeCdktnApp(sb.root, app, MAIN);
    [tfDir] = await initDirs(sb, ['tf']);
    writeConfig(tfDir, configOf(alertHcl('race', '"race"')));
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  test(`${ROUNDS} rounds: two alerts of the name are always reported by at least one side, naming both ids`, async () => {
    const tally = { duplicates: 0, ncalcReported: 0, terraformReported: 0 };
    const env = cliEnv({ NETWORKCALC_TOKEN: DEMO_ACCOUNT.token, NETWORKCALC_BASE_URL: emu.url });
    expect((await ncalcProcess(['synth'], { cwd: app, env })).code).toBe(0);
    for (let round = 1; round <= ROUNDS; round++) {
      await emu.control.reset();
      await emu.control.addFault({ kind: 'latency', latencyMs: 20, match: { path: '/api/' } });
      resetDir(tfDir);
      // Each door ready to write at once: terraform with a saved plan, ncalc with the app
      // synthesized; ncalc starts 0, 150, 300 or 450 ms after terraform, spreading the overlap.
      expect((await sb.terraform(['plan', '-out=race.tfplan'], { cwd: tfDir })).status).toBe(0);
      const delay = ((round - 1) % 4) * 150;
      const [terraform, ncalc] = await Promise.all([
        sb.terraform(['apply', 'race.tfplan'], { cwd: tfDir }),
        new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
          ncalcProcess(['apply', '--auto-approve', '--no-synth'], { cwd: app, env }),
        ),
      ]);
      const ids = (await emu.control.state()).accounts[0]!.alerts.filter((a) => a.name === 'race').map((a) => a.id);
      expect(ids.length).toBeGreaterThanOrEqual(1);
      if (ids.length < 2) continue;
      tally.duplicates++;
      const names = (text: string) => ids.every((id) => new RegExp(`\\b${id}\\b`).test(text));
      const byNcalc = ncalc.code !== 0 && names(ncalc.stdout + ncalc.stderr);
      const byTerraform = terraform.status !== 0 && names(terraform.output);
      if (byNcalc) tally.ncalcReported++;
      if (byTerraform) tally.terraformReported++;
      expect({ round, reported: byNcalc || byTerraform }).toEqual({ round, reported: true });
    }
    console.log(`${ROUNDS} rounds at 20 ms: ${JSON.stringify(tally)}`);
  });
});
