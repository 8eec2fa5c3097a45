/**
 * DynamicValue codec: terraform's msgpack object wire format (and JSON, used for stored
 * state), driven by the schema so that every attribute is present and typed.
 */
import { decode, encode, ExtensionCodec } from '@msgpack/msgpack';
import type { BlockSchema, TypeExpr } from '../schema/types';
import { isObject } from '../support/json';

/** A value terraform does not know yet ("known after apply"). */
export class UnknownValue {
  /** Refinement payload (msgpack ext 12), passed back to terraform unchanged. */
  readonly refinements: Uint8Array | undefined;
  constructor(refinements?: Uint8Array) {
    this.refinements = refinements;
    Object.freeze(this);
  }
  toJSON(): string {
    return '(known after apply)';
  }
}

/** The plain unknown value. Compare with isUnknown(), which also matches refined ones. */
export const UNKNOWN = new UnknownValue();

export type Value = null | string | number | boolean | UnknownValue | Value[] | { [key: string]: Value };
export type ObjectValue = { [key: string]: Value };

export function isUnknown(v: unknown): v is UnknownValue {
  return v instanceof UnknownValue;
}

/** True when no unknown value is nested anywhere inside v. */
export function isWhollyKnown(v: Value): boolean {
  if (isUnknown(v)) return false;
  if (Array.isArray(v)) return v.every(isWhollyKnown);
  if (v !== null && typeof v === 'object') return Object.values(v).every(isWhollyKnown);
  return true;
}

/** Wire value of a DynamicValue message (only one of the two is set). */
export interface DynamicValueMsg {
  msgpack?: Uint8Array | null;
  json?: Uint8Array | null;
}

export class ValueError extends Error {
  constructor(
    message: string,
    readonly path: readonly (string | number)[],
  ) {
    super(path.length ? `${message} at ${path.join('.')}` : message);
    this.name = 'ValueError';
  }
}

const EXT_UNKNOWN = 0;
const EXT_REFINED_UNKNOWN = 12;

const codec = new ExtensionCodec();
codec.register({
  type: EXT_UNKNOWN,
  // cty writes fixext1 type 0 with a zero byte; match it byte for byte.
  encode: (v) => (isUnknown(v) && !v.refinements ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN,
});
codec.register({
  type: EXT_REFINED_UNKNOWN,
  encode: (v) => (isUnknown(v) && v.refinements ? v.refinements : null),
  decode: (data) => new UnknownValue(Uint8Array.from(data)),
});

/** Block types built so far: every value terraform sends or receives is encoded against one. */
const blockTypes = new WeakMap<BlockSchema, TypeExpr>();

/** The object type of a block: its attributes, each with its cty type (built once per block). */
export function blockType(block: BlockSchema): TypeExpr {
  let type = blockTypes.get(block);
  if (!type) {
    const attrs: Record<string, TypeExpr> = {};
    for (const [name, a] of Object.entries(block.attributes)) attrs[name] = a.type;
    type = ['object', attrs];
    blockTypes.set(block, type);
  }
  return type;
}

// --- normalisation against a type (shared by both encodings) ------------------------

/**
 * Checks v against type t and returns it in canonical JS form: numbers as JS numbers,
 * objects with exactly the type's attributes (absent → null, extra → dropped).
 */
function conform(t: TypeExpr, v: unknown, path: (string | number)[]): Value {
  if (v === null || v === undefined) return null;
  if (isUnknown(v)) return v;
  if (t === 'string') {
    if (typeof v === 'string') return v;
    // Terraform converts numbers and bools to strings in config, but never sends them so.
    throw new ValueError(`expected a string, got ${typeof v}`, path);
  }
  if (t === 'number') {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new ValueError('number is not finite', path);
      return v;
    }
    // A whole number JS cannot hold exactly would come back rounded: terraform rejects that
    // as an invalid plan ("a bug in the provider"), so say so at the attribute instead.
    if (typeof v === 'bigint') return exactInteger(Number(v), String(v), path);
    if (typeof v === 'string') {
      const n = Number(v);
      if (v.trim() === '' || !Number.isFinite(n)) throw new ValueError(`"${v}" is not a number`, path);
      return /^\s*-?\d+\s*$/.test(v) ? exactInteger(n, v.trim(), path) : n;
    }
    throw new ValueError(`expected a number, got ${typeof v}`, path);
  }
  if (t === 'bool') {
    if (typeof v === 'boolean') return v;
    throw new ValueError(`expected a bool, got ${typeof v}`, path);
  }
  const [kind, inner] = t;
  if (kind === 'list' || kind === 'set') {
    if (!Array.isArray(v)) throw new ValueError(`expected a ${kind}`, path);
    return v.map((item, i) => conform(inner, item, [...path, i]));
  }
  if (!isObject(v)) throw new ValueError(`expected a ${kind}`, path);
  const src = v as Record<string, unknown>;
  const out: ObjectValue = {};
  if (kind === 'map') {
    for (const [k, item] of Object.entries(src)) out[k] = conform(inner, item, [...path, k]);
    return out;
  }
  for (const [name, at] of Object.entries(inner)) out[name] = conform(at, src[name], [...path, name]);
  return out;
}

function exactInteger(n: number, text: string, path: (string | number)[]): number {
  if (!Number.isSafeInteger(n)) {
    throw new ValueError(
      `${text} is larger than ${Number.MAX_SAFE_INTEGER}, the largest whole number this provider handles exactly,`,
      path,
    );
  }
  return n;
}

/** Numbers go out as strings: terraform compares refreshed numbers exactly (hashicorp/terraform#36403). */
function toWire(t: TypeExpr, v: Value): unknown {
  if (v === null || isUnknown(v)) return v;
  if (t === 'number') return numberToString(v as number);
  if (typeof t === 'string') return v;
  const [kind, inner] = t;
  if (kind === 'list' || kind === 'set') return (v as Value[]).map((item) => toWire(inner, item));
  const src = v as ObjectValue;
  const out: Record<string, unknown> = {};
  if (kind === 'map') {
    for (const [k, item] of Object.entries(src)) out[k] = toWire(inner, item);
  } else {
    for (const [name, at] of Object.entries(inner)) out[name] = toWire(at, src[name] ?? null);
  }
  return out;
}

function numberToString(n: number): string {
  // Integers print without exponent up to 2^53; other numbers in JS's shortest round-trip form.
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? n.toFixed(0) : String(n);
}

// --- public codec ---------------------------------------------------------------------

/** Decodes a DynamicValue against type t. An absent value decodes as null. */
export function decodeValue(t: TypeExpr, dv: DynamicValueMsg | null | undefined): Value {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length > 0) {
    return conform(t, decode(dv.msgpack, { extensionCodec: codec, useBigInt64: true }), []);
  }
  if (dv.json && dv.json.length > 0) return decodeJson(t, Buffer.from(dv.json).toString('utf8'));
  return null;
}

/** Decodes JSON text (stored state, import/upgrade raw state) against type t. */
export function decodeJson(t: TypeExpr, text: string): Value {
  return conform(t, JSON.parse(text), []);
}

/** Encodes v as a msgpack DynamicValue of type t (every attribute present). */
export function encodeValue(t: TypeExpr, v: Value): { msgpack: Buffer } {
  const canonical = conform(t, v, []);
  const bytes = encode(toWire(t, canonical), { extensionCodec: codec, ignoreUndefined: false });
  return { msgpack: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Decodes an object DynamicValue of a block; null stays null. */
export function decodeObject(block: BlockSchema, dv: DynamicValueMsg | null | undefined): ObjectValue | null {
  return decodeValue(blockType(block), dv) as ObjectValue | null;
}

export function encodeObject(block: BlockSchema, v: ObjectValue | null): { msgpack: Buffer } {
  return encodeValue(blockType(block), v);
}

/**
 * Equality under type t (sets compare regardless of order); unknowns equal nothing,
 * not even themselves, so an unknown planned value always counts as a change.
 */
export function valuesEqual(t: TypeExpr, a: Value, b: Value): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  if (a === null || b === null) return a === b;
  if (typeof t === 'string') return a === b;
  const [kind, inner] = t;
  if (kind === 'list') {
    const la = a as Value[];
    const lb = b as Value[];
    return la.length === lb.length && la.every((item, i) => valuesEqual(inner, item, lb[i]!));
  }
  if (kind === 'set') {
    const la = a as Value[];
    const lb = b as Value[];
    return la.length === lb.length && la.every((item) => lb.some((other) => valuesEqual(inner, item, other)));
  }
  const oa = a as ObjectValue;
  const ob = b as ObjectValue;
  if (kind === 'map') {
    const keys = Object.keys(oa);
    if (keys.length !== Object.keys(ob).length) return false;
    return keys.every((k) => k in ob && valuesEqual(inner, oa[k]!, ob[k]!));
  }
  return Object.entries(inner).every(([k, at]) => valuesEqual(at, oa[k] ?? null, ob[k] ?? null));
}
