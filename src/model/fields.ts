/**
 * Every field of an alert, once: its wire name, who owns it, what it holds and where it
 * travels. The model's field lists, the provider resource's read-only lists and the objects of
 * the networkcalc_alerts data source are built from this table; test/model/field-table.test.ts
 * checks the places written out by hand (the provider schema, the emulator's JSON schemas, the
 * generated L1 bindings, the export renderers, ncalc's string attributes) against it, so a field
 * added in one place and not in another fails a test.
 */

/** `spec`: the user declares it; `read-only`: the service sets it; `identity`: the alert's id. */
export type FieldKind = 'spec' | 'read-only' | 'identity';
/** The JSON type of the value; `object` is a DomainResponse. */
export type FieldType = 'string' | 'number' | 'boolean' | 'object';

/** Where a field appears, as words in the table below. */
type Flag =
  /** Its value, canonical or as read, may be null. */
  | 'nullable'
  /** A create or edit may leave it empty: optional in Terraform, `null` allowed in a body. */
  | 'optional'
  /** In a create or edit body (4.6); `requestBody` sends it. */
  | 'sent'
  /** Compared by `diffAlert`. */
  | 'compared'
  /** In AlertResponse (2.2). */
  | 'returned'
  /** An attribute of the networkcalc_alert resource. */
  | 'attribute'
  /** In the objects of the networkcalc_alerts data source. */
  | 'listed'
  /** Set by the service and changed by no write: kept across an update in a plan. */
  | 'fixed';

export type AlertField<N extends string = string, K extends FieldKind = FieldKind> = {
  readonly name: N;
  readonly kind: K;
  readonly type: FieldType;
} & { readonly [F in Flag]: boolean };

/** A row; the flags it has are `true` in its type too, so lists built from the table are typed exactly. */
function field<const N extends string, const K extends FieldKind, const F extends readonly Flag[]>(
  name: N,
  kind: K,
  type: FieldType,
  flags: F,
): AlertField<N, K> & { readonly [X in F[number]]: true } {
  const has = (f: Flag) => flags.includes(f);
  const row: AlertField<N, K> = {
    name,
    kind,
    type,
    nullable: has('nullable'),
    optional: has('optional'),
    sent: has('sent'),
    compared: has('compared'),
    returned: has('returned'),
    attribute: has('attribute'),
    listed: has('listed'),
    fixed: has('fixed'),
  };
  return row as AlertField<N, K> & { readonly [X in F[number]]: true };
}

const SPEC = ['sent', 'compared', 'attribute', 'listed'] as const;

/** The fields, spec fields in display order. */
export const ALERT_FIELDS = [
  field('id', 'identity', 'number', ['returned', 'attribute', 'listed']),
  field('name', 'spec', 'string', [...SPEC, 'returned']),
  field('type', 'spec', 'string', [...SPEC, 'returned']),
  // null for types that take no subtype.
  field('subtype', 'spec', 'string', [...SPEC, 'returned', 'nullable', 'optional']),
  field('filter', 'spec', 'string', [...SPEC, 'returned']),
  // "" (never null) for filters that take no value.
  field('filter_value', 'spec', 'string', [...SPEC, 'returned', 'optional']),
  // AlertResponse carries the target as target_domain / target_subdomain instead.
  field('target_type', 'spec', 'string', SPEC),
  field('target_id', 'spec', 'number', SPEC),
  field('user_id', 'read-only', 'number', ['returned', 'attribute', 'nullable', 'fixed']),
  field('is_active', 'read-only', 'boolean', ['returned', 'attribute', 'listed']),
  field('current_status', 'read-only', 'string', ['returned', 'attribute', 'listed', 'nullable']),
  field('action', 'read-only', 'string', ['returned', 'attribute', 'nullable', 'fixed']),
  field('last_triggered_at', 'read-only', 'string', ['returned', 'attribute', 'listed', 'nullable']),
  field('target_domain', 'read-only', 'object', ['returned', 'nullable']),
  field('target_subdomain', 'read-only', 'object', ['returned', 'nullable']),
] as const;

type Row = (typeof ALERT_FIELDS)[number];
type RowOf<K extends FieldKind> = Extract<Row, { kind: K }>;

/** The fields the user declares: compared by a diff and sent in a body. */
export type SpecField = RowOf<'spec'>['name'];
/** The fields the service sets, the id included. */
export type ServerField = RowOf<'read-only' | 'identity'>['name'];

const isSpec = (f: Row): f is RowOf<'spec'> => f.kind === 'spec';
const isServer = (f: Row): f is RowOf<'read-only' | 'identity'> => f.kind !== 'spec';
type ReadOnlyAttribute = Extract<RowOf<'read-only'>, { attribute: true }>;
const isReadOnlyAttribute = (f: Row): f is ReadOnlyAttribute => f.kind === 'read-only' && f.attribute;
const isFixed = (f: Row): f is Extract<ReadOnlyAttribute, { fixed: true }> => isReadOnlyAttribute(f) && f.fixed;

/** The fields a diff compares, in display order. */
export const SPEC_FIELDS: readonly SpecField[] = ALERT_FIELDS.filter(isSpec).map((f) => f.name);

/** Fields the server sets; never compared. */
export const READ_ONLY_FIELDS: readonly ServerField[] = ALERT_FIELDS.filter(isServer).map((f) => f.name);

/** Server-set attributes of the networkcalc_alert resource: never compared, never sent. */
export const READ_ONLY_ATTRIBUTES: readonly ReadOnlyAttribute['name'][] = ALERT_FIELDS.filter(isReadOnlyAttribute).map(
  (f) => f.name,
);

/** Of those, the ones no write changes. */
export const FIXED_ATTRIBUTES = ALERT_FIELDS.filter(isFixed).map((f) => f.name);

/** The fields of an object of the networkcalc_alerts data source, in the schema's order. */
export const LISTED_FIELDS = ALERT_FIELDS.filter((f): f is Extract<Row, { listed: true }> => f.listed).map(
  (f) => f.name,
);

/** The fields a create or edit may leave empty: unset (null) in Terraform, "" or null in a body. */
export const OPTIONAL_FIELDS = ALERT_FIELDS.filter((f): f is Extract<Row, { optional: true }> => f.optional).map(
  (f) => f.name,
);

/** The field of that name, or undefined. */
export function alertField(name: string): AlertField | undefined {
  return ALERT_FIELDS.find((f) => f.name === name);
}
