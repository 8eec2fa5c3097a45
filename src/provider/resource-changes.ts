/**
 * What terraform's state-changing calls do with a resource handler, apart from the gRPC
 * plumbing of ProviderServer: a stored state upgraded to the schema's version, read afresh, and
 * a planned change applied (create, update or delete) into the new state.
 */
import type { Diagnostics } from './diagnostics';
import type { Model, ResourceHandler } from './framework';
import {
  blockType,
  decodeJson,
  decodeObject,
  encodeObject,
  isWhollyKnown,
  type DynamicValueMsg,
  type ObjectValue,
} from './values';

type Req = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The stored state in the schema's version; undefined when there is none to upgrade (or an error). */
export async function upgradedState<P>(
  r: ResourceHandler<P>,
  req: Req,
  diags: Diagnostics,
  providerData: P | undefined,
): Promise<DynamicValueMsg | undefined> {
  const raw = req.raw_state as { json?: Buffer; flatmap?: Record<string, string> } | undefined;
  if (!raw?.json || raw.json.length === 0) {
    if (raw?.flatmap && Object.keys(raw.flatmap).length > 0) {
      diags.addError(
        'Unsupported state format',
        'The stored state uses the legacy flatmap format, which this provider never wrote.',
      );
    }
    return undefined;
  }
  const text = Buffer.from(raw.json).toString('utf8');
  const version = Number(req.version ?? 0);
  const current = r.schema.version ?? 0;
  let state: Model;
  if (version < current && r.upgradeState) {
    state = await r.upgradeState({
      version,
      rawState: JSON.parse(text) as Record<string, unknown>,
      diagnostics: diags,
      providerData,
    });
  } else if (version > current) {
    diags.addError(
      'State written by a newer provider',
      `The state of this ${r.typeName} has schema version ${version}; this provider knows up to ${current}. Upgrade the provider.`,
    );
    return undefined;
  } else {
    // Same version: re-encode; attributes dropped from the schema disappear.
    state = decodeJson(blockType(r.schema), text) as Model;
  }
  r.stored?.({ state, providerData });
  return encodeObject(r.schema, state);
}

/** A stored object read afresh: its new state (undefined: terraform keeps what it sent) and the object read. */
export async function readState<P>(
  r: ResourceHandler<P>,
  req: Req,
  diags: Diagnostics,
  providerData: P | undefined,
): Promise<AppliedState> {
  const state = decodeObject(r.schema, req.current_state as DynamicValueMsg | undefined);
  if (state === null) return { state: undefined, applied: null };
  const fresh = await r.read({ state, diagnostics: diags, providerData });
  if (diags.hasError()) return { state: undefined, applied: null };
  return { state: encodeObject(r.schema, fresh), applied: fresh };
}

/** The new state of a read or an apply (undefined: terraform keeps what it sent) and the object it holds, if any. */
export interface AppliedState {
  state: DynamicValueMsg | undefined;
  applied: ObjectValue | null;
}

/** The state after applying the planned change; undefined: the prior state stands. */
export async function appliedState<P>(
  r: ResourceHandler<P>,
  req: Req,
  diags: Diagnostics,
  providerData: P | undefined,
): Promise<AppliedState> {
  const prior = decodeObject(r.schema, req.prior_state as DynamicValueMsg | undefined);
  const plan = decodeObject(r.schema, req.planned_state as DynamicValueMsg | undefined);
  const config = decodeObject(r.schema, req.config as DynamicValueMsg | undefined) ?? {};
  const common = { diagnostics: diags, providerData };
  let result: ObjectValue | null;
  if (plan === null) {
    if (prior === null) return { state: undefined, applied: null };
    await r.delete({ state: prior, ...common });
    return { state: diags.hasError() ? undefined : encodeObject(r.schema, null), applied: null };
  } else if (prior === null) {
    result = await r.create({ plan, config, ...common });
    // Nothing created: an empty state keeps terraform from recording a ghost.
    if (result === null) {
      if (!diags.hasError()) diags.addError(`${r.typeName} was not created`, 'The provider returned no state.');
      return { state: encodeObject(r.schema, null), applied: null };
    }
  } else {
    result = (await r.update({ plan, prior, config, ...common })) ?? prior;
  }
  for (const [name, v] of Object.entries(result)) {
    if (!isWhollyKnown(v)) {
      diags.addError(
        'Provider returned an unknown value after apply',
        `${r.typeName}.${name} is still unknown; this is a bug in the provider.`,
        [name],
      );
      result[name] = null;
    }
  }
  return { state: encodeObject(r.schema, result), applied: result };
}
