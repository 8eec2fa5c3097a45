/**
 * Imports never give one alert a second owner, with the real terraform against the emulator at
 * its strictest (one DELETE form): `terraform import` and an `import {}` block of an alert that
 * another workspace of the working directory holds, or this state at another address, are
 * refused naming the holder; the holder keeps it, nothing is written.
 */
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';
import { alertHcl, configOf, flat, heldIds, initDirs, resetDir, writeConfig } from './owner-support';

jest.setTimeout(180_000);

describe('imports of a held alert', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let dir: string;

  const tf = (args: string[]) => sb.terraform(args, { cwd: dir });
  const writes = async () => (await emu.control.requests()).filter((q) => q.method !== 'GET');

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    [dir] = await initDirs(sb, ['i']);
  });
  beforeEach(async () => {
    await emu.control.reset();
    resetDir(dir);
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  /** Alert "web" applied in the default workspace; its id. */
  async function heldByDefault(): Promise<string> {
    writeConfig(dir, configOf(alertHcl('web', '"web"')));
    expectStatus(await tf(['apply', '-auto-approve']), 0);
    const [id] = heldIds(dir);
    await emu.control.clearRequests();
    return id!;
  }

  test('terraform import and an import block in another workspace are refused, naming the workspace and address', async () => {
    const id = await heldByDefault();
    expectStatus(await tf(['workspace', 'new', 'other']), 0);
    const cli = await tf(['import', 'networkcalc_alert.web', id]);
    expect(cli.status).toBe(1);
    const expected = `Alert ${id} cannot be imported: the state of workspace "default" of this working directory holds it at networkcalc_alert.web.`;
    expect(flat(cli.output)).toContain(expected);
    expect(flat(cli.output)).toContain(
      'terraform workspace select default, then terraform state rm networkcalc_alert.web',
    );
    writeConfig(dir, configOf(alertHcl('web', '"web"'), `import {\n  to = networkcalc_alert.web\n  id = "${id}"\n}\n`));
    const block = await tf(['plan']);
    expect(block.status).toBe(1);
    expect(flat(block.output)).toContain(expected);
    expect(heldIds(dir, 'other')).toEqual([]);
    expect(heldIds(dir)).toEqual([id]);
    expect(await writes()).toEqual([]);
  });

  test('an import into this state at a second address is refused, naming the address that holds it', async () => {
    const id = await heldByDefault();
    writeConfig(dir, configOf(alertHcl('web', '"web"'), alertHcl('copy', '"web"')));
    const cli = await tf(['import', 'networkcalc_alert.copy', id]);
    expect(cli.status).toBe(1);
    expect(flat(cli.output)).toContain(
      `Alert ${id} cannot be imported: this state already holds it at networkcalc_alert.web.`,
    );
    expect(heldIds(dir)).toEqual([id]);
    expect(await writes()).toEqual([]);
  });
});
