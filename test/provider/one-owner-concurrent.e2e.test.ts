/**
 * Two writers of one name at once, with the real terraform: two directories, and two
 * workspaces of one directory, apply the same alert name at the same moment, ROUNDS rounds
 * at each of 0, 20 and 200 ms of emulator latency (strict: one DELETE form, creates answered
 * without an id). Each round asserts the rule of docs/architecture.md ("One owner per alert"):
 * no id held by two states, no alert deleted, and a duplicate name always ends in an error
 * exit of at least one side that names every id of that name.
 */
import { readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites, type TfResult } from './nc-harness';
import {
  alertHcl,
  configOf,
  deletedIds,
  flat,
  heldIds,
  initDirs,
  resetDir,
  sharedIds,
  startTerraform,
  writeConfig,
} from './owner-support';
import { ROUNDS } from '../helpers/soak';

/** Rounds per layout and latency: 2 in `npm test`, 20 in the soak run (test/helpers/soak.ts). */
jest.setTimeout(Math.max(600_000, ROUNDS * 30_000));

interface Side {
  label: string;
  dir: string;
  workspace: string;
}

describe('two writers of one name at once', () => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let a: string;
  let b: string;
  const outcomes: string[] = [];

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    [a, b] = await initDirs(sb, ['a', 'b']);
    for (const dir of [a, b]) {
      resetDir(dir);
      writeConfig(dir, configOf(alertHcl('same', '"same"')));
    }
    for (const ws of ['one', 'two']) expectStatus(await sb.terraform(['workspace', 'new', ws], { cwd: a }), 0);
    expectStatus(await sb.terraform(['workspace', 'select', 'default'], { cwd: a }), 0);
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
    // The tallies, for the reader of the log: how the rounds ended.
    if (outcomes.length) process.stdout.write(`${outcomes.join('\n')}\n`);
  });

  /** No state, no journal, the workspaces kept. */
  function clean(side: Side): void {
    const data = path.join(side.dir, '.terraform');
    for (const f of readdirSync(data)) if (f.startsWith('networkcalc-creates-')) rmSync(path.join(data, f));
    const stateDir =
      side.workspace === 'default' ? side.dir : path.join(side.dir, 'terraform.tfstate.d', side.workspace);
    for (const f of ['terraform.tfstate', 'terraform.tfstate.backup', '.terraform.tfstate.lock.info'])
      rmSync(path.join(stateDir, f), { force: true });
  }

  async function round(latencyMs: number, sides: [Side, Side], n: number): Promise<string> {
    await emu.control.reset();
    if (latencyMs > 0) await emu.control.addFault({ kind: 'latency', latencyMs, match: { path: '/api/' } });
    for (const s of sides) clean(s);
    const runs = sides.map((s) =>
      startTerraform(
        sb,
        ['apply', '-auto-approve'],
        s.dir,
        s.workspace === 'default' ? {} : { TF_WORKSPACE: s.workspace },
      ),
    );
    const results: TfResult[] = await Promise.all(runs.map((r) => r.done));
    const where = `round ${n} at ${latencyMs} ms (${sides.map((s) => s.label).join(' / ')})`;
    const ids = (await emu.control.state()).accounts[0]!.alerts.filter((x) => x.name === 'same').map((x) =>
      String(x.id),
    );
    const held = sides.map((s) => heldIds(s.dir, s.workspace));
    const detail = () =>
      `${where}: live ${ids.join(',')}, held ${JSON.stringify(held)}\n${results.map((r) => r.output).join('\n----\n')}`;
    // No id held by two states; every id held is live; nothing deleted.
    if (sharedIds(held).length) throw new Error(`an id is held by two states: ${detail()}`);
    for (const h of held)
      for (const id of h) if (!ids.includes(id)) throw new Error(`a state holds a missing alert: ${detail()}`);
    if ((await deletedIds(emu)).length) throw new Error(`an alert was deleted: ${detail()}`);
    if (ids.length === 0) throw new Error(`no alert was made: ${detail()}`);
    const failedNaming = results.filter(
      (r) => r.status !== 0 && ids.every((id) => flat(r.output).includes(String(id))),
    );
    if (ids.length > 1 && failedNaming.length === 0)
      throw new Error(`a duplicate name with no error naming every id: ${detail()}`);
    // A side that exits 0 holds the alert; one that does not, says why, naming it.
    results.forEach((r, i) => {
      if (r.status === 0 && held[i]!.length !== 1)
        throw new Error(`a side succeeded without holding the alert: ${detail()}`);
      if (r.status !== 0 && !flat(r.output).includes('Alert already exists'))
        throw new Error(`a side failed for another reason: ${detail()}`);
    });
    return `${ids.length} alert(s), exits ${results.map((r) => r.status).join('/')}`;
  }

  for (const latencyMs of [0, 20, 200]) {
    for (const mode of ['directories', 'workspaces'] as const) {
      test(`${ROUNDS} rounds of two ${mode} at ${latencyMs} ms`, async () => {
        const sides: [Side, Side] =
          mode === 'directories'
            ? [
                { label: 'a', dir: a, workspace: 'default' },
                { label: 'b', dir: b, workspace: 'default' },
              ]
            : [
                { label: 'a:one', dir: a, workspace: 'one' },
                { label: 'a:two', dir: a, workspace: 'two' },
              ];
        const tally = new Map<string, number>();
        for (let n = 1; n <= ROUNDS; n++) {
          const outcome = await round(latencyMs, sides, n);
          tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
        }
        outcomes.push(`${mode} at ${latencyMs} ms: ${[...tally].map(([k, v]) => `${v}× ${k}`).join('; ')}`);
      });
    }
  }
});
