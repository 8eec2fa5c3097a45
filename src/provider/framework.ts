/**
 * A small framework in the spirit of terraform-plugin-framework: a provider is a schema
 * plus resource and data source handlers; the server (server.ts) does the protocol work
 * (decoding, planning defaults, state bookkeeping) and calls the handlers.
 *
 * Every handler call gets a Diagnostics to append problems to; a handler that throws is
 * reported as an "unexpected error" diagnostic, never as a gRPC error.
 */
import type { AttributeSchema, BlockSchema, ResourceSchema } from '../schema/types';
import type { Diagnostics } from './diagnostics';
import type { ObjectValue } from './values';

/** Values handed to handlers: attribute name → value (null, known, or UNKNOWN in plans/config). */
export type Model = ObjectValue;

/**
 * What terraform keeps beside an object's state for the provider alone (its "private" bytes,
 * JSON here): handed back with the prior state in the plan, and from a plan to its apply.
 */
export type PrivateData = Record<string, unknown>;

interface WithProviderData<P> {
  /** What the provider's configure() returned; undefined in calls made before configure. */
  readonly providerData: P | undefined;
  readonly diagnostics: Diagnostics;
}

// --- resources ------------------------------------------------------------------------

export interface ValidateResourceRequest<P> extends WithProviderData<P> {
  /** May contain UNKNOWN for values that depend on other resources. */
  readonly config: Model;
}

export interface ModifyPlanRequest<P> extends WithProviderData<P> {
  /** null when the resource is being created. */
  readonly prior: Model | null;
  readonly config: Model;
  /**
   * The plan after the default rules (computed → unknown on create, prior values kept on
   * update). Change it in place: set UNKNOWN for values the update will change.
   */
  readonly planned: Model;
  /** Attribute names that force replacement; schema requiresReplace ones are already in. */
  readonly requiresReplace: Set<string>;
  /**
   * The private data terraform handed over: the prior object's, or, when terraform plans the
   * create half of a replacement (prior null), what the plan of the object being replaced set.
   */
  readonly priorPrivate: PrivateData;
  /** The private data this plan hands to its apply; left empty, the prior one is kept. */
  readonly plannedPrivate: PrivateData;
}

export interface PlanDestroyRequest<P> extends WithProviderData<P> {
  readonly prior: Model;
}

export interface CreateRequest<P> extends WithProviderData<P> {
  /** The planned state: config values plus UNKNOWN for computed attributes. */
  readonly plan: Model;
  readonly config: Model;
}

export interface ReadRequest<P> extends WithProviderData<P> {
  readonly state: Model;
}

export interface UpdateRequest<P> extends WithProviderData<P> {
  readonly plan: Model;
  readonly prior: Model;
  readonly config: Model;
}

export interface DeleteRequest<P> extends WithProviderData<P> {
  readonly state: Model;
}

export interface ImportRequest<P> extends WithProviderData<P> {
  /** The id the user gave to `terraform import` or an import block. */
  readonly id: string;
}

export interface UpgradeStateRequest<P> extends WithProviderData<P> {
  /** Schema version the state was written with (lower than the current one). */
  readonly version: number;
  /** The stored state as JSON, in the old schema's shape. */
  readonly rawState: Record<string, unknown>;
}

/**
 * A managed resource. The core is typeName, schema and the four CRUD calls; the
 * optional members are capabilities, used only when present.
 */
export interface ResourceHandler<P = unknown> {
  /** Full type name, e.g. networkcalc_alert. */
  readonly typeName: string;
  readonly schema: ResourceSchema;

  /**
   * Creates the object and returns the full new state: every computed value known. Return
   * null (with an error diagnostic) when nothing was created.
   */
  create(req: CreateRequest<P>): Promise<Model | null>;
  /** Returns the current state, or null when the object is gone (terraform plans a re-create). */
  read(req: ReadRequest<P>): Promise<Model | null>;
  /** Applies the plan; returns the new state. Return null to keep the prior state (e.g. on failure). */
  update(req: UpdateRequest<P>): Promise<Model | null>;
  /** Deletes the object. An object that is already gone is a success. */
  delete(req: DeleteRequest<P>): Promise<void>;

  /** Checks config beyond what the schema says (types, required) before any plan. */
  validate?(req: ValidateResourceRequest<P>): Promise<void> | void;
  /** Adjusts the plan: unknowns for values that will change, extra replacements, plan-time errors. */
  modifyPlan?(req: ModifyPlanRequest<P>): Promise<void> | void;
  /** Sees a planned destroy (the server offers plan_destroy); may add plan-time errors. */
  planDestroy?(req: PlanDestroyRequest<P>): Promise<void> | void;
  /**
   * Turns an import id into a partial state (usually just { id }); terraform then calls
   * read() to fill in the rest. Without it, import is refused with a diagnostic.
   */
  importState?(req: ImportRequest<P>): Promise<Model | null> | Model | null;
  /** Converts state stored under an older schema version into the current shape. */
  upgradeState?(req: UpgradeStateRequest<P>): Promise<Model> | Model;
  /**
   * Sees every stored object terraform hands over for an upgrade: each object of the state it
   * works on, before any read or plan of it, with or without a refresh.
   */
  stored?(req: { state: Model; providerData: P | undefined }): void;
  /** The private data kept beside a state the provider hands back (read, apply, import). */
  privateOf?(state: Model): PrivateData;
}

// --- data sources ---------------------------------------------------------------------

export interface DataSourceReadRequest<P> extends WithProviderData<P> {
  /** Wholly known: terraform defers the read while any config value is unknown. */
  readonly config: Model;
}

export interface DataSourceHandler<P = unknown> {
  readonly typeName: string;
  readonly schema: BlockSchema;
  /** Returns config plus computed values; null (with an error diagnostic) on failure. */
  read(req: DataSourceReadRequest<P>): Promise<Model | null>;
  validate?(req: ValidateResourceRequest<P>): Promise<void> | void;
}

// --- provider -------------------------------------------------------------------------

export interface ConfigureRequest {
  readonly config: Model;
  readonly terraformVersion: string;
  readonly diagnostics: Diagnostics;
}

export interface ProviderDefinition<P = unknown> {
  /** Type name prefix, e.g. "networkcalc". */
  readonly typeName: string;
  readonly schema: BlockSchema;
  readonly resources: readonly ResourceHandler<P>[];
  readonly dataSources: readonly DataSourceHandler<P>[];
  validateConfig?(req: { config: Model; diagnostics: Diagnostics }): Promise<void> | void;
  /** Builds what handlers need (an API client); its result becomes providerData. */
  configure?(req: ConfigureRequest): Promise<P> | P;
  /** Called on StopProvider: abort in-flight work. */
  stop?(): Promise<void> | void;
  /** Called when terraform shuts the provider down gracefully (go-plugin's Shutdown), before it exits. */
  shutdown?(): void;
}

// --- schema checks and conversion to tfplugin6.Schema ---------------------------------

/** Meta-arguments of resource and data blocks; an attribute by these names cannot be used. */
const RESERVED_NAMES = new Set([
  'count',
  'for_each',
  'depends_on',
  'lifecycle',
  'provider',
  'provisioner',
  'connection',
]);

/** Throws on a schema terraform would reject, so mistakes surface at start-up in tests. */
export function assertValidBlock(where: string, block: BlockSchema): void {
  for (const [name, a] of Object.entries(block.attributes)) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`${where}.${name}: attribute names are lower_snake_case`);
    if (where !== 'provider' && RESERVED_NAMES.has(name))
      throw new Error(`${where}.${name}: "${name}" is a terraform meta-argument`);
    const flags = [a.required, a.optional, a.computed].filter(Boolean).length;
    if (flags === 0) throw new Error(`${where}.${name}: set required, optional or computed`);
    if (a.required && (a.optional || a.computed)) {
      throw new Error(`${where}.${name}: required excludes optional and computed`);
    }
  }
}

export function assertValidProvider(p: ProviderDefinition<unknown>): void {
  assertValidBlock('provider', p.schema);
  const seen = new Set<string>();
  for (const h of [...p.resources, ...p.dataSources]) {
    const kind = p.resources.includes(h as ResourceHandler<unknown>) ? 'resource' : 'data';
    const key = `${kind}:${h.typeName}`;
    if (seen.has(key)) throw new Error(`${h.typeName}: defined twice`);
    seen.add(key);
    if (h.typeName !== p.typeName && !h.typeName.startsWith(`${p.typeName}_`)) {
      throw new Error(`${h.typeName}: type names start with ${p.typeName}_`);
    }
    assertValidBlock(h.typeName, h.schema);
  }
}

/** tfplugin6.Schema.Attribute as proto-loader takes it. */
export interface SchemaAttributeMsg {
  name: string;
  type: Buffer;
  description: string;
  description_kind: 'PLAIN' | 'MARKDOWN';
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
}

export interface SchemaMsg {
  version: number;
  block: {
    version: number;
    attributes: SchemaAttributeMsg[];
    block_types: [];
    description: string;
    description_kind: 'PLAIN' | 'MARKDOWN';
  };
}

function attributeToMsg(name: string, a: AttributeSchema): SchemaAttributeMsg {
  return {
    name,
    type: Buffer.from(JSON.stringify(a.type)),
    description: a.description,
    description_kind: 'MARKDOWN',
    required: a.required === true,
    optional: a.optional === true,
    computed: a.computed === true,
    sensitive: a.sensitive === true,
  };
}

/** Converts a neutral block schema into tfplugin6.Schema (attributes sorted by name). */
export function schemaToMsg(block: BlockSchema, version = 0): SchemaMsg {
  return {
    version,
    block: {
      version,
      attributes: Object.keys(block.attributes)
        .sort()
        .map((name) => attributeToMsg(name, block.attributes[name]!)),
      block_types: [],
      description: block.description,
      description_kind: 'MARKDOWN',
    },
  };
}
