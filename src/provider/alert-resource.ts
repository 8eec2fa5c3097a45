/**
 * networkcalc_alert. The model (src/model) decides what is valid and what counts as equal;
 * this file maps it onto terraform's life cycle:
 * - validation at plan time, on the values already known, pointing at the attribute;
 * - reads from one list call per process (providerData.alerts), never a GET per alert;
 * - the state keeps the user's spelling while it is canonically equal to the live value;
 * - read-only fields are recorded at create, import and update, and kept on refresh, so a
 *   status change on the server is never drift;
 * - creates go through the shared ambiguous-create policy (src/converge): ids are learned from
 *   coalesced lists; an alert that may exist is never dropped from state, so no run creates
 *   it twice; a state without an id is resolved by name and settings on the next read.
 */
import { isNetworkCalcError } from '../client/errors';
import { createAlertOnce, takeMatching, type CreateOutcome, type Listing } from '../converge';
import {
  canonicalizeAlert,
  FIXED_ATTRIBUTES,
  parseAlert,
  READ_ONLY_ATTRIBUTES,
  SPEC_FIELDS,
  validateAlert,
  type AlertSpec,
  type CanonicalAlert,
  type LiveAlert,
} from '../model';
import { PROVIDER_SCHEMA } from '../schema';
import type { Diagnostics } from './diagnostics';
import { addClientError, requireData } from './errors';
import type { Model, ResourceHandler } from './framework';
import type { NetworkcalcData } from './provider-config';
import { isUnknown, isWhollyKnown, type Value } from './values';

const TYPE = 'networkcalc_alert';
type Data = NetworkcalcData | undefined;

/** Server-owned attributes; never compared, never sent. */
const READ_ONLY = READ_ONLY_ATTRIBUTES;
/** Of those, the ones no write changes: kept in update plans instead of becoming unknown. */
const FIXED = FIXED_ATTRIBUTES;

/** The spec fields of a model as plain input for the model; unknown values left out. */
function specInput(m: Model): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SPEC_FIELDS) {
    const v = m[f];
    if (v !== null && v !== undefined && !isUnknown(v)) out[f] = v;
  }
  return out;
}

/** Validates the known part of a config; problems of unknown fields wait for the plan. */
export function validateAlertConfig(config: Model, diags: Diagnostics): void {
  const unknown = new Set(SPEC_FIELDS.filter((f) => isUnknown(config[f])));
  for (const p of validateAlert(canonicalizeAlert(specInput(config)))) {
    if (unknown.has(p.field as (typeof SPEC_FIELDS)[number])) continue;
    diags.addError('Invalid alert', p.message, [p.field]);
  }
}

function parseSpec(m: Model, diags: Diagnostics): CanonicalAlert | undefined {
  const parsed = parseAlert(specInput(m));
  if (parsed.ok) return parsed.alert;
  for (const p of parsed.problems) diags.addError('Invalid alert', p.message, [p.field]);
  return undefined;
}

/** The value of a spec field as terraform holds it: "no value" is null, not "". */
function specValue(spec: AlertSpec, f: (typeof SPEC_FIELDS)[number]): Value {
  const v = spec[f];
  return v === '' ? null : v;
}

function readOnlyOf(live: LiveAlert): Model {
  const out: Model = {};
  for (const f of READ_ONLY) out[f] = live[f];
  return out;
}

/**
 * The state after a refresh. Spec fields: the prior spelling while canonically equal to the
 * live value (so "21" vs "021" or "dns record" vs "DNS Record" is never a diff), the live
 * value otherwise. Read-only fields: kept from a full prior state, taken from live after import.
 */
export function refreshedState(prior: Model, live: LiveAlert): Model {
  const canonicalPrior = canonicalizeAlert(specInput(prior));
  const state: Model = { id: live.id };
  for (const f of SPEC_FIELDS) {
    state[f] = canonicalPrior[f] === live[f] && prior[f] !== undefined ? prior[f]! : specValue(live, f);
  }
  // is_active is set by every full read; null means the prior state came from an import.
  const full = typeof prior.is_active === 'boolean';
  const ro = readOnlyOf(live);
  for (const f of READ_ONLY) state[f] = full ? (prior[f] ?? null) : ro[f]!;
  return state;
}

/** After a write: the planned values where known (terraform insists), live values for the rest. */
function appliedState(plan: Model, live: LiveAlert): Model {
  const fromLive: Model = { id: live.id, ...readOnlyOf(live) };
  for (const f of SPEC_FIELDS) fromLive[f] = specValue(live, f);
  const state: Model = {};
  for (const name of Object.keys(PROVIDER_SCHEMA.resources[TYPE]!.attributes)) {
    const planned = plan[name] ?? null;
    state[name] = isWhollyKnown(planned) ? planned : (fromLive[name] ?? null);
  }
  return state;
}

/** The id in state; null when a create never learned it (resolved by name on the next read). */
function idOf(m: Model): number | null {
  return typeof m.id === 'number' ? m.id : null;
}

/** The alert behind a state: by id, or by name and spec when the id was never learned. */
function liveOf(state: Model, listing: Listing, data: NetworkcalcData): LiveAlert | undefined {
  const id = idOf(state);
  if (id !== null) return listing.byId.get(id);
  const parsed = parseAlert(specInput(state));
  return parsed.ok ? takeMatching(listing, data.alerts, parsed.alert) : undefined;
}

const quoted = (name: unknown) => (typeof name === 'string' ? ` (${JSON.stringify(name)})` : '');

/**
 * The state of an alert that may exist but whose id is unknown: kept, so that no later run
 * creates it a second time; the next refresh finds it by name and settings, or drops it.
 */
function unresolvedState(plan: Model): Model {
  const state: Model = {};
  for (const name of Object.keys(PROVIDER_SCHEMA.resources[TYPE]!.attributes)) {
    const planned = plan[name] ?? null;
    state[name] = name === 'id' || !isWhollyKnown(planned) ? null : planned;
  }
  return state;
}

export const alertResource: ResourceHandler<Data> = {
  typeName: TYPE,
  schema: PROVIDER_SCHEMA.resources[TYPE]!,

  validate({ config, diagnostics }) {
    validateAlertConfig(config, diagnostics);
  },

  modifyPlan({ prior, config, planned, diagnostics }) {
    // Values unknown at validation may be known now (e.g. target_id from a data source).
    validateAlertConfig(config, diagnostics);
    if (prior === null) return;
    for (const f of FIXED) {
      if (isUnknown(planned[f]) && prior[f] !== null && prior[f] !== undefined) planned[f] = prior[f]!;
    }
  },

  async create({ plan, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const spec = parseSpec(plan, diagnostics);
    if (!spec) return null;
    const { client, alerts } = providerData;
    // A create recognises its alert as one not listed before its POST: list once beforehand.
    if (!alerts.hasBaseline) {
      try {
        await alerts.current();
      } catch (err) {
        alerts.invalidate();
        addClientError(diagnostics, 'Could not list alerts before creating', err);
        return null;
      }
    }
    const journal = providerData.journal;
    const key = journal?.keyOf(spec);
    const unfinished = key === undefined ? undefined : journal!.unfinished(key);
    if (unfinished) {
      // An earlier run died with this create in flight: its alert may exist without a state.
      const listing = await alerts.current().catch(() => undefined);
      const previous =
        listing === undefined
          ? undefined
          : unfinished.kind === 'created'
            ? takeMatching(listing, alerts, spec, (a) => a.id === unfinished.id)
            : takeMatching(listing, alerts, spec);
      if (previous) {
        journal!.created(key!, previous.id);
        diagnostics.addWarning(
          'Alert adopted from an interrupted run',
          `An earlier run was stopped while creating alert ${JSON.stringify(spec.name)}; alert ${previous.id} with these settings exists and no state holds it, so it was adopted instead of creating another.`,
        );
        return appliedState(plan, previous);
      }
    }
    if (key !== undefined) journal!.intent(key);
    let outcome: CreateOutcome;
    try {
      outcome = await createAlertOnce(client, alerts, spec, { identify: true });
    } catch (err) {
      if (isNetworkCalcError(err) && err.code === 'OUTCOME_UNKNOWN') {
        // It may exist: keep it (terraform marks it tainted) so that no run creates it twice.
        addClientError(diagnostics, 'Alert create outcome unknown', err);
        diagnostics.addError(
          'Alert kept in the state without an id',
          `Alert ${JSON.stringify(spec.name)} may or may not have been created. It stays in the state without an id; the next plan looks it up by name and settings: if it exists it is replaced (it is marked tainted), otherwise it is created.`,
        );
        return unresolvedState(plan);
      }
      if (key !== undefined) journal!.clear(key);
      addClientError(diagnostics, 'Could not create the alert', err);
      return null;
    } finally {
      alerts.invalidate();
    }
    if (key !== undefined && outcome.kind !== 'unidentified') journal!.created(key, outcome.alert!.id);
    if (outcome.kind === 'unidentified') {
      diagnostics.addWarning(
        'Alert created; its id is learned on the next refresh',
        `NetworkCalc accepted alert ${JSON.stringify(spec.name)}, but ${outcome.reason}. It is in the state without an id; the next plan or refresh finds it by name and settings.`,
      );
      return unresolvedState(plan);
    }
    if (outcome.kind === 'adopted') {
      diagnostics.addWarning(
        'Alert adopted after an unclear create',
        `The create's answer was lost; alert ${outcome.alert.id} (${JSON.stringify(outcome.alert.name)}) appeared with these settings and was adopted instead of creating another.`,
      );
    }
    return appliedState(plan, outcome.alert!);
  },

  async read({ state, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return state;
    let live: LiveAlert | undefined;
    try {
      live = liveOf(state, await providerData.alerts.current(), providerData);
    } catch (err) {
      addClientError(diagnostics, 'Could not read alerts', err);
      return state;
    }
    if (!live) {
      const id = idOf(state);
      diagnostics.addWarning(
        id === null ? 'Alert not found by name' : 'Alert deleted outside Terraform',
        id === null
          ? `Alert${quoted(state.name)} was kept in the state after a create whose outcome was unknown; no alert of that name and settings exists, so it was not created. It was removed from the state; the next apply creates it.`
          : `Alert ${id}${quoted(state.name)} no longer exists in the account. It was removed from the state; the next apply creates it again.`,
      );
      return null;
    }
    // The state holds it now: a create record of an earlier run is finished.
    const journal = providerData.journal;
    if (journal) {
      if (idOf(state) === null) {
        const parsed = parseAlert(specInput(state));
        if (parsed.ok) journal.clear(journal.keyOf(parsed.alert));
      }
      journal.done(live.id);
    }
    return refreshedState(state, live);
  },

  async update({ plan, prior, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const spec = parseSpec(plan, diagnostics);
    if (!spec) return null;
    const { alerts } = providerData;
    const id = idOf(prior);
    if (id === null) {
      diagnostics.addError(
        'Alert id not known',
        `Alert${quoted(prior.name)} has no id in the state yet. Run terraform apply again: its refresh finds the alert by name and settings first.`,
      );
      return null;
    }
    let mark: number;
    try {
      await providerData.client.updateAlert(id, spec);
    } catch (err) {
      if (isNetworkCalcError(err) && err.code === 'NOT_FOUND') {
        diagnostics.addError(
          'Alert deleted outside Terraform',
          `Alert ${id} no longer exists, so it cannot be updated. Run terraform apply again: the refresh removes it from the state and the plan creates it anew.`,
        );
        return null;
      }
      addClientError(diagnostics, `Could not update alert ${id}`, err);
      return null;
    } finally {
      mark = alerts.mark();
      alerts.invalidate();
    }
    let live: LiveAlert | undefined;
    try {
      live = (await alerts.after(mark)).byId.get(id);
    } catch (err) {
      addClientError(diagnostics, `Alert ${id} updated, but could not be read back`, err);
      return null;
    }
    if (!live) {
      diagnostics.addError(
        'Alert vanished after update',
        `Alert ${id} was updated but is no longer listed; it was probably deleted meanwhile. Run terraform apply again.`,
      );
      return null;
    }
    return appliedState(plan, live);
  },

  async delete({ state, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return;
    let id = idOf(state);
    if (id === null) {
      // A create that never learned its id: delete what the name and settings find, if anything.
      try {
        id = liveOf(state, await providerData.alerts.current(), providerData)?.id ?? null;
      } catch (err) {
        addClientError(diagnostics, `Could not look up alert${quoted(state.name)} to delete it`, err);
        return;
      }
      if (id === null) return;
    }
    try {
      await providerData.client.deleteAlert(id);
    } catch (err) {
      // Already gone is what delete wants.
      if (!(isNetworkCalcError(err) && err.code === 'NOT_FOUND'))
        addClientError(diagnostics, `Could not delete alert ${id}`, err);
    } finally {
      providerData.alerts.invalidate();
    }
    providerData.journal?.done(id);
  },

  async importState({ id, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const text = id.trim();
    if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) {
      diagnostics.addError(
        'Invalid import id',
        `Import a ${TYPE} by its numeric id (e.g. 42), got ${JSON.stringify(id)}. The networkcalc_alerts data source or "ncalc export" lists the ids.`,
      );
      return null;
    }
    const n = Number(text);
    let all: ReadonlyMap<number, LiveAlert>;
    try {
      all = (await providerData.alerts.current()).byId;
    } catch (err) {
      addClientError(diagnostics, 'Could not list alerts', err);
      return null;
    }
    if (!all.has(n)) {
      diagnostics.addError(
        'Alert not found',
        `no alert with id ${n} in this account (it has ${all.size} alert${all.size === 1 ? '' : 's'}; the networkcalc_alerts data source lists them).`,
      );
      return null;
    }
    return { id: n };
  },
};
