/**
 * The networkcalc handlers in-process against the emulator: create's id discovery and
 * adoption after an unknown outcome, the canonical refresh, the read cache and configure.
 */
import { configureProvider, type NetworkcalcData } from '../../src/provider/provider-config';
import { alertResource, refreshedState } from '../../src/provider/alert-resource';
import { ListCache } from '../../src/provider/cache';
import { Diagnostics } from '../../src/provider/diagnostics';
import { UNKNOWN, type ObjectValue } from '../../src/provider/values';
import { DEMO_ACCOUNT } from '../../src/emulator';
import type { NetworkCalcClient } from '../../src/client';
import { useEmulator } from '../helpers/emulator';
import { alertSpec } from '../helpers/fixtures';
import { droppedCreates } from '../helpers/faults';
import { collectProviderLog } from '../helpers/provider-log';
import { readLiveAlert, toAlertSpec, type LiveAlert } from '../../src/model';
import { CreateJournal } from '../../src/provider/create-journal';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const emulator = useEmulator();
const providerLog = collectProviderLog();

async function configured(
  env: NodeJS.ProcessEnv,
  config: ObjectValue = {},
): Promise<{ data?: NetworkcalcData; diags: Diagnostics }> {
  const diags = new Diagnostics();
  const data = await configureProvider({ config, terraformVersion: 'test', diagnostics: diags }, env);
  return { data, diags };
}

const plan = (name: string): ObjectValue => ({
  id: UNKNOWN,
  ...alertSpec({ name }),
  user_id: UNKNOWN,
  is_active: UNKNOWN,
  current_status: UNKNOWN,
  action: UNKNOWN,
  last_triggered_at: UNKNOWN,
});

describe('configure', () => {
  test('GIVEN no credentials THEN one error naming the variables, with custom names honoured', async () => {
    const { data, diags } = await configured({}, { token_env: 'ACME_TOKEN' });
    expect(data).toBeUndefined();
    expect(diags.items).toHaveLength(1);
    expect(diags.items[0]!.summary).toBe('Missing NetworkCalc credentials');
    // The block names its token: it reads nothing else, and is sent to nothing else.
    expect(diags.items[0]!.detail).toBe(
      'This provider block reads its credentials only from what it names: set ACME_TOKEN to an access token. The NETWORKCALC_* variables apply only to a block that names no credential.',
    );
    const defaults = await configured({});
    expect(defaults.diags.items[0]!.detail).toContain(
      'Set the environment variable NETWORKCALC_TOKEN to an access token, or NETWORKCALC_CLIENT_ID and NETWORKCALC_CLIENT_SECRET',
    );
  });

  test('GIVEN a block naming its token THEN the default client credentials are never read', async () => {
    const { data, diags } = await configured(
      {
        NETWORKCALC_BASE_URL: emulator().url,
        NETWORKCALC_CLIENT_ID: DEMO_ACCOUNT.clientId,
        NETWORKCALC_CLIENT_SECRET: DEMO_ACCOUNT.clientSecret,
      },
      { token_env: 'ACME_TOKEN' },
    );
    expect(data).toBeUndefined();
    expect(diags.items.map((d) => d.summary)).toEqual(['Missing NetworkCalc credentials']);
  });

  test('GIVEN a client id without its secret THEN the missing variable is named', async () => {
    const { diags } = await configured({ NETWORKCALC_CLIENT_ID: 'x' });
    expect(diags.items[0]!.detail).toContain('set NETWORKCALC_CLIENT_SECRET as well');
  });

  test('GIVEN a bad base_url or max_retries THEN errors point at the attribute', async () => {
    const a = await configured({ NETWORKCALC_TOKEN: 't' }, { base_url: 'ftp://x' });
    expect(a.diags.items[0]).toMatchObject({ summary: 'Invalid base_url', path: ['base_url'] });
    const b = await configured({ NETWORKCALC_TOKEN: 't' }, { max_retries: 0 });
    expect(b.diags.items[0]).toMatchObject({ summary: 'Invalid max_retries', path: ['max_retries'] });
  });

  test('GIVEN client credentials in variables named by the config THEN they are used', async () => {
    const { data, diags } = await configured(
      { NETWORKCALC_BASE_URL: emulator().url, A_ID: DEMO_ACCOUNT.clientId, A_SECRET: DEMO_ACCOUNT.clientSecret },
      { client_id_env: 'A_ID', client_secret_env: 'A_SECRET' },
    );
    expect(diags.items).toEqual([]);
    expect(await data!.client.listAlerts()).toEqual([]);
    // The provider holds the API as AlertsApi; this block's is the HTTP client.
    expect((data!.client as NetworkCalcClient).tokenExchanges).toBe(1);
  });
  test('GIVEN a refused token or an unreachable API THEN the message names the configured variable and address', async () => {
    const read = async (data: NetworkcalcData) => {
      const diags = new Diagnostics();
      await alertResource.read({ state: { id: '1' }, diagnostics: diags, providerData: data });
      return diags.items[0]!.detail!;
    };
    const refused = await configured(
      { NETWORKCALC_BASE_URL: emulator().url, ACME_TOKEN: 'refused-token' },
      { token_env: 'ACME_TOKEN' },
    );
    const detail = await read(refused.data!);
    expect(detail).toContain('NOT_AUTHORIZED');
    expect(detail).toContain('ACME_TOKEN');
    expect(detail).not.toContain('NETWORKCALC_TOKEN');
    // Terraform's log (the provider's stderr) shows the request and its answer, never the token.
    expect(providerLog()).toEqual([expect.stringMatching(/^GET \/api\/alerts\/ 401 attempt=1 \d+ms$/)]);
    expect(providerLog().join('\n')).not.toContain('refused-token');
    const down = await configured({ NETWORKCALC_TOKEN: 't' }, { base_url: 'http://127.0.0.1:9', max_retries: 1 });
    expect(await read(down.data!)).toContain('check base_url (http://127.0.0.1:9)');
  });

  test('GIVEN a base_url ending in /api (the path doubled) THEN the diagnostic says which base_url to set, and nothing reads as deleted', async () => {
    const url = emulator().url;
    const { data } = await configured({ NETWORKCALC_TOKEN: 'demo-token' }, { base_url: `${url}/api` });
    const readDiags = new Diagnostics();
    const state = { id: '1', name: 'web' };
    // The emulator answers the unknown route /api/api/alerts/ with 404 {"status": "NOT_FOUND"}.
    expect(await alertResource.read({ state, diagnostics: readDiags, providerData: data })).toBe(state);
    expect(readDiags.items).toHaveLength(1);
    expect(readDiags.items[0]!.detail).toContain(
      `base_url is ${url}/api, and this client adds /api/... itself, so the path is doubled; set base_url to ${url}`,
    );
    const updateDiags = new Diagnostics();
    const planned = { ...plan('web'), id: '1' };
    await alertResource.update({
      prior: planned,
      plan: planned,
      config: planned,
      diagnostics: updateDiags,
      providerData: data,
    });
    expect(updateDiags.items.map((d) => d.summary)).toEqual(['Could not update alert 1']);
    expect(updateDiags.items[0]!.detail).toContain(`set base_url to ${url}`);
  });
});

describe('networkcalc_alert handlers', () => {
  const demo = async () =>
    (await configured({ NETWORKCALC_BASE_URL: emulator().url, NETWORKCALC_TOKEN: DEMO_ACCOUNT.token })).data!;

  const dnsAlert = (name: string) => alertSpec({ name });
  const posts = async () => (await emulator().control.requests()).filter((q) => q.method === 'POST').length;

  test('GIVEN an alert of that name in the account WHEN creating THEN refused with the import command, and nothing sent', async () => {
    const data = await demo();
    const existing = await emulator().control.createAlert('demo', dnsAlert('Twin'));
    const before = await posts();
    const diags = new Diagnostics();
    const state = await alertResource.create({
      plan: plan('twin'),
      config: plan('twin'),
      diagnostics: diags,
      providerData: data,
    });
    expect(state).toBeNull();
    expect(diags.items).toHaveLength(1);
    expect(diags.items[0]).toMatchObject({ summary: 'Alert already exists', path: ['name'] });
    expect(diags.items[0]!.detail).toContain(`(id ${existing.id})`);
    expect(diags.items[0]!.detail).toContain(`terraform import <this resource's address> ${existing.id}`);
    expect(diags.items[0]!.detail).toContain(`id = "${existing.id}"`);
    expect(await posts()).toBe(before);
  });

  test('GIVEN two creates of one name in one run THEN one alert and one clear refusal; distinct names each get their own id', async () => {
    const data = await demo();
    const diags = new Diagnostics();
    const create = (name: string) =>
      alertResource.create({ plan: plan(name), config: plan(name), diagnostics: diags, providerData: data });
    const [a, b, c] = await Promise.all([create('same'), create('same'), create('other')]);
    expect([a, b].filter((x) => x !== null)).toHaveLength(1);
    expect(diags.items.map((d) => d.summary)).toEqual(['Alert already exists']);
    expect(diags.items[0]!.detail).toContain('count.index or each.key');
    expect(c!.id).not.toBe((a ?? b)!.id);
    const names = (await emulator().control.state()).accounts[0]!.alerts.map((x) => x.name);
    expect(names.filter((n) => n === 'same')).toHaveLength(1);
    expect(names.filter((n) => n === 'other')).toHaveLength(1);
  });

  test('GIVEN a journal WHEN creating THEN the intent is on disk before the POST is sent; the record ends when a plan or refresh sees a state holding the alert', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nc-journal-'));
    try {
      mkdirSync(path.join(dir, '.terraform'));
      const base = await demo();
      const journal = CreateJournal.open('acct', {}, dir)!;
      const seenAtPost: string[] = [];
      const client = Object.create(base.client) as typeof base.client;
      client.createAlert = (spec) => {
        seenAtPost.push(readFileSync(journal.file, 'utf8'));
        return base.client.createAlert(spec);
      };
      const data = { ...base, client, journal };
      const diags = new Diagnostics();
      const state = await alertResource.create({
        plan: plan('durable'),
        config: plan('durable'),
        diagnostics: diags,
        providerData: data,
      });
      expect(diags.items).toEqual([]);
      expect(seenAtPost).toHaveLength(1);
      expect(seenAtPost[0]).toMatch(/^\{"t":"intent","k":"[0-9a-f]{32}","at":\d+\}\n$/);
      journal.close();
      const key = journal.keyOf(toAlertSpec(plan('durable')));
      // Returned, but terraform may die before it writes the state: a later refusal names the id.
      const id = Number(state!.id);
      expect(CreateJournal.open('acct', {}, dir)!.unfinished(key)).toEqual({ kind: 'created', id });
      // The next plan is given the alert as prior state: the record ends.
      const planning = { ...base, journal: CreateJournal.open('acct', {}, dir) };
      await alertResource.modifyPlan!({
        prior: state!,
        config: state!,
        planned: { ...state! },
        requiresReplace: new Set(),
        priorPrivate: {},
        plannedPrivate: {},
        diagnostics: new Diagnostics(),
        providerData: planning,
      });
      planning.journal!.close();
      expect(readFileSync(journal.file, 'utf8')).toMatch(new RegExp(`"t":"held","id":${id}`));
      expect(CreateJournal.open('acct', {}, dir)!.unfinished(key)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('GIVEN a create interrupted in this workspace THEN a later run refuses the alert naming its id and what the killed run could prove; no workspace adopts it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nc-journal-'));
    try {
      mkdirSync(path.join(dir, '.terraform'));
      const account = 'acct';
      const spec = toAlertSpec(plan('interrupted'));
      // The earlier run: intent on disk, POST sent, then killed before the create returned.
      const killed = CreateJournal.open(account, {}, dir)!;
      await killed.intent(killed.keyOf(spec));
      const created = await emulator().control.createAlert('demo', dnsAlert('interrupted'));
      killed.close();

      const refusal = async (env: NodeJS.ProcessEnv) => {
        const data = { ...(await demo()), journal: CreateJournal.open(account, env, dir) };
        const diags = new Diagnostics();
        const state = await alertResource.create({
          plan: plan('interrupted'),
          config: plan('interrupted'),
          diagnostics: diags,
          providerData: data,
        });
        data.journal!.close();
        expect(state).toBeNull();
        expect(diags.items.map((d) => d.summary)).toEqual(['Alert already exists']);
        return diags.items[0]!.detail!;
      };
      const other = await refusal({ TF_WORKSPACE: 'y' });
      expect(other).toContain(`Alert "interrupted" already exists (id ${created.id}) and no state here holds it.`);
      const same = await refusal({});
      expect(same).toContain(
        `Alert "interrupted" already exists (id ${created.id}) and no state here holds it: an earlier run of this workspace was stopped while creating an alert of this name, before it could prove which alert, if any, it made.`,
      );
      for (const text of [other, same]) {
        expect(text).toContain(`terraform import <this resource's address> ${created.id}`);
        expect(text).toContain('npx --no-install ncalc import-blocks');
      }
      // The killed run had proven its alert: the refusal says so, and still does not adopt it.
      const proven = CreateJournal.open(account, {}, dir)!;
      proven.created(proven.keyOf(spec), created.id);
      proven.close();
      expect(await refusal({})).toContain(
        `no state here holds it: an earlier run of this workspace created it (its own create proved id ${created.id})`,
      );
      const posts = (await emulator().control.requests()).filter((q) => q.method === 'POST');
      expect(posts).toHaveLength(0);
      expect(
        (await emulator().control.state()).accounts[0]!.alerts.filter((a) => a.name === 'interrupted'),
      ).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the journal of a directory is one per workspace and backend', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nc-journal-'));
    try {
      const data = path.join(dir, '.terraform');
      mkdirSync(data);
      const files = new Set([
        CreateJournal.open('a', {}, dir)!.file,
        CreateJournal.open('a', { TF_WORKSPACE: 'x' }, dir)!.file,
      ]);
      writeFileSync(path.join(data, 'environment'), 'y');
      files.add(CreateJournal.open('a', {}, dir)!.file);
      writeFileSync(
        path.join(data, 'terraform.tfstate'),
        JSON.stringify({ backend: { type: 'local', config: { path: 'b.tfstate' } } }),
      );
      files.add(CreateJournal.open('a', {}, dir)!.file);
      expect(files.size).toBe(4);
      for (const f of files) expect(path.dirname(f)).toBe(data);
      expect(CreateJournal.open('a', {}, path.join(dir, 'nowhere'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('GIVEN a create whose answer is lost after the server saved it THEN the alert is adopted, not created twice', async () => {
    const data = await demo();
    await emulator().control.addFault(droppedCreates('after'));
    const diags = new Diagnostics();
    const state = await alertResource.create({
      plan: plan('lost answer'),
      config: plan('lost answer'),
      diagnostics: diags,
      providerData: data,
    });
    expect(diags.hasError()).toBe(false);
    expect(diags.items.map((d) => d.summary)).toEqual(['Alert adopted after an unclear create']);
    const alerts = (await emulator().control.state()).accounts[0]!.alerts;
    expect(alerts.filter((a) => a.name === 'lost answer')).toHaveLength(1);
    expect(state!.id).toBe(String(alerts[0]!.id));
    const posts = (await emulator().control.requests()).filter((q) => q.method === 'POST');
    expect(posts).toHaveLength(1);
  });

  test('GIVEN a create that never reached the server THEN the list proves it and it is sent once more', async () => {
    const data = await demo();
    await emulator().control.addFault(droppedCreates('before'));
    const diags = new Diagnostics();
    const state = await alertResource.create({
      plan: plan('never'),
      config: plan('never'),
      diagnostics: diags,
      providerData: data,
    });
    expect(diags.items).toEqual([]);
    const alerts = (await emulator().control.state()).accounts[0]!.alerts;
    expect(alerts.map((a) => a.name)).toEqual(['never']);
    expect(state!.id).toBe(String(alerts[0]!.id));
    expect((await emulator().control.requests()).filter((q) => q.method === 'POST')).toHaveLength(2);
  });

  test('GIVEN a create whose id cannot be learned THEN it stays in state without an id; the next read never takes the alert by name, and a delete deletes nothing', async () => {
    const data = await demo();
    // The baseline list succeeds; every list after the POST fails.
    await alertResource.read({
      state: { id: '999', is_active: null },
      diagnostics: new Diagnostics(),
      providerData: data,
    });
    await emulator().control.addFault({ kind: 'status', status: 503, match: { method: 'GET', path: '/api/alerts' } });
    const diags = new Diagnostics();
    const state = await alertResource.create({
      plan: plan('kept'),
      config: plan('kept'),
      diagnostics: diags,
      providerData: data,
    });
    expect(diags.items.map((d) => d.summary)).toEqual(['Alert created; its id is unknown']);
    expect(state).toMatchObject({ id: null, name: 'kept', user_id: null });
    await emulator().control.clearFaults();
    const alerts = (await emulator().control.state()).accounts[0]!.alerts;
    expect(alerts.map((a) => a.name)).toEqual(['kept']);
    // Another process cannot prove that alert is the one this create made: dropped, id named.
    const readDiags = new Diagnostics();
    const read = await alertResource.read({ state: state!, diagnostics: readDiags, providerData: await demo() });
    expect(read).toBeNull();
    expect(readDiags.items[0]!.detail).toContain(`Alert ${alerts[0]!.id} now has that name`);
    const deleteDiags = new Diagnostics();
    await alertResource.delete({ state: state!, diagnostics: deleteDiags, providerData: await demo() });
    expect(deleteDiags.items.map((d) => d.summary)).toEqual(['Alert removed from the state without a delete']);
    expect((await emulator().control.state()).accounts[0]!.alerts.map((a) => a.name)).toEqual(['kept']);
  });

  test('GIVEN an unknown outcome that no list can settle THEN the alert is kept in state (tainted), never dropped', async () => {
    const data = await demo();
    await alertResource.read({
      state: { id: '999', is_active: null },
      diagnostics: new Diagnostics(),
      providerData: data,
    });
    await emulator().control.addFault(droppedCreates('after'));
    await emulator().control.addFault({ kind: 'status', status: 503, match: { method: 'GET', path: '/api/alerts' } });
    const diags = new Diagnostics();
    const state = await alertResource.create({
      plan: plan('unsure'),
      config: plan('unsure'),
      diagnostics: diags,
      providerData: data,
    });
    expect(diags.items.map((d) => d.summary)).toEqual([
      'Alert create outcome unknown',
      'Alert kept in the state without an id',
    ]);
    expect(state).toMatchObject({ id: null, name: 'unsure' });
    expect((await emulator().control.requests()).filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  test('GIVEN many concurrent reads THEN one list call', async () => {
    const data = await demo();
    for (let i = 0; i < 5; i++)
      await emulator().control.createAlert('demo', {
        name: `r${i}`,
        type: 'SPF Record',
        filter: 'validity',
        target_type: 'domain',
        target_id: 1,
      });
    await emulator().control.clearRequests();
    const ids = (await emulator().control.state()).accounts[0]!.alerts.map((a) => a.id);
    const states = await Promise.all(
      ids.map((id) =>
        alertResource.read({
          state: { id: String(id), is_active: null },
          diagnostics: new Diagnostics(),
          providerData: data,
        }),
      ),
    );
    expect(states.map((s) => s!.name)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect((await emulator().control.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/alerts/']);
  });
});

describe('refreshedState', () => {
  const live: LiveAlert = readLiveAlert({
    id: 3,
    name: 'cert',
    type: 'Certificate (TLS)',
    subtype: null,
    filter: 'expires in (days)',
    filter_value: '21',
    target_type: 'subdomain',
    target_id: 2,
    user_id: 1,
    is_active: true,
    current_status: 'triggered',
    action: 'email',
    last_triggered_at: '2026-01-01T00:00:00Z',
    target_domain: null,
    target_subdomain: null,
  });
  const prior: ObjectValue = {
    id: '3',
    name: 'cert',
    type: 'certificate (tls)',
    subtype: null,
    filter: 'Expires In (Days)',
    filter_value: '021',
    target_type: 'subdomain',
    target_id: 2,
    user_id: 1,
    is_active: true,
    current_status: 'healthy',
    action: 'email',
    last_triggered_at: null,
  };

  const refreshedReadOnly = { current_status: 'triggered', last_triggered_at: '2026-01-01T00:00:00Z' };

  test('GIVEN canonically equal values THEN the prior spelling stays, and the read-only values are the live ones', () => {
    expect(refreshedState(prior, live)).toEqual({ ...prior, ...refreshedReadOnly });
  });

  test('GIVEN a real change THEN the live value replaces it', () => {
    expect(refreshedState(prior, { ...live, filter_value: '30' })).toEqual({
      ...prior,
      ...refreshedReadOnly,
      filter_value: '30',
    });
  });

  test('GIVEN a configuration that only respells values THEN the plan keeps the prior state: no change', async () => {
    const state = { ...prior, type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' };
    const planned: ObjectValue = { ...prior, current_status: UNKNOWN, is_active: UNKNOWN, last_triggered_at: UNKNOWN };
    const requiresReplace = new Set<string>();
    const diagnostics = new Diagnostics();
    await alertResource.modifyPlan!({
      prior: state,
      config: prior,
      planned,
      requiresReplace,
      priorPrivate: {},
      plannedPrivate: {},
      diagnostics,
      providerData: undefined,
    });
    expect(diagnostics.items).toEqual([]);
    expect(planned).toEqual(state);
  });

  test('GIVEN a real change in an update plan THEN only it changes: read-only values stay as they are, not unknown', async () => {
    const planned: ObjectValue = {
      ...prior,
      filter_value: '30',
      current_status: UNKNOWN,
      is_active: UNKNOWN,
      last_triggered_at: UNKNOWN,
    };
    await alertResource.modifyPlan!({
      prior,
      config: prior,
      planned,
      requiresReplace: new Set(),
      priorPrivate: {},
      plannedPrivate: {},
      diagnostics: new Diagnostics(),
      providerData: undefined,
    });
    expect(planned).toEqual({ ...prior, filter_value: '30' });
  });

  test('GIVEN an imported (id-only) state THEN everything comes from live, "no value" as null', () => {
    const imported = {
      id: '3',
      name: null,
      type: null,
      subtype: null,
      filter: null,
      filter_value: null,
      target_type: null,
      target_id: null,
      user_id: null,
      is_active: null,
      current_status: null,
      action: null,
      last_triggered_at: null,
    };
    expect(
      refreshedState(imported, { ...live, type: 'SPF Record', filter: 'validity', filter_value: '' }),
    ).toMatchObject({
      type: 'SPF Record',
      filter: 'validity',
      filter_value: null,
      current_status: 'triggered',
      user_id: 1,
    });
  });
});

describe('state upgrade', () => {
  test('GIVEN a state of schema version 0 (a numeric id) THEN it upgrades to the string id, the rest as it was', async () => {
    const { ProviderServer } = await import('../../src/provider/server');
    const { networkcalcProvider } = await import('../../src/provider/networkcalc');
    const { decodeObject } = await import('../../src/provider/values');
    const server = new ProviderServer(networkcalcProvider({}));
    const old = {
      id: 42,
      ...alertSpec({ name: 'www' }),
      user_id: 1,
      is_active: true,
      current_status: 'healthy',
      action: 'email',
      last_triggered_at: null,
    };
    const r = (await server.UpgradeResourceState({
      type_name: 'networkcalc_alert',
      version: 0,
      raw_state: { json: Buffer.from(JSON.stringify(old)) },
    })) as { upgraded_state: { msgpack: Buffer }; diagnostics: unknown[] };
    expect(r.diagnostics).toEqual([]);
    expect(decodeObject(alertResource.schema, r.upgraded_state)).toEqual({ ...old, id: '42' });
    expect(alertResource.schema.version).toBe(1);
  });
});

describe('ListCache', () => {
  test('single-flight, kept until cleared, failures too', async () => {
    let n = 0;
    const cache = new ListCache(async () => {
      n++;
      if (n === 2) throw new Error('boom');
      return n;
    });
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([1, 1, 1]);
    cache.clear();
    await expect(cache.get()).rejects.toThrow('boom');
    await expect(cache.get()).rejects.toThrow('boom');
    expect(cache.loads).toBe(2);
    cache.clear();
    expect(await cache.get()).toBe(3);
    expect(cache.loads).toBe(3);
  });
});
