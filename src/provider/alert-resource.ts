/**
 * networkcalc_alert. The model (src/model) decides what is valid and what counts as equal;
 * this file maps it onto terraform's life cycle:
 * - validation at plan time, on the values already known, pointing at the attribute;
 * - reads from one list call per process (providerData.alerts), never a GET per alert;
 * - the state keeps the user's spelling while it is canonically equal to the live value;
 * - read-only fields are refreshed (a refresh-only plan shows a status change) and kept from
 *   the prior state through an update plan, so an update shows only what it changes;
 * - equal spellings of one value (the model's canonical form) plan no change;
 * - one owner per alert (docs/architecture.md, "One owner per alert"): a create never makes a
 *   second alert of a name the account already has, and takes only an alert that its own POST
 *   provably made in this process (the shared create policy of src/converge, which also tells
 *   a concurrent writer of the same name); a name live and held by no state here is refused,
 *   at plan time when known; nothing is adopted across processes (the create journal only
 *   makes the refusal precise), and a state without an id is never resolved by name;
 * - a rename into a name the account has, and a resource moved without `moved` (a destroy
 *   and a create of one name in one plan), are refused at plan time.
 */
import { isNetworkCalcError } from '../client/errors';
import { createAlertOnce, sameAlertName, type CreateOutcome, type Listing } from '../converge';
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
import type { Model, ModifyPlanRequest, PrivateData, ResourceHandler } from './framework';
import type { NetworkcalcData } from './provider-config';
import { AlertNames, HeldAlerts } from './alert-names';
import type { CreateJournal } from './create-journal';
import { localAddressOf, localHolderOf, type LocalHolder } from './local-state';
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

/** An alert of this name in a list, if any (the lowest id). */
function namedIn(listing: Listing, name: unknown): LiveAlert | undefined {
  if (typeof name !== 'string') return undefined;
  let found: LiveAlert | undefined;
  for (const a of listing.alerts) if (sameAlertName(a.name, name) && (!found || a.id < found.id)) found = a;
  return found;
}

/** "alerts 3 and 7", "alerts 3, 7 and 9", "alert 3". */
function idList(ids: readonly number[]): string {
  if (ids.length === 1) return `alert ${ids[0]}`;
  return `alerts ${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

const quoted = (name: unknown) => (typeof name === 'string' ? ` (${JSON.stringify(name)})` : '');

/**
 * The state of an alert that may exist but whose id is unknown: kept, so that the apply fails
 * visibly; the next refresh drops it and the plan names the alert of that name to import.
 */
function unresolvedState(plan: Model): Model {
  const state: Model = {};
  for (const name of Object.keys(PROVIDER_SCHEMA.resources[TYPE]!.attributes)) {
    const planned = plan[name] ?? null;
    state[name] = name === 'id' || !isWhollyKnown(planned) ? null : planned;
  }
  return state;
}

/** Per configured provider (one process, one account): who holds each name, and the instances seen. */
const views = new WeakMap<NetworkcalcData, { names: AlertNames; held: HeldAlerts }>();
function viewOf(data: NetworkcalcData): { names: AlertNames; held: HeldAlerts } {
  let view = views.get(data);
  if (!view) views.set(data, (view = { names: new AlertNames(), held: new HeldAlerts() }));
  return view;
}
const namesOf = (data: NetworkcalcData) => viewOf(data).names;

const IMPORT_BLOCKS = 'npx --no-install ncalc import-blocks';

/** How to take over alert `id` (the provider's import id is the alert's numeric id). */
const importFix = (id: number) =>
  `import it: an import block { to = <this resource's address>, id = "${id}" }, or terraform import <this resource's address> ${id} ` +
  `(${IMPORT_BLOCKS} writes the import blocks for every alert of the configuration that no state holds)`;

/**
 * What the create journal says of an earlier run of this workspace and this alert, as a clause
 * of the refusal: never a reason to adopt, only what that run could prove.
 */
function originOf(journal: CreateJournal | undefined, spec: AlertSpec | undefined, id: number): string {
  if (!journal || !spec) return '';
  const unfinished = journal.unfinished(journal.keyOf(spec));
  if (unfinished?.kind === 'created' && unfinished.id === id)
    return `: an earlier run of this workspace created it (its own create proved id ${id}) and no state has been seen holding it since, as when terraform is killed before it saves its state`;
  if (unfinished?.kind === 'interrupted')
    return ': an earlier run of this workspace was stopped while creating an alert of this name, before it could prove which alert, if any, it made';
  return '';
}

/** One account, one owner: a live alert that no state here holds is imported, never created again nor adopted. */
function notHeld(name: string, id: number, origin: string): string {
  return (
    `Alert ${JSON.stringify(name)} already exists (id ${id}) and no state here holds it${origin}. ` +
    `A run takes over only an alert that its own create provably made, so this one is neither created a second time nor adopted. ` +
    `To manage it here, ${importFix(id)}; if it is a stray copy, delete it in the NetworkCalc console; or give this alert another name. ` +
    `Under terraform test, give the test's alerts names of their own through variables, or use mock_provider or override_resource.`
  );
}

function nameTaken(
  diagnostics: Diagnostics,
  name: string,
  names: AlertNames,
  journal: CreateJournal | undefined,
  spec: AlertSpec | undefined,
): void {
  const holder = names.holder(name);
  diagnostics.addError(
    'Alert already exists',
    holder?.kind === 'live'
      ? notHeld(name, holder.id, originOf(journal, spec, holder.id))
      : `Another alert of this configuration is already being created with the name ${JSON.stringify(name)} in this run; names identify alerts within an account, so give each a different name (e.g. with count.index or each.key).`,
    ['name'],
  );
}

/** The address the local state holds alert `id` at, as a clause, or ''. */
function heldAt(id: number): string {
  const address = localAddressOf(TYPE, stateId(id));
  return address ? ` at ${address}` : '';
}

/**
 * A resource renamed without `moved`: this plan destroys alert `id` and creates its name at
 * another address. Applied, the alert would be deleted and made anew (or, in parallel, the
 * create refused and the alert gone), so the plan stops with the block that keeps it.
 */
function movedWithoutMoved(diagnostics: Diagnostics, name: string, id: number, side: 'create' | 'destroy'): void {
  const from = localAddressOf(TYPE, stateId(id));
  const fromText = from ?? '<the address terraform plans to destroy, terraform state list shows it>';
  diagnostics.addError(
    'Resource address changed without a moved block',
    side === 'create'
      ? `This plan destroys alert ${id} (${JSON.stringify(name)}), which this state holds${from ? ` at ${from}` : ' at another address'}, and creates an alert of the same name here: the resource's address changed without a moved block. ` +
          `Applied, the alert would be deleted and made anew, so the plan stops; add\n\nmoved {\n  from = ${fromText}\n  to   = <this resource's address>\n}\n\nand plan again: the alert then stays as it is.`
      : `This plan destroys alert ${id} (${JSON.stringify(name)}) held at this address${from ? ` (${from})` : ''} and creates an alert of the same name at another address (see the error there): the resource's address changed without a moved block. ` +
          `Add moved { from = ${from ?? '<this address>'} to = <the new address> } and plan again: the alert then stays as it is.`,
    side === 'create' ? ['name'] : undefined,
  );
}

/**
 * An import of an alert another state of this working directory already holds (or this state
 * at another address): two states holding one alert would update and delete it from under
 * each other, so it stays with its holder.
 */
function importHeld(diagnostics: Diagnostics, id: number, holder: LocalHolder): void {
  const where = holder.current
    ? `this state already holds it at ${holder.address}`
    : `the state of workspace ${JSON.stringify(holder.workspace)} of this working directory holds it at ${holder.address}`;
  const release = holder.current
    ? `use a moved block from ${holder.address} to move it`
    : `remove it from that state first (terraform workspace select ${holder.workspace}, then terraform state rm ${holder.address})`;
  diagnostics.addError(
    'Alert held by another state',
    `Alert ${id} cannot be imported: ${where}. Each alert has one owner, since two states holding one alert would change and delete it from under each other. ` +
      `To manage it here instead, ${release}, then import it; or manage a different alert here.`,
  );
}

/** A rename into a name another alert of the account has (case-insensitively): refused, naming it. */
function renameTaken(diagnostics: Diagnostics, id: number, name: string, other: number): void {
  diagnostics.addError(
    'Alert name already taken',
    `Alert ${id} cannot be renamed to ${JSON.stringify(name)}: the account already has alert ${other} of that name, and a name identifies one alert within an account. ` +
      `Rename or delete alert ${other} first (in a separate apply), or choose another name.`,
    ['name'],
  );
}

/**
 * Two or more instances of one configuration plan one name in this account: every one of them
 * is refused (terraform names each address beside its error), before anything is written.
 */
function samePlannedName(diagnostics: Diagnostics, name: string, instances: number): void {
  diagnostics.addError(
    'Alert name planned twice',
    `${instances} instances of this configuration plan an alert named ${JSON.stringify(name)} in one account, this one among them (terraform names each beside its error). ` +
      `A name identifies one alert within an account, so give each instance its own name, e.g. with count.index or each.key in the name.`,
    ['name'],
  );
}

/** The alert a planned create replaces (the prior object's id, handed back as private data), if any. */
function replacedId(priorPrivate: PrivateData): number | undefined {
  const id = priorPrivate.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
}

/**
 * A planned create of a name the account already has: the state's own alert (a replacement:
 * fine), this state's alert at another address (moved without `moved`), another resource of
 * this state, or an alert no state here holds (refused now, not only at apply).
 */
async function checkPlannedCreate(
  planned: Model,
  diagnostics: Diagnostics,
  data: NetworkcalcData,
  replaces: number | undefined,
): Promise<void> {
  const name = planned.name;
  if (typeof name !== 'string') return;
  const { names, held } = viewOf(data);
  const instances = await held.plannedCreates(name);
  if (instances > 1) return samePlannedName(diagnostics, name, instances);
  try {
    // The process's one list (the refresh's, when there was one).
    await names.load(() => data.alerts.current());
  } catch {
    return; // the apply reports a list that fails
  }
  const holder = names.holder(name);
  if (holder?.kind !== 'live') return;
  // The create half of this instance's own replacement (-replace, a tainted alert).
  if (holder.id === replaces) return held.seen(replaces, { kind: 'replaced' });
  const fate = await held.fateOf(holder.id);
  // Read by the refresh, or handed over for an upgrade (which every object of the state is, even
  // with -refresh=false), and never planned with its prior state: a tainted object of this
  // state, which terraform plans as a create of its replacement with neither its prior state
  // nor its private data.
  if (fate?.kind === 'replaced' || fate?.kind === 'read') return held.seen(holder.id, { kind: 'replaced' });
  if (fate?.kind === 'kept' && fate.name !== undefined && !sameAlertName(fate.name, name)) return; // renamed away
  if (fate?.kind === 'destroyed') {
    held.refusedFor(holder.id, name);
    movedWithoutMoved(diagnostics, name, holder.id, 'create');
    return;
  }
  if (fate?.kind === 'kept') {
    diagnostics.addError(
      'Alert already exists',
      `Alert ${JSON.stringify(name)} (id ${holder.id}) is held by another resource of this state${heldAt(holder.id)}; a name identifies one alert within an account, so give this resource another name.`,
      ['name'],
    );
    return;
  }
  const parsed = parseAlert(specInput(planned));
  diagnostics.addError(
    'Alert already exists',
    notHeld(name, holder.id, originOf(data.journal, parsed.ok ? parsed.alert : undefined, holder.id)),
    ['name'],
  );
}

/** The other alert that holds `name` in the account, when renaming alert `id` into it. */
async function renameConflict(data: NetworkcalcData, id: number, name: string): Promise<number | undefined> {
  const names = namesOf(data);
  await names.load(() => data.alerts.current());
  const holder = names.holder(name);
  return holder?.kind === 'live' && holder.id !== id ? holder.id : undefined;
}

/** The plan of an update: equal spellings and unchanged read-only values keep the prior state. */
function planChange({ prior, config, planned, requiresReplace, diagnostics }: ModifyPlanRequest<Data>): void {
  // Values unknown at validation may be known now (e.g. target_id from a data source).
  validateAlertConfig(config, diagnostics);
  if (prior === null) return;
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
}

/**
 * Lists the account's alerts once per process and reserves the name for this create; false
 * (with an error) when the list fails or the name is taken. A create recognises its alert as
 * one not listed before its POST, and refuses a name that exists: both need the account's
 * alerts as they were before this process wrote.
 */
async function reserveName(data: NetworkcalcData, spec: CanonicalAlert, diagnostics: Diagnostics): Promise<boolean> {
  const { alerts, journal } = data;
  const names = namesOf(data);
  try {
    // One list per process: later calls share the first.
    await names.load(() => alerts.current());
  } catch (err) {
    alerts.invalidate();
    addClientError(diagnostics, 'Could not list alerts before creating', err);
    return false;
  }
  if (!names.reserve(spec.name)) {
    nameTaken(diagnostics, spec.name, names, journal, spec);
    return false;
  }
  return true;
}

/** The error of a create that found more than one alert of its name, or one it did not make. */
function duplicateError(
  diagnostics: Diagnostics,
  spec: CanonicalAlert,
  outcome: Extract<CreateOutcome, { kind: 'duplicate' }>,
): void {
  const ids = outcome.alerts.map((a) => a.id);
  diagnostics.addError(
    'Alert already exists',
    outcome.created
      ? `Alert ${JSON.stringify(spec.name)} was created, but the account now lists ${idList(ids)} of that name (another writer created it at the same time), and this run cannot prove which one its own create made, so this state holds none. ` +
          `Keep one: delete the other copy in the NetworkCalc console, then import the one you keep: terraform import <this resource's address> <its id> (or ${IMPORT_BLOCKS}).`
      : notHeld(
          spec.name,
          ids[0]!,
          ': another writer created it while this create was in flight, whose answer was lost; the account list proves that this create made nothing',
        ),
    ['name'],
  );
}

/**
 * An alert that may or may not exist: kept without an id (terraform marks it tainted); the
 * next run finds its name live and refuses it with the id, and the journal's intent stays so
 * that the refusal says this run could not prove it.
 */
function outcomeUnknownState(plan: Model, spec: CanonicalAlert, diagnostics: Diagnostics, err: unknown): Model {
  addClientError(diagnostics, 'Alert create outcome unknown', err);
  diagnostics.addError(
    'Alert kept in the state without an id',
    `Alert ${JSON.stringify(spec.name)} may or may not have been created. It stays in the state without an id; the next plan checks the name: if an alert of that name exists, the plan names its id and asks you to import it (this run cannot prove that it made it), otherwise the alert is created.`,
  );
  return unresolvedState(plan);
}

export const alertResource: ResourceHandler<Data> = {
  typeName: TYPE,
  schema: PROVIDER_SCHEMA.resources[TYPE]!,

  validate({ config, diagnostics }) {
    validateAlertConfig(config, diagnostics);
  },

  async modifyPlan(req) {
    if (!req.providerData) return planChange(req);
    const data = req.providerData;
    await viewOf(data).held.during(async () => {
      planChange(req);
      if (req.prior === null) {
        return checkPlannedCreate(req.planned, req.diagnostics, data, replacedId(req.priorPrivate));
      }
      const id = idOf(req.prior);
      if (id === null) return;
      // Handed back with a null prior when terraform plans this instance's replacement.
      req.plannedPrivate.id = id;
      // This state holds the alert (terraform plans every instance it keeps, with or without
      // a refresh): its journal record, if any, ends.
      data.journal?.held(id);
      const name = typeof req.planned.name === 'string' ? req.planned.name : undefined;
      viewOf(data).held.seen(id, req.requiresReplace.size > 0 ? { kind: 'replaced' } : { kind: 'kept', name });
      if (name === undefined || typeof req.prior.name !== 'string' || sameAlertName(req.prior.name, name)) return;
      try {
        const other = await renameConflict(data, id, name);
        if (other !== undefined) renameTaken(req.diagnostics, id, name, other);
      } catch {
        // The apply checks again, and reports a list that fails.
      }
    });
  },

  async planDestroy({ prior, diagnostics, providerData }) {
    const id = idOf(prior);
    if (!providerData || id === null || typeof prior.name !== 'string') return;
    const { held } = viewOf(providerData);
    await held.during(() => {
      held.seen(id, { kind: 'destroyed', name: prior.name as string });
      // A create of its name refused before this destroy was seen: say it here too, at this address.
      const refused = held.refusedName(id);
      if (refused !== undefined) movedWithoutMoved(diagnostics, refused, id, 'destroy');
    });
    // A create planned after this destroy: checkPlannedCreate marks it, and the destroy's
    // address is named by the create's message (from the local state, when there is one).
  },

  async create({ plan, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const spec = parseSpec(plan, diagnostics);
    if (!spec) return null;
    const { client, alerts, journal } = providerData;
    const names = namesOf(providerData);
    if (!(await reserveName(providerData, spec, diagnostics))) return null;
    const key = journal?.keyOf(spec);
    if (key !== undefined) await journal!.intent(key);
    let outcome: CreateOutcome;
    try {
      outcome = await createAlertOnce(client, alerts, spec, { identify: true });
    } catch (err) {
      if (isNetworkCalcError(err) && err.code === 'OUTCOME_UNKNOWN')
        return outcomeUnknownState(plan, spec, diagnostics, err);
      if (key !== undefined) journal!.end(key);
      names.release(spec.name);
      addClientError(diagnostics, 'Could not create the alert', err);
      return null;
    } finally {
      alerts.invalidate();
    }
    if (outcome.kind === 'duplicate') {
      if (key !== undefined) journal!.end(key);
      names.release(spec.name);
      for (const a of outcome.alerts) names.holds(a.id, a.name);
      duplicateError(diagnostics, spec, outcome);
      return null;
    }
    // The journal records what this create proved until a state is seen holding it (for the
    // refusal of a later run); an unidentified alert keeps its intent.
    if (outcome.kind === 'unidentified' || !outcome.alert) {
      diagnostics.addError(
        'Alert created; its id is unknown',
        `NetworkCalc accepted alert ${JSON.stringify(spec.name)}, but ${outcome.kind === 'unidentified' ? outcome.reason : 'its answer had no id'}. It stays in the state without an id; the next plan names the id of the alert of that name and asks you to import it, since no run can then prove that it is this one.`,
      );
      return unresolvedState(plan);
    }
    const created = outcome.alert;
    if (key !== undefined) journal!.created(key, created.id);
    names.holds(created.id, created.name);
    if (outcome.kind === 'adopted') {
      diagnostics.addWarning(
        'Alert adopted after an unclear create',
        `The create's answer was lost; alert ${outcome.alert.id} (${JSON.stringify(outcome.alert.name)}) appeared with these settings, the only new alert of that name since this create was sent, and was adopted instead of creating another.`,
      );
    }
    return appliedState(plan, created);
  },

  async read({ state, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return state;
    const data = providerData;
    return viewOf(data).held.during(async () => {
      let listing: Listing;
      try {
        listing = await data.alerts.current();
      } catch (err) {
        addClientError(diagnostics, 'Could not read alerts', err);
        return state;
      }
      const id = idOf(state);
      if (id === null) {
        // A create that never learned its id. Never resolved by name: an alert of that name may
        // be another writer's, and taking it would let two states hold one alert.
        const named = namedIn(listing, state.name);
        diagnostics.addWarning(
          'Alert removed from the state: its id was never learned',
          named
            ? `Alert${quoted(state.name)} was kept in the state after a create that could not learn its id. Alert ${named.id} now has that name, but no run can prove that this create made it, so it was not taken over; it was removed from the state, and the plan asks you to import alert ${named.id} or delete it.`
            : `Alert${quoted(state.name)} was kept in the state after a create whose outcome was unknown; no alert of that name exists, so it was not created. It was removed from the state; the next apply creates it.`,
        );
        return null;
      }
      const live = listing.byId.get(id);
      if (!live) {
        diagnostics.addWarning(
          'Alert deleted outside Terraform',
          `Alert ${id}${quoted(state.name)} no longer exists in the account. It was removed from the state; the next apply creates it again.`,
        );
        return null;
      }
      data.journal?.held(live.id);
      viewOf(data).held.seen(live.id, { kind: 'read' });
      return refreshedState(state, live);
    });
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
        `Alert${quoted(prior.name)} has no id in the state: its create never learned it. Run terraform apply again: the refresh removes it from the state, and the plan names the alert of that name to import, if any.`,
      );
      return null;
    }
    if (typeof prior.name === 'string' && !sameAlertName(prior.name, spec.name)) {
      // A rename into a name the account has would make two alerts of one name.
      let other: number | undefined;
      try {
        other = await renameConflict(providerData, id, spec.name);
      } catch (err) {
        alerts.invalidate();
        addClientError(diagnostics, 'Could not list alerts before renaming', err);
        return null;
      }
      if (other !== undefined) {
        renameTaken(diagnostics, id, spec.name, other);
        return null;
      }
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
    const id = idOf(state);
    if (id === null) {
      // A create that never learned its id: nothing this state can prove it holds is deleted.
      diagnostics.addWarning(
        'Alert removed from the state without a delete',
        `Alert${quoted(state.name)} never had a known id in this state, so no alert was deleted: an alert of that name, if any, may be another writer's. Delete it in the NetworkCalc console if it is a stray copy.`,
      );
      return;
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
    const holder = localHolderOf(TYPE, stateId(n));
    if (holder) {
      importHeld(diagnostics, n, holder);
      return null;
    }
    return { id: stateId(n) };
  },

  /** The alert an object holds, kept beside its state: a tainted or replaced object's plan names it. */
  privateOf(state) {
    const id = idOf(state);
    return id === null ? {} : { id };
  },

  /** An object of this state, its plan still to come: how a tainted one is known without a refresh. */
  stored({ state, providerData }) {
    const id = idOf(state);
    if (providerData && id !== null) viewOf(providerData).held.seen(id, { kind: 'read' });
  },

  // Version 0 held the id as a number.
  upgradeState({ version, rawState }) {
    const state = { ...rawState } as Record<string, unknown>;
    if (version < 1 && typeof state.id === 'number') state.id = stateId(state.id);
    return decodeJson(blockType(PROVIDER_SCHEMA.resources[TYPE]!), JSON.stringify(state)) as Model;
  },
};
