/**
 * networkcalc_alert. The model (src/model) decides what is valid and what counts as equal;
 * this file maps it onto terraform's life cycle:
 * - validation at plan time, on the values already known, pointing at the attribute;
 * - reads from one list call per process (providerData.alerts), never a GET per alert;
 * - the state keeps the user's spelling while it is canonically equal to the live value;
 * - read-only fields are refreshed (a refresh-only plan shows a status change) and kept from
 *   the prior state through an update plan, so an update shows only what it changes;
 * - equal spellings of one value (the model's canonical form) plan no change;
 * - a create never makes a second alert of a name the account already has;
 * - creates go through the shared ambiguous-create policy (src/converge): ids are learned from
 *   coalesced lists; an alert that may exist is never dropped from state, so no run creates
 *   it twice; a state without an id is resolved by name and settings on the next read.
 */
import { isNetworkCalcError } from '../client/errors';
import { createAlertOnce, takeMatching, type CreateOutcome, type Listing } from '../converge';
import {
  canonicalizeAlert,
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
import { addClientError, listedAlerts, requireData } from './errors';
import type { Model, ResourceHandler } from './framework';
import type { NetworkcalcData } from './provider-config';
import { AlertNames, type NameHolder } from './alert-names';
import { blockType, decodeJson, isUnknown, isWhollyKnown, type Value } from './values';

const TYPE = 'networkcalc_alert';
type Data = NetworkcalcData | undefined;

/** Server-owned attributes; never compared, never sent. */
const READ_ONLY = READ_ONLY_ATTRIBUTES;

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
 * value otherwise. Read-only fields: always the live ones, so `plan -refresh-only` shows an
 * alert paused or triggered in the console; nothing in a configuration sets them, so a normal
 * plan stays empty.
 */
export function refreshedState(prior: Model, live: LiveAlert): Model {
  const canonicalPrior = canonicalizeAlert(specInput(prior));
  const state: Model = { id: stateId(live.id) };
  for (const f of SPEC_FIELDS) {
    state[f] = canonicalPrior[f] === live[f] && prior[f] !== undefined ? prior[f]! : specValue(live, f);
  }
  return Object.assign(state, readOnlyOf(live));
}

/** After a write: the planned values where known (terraform insists), live values for the rest. */
function appliedState(plan: Model, live: LiveAlert): Model {
  const fromLive: Model = { id: stateId(live.id), ...readOnlyOf(live) };
  for (const f of SPEC_FIELDS) fromLive[f] = specValue(live, f);
  const state: Model = {};
  for (const name of Object.keys(PROVIDER_SCHEMA.resources[TYPE]!.attributes)) {
    const planned = plan[name] ?? null;
    state[name] = isWhollyKnown(planned) ? planned : (fromLive[name] ?? null);
  }
  return state;
}

/** The id as terraform holds it: a string, so progress lines read `[id=42]` and import takes it as is. */
const stateId = (id: number): string => String(id);

/** The id in state; null when a create never learned it (resolved by name on the next read). */
function idOf(m: Model): number | null {
  return typeof m.id === 'string' && /^[0-9]+$/.test(m.id) ? Number(m.id) : null;
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

/** The name index of each provider process's account (one per configured provider). */
const nameIndexes = new WeakMap<NetworkcalcData, AlertNames>();
function namesOf(data: NetworkcalcData): AlertNames {
  let names = nameIndexes.get(data);
  if (!names) nameIndexes.set(data, (names = new AlertNames()));
  return names;
}

/** One account, one owner: an existing alert is imported, never created a second time. */
function nameTaken(diagnostics: Diagnostics, name: string, holder: NameHolder | undefined): void {
  const quotedName = JSON.stringify(name);
  diagnostics.addError(
    'Alert already exists',
    holder?.kind === 'live'
      ? `Alert ${quotedName} already exists in this account (id ${holder.id}) and this state does not hold it. An alert is identified by its name within its account, so a second one is not created. ` +
          `To manage the existing alert here, import it: terraform import <this resource's address> ${holder.id}, or an import block { to = <address>, id = "${holder.id}" }. ` +
          `If ncalc or another Terraform state manages it, move it first (docs/terraform.md, "One account, one owner"), or give this alert another name.`
      : `Another alert of this configuration is already being created with the name ${quotedName} in this run; names identify alerts within an account, so give each a different name (e.g. with count.index or each.key).`,
    ['name'],
  );
}

export const alertResource: ResourceHandler<Data> = {
  typeName: TYPE,
  schema: PROVIDER_SCHEMA.resources[TYPE]!,

  validate({ config, diagnostics }) {
    validateAlertConfig(config, diagnostics);
  },

  modifyPlan({ prior, config, planned, requiresReplace, diagnostics, providerData }) {
    // Values unknown at validation may be known now (e.g. target_id from a data source).
    validateAlertConfig(config, diagnostics);
    if (prior === null) return;
    // This state holds the alert (terraform plans every instance it keeps, with or without a
    // refresh): no later create may adopt it from the journal.
    const heldId = idOf(prior);
    if (heldId !== null) providerData?.journal?.held(heldId);
    // Equal spellings of one value are no change: keep the prior spelling (terraform accepts
    // the prior value for a configured one as "functionally equivalent").
    const canonicalPlan = canonicalizeAlert(specInput(planned));
    const canonicalPrior = canonicalizeAlert(specInput(prior));
    let changed = false;
    for (const f of SPEC_FIELDS) {
      const value = planned[f] ?? null;
      if (value === null || isUnknown(value) || prior[f] === null || prior[f] === undefined) {
        if (!isUnknown(value) && value !== (prior[f] ?? null)) changed = true;
        if (isUnknown(value)) changed = true;
        continue;
      }
      if (value === prior[f]) continue;
      if (canonicalPlan[f] === canonicalPrior[f]) {
        planned[f] = prior[f]!;
        requiresReplace.delete(f);
      } else {
        changed = true;
      }
    }
    // Nothing the service stores changes in an update (a PATCH leaves status, activity and
    // history alone), and with no change at all the plan is the prior state.
    for (const f of READ_ONLY) {
      if ((isUnknown(planned[f]) || !changed) && prior[f] !== undefined) planned[f] = prior[f]!;
    }
    if (!changed) planned.id = prior.id ?? null;
  },

  async create({ plan, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const spec = parseSpec(plan, diagnostics);
    if (!spec) return null;
    const { client, alerts, journal } = providerData;
    const names = namesOf(providerData);
    // A create recognises its alert as one not listed before its POST, and refuses a name
    // that exists: both need the account's alerts as they were before this process wrote.
    try {
      // One list per process: later calls share the first.
      await names.load(() => alerts.current());
    } catch (err) {
      alerts.invalidate();
      addClientError(diagnostics, 'Could not list alerts before creating', err);
      return null;
    }
    const key = journal?.keyOf(spec);
    const unfinished = key === undefined ? undefined : journal!.unfinished(key);
    if (unfinished) {
      // An earlier run of this state died after sending this create, before terraform recorded
      // its alert (no state has been seen holding it since): it may exist with no owner.
      const previous = await alerts.current().then(
        (listing) =>
          unfinished.kind === 'created'
            ? takeMatching(listing, alerts, spec, (a) => a.id === unfinished.id)
            : takeMatching(listing, alerts, spec),
        () => undefined,
      );
      if (previous) {
        journal!.created(key!, previous.id);
        names.holds(previous.id, previous.name);
        diagnostics.addWarning(
          'Alert adopted from an interrupted run',
          `An earlier run of this workspace was stopped after creating alert ${JSON.stringify(spec.name)}, before terraform could record it; alert ${previous.id} with these settings exists and this state never held it, so it was adopted instead of creating another.`,
        );
        return appliedState(plan, previous);
      }
    }
    if (!names.reserve(spec.name)) {
      nameTaken(diagnostics, spec.name, names.holder(spec.name));
      return null;
    }
    if (key !== undefined) await journal!.intent(key);
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
        if (key !== undefined) journal!.end(key);
        return unresolvedState(plan);
      }
      if (key !== undefined) journal!.end(key);
      names.release(spec.name);
      addClientError(diagnostics, 'Could not create the alert', err);
      return null;
    } finally {
      alerts.invalidate();
    }
    // An alert with an id stays adoptable until a state is seen holding it; without one, the
    // state resolves it by name and settings.
    if (key !== undefined) {
      if (outcome.kind === 'unidentified') journal!.end(key);
      else journal!.created(key, outcome.alert!.id);
    }
    if (outcome.kind === 'unidentified') {
      diagnostics.addWarning(
        'Alert created; its id is learned on the next refresh',
        `NetworkCalc accepted alert ${JSON.stringify(spec.name)}, but ${outcome.reason}. It is in the state without an id; the next plan or refresh finds it by name and settings.`,
      );
      return unresolvedState(plan);
    }
    const created = outcome.alert!;
    names.holds(created.id, created.name);
    if (outcome.kind === 'adopted') {
      diagnostics.addWarning(
        'Alert adopted after an unclear create',
        `The create's answer was lost; alert ${outcome.alert.id} (${JSON.stringify(outcome.alert.name)}) appeared with these settings and was adopted instead of creating another.`,
      );
    }
    return appliedState(plan, created);
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
    providerData.journal?.held(live.id);
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
    namesOf(providerData).holds(live.id, live.name);
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
    namesOf(providerData).gone(id);
    providerData.journal?.held(id);
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
    const all = await listedAlerts(providerData, diagnostics);
    if (!all) return null;
    if (!all.has(n)) {
      diagnostics.addError(
        'Alert not found',
        `no alert with id ${n} in this account (it has ${all.size} alert${all.size === 1 ? '' : 's'}; the networkcalc_alerts data source lists them).`,
      );
      return null;
    }
    return { id: stateId(n) };
  },

  // Version 0 held the id as a number.
  upgradeState({ version, rawState }) {
    const state = { ...rawState } as Record<string, unknown>;
    if (version < 1 && typeof state.id === 'number') state.id = stateId(state.id);
    return decodeJson(blockType(PROVIDER_SCHEMA.resources[TYPE]!), JSON.stringify(state)) as Model;
  },
};
