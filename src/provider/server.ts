/**
 * The tfplugin6 Provider service in plain async methods (request object in, response object
 * out), so it can be driven in-process by tests; main.ts wires it to gRPC.
 *
 * Protocol rules applied here, not in handlers:
 * - plan on create: computed attributes that config leaves null become unknown;
 * - plan on update with changes: computed attributes left null in config become unknown,
 *   except those marked `stable` (UseStateForUnknown); with no changes the prior state stands;
 * - requiresReplace attributes whose value changes go into requires_replace;
 * - destroy: planned_state null (the handler's planDestroy may only add diagnostics), and
 *   apply returns new_state null;
 * - every failure is a diagnostic, never a gRPC error.
 */
import type { BlockSchema, ResourceSchema } from '../schema/types';
import { Diagnostics, diagnosticsToMsg } from './diagnostics';
import { appliedState, readState, upgradedState } from './resource-changes';
import {
  assertValidProvider,
  schemaToMsg,
  type DataSourceHandler,
  type Model,
  type ProviderDefinition,
  type ResourceHandler,
} from './framework';
import { decodePrivate, plannedPrivateOf, privateFor } from './private-data';
import {
  decodeObject,
  encodeObject,
  UNKNOWN,
  ValueError,
  valuesEqual,
  type DynamicValueMsg,
  type ObjectValue,
} from './values';

type Req = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Resp = Record<string, unknown>;

/** Runs a handler step; a throw becomes an error diagnostic naming the operation. */
async function guarded<T>(diags: Diagnostics, what: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ValueError) {
      diags.addError(`Invalid value in ${what}`, err.message, err.path);
    } else {
      const message = err instanceof Error ? err.message : String(err);
      diags.addError(`Unexpected error in ${what}`, `${message}\n\nThis is a bug in the provider; please report it.`);
    }
    return undefined;
  }
}

/** The two kinds of handler terraform names by type, and what it calls a type it does not know. */
const KIND_NOUN = { resource: 'resource type', dataSource: 'data source' } as const;
type Kind = keyof typeof KIND_NOUN;
interface Handlers<P> {
  resource: ResourceHandler<P>;
  dataSource: DataSourceHandler<P>;
}

export class ProviderServer<P = unknown> {
  private readonly handlers: { [K in Kind]: Map<string, Handlers<P>[K]> } = {
    resource: new Map(),
    dataSource: new Map(),
  };
  private providerData: P | undefined;
  private configured = false;

  constructor(private readonly provider: ProviderDefinition<P>) {
    assertValidProvider(provider as ProviderDefinition<unknown>);
    for (const r of provider.resources) this.handlers.resource.set(r.typeName, r);
    for (const d of provider.dataSources) this.handlers.dataSource.set(d.typeName, d);
  }

  // --- discovery ----------------------------------------------------------------------

  GetMetadata(): Resp {
    return {
      server_capabilities: this.capabilities(),
      diagnostics: [],
      resources: [...this.handlers.resource.keys()].map((type_name) => ({ type_name })),
      data_sources: [...this.handlers.dataSource.keys()].map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [],
    };
  }

  GetProviderSchema(): Resp {
    const resource_schemas: Record<string, unknown> = {};
    for (const [name, r] of this.handlers.resource)
      resource_schemas[name] = schemaToMsg(r.schema, r.schema.version ?? 0);
    const data_source_schemas: Record<string, unknown> = {};
    for (const [name, d] of this.handlers.dataSource) data_source_schemas[name] = schemaToMsg(d.schema);
    return {
      provider: schemaToMsg(this.provider.schema),
      resource_schemas,
      data_source_schemas,
      functions: {},
      ephemeral_resource_schemas: {},
      diagnostics: [],
      server_capabilities: this.capabilities(),
    };
  }

  private capabilities(): Resp {
    // The schema never varies by process, so terraform may fetch it once per command.
    // plan_destroy: terraform plans destroys through the provider too, so one plan process sees
    // both halves of a resource renamed without `moved` (a destroy and a create of one name).
    return { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: false };
  }

  // --- provider configuration ---------------------------------------------------------

  async ValidateProviderConfig(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    await guarded(diags, 'provider configuration', async () => {
      const config = decodeObject(this.provider.schema, req.config) ?? {};
      await this.provider.validateConfig?.({ config, diagnostics: diags });
    });
    return { diagnostics: diagnosticsToMsg(diags) };
  }

  async ConfigureProvider(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    await guarded(diags, 'provider configuration', async () => {
      const config = decodeObject(this.provider.schema, req.config) ?? {};
      if (this.provider.configure) {
        this.providerData = await this.provider.configure({
          config,
          terraformVersion: String(req.terraform_version ?? ''),
          diagnostics: diags,
        });
      }
      this.configured = !diags.hasError();
    });
    return { diagnostics: diagnosticsToMsg(diags) };
  }

  async StopProvider(): Promise<Resp> {
    const diags = new Diagnostics();
    await guarded(diags, 'stop', () => this.provider.stop?.());
    const error = diags.items.map((d) => d.detail ?? d.summary).join('\n');
    return { Error: error };
  }

  /** Terraform's graceful Shutdown (the gRPC controller's, not a tfplugin6 call). */
  shutdown(): void {
    try {
      this.provider.shutdown?.();
    } catch {
      // Leaving matters more than what the hook failed to record.
    }
  }

  // --- what resources and data sources share ------------------------------------------

  /** The handler of a type name terraform sent, or an error diagnostic when there is none. */
  private handler<K extends Kind>(kind: K, typeName: string, diags: Diagnostics): Handlers<P>[K] | undefined {
    const h = this.handlers[kind].get(typeName);
    if (!h) diags.addError(`Unknown ${KIND_NOUN[kind]}`, `This provider has no ${KIND_NOUN[kind]} "${typeName}".`);
    return h;
  }

  /** Validate(Data)ResourceConfig: the handler's own checks, when it has any. */
  private async validateConfig(kind: Kind, req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const h = this.handler(kind, req.type_name, diags);
    if (h?.validate) {
      await guarded(diags, `${h.typeName} validation`, async () => {
        const config = decodeObject(h.schema, req.config) ?? {};
        await h.validate!({ config, diagnostics: diags, providerData: this.providerData });
      });
    }
    return { diagnostics: diagnosticsToMsg(diags) };
  }

  private needsConfigure(diags: Diagnostics): boolean {
    if (this.configured || !this.provider.configure) return false;
    diags.addError(
      'Provider not configured',
      'Terraform asked for a resource operation before ConfigureProvider succeeded.',
    );
    return true;
  }

  // --- managed resources --------------------------------------------------------------

  ValidateResourceConfig(req: Req): Promise<Resp> {
    return this.validateConfig('resource', req);
  }

  async UpgradeResourceState(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const r = this.handler('resource', req.type_name, diags);
    let upgraded: DynamicValueMsg | undefined;
    if (r) {
      upgraded = await guarded(diags, `${r.typeName} state upgrade`, () =>
        upgradedState(r, req, diags, this.providerData),
      );
    }
    return { upgraded_state: upgraded, diagnostics: diagnosticsToMsg(diags) };
  }

  async ReadResource(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const r = this.handler('resource', req.type_name, diags);
    // Terraform treats an absent new_state as "gone", so on failure hand back what it sent.
    let newState: DynamicValueMsg | undefined = req.current_state;
    let read: Model | null = null;
    if (r && !this.needsConfigure(diags)) {
      await guarded(diags, `${r.typeName} read`, async () => {
        ({ state: newState = newState, applied: read } = await readState(r, req, diags, this.providerData));
      });
    }
    return { new_state: newState, private: privateFor(r, read, req.private), diagnostics: diagnosticsToMsg(diags) };
  }

  async PlanResourceChange(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const r = this.handler('resource', req.type_name, diags);
    let planned: DynamicValueMsg | undefined = req.proposed_new_state;
    const requiresReplace = new Set<string>();
    const plannedPrivate = {};
    if (r) {
      await guarded(diags, `${r.typeName} plan`, async () => {
        const prior = decodeObject(r.schema, req.prior_state);
        const proposed = decodeObject(r.schema, req.proposed_new_state);
        const config = decodeObject(r.schema, req.config) ?? {};
        if (proposed === null) {
          planned = encodeObject(r.schema, null); // destroy
          if (prior !== null) await r.planDestroy?.({ prior, diagnostics: diags, providerData: this.providerData });
          return;
        }
        const plan = defaultPlan(r.schema, prior, proposed, config, requiresReplace);
        if (r.modifyPlan) {
          await r.modifyPlan({
            prior,
            config,
            planned: plan,
            requiresReplace,
            priorPrivate: decodePrivate(req.prior_private),
            plannedPrivate,
            diagnostics: diags,
            providerData: this.providerData,
          });
        }
        planned = encodeObject(r.schema, plan);
      });
    }
    return {
      planned_state: planned,
      requires_replace: [...requiresReplace].sort().map((name) => ({ steps: [{ attribute_name: name }] })),
      planned_private: plannedPrivateOf(plannedPrivate, req.prior_private),
      diagnostics: diagnosticsToMsg(diags),
    };
  }

  async ApplyResourceChange(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const r = this.handler('resource', req.type_name, diags);
    // Until the handler says otherwise, the object is as it was before.
    let newState: DynamicValueMsg | undefined = req.prior_state;
    let applied: Model | null = null;
    if (r && !this.needsConfigure(diags)) {
      await guarded(diags, `${r.typeName} apply`, async () => {
        const next = await appliedState(r, req, diags, this.providerData);
        if (next.state !== undefined) newState = next.state;
        applied = next.applied;
      });
    }
    return {
      new_state: newState,
      private: privateFor(r, applied, req.planned_private),
      diagnostics: diagnosticsToMsg(diags),
    };
  }

  async ImportResourceState(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const r = this.handler('resource', req.type_name, diags);
    const imported: Resp[] = [];
    if (r && !r.importState) {
      diags.addError('Import not supported', `${r.typeName} cannot be imported.`);
    } else if (r && !this.needsConfigure(diags)) {
      await guarded(diags, `${r.typeName} import`, async () => {
        const partial = await r.importState!({
          id: String(req.id),
          diagnostics: diags,
          providerData: this.providerData,
        });
        if (partial === null || diags.hasError()) return;
        const state = encodeObject(r.schema, partial);
        imported.push({ type_name: r.typeName, state, private: privateFor(r, partial, undefined) });
      });
    }
    return { imported_resources: imported, diagnostics: diagnosticsToMsg(diags) };
  }

  MoveResourceState(req: Req): Resp {
    const diags = new Diagnostics();
    diags.addError(
      'Move not supported',
      `This provider cannot move ${req.source_type_name} state into ${req.target_type_name}.`,
    );
    return { diagnostics: diagnosticsToMsg(diags) };
  }

  // --- data sources -------------------------------------------------------------------

  ValidateDataResourceConfig(req: Req): Promise<Resp> {
    return this.validateConfig('dataSource', req);
  }

  async ReadDataSource(req: Req): Promise<Resp> {
    const diags = new Diagnostics();
    const d = this.handler('dataSource', req.type_name, diags);
    let state: DynamicValueMsg | undefined;
    if (d && !this.needsConfigure(diags)) {
      await guarded(diags, `${d.typeName} read`, async () => {
        const config = decodeObject(d.schema, req.config) ?? {};
        const result = await d.read({ config, diagnostics: diags, providerData: this.providerData });
        if (result === null) {
          if (!diags.hasError()) diags.addError(`${d.typeName} returned nothing`, 'The data source produced no value.');
          return;
        }
        state = encodeObject(d.schema, result);
      });
    }
    return { state, diagnostics: diagnosticsToMsg(diags) };
  }

  // --- not offered: functions and ephemeral resources ---------------------------------

  GetFunctions(): Resp {
    return { functions: {}, diagnostics: [] };
  }

  CallFunction(req: Req): Resp {
    return { error: { text: `This provider has no function "${req.name}".` } };
  }

  private noEphemeral(req: Req): Resp {
    const diags = new Diagnostics();
    diags.addError('Ephemeral resources not supported', `This provider has no ephemeral resource "${req.type_name}".`);
    return { diagnostics: diagnosticsToMsg(diags) };
  }

  ValidateEphemeralResourceConfig(req: Req): Resp {
    return this.noEphemeral(req);
  }
  OpenEphemeralResource(req: Req): Resp {
    return this.noEphemeral(req);
  }
  RenewEphemeralResource(req: Req): Resp {
    return this.noEphemeral(req);
  }
  CloseEphemeralResource(req: Req): Resp {
    return this.noEphemeral(req);
  }
}

/** The plan before the handler's modifyPlan: see the rules at the top of this file. */
export function defaultPlan(
  schema: ResourceSchema | BlockSchema,
  prior: ObjectValue | null,
  proposed: ObjectValue,
  config: ObjectValue,
  requiresReplace: Set<string>,
): ObjectValue {
  const plan: ObjectValue = { ...proposed };
  const attrs = Object.entries(schema.attributes);
  if (prior === null) {
    for (const [name, a] of attrs) if (a.computed && config[name] === null) plan[name] = UNKNOWN;
    return plan;
  }
  const changed = attrs.some(([name, a]) => !valuesEqual(a.type, prior[name] ?? null, plan[name] ?? null));
  if (!changed) return plan;
  for (const [name, a] of attrs) {
    // Judged on the proposal (config-driven), before computed values turn unknown below;
    // an unknown config value may still turn out equal, but terraform must know now.
    if (a.requiresReplace && !valuesEqual(a.type, prior[name] ?? null, proposed[name] ?? null))
      requiresReplace.add(name);
  }
  for (const [name, a] of attrs) {
    if (a.computed && !a.stable && (config[name] ?? null) === null) plan[name] = UNKNOWN;
  }
  return plan;
}
