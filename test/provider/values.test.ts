import { decode, encode, ExtensionCodec } from '@msgpack/msgpack';
import type { BlockSchema } from '../../src/schema/types';
import {
  decodeObject,
  decodeValue,
  encodeObject,
  isUnknown,
  isWhollyKnown,
  UNKNOWN,
  type UnknownValue,
  ValueError,
  valuesEqual,
} from '../../src/provider/values';

const block: BlockSchema = {
  description: 't',
  attributes: {
    id: { type: 'number', computed: true, description: '' },
    name: { type: 'string', required: true, description: '' },
    on: { type: 'bool', optional: true, description: '' },
    tags: { type: ['map', 'string'], optional: true, description: '' },
    list: { type: ['list', 'string'], optional: true, description: '' },
    set: { type: ['set', 'string'], optional: true, description: '' },
    objs: { type: ['list', ['object', { a: 'number', b: 'string' }]], computed: true, description: '' },
  },
};

/** Raw msgpack view that keeps extension values visible. */
function raw(bytes: Uint8Array): unknown {
  const codec = new ExtensionCodec();
  for (const type of [0, 12])
    codec.register({ type, encode: () => null, decode: (data) => ({ ext: type, data: [...data] }) });
  return decode(bytes, { extensionCodec: codec });
}

describe('msgpack DynamicValue', () => {
  test('GIVEN a partial object WHEN encoded THEN every attribute is present, numbers are strings, unknown is ext 0', () => {
    const { msgpack } = encodeObject(block, { name: 'x', id: UNKNOWN, objs: [{ a: 7 }] });
    expect(raw(msgpack)).toEqual({
      id: { ext: 0, data: [0] },
      name: 'x',
      on: null,
      tags: null,
      list: null,
      set: null,
      objs: [{ a: '7', b: null }],
    });
  });

  test('GIVEN numbers as int, float or string WHEN decoded THEN they are JS numbers', () => {
    for (const id of [42, 42.5, '42', '4.25e1']) {
      const v = decodeObject(block, { msgpack: encode({ id, name: 'n' }) });
      expect(v?.id).toBe(Number(id));
    }
    expect(() => decodeObject(block, { msgpack: encode({ id: 'abc', name: 'n' }) })).toThrow(ValueError);
  });

  test('GIVEN a whole number beyond 2^53 (int64 or string) WHEN decoded THEN a ValueError at the attribute, never a rounded number', () => {
    for (const id of [BigInt('9007199254740993'), '9007199254740993']) {
      const bytes = encode({ id, name: 'n' }, { useBigInt64: true });
      expect(() => decodeObject(block, { msgpack: bytes })).toThrow(expect.objectContaining({ path: ['id'] }));
    }
    const max = decodeObject(block, {
      msgpack: encode({ id: BigInt(Number.MAX_SAFE_INTEGER), name: 'n' }, { useBigInt64: true }),
    });
    expect(max?.id).toBe(Number.MAX_SAFE_INTEGER);
  });

  test('GIVEN a refined unknown (ext 12) WHEN decoded and re-encoded THEN its payload is kept', () => {
    const payload = encode({ 1: true }); // "definitely not null" refinement
    const codec = new ExtensionCodec();
    const marker = { refined: true }; // any object the codec can recognise
    codec.register({ type: 12, encode: (v) => (v === marker ? payload : null), decode: () => null });
    const input = encode({ name: marker }, { extensionCodec: codec });
    const decoded = decodeObject(block, { msgpack: input })!;
    expect(isUnknown(decoded.name)).toBe(true);
    expect((decoded.name as UnknownValue).refinements).toEqual(Uint8Array.from(payload));
    expect(raw(encodeObject(block, decoded).msgpack)).toMatchObject({ name: { ext: 12, data: [...payload] } });
  });

  test('GIVEN null WHEN encoded THEN msgpack nil; empty DynamicValue decodes as null', () => {
    expect([...encodeObject(block, null).msgpack]).toEqual([0xc0]);
    expect(decodeValue('string', {})).toBeNull();
    expect(decodeObject(block, undefined)).toBeNull();
  });

  test('GIVEN JSON state with extra and missing attributes WHEN decoded THEN it fits the schema', () => {
    const json = Buffer.from(JSON.stringify({ id: 5, name: 'n', removed_attr: 1, tags: { a: 'b' } }));
    expect(decodeObject(block, { json })).toEqual({
      id: 5,
      name: 'n',
      on: null,
      tags: { a: 'b' },
      list: null,
      set: null,
      objs: null,
    });
  });

  test('type mismatches name the attribute path', () => {
    try {
      decodeObject(block, { msgpack: encode({ name: 'n', objs: [{ a: 1, b: 2 }] }) });
      throw new Error('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(ValueError);
      expect((err as ValueError).path).toEqual(['objs', 0, 'b']);
    }
  });
});

describe('value helpers', () => {
  test('valuesEqual: sets ignore order, unknown equals nothing', () => {
    expect(valuesEqual(['set', 'string'], ['a', 'b'], ['b', 'a'])).toBe(true);
    expect(valuesEqual(['list', 'string'], ['a', 'b'], ['b', 'a'])).toBe(false);
    expect(valuesEqual(['map', 'string'], { a: 'x' }, { a: 'x' })).toBe(true);
    expect(valuesEqual('string', UNKNOWN, UNKNOWN)).toBe(false);
    expect(valuesEqual('number', null, null)).toBe(true);
    expect(valuesEqual('number', null, 0)).toBe(false);
  });

  test('isWhollyKnown looks inside collections', () => {
    expect(isWhollyKnown({ a: [1, { b: 'x' }] })).toBe(true);
    expect(isWhollyKnown({ a: [1, { b: UNKNOWN }] })).toBe(false);
  });
});
