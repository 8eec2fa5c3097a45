import { decode, encode } from '@msgpack/msgpack';
import type { ResourceSchema } from '../../src/schema/types';
import {
  Diagnostics,
  ProviderServer,
  UNKNOWN,
  decodeObject,
  encodeObject,
  isUnknown,
  schemaToMsg,
  type Model,
  type ProviderDefinition,
  type ResourceHandler,
} from '../../src/provider';

const schema: ResourceSchema = {
  description: 'widget',
  version: 1,
  attributes: {
    id: { type: 'string', computed: true, stable: true, description: 'id' },
    name: { type: 'string', required: true, description: 'name' },
    zone: { type: 'string', optional: true, requiresReplace: true, description: 'zone' },
    note: { type: 'string', optional: true, computed: true, description: 'note' },
    status: { type: 'string', computed: true, description: 'status' },
  },
};

const state = (m: Model) => encodeObject(schema, m);
const full = (m: Partial<Model>): Model => ({ id: null, name: null, zone: null, note: null, status: null, ...m });

function makeServer(overrides: Partial<ResourceHandler<string>> = {}) {
  const calls: string[] = [];
  const widget: ResourceHandler<string> = {
    typeName: 'test_widget',
    schema,
    async create({ plan, providerData }) {
      calls.push(`create:${providerData}`);
      return { ...plan, id: 'w1', note: plan.note === UNKNOWN ? 'default' : plan.note, status: 'ok' };
    },
    async read({ state: s }) {
      return s;
    },
    async update({ plan }) {
      calls.push('update');
      return { ...plan, status: 'ok' };
    },
    async delete() {
      calls.push('delete');
    },
    ...overrides,
  };
  const provider: ProviderDefinition<string> = {
    typeName: 'test',
    schema: { description: 'p', attributes: { endpoint: { type: 'string', optional: true, description: 'e' } } },
    resources: [widget],
    dataSources: [],
    configure: ({ config }) => `client(${String(config.endpoint)})`,
  };
  return { server: new ProviderServer(provider), calls };
}

const configured = async (s: ProviderServer<string>) => {
  const r = await s.ConfigureProvider({
    config: encodeObject(
      { description: '', attributes: { endpoint: { type: 'string', optional: true, description: '' } } },
      { endpoint: 'x' },
    ),
  });
  expect(r.diagnostics).toEqual([]);
};

describe('PlanResourceChange defaults', () => {
  test('GIVEN a create WHEN planned THEN computed attributes null in config become unknown', async () => {
    const { server } = makeServer();
    const config = full({ name: 'a', note: null });
    const r = await server.PlanResourceChange({
      type_name: 'test_widget',
      prior_state: state(null as never),
      proposed_new_state: state(config),
      config: state(config),
    });
    const planned = decodeObject(schema, r.planned_state as never)!;
    expect(planned.name).toBe('a');
    expect(isUnknown(planned.id) && isUnknown(planned.note) && isUnknown(planned.status)).toBe(true);
    expect(r.requires_replace).toEqual([]);
  });

  test('GIVEN no change WHEN planned THEN the prior state stands', async () => {
    const { server } = makeServer();
    const prior = full({ id: 'w1', name: 'a', note: 'default', status: 'ok' });
    const r = await server.PlanResourceChange({
      type_name: 'test_widget',
      prior_state: state(prior),
      proposed_new_state: state(prior),
      config: state(full({ name: 'a' })),
    });
    expect(decodeObject(schema, r.planned_state as never)).toEqual(prior);
  });

  test('GIVEN an update WHEN planned THEN stable computed values stay, others become unknown', async () => {
    const { server } = makeServer();
    const prior = full({ id: 'w1', name: 'a', note: 'default', status: 'ok' });
    const proposed = { ...prior, name: 'b' };
    const r = await server.PlanResourceChange({
      type_name: 'test_widget',
      prior_state: state(prior),
      proposed_new_state: state(proposed),
      config: state(full({ name: 'b' })),
    });
    const planned = decodeObject(schema, r.planned_state as never)!;
    expect(planned.id).toBe('w1');
    expect(isUnknown(planned.status)).toBe(true);
    expect(isUnknown(planned.note)).toBe(true);
    expect(r.requires_replace).toEqual([]);
  });

  test('GIVEN a requiresReplace change WHEN planned THEN its path is in requires_replace', async () => {
    const { server } = makeServer();
    const prior = full({ id: 'w1', name: 'a', zone: 'z1', note: 'n', status: 'ok' });
    const proposed = { ...prior, zone: 'z2' };
    const r = await server.PlanResourceChange({
      type_name: 'test_widget',
      prior_state: state(prior),
      proposed_new_state: state(proposed),
      config: state(full({ name: 'a', zone: 'z2', note: 'n' })),
    });
    expect(r.requires_replace).toEqual([{ steps: [{ attribute_name: 'zone' }] }]);
  });

  test('GIVEN a destroy WHEN planned THEN planned_state is null', async () => {
    const { server } = makeServer();
    const r = await server.PlanResourceChange({
      type_name: 'test_widget',
      prior_state: state(full({ id: 'w1', name: 'a' })),
      proposed_new_state: state(null as never),
      config: state(null as never),
    });
    expect(decode((r.planned_state as { msgpack: Buffer }).msgpack)).toBeNull();
  });

  test('modifyPlan may mark values unknown and add replacements', async () => {
    const { server } = makeServer({
      modifyPlan: ({ planned, requiresReplace }) => {
        planned.id = UNKNOWN;
        requiresReplace.add('name');
      },
    });
    const prior = full({ id: 'w1', name: 'a', status: 'ok' });
    const r = await server.PlanResourceChange({
      type_name: 'test_widget',
      prior_state: state(prior),
      proposed_new_state: state({ ...prior, name: 'b' }),
      config: state(full({ name: 'b' })),
    });
    expect(isUnknown(decodeObject(schema, r.planned_state as never)!.id)).toBe(true);
    expect(r.requires_replace).toEqual([{ steps: [{ attribute_name: 'name' }] }]);
  });
});

describe('ApplyResourceChange', () => {
  test('create passes providerData from configure and returns known state', async () => {
    const { server, calls } = makeServer();
    await configured(server);
    const plan = full({ name: 'a', id: UNKNOWN, note: UNKNOWN, status: UNKNOWN });
    const r = await server.ApplyResourceChange({
      type_name: 'test_widget',
      prior_state: state(null as never),
      planned_state: state(plan),
      config: state(full({ name: 'a' })),
    });
    expect(r.diagnostics).toEqual([]);
    expect(decodeObject(schema, r.new_state as never)).toEqual(
      full({ id: 'w1', name: 'a', note: 'default', status: 'ok' }),
    );
    expect(calls).toEqual(['create:client(x)']);
  });

  test('delete returns a null new_state', async () => {
    const { server, calls } = makeServer();
    await configured(server);
    const r = await server.ApplyResourceChange({
      type_name: 'test_widget',
      prior_state: state(full({ id: 'w1', name: 'a' })),
      planned_state: state(null as never),
      config: state(null as never),
    });
    expect(decode((r.new_state as { msgpack: Buffer }).msgpack)).toBeNull();
    expect(calls).toEqual(['delete']);
  });

  test('a handler that leaves a value unknown gets an error diagnostic with the attribute path', async () => {
    const { server } = makeServer({ create: async ({ plan }) => ({ ...plan, id: 'w1' }) });
    await configured(server);
    const r = await server.ApplyResourceChange({
      type_name: 'test_widget',
      prior_state: state(null as never),
      planned_state: state(full({ name: 'a', id: UNKNOWN, status: UNKNOWN })),
      config: state(full({ name: 'a' })),
    });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'ERROR',
        summary: 'Provider returned an unknown value after apply',
        attribute: { steps: [{ attribute_name: 'status' }] },
      }),
    ]);
  });

  test('a handler that throws becomes a diagnostic and the prior state is kept', async () => {
    const { server } = makeServer({
      update: async () => {
        throw new Error('boom');
      },
    });
    await configured(server);
    const prior = full({ id: 'w1', name: 'a', status: 'ok' });
    const r = await server.ApplyResourceChange({
      type_name: 'test_widget',
      prior_state: state(prior),
      planned_state: state({ ...prior, name: 'b' }),
      config: state(full({ name: 'b' })),
    });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Unexpected error in test_widget apply' }),
    ]);
    expect(decodeObject(schema, r.new_state as never)).toEqual(prior);
  });

  test('resource calls before configure are refused with a diagnostic', async () => {
    const { server, calls } = makeServer();
    const r = await server.ApplyResourceChange({
      type_name: 'test_widget',
      prior_state: state(full({ id: 'w1', name: 'a' })),
      planned_state: state(null as never),
      config: state(null as never),
    });
    expect(r.diagnostics).toEqual([expect.objectContaining({ summary: 'Provider not configured' })]);
    expect(calls).toEqual([]);
  });
});

describe('import, upgrade, read', () => {
  test('import without the capability is refused; by id it returns the id, rest null', async () => {
    const plain = makeServer().server;
    await configured(plain);
    expect((await plain.ImportResourceState({ type_name: 'test_widget', id: 'w9' })).diagnostics).toEqual([
      expect.objectContaining({ summary: 'Import not supported' }),
    ]);
    const { server } = makeServer({ importState: ({ id }) => ({ id }) });
    await configured(server);
    const r = await server.ImportResourceState({ type_name: 'test_widget', id: 'w9' });
    const imported = (r.imported_resources as { type_name: string; state: never }[])[0]!;
    expect(imported.type_name).toBe('test_widget');
    expect(decodeObject(schema, imported.state)).toEqual(full({ id: 'w9' }));
  });

  test('UpgradeResourceState re-encodes JSON state and runs upgradeState for older versions', async () => {
    const { server } = makeServer({
      upgradeState: ({ rawState }) => ({ ...rawState, name: rawState.label as string }),
    });
    const same = await server.UpgradeResourceState({
      type_name: 'test_widget',
      version: 1,
      raw_state: { json: Buffer.from('{"id":"w1","name":"a","gone":1}') },
    });
    expect(decodeObject(schema, same.upgraded_state as never)).toEqual(full({ id: 'w1', name: 'a' }));
    const old = await server.UpgradeResourceState({
      type_name: 'test_widget',
      version: 0,
      raw_state: { json: Buffer.from('{"id":"w1","label":"b"}') },
    });
    expect(decodeObject(schema, old.upgraded_state as never)).toEqual(full({ id: 'w1', name: 'b' }));
    const newer = await server.UpgradeResourceState({
      type_name: 'test_widget',
      version: 2,
      raw_state: { json: Buffer.from('{}') },
    });
    expect(newer.diagnostics).toEqual([expect.objectContaining({ summary: 'State written by a newer provider' })]);
  });

  test('read returning null removes the object; warnings travel with it', async () => {
    const { server } = makeServer({
      read: async ({ diagnostics }) => {
        diagnostics.addWarning('Gone', 'deleted outside terraform');
        return null;
      },
    });
    await configured(server);
    const r = await server.ReadResource({
      type_name: 'test_widget',
      current_state: state(full({ id: 'w1', name: 'a' })),
    });
    expect(decode((r.new_state as { msgpack: Buffer }).msgpack)).toBeNull();
    expect(r.diagnostics).toEqual([{ severity: 'WARNING', summary: 'Gone', detail: 'deleted outside terraform' }]);
  });

  test('input that does not match the schema is an error diagnostic naming the attribute', async () => {
    const { server } = makeServer();
    await configured(server);
    const r = await server.ReadResource({
      type_name: 'test_widget',
      current_state: { msgpack: encode({ id: 1, name: 'a' }) },
    });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', attribute: { steps: [{ attribute_name: 'id' }] } }),
    ]);
  });
});

describe('schema', () => {
  test('converts to tfplugin6.Schema with JSON type bytes, sorted attributes', () => {
    const msg = schemaToMsg(schema, 1);
    expect(msg.version).toBe(1);
    expect(msg.block.attributes.map((a) => a.name)).toEqual(['id', 'name', 'note', 'status', 'zone']);
    expect(msg.block.attributes[1]).toMatchObject({ name: 'name', required: true, optional: false, computed: false });
    expect(msg.block.attributes[1]!.type.toString()).toBe('"string"');
  });

  test('invalid schemas are rejected when the server is built', () => {
    const bad = (attributes: ResourceSchema['attributes']) => () =>
      new ProviderServer({
        typeName: 'test',
        schema: { description: '', attributes: {} },
        resources: [{ ...makeWidgetStub(), schema: { description: '', version: 0, attributes } }],
        dataSources: [],
      });
    expect(bad({ count: { type: 'number', computed: true, description: '' } })).toThrow(/meta-argument/);
    expect(bad({ x: { type: 'string', description: '' } })).toThrow(/required, optional or computed/);
    expect(bad({ x: { type: 'string', required: true, computed: true, description: '' } })).toThrow(
      /required excludes/,
    );
  });

  test('GetMetadata advertises the resources and that the schema may be cached', () => {
    const { server } = makeServer();
    expect(server.GetMetadata()).toMatchObject({
      server_capabilities: { get_provider_schema_optional: true },
      resources: [{ type_name: 'test_widget' }],
    });
  });
});

function makeWidgetStub(): ResourceHandler {
  return {
    typeName: 'test_stub',
    schema,
    create: async () => null,
    read: async () => null,
    update: async () => null,
    delete: async () => undefined,
  };
}

test('Diagnostics keeps order and knows about errors', () => {
  const d = new Diagnostics();
  d.addWarning('w');
  expect(d.hasError()).toBe(false);
  d.addError('e', 'detail', ['a', 0]);
  expect(d.items.map((i) => i.summary)).toEqual(['w', 'e']);
  expect(d.hasError()).toBe(true);
});
