/**
 * One owner per alert (docs/architecture.md), with the real terraform against the emulator at
 * its strictest (one DELETE form, creates answered without an id), at 0, 20 and 200 ms:
 * - `terraform test` after `terraform apply` refuses the deployed alert, never adopts or
 *   deletes it;
 * - a run killed at each point of a create (before the POST, POST in flight, after the
 *   answer, after the state is written), then applied again: no duplicate, and a refusal
 *   naming the id whenever the run cannot prove the alert its own; never adopted;
 * - a killed workspace never adopts the alert another workspace created, nor deletes it;
 * - a rename into a live name is refused at plan (and at apply of a saved plan), naming it;
 * - a resource address renamed without `moved` fails the plan with the block to add; the
 *   alert survives;
 * - a planned create of a live name no state here holds fails `terraform plan`.
 * Every test also checks that no id is held by two states and that no alert was deleted by a
 * state that did not hold it. `npm test` runs each case at one of the latencies, spread over the
 * cases; the soak run runs every case at every latency (test/helpers/soak.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEMO_ACCOUNT, startEmulator, type RunningEmulator } from '../../src/emulator';
import { expectStatus, NetworkcalcSandbox, requirePrerequisites } from './nc-harness';
import {
  alertHcl,
  configOf,
  deletedIds,
  flat,
  groupAlive,
  heldIds,
  initDirs,
  killTerraform,
  resetDir,
  sharedIds,
  startTerraform,
  writeConfig,
} from './owner-support';
import { waitFor } from '../helpers/processes';
import { sampled } from '../helpers/soak';

jest.setTimeout(180_000);

const LATENCIES = [0, 20, 200] as const;
const IMPORT_BLOCKS = 'npx --no-install ncalc import-blocks';

describe.each(LATENCIES.map((ms, i) => [ms, i] as const))('one owner per alert at %i ms', (latencyMs, latencyIndex) => {
  let emu: RunningEmulator;
  let sb: NetworkcalcSandbox;
  let a: string;
  let b: string;

  const live = async () => (await emu.control.state()).accounts[0]!.alerts;
  const liveIdOf = async (name: string) => String((await live()).find((x) => x.name === name)!.id);
  const tf = (dir: string, args: string[]) => sb.terraform(args, { cwd: dir });
  /** Case `index` of the suite: skipped at this latency unless the matrix is whole (test/helpers/soak.ts). */
  const at = (index: number) => (sampled(index, latencyIndex, LATENCIES.length) ? test : test.skip);

  beforeAll(async () => {
    requirePrerequisites();
    emu = await startEmulator({ deleteForm: 'body' });
    sb = new NetworkcalcSandbox({ NETWORKCALC_BASE_URL: emu.url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token });
    [a, b] = await initDirs(sb, ['a', 'b']);
  });
  beforeEach(async () => {
    await emu.control.reset();
    resetDir(a!);
    resetDir(b!);
    if (latencyMs > 0) await emu.control.addFault({ kind: 'latency', latencyMs, match: { path: '/api/' } });
  });
  afterAll(async () => {
    sb?.dispose();
    await emu?.close();
  });

  at(0)(
    'terraform test after terraform apply: the test refuses the deployed alert, with the test hint; the alert and its state survive',
    async () => {
      writeConfig(a, configOf(alertHcl('prod', '"prod"')));
      expectStatus(await tf(a, ['apply', '-auto-approve']), 0);
      const id = await liveIdOf('prod');
      mkdirSync(path.join(a, 'tests'));
      writeFileSync(
        path.join(a, 'tests', 'smoke.tftest.hcl'),
        'run "named" {\n  assert {\n    condition     = networkcalc_alert.prod.name == "prod"\n    error_message = "wrong name"\n  }\n}\n',
      );
      await emu.control.clearRequests();
      const test = await tf(a, ['test']);
      expect(test.status).toBe(1);
      const text = flat(test.output);
      expect(text).toContain(`Alert "prod" already exists (id ${id}) and no state here holds it`);
      expect(text).toContain(
        "Under terraform test, give the test's alerts names of their own through variables, or use mock_provider or override_resource",
      );
      // Terraform saved the apply's state: the refusal does not blame a killed run.
      expect(text).not.toContain('an earlier run');
      expect(text).not.toContain('Alert adopted');
      expect(await deletedIds(emu)).toEqual([]);
      expect((await emu.control.requests()).filter((q) => q.method === 'POST')).toEqual([]);
      expect((await live()).map((x) => String(x.id))).toEqual([id]);
      expect(heldIds(a)).toEqual([id]);
      expectStatus(await tf(a, ['plan', '-detailed-exitcode']), 0);
    },
  );

  at(1)(
    'a create planned for a name that is live and held by no state here fails terraform plan, naming the id and the fix',
    async () => {
      const console = await emu.control.createAlert('demo', {
        name: 'taken',
        type: 'SPF Record',
        filter: 'validity',
        target_type: 'domain',
        target_id: 1,
      });
      writeConfig(a, configOf(alertHcl('t', '"taken"'), alertHcl('free', '"free"')));
      const plan = await tf(a, ['plan', '-detailed-exitcode']);
      expect(plan.status).toBe(1);
      const text = flat(plan.output);
      expect(text).toContain(`Alert "taken" already exists (id ${console.id}) and no state here holds it.`);
      expect(text).toContain(`terraform import <this resource's address> ${console.id}`);
      expect(text).toContain(IMPORT_BLOCKS);
      expect(text).toContain('with networkcalc_alert.t');
      expect(text.match(/Error: /g)).toHaveLength(1);
      expect((await live()).map((x) => x.name)).toEqual(['taken']);
    },
  );

  at(2)(
    'a rename into a name the account has is refused at plan and at apply of a saved plan, naming the alert',
    async () => {
      writeConfig(a, configOf(alertHcl('x', '"x"'), alertHcl('y', '"y"')));
      expectStatus(await tf(a, ['apply', '-auto-approve']), 0);
      const [x, y] = [await liveIdOf('x'), await liveIdOf('y')];
      writeConfig(a, configOf(alertHcl('x', '"x"'), alertHcl('y', '"X"')));
      const plan = await tf(a, ['plan']);
      expect(plan.status).toBe(1);
      expect(flat(plan.output)).toContain(
        `Alert ${y} cannot be renamed to "X": the account already has alert ${x} of that name`,
      );
      // Known only at apply: the name appears after the plan was saved.
      writeConfig(a, configOf(alertHcl('x', '"x"'), alertHcl('y', '"z"')));
      expectStatus(await tf(a, ['plan', '-out=rename.tfplan']), 0);
      const other = await emu.control.createAlert('demo', {
        name: 'z',
        type: 'SPF Record',
        filter: 'validity',
        target_type: 'domain',
        target_id: 1,
      });
      const apply = await tf(a, ['apply', 'rename.tfplan']);
      expect(apply.status).toBe(1);
      expect(flat(apply.output)).toContain(`the account already has alert ${other.id} of that name`);
      expect((await live()).map((q) => q.name).sort()).toEqual(['x', 'y', 'z']);
      expect(await deletedIds(emu)).toEqual([]);
    },
  );

  at(3)(
    'a resource address renamed without moved fails the plan with the moved block; with it the alert stays',
    async () => {
      writeConfig(a, configOf(alertHcl('old', '"kept"')));
      expectStatus(await tf(a, ['apply', '-auto-approve']), 0);
      const id = await liveIdOf('kept');
      writeConfig(a, configOf(alertHcl('renamed', '"kept"')));
      for (const args of [['plan'], ['apply', '-auto-approve']]) {
        const r = await tf(a, args);
        expect(r.status).toBe(1);
        const text = flat(r.output);
        expect(text).toContain(
          `This plan destroys alert ${id} ("kept"), which this state holds at networkcalc_alert.old`,
        );
        expect(text).toContain("moved { from = networkcalc_alert.old to = <this resource's address> }");
        expect(text).toContain('with networkcalc_alert.renamed');
      }
      expect((await live()).map((x) => String(x.id))).toEqual([id]);
      expect(await deletedIds(emu)).toEqual([]);
      writeConfig(
        a,
        `${configOf(alertHcl('renamed', '"kept"'))}\nmoved {\n  from = networkcalc_alert.old\n  to   = networkcalc_alert.renamed\n}\n`,
      );
      expectStatus(await tf(a, ['apply', '-auto-approve']), 0);
      expect(heldIds(a)).toEqual([id]);
      expect((await live()).map((x) => String(x.id))).toEqual([id]);
    },
  );

  at(4)(
    'a workspace killed while its POST is in flight (the service drops it) never adopts the alert another workspace then creates, nor deletes it',
    async () => {
      writeConfig(a, configOf(alertHcl('w', '"same"')));
      expectStatus(await tf(a, ['workspace', 'new', 'one']), 0);
      const hold = await emu.control.addFault({
        kind: 'latency',
        latencyMs: 1500,
        count: 1,
        match: { method: 'POST', path: '/api/alerts' },
      });
      await emu.control.addFault({ kind: 'drop', count: 1, match: { method: 'POST', path: '/api/alerts' } });
      const killed = startTerraform(sb, ['apply', '-auto-approve'], a);
      await waitFor('the POST in flight', async () =>
        (await emu.control.faults()).every((f) => f.id !== hold || f.hits > 0),
      );
      await killTerraform(killed);
      await new Promise((resolve) => setTimeout(resolve, 1700)); // the held POST reaches the drop
      expect(await live()).toEqual([]);

      expectStatus(await tf(a, ['workspace', 'new', 'two']), 0);
      expectStatus(await tf(a, ['apply', '-auto-approve']), 0);
      const id = await liveIdOf('same');
      expectStatus(await tf(a, ['workspace', 'select', 'one']), 0);
      const again = await tf(a, ['apply', '-auto-approve']);
      expect(again.status).toBe(1);
      expect(flat(again.output)).toContain(`Alert "same" already exists (id ${id}) and no state here holds it`);
      expect(again.output).not.toContain('Alert adopted');
      expect(sharedIds([heldIds(a, 'one'), heldIds(a, 'two')])).toEqual([]);
      expect(heldIds(a, 'one')).toEqual([]);
      expectStatus(await tf(a, ['destroy', '-auto-approve']), 0);
      expect((await live()).map((x) => String(x.id))).toEqual([id]);
      expect(await deletedIds(emu)).toEqual([]);
    },
  );

  describe('SIGKILL at each point of a create, then apply again', () => {
    /** Runs apply in a, kills it at `point`, then applies again; returns the re-apply. */
    async function killedAt(
      point: 'before the POST' | 'POST in flight' | 'after the answer' | 'after the state is written',
    ) {
      writeConfig(a, configOf(alertHcl('k', '"killed"')));
      const requests = async (method: string) => (await emu.control.requests()).filter((q) => q.method === method);
      const used = async (id: string) => {
        const f = (await emu.control.faults()).find((x) => x.id === id);
        return f === undefined || f.hits > 0;
      };
      let fault: string | undefined;
      if (point === 'POST in flight')
        fault = await emu.control.addFault({
          kind: 'latency',
          latencyMs: 1500,
          count: 1,
          match: { method: 'POST', path: '/api/alerts' },
        });
      const run = startTerraform(sb, ['apply', '-auto-approve'], a);
      if (point === 'before the POST') {
        // The plan's process lists first; the apply's process lists before its create.
        await waitFor('the plan listed', async () => (await requests('GET')).length > 0);
        fault = await emu.control.addFault({
          kind: 'latency',
          latencyMs: 1500,
          count: 1,
          match: { method: 'GET', path: '/api/alerts' },
        });
        await waitFor('the apply listing', () => used(fault!));
      } else if (point === 'POST in flight') {
        await waitFor('the POST in flight', () => used(fault!));
      } else if (point === 'after the answer') {
        await waitFor('the POST answered', async () => (await requests('POST')).length > 0);
      } else {
        await waitFor('the state written', () => heldIds(a).length > 0 || !groupAlive(run.child));
      }
      await killTerraform(run);
      await new Promise((resolve) => setTimeout(resolve, 1700)); // a POST held by the emulator lands
      const made = (await live()).map((x) => String(x.id));
      const held = heldIds(a);
      await emu.control.clearRequests();
      const again = await tf(a, ['apply', '-auto-approve']);
      return { made, held, again };
    }

    const points = ['before the POST', 'POST in flight', 'after the answer', 'after the state is written'] as const;
    for (const [index, point] of points.entries()) {
      at(5 + index)(point, async () => {
        const { made, held, again } = await killedAt(point);
        const names = (await live()).map((x) => x.name);
        expect(names.filter((n) => n === 'killed')).toHaveLength(1); // never a duplicate
        expect(await deletedIds(emu)).toEqual([]);
        const id = await liveIdOf('killed');
        if (made.length === 0 || held.includes(id)) {
          // Nothing was made, or the state holds it: the re-apply needs no proof.
          expectStatus(again, 0);
          expect(heldIds(a)).toEqual([id]);
        } else {
          // Made, and in no state: refused with the id, whatever the journal knows.
          expect(again.status).toBe(1);
          const text = flat(again.output);
          expect(text).toContain(`Alert "killed" already exists (id ${id}) and no state here holds it`);
          expect(text).toMatch(
            /an earlier run of this workspace (was stopped while creating|created it \(its own create proved)/,
          );
          expect(text).toContain(IMPORT_BLOCKS);
          expect(heldIds(a)).toEqual([]);
          // The fix the message gives.
          expectStatus(await tf(a, ['import', 'networkcalc_alert.k', id]), 0);
          expectStatus(await tf(a, ['plan', '-detailed-exitcode']), 0);
          expect(heldIds(a)).toEqual([id]);
        }
      });
    }
  });
});
