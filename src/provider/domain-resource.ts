/**
 * networkcalc_domain: a domain declared beside its alerts, so that an empty account is
 * provisioned in one apply. One owner per name, as for alerts:
 * - a name the account already lists is refused at plan (and again at apply) with the id to
 *   import; a create is never sent twice;
 * - a create whose answer was lost or came without an id is settled by a fresh list: the
 *   domain of that name, absent from the list taken before the POST, is the one it made;
 * - reads come from the process's one domains list; a domain gone is removed from the state;
 * - the state keeps the name as written; equal names (case, trailing dot, A-label) plan no change.
 * The service is assumed to delete a domain's alerts with it (docs/architecture.md).
 */
import type { Domain } from '../client/types';
import { isNetworkCalcError } from '../client/errors';
import { hostNameProblem, normalizeHostName as targetKey } from '../model/hostname';
import { PROVIDER_SCHEMA } from '../schema';
import type { Diagnostics } from './diagnostics';
import { addClientError, requireData } from './errors';
import type { Model, ResourceHandler } from './framework';
import type { NetworkcalcData } from './provider-config';
import {
  alreadyExists,
  deleteTarget,
  listDomains,
  mayHaveCreated,
  notSaved,
  numericId,
  targetIdOf,
} from './target-names';

const TYPE = 'networkcalc_domain';
type Data = NetworkcalcData | undefined;

/** Names a create of this process is sending (two declarations of one name: the second is refused). */
const creating = new WeakMap<NetworkcalcData, Set<string>>();
const creatingOf = (data: NetworkcalcData) => {
  let set = creating.get(data);
  if (!set) creating.set(data, (set = new Set()));
  return set;
};

/** Names planned for creation by this configured provider. */
const plannedCreates = new WeakMap<NetworkcalcData, Set<string>>();
const plannedOf = (data: NetworkcalcData) => {
  let set = plannedCreates.get(data);
  if (!set) plannedCreates.set(data, (set = new Set()));
  return set;
};

export const domainNamed = (domains: readonly Domain[], name: string): Domain | undefined =>
  domains.find((d) => targetKey(d.domain) === targetKey(name));

function stateOf(name: string, live: Domain): Model {
  return { id: String(live.id), name, created_at: live.created_at ?? null };
}

/** Sends the create once; settles a lost or id-less answer by a list. */
async function createDomain(data: NetworkcalcData, name: string, diags: Diagnostics): Promise<Model | null> {
  const key = targetKey(name);
  try {
    const made = await data.targets.addDomain(key);
    return stateOf(name, made);
  } catch (err) {
    if (isNetworkCalcError(err) && err.code === 'NOT_SAVED') {
      const after = await listDomains(data, diags, true);
      const there = after && domainNamed(after, name);
      if (there) alreadyExists(diags, 'domain', name, there.id);
      else notSaved(diags, 'domain', name);
      return null;
    }
    if (!mayHaveCreated(err)) {
      addClientError(diags, `Could not create domain ${JSON.stringify(name)}`, err);
      return null;
    }
    // The list before the POST had no domain of this name, and the service keeps one per name.
    const after = await listDomains(data, diags, true);
    if (!after) return null;
    const made = domainNamed(after, name);
    if (!made) {
      addClientError(diags, `Domain ${JSON.stringify(name)} was not created`, err);
      return null;
    }
    diags.addWarning(
      'Domain found by a list after an unclear create',
      `The create of domain ${JSON.stringify(name)} got no usable answer; the account now lists it as domain ${made.id}, absent before this create, so the state holds that one.`,
    );
    return stateOf(name, made);
  } finally {
    data.domains.clear();
  }
}

export const domainResource: ResourceHandler<Data> = {
  typeName: TYPE,
  schema: PROVIDER_SCHEMA.resources[TYPE]!,

  validate({ config, diagnostics }) {
    if (typeof config.name !== 'string') return;
    const problem = hostNameProblem('domain', config.name);
    if (problem) diagnostics.addError('Invalid domain name', `${problem}.`, ['name']);
  },

  async modifyPlan({ prior, planned, requiresReplace, diagnostics, providerData, priorPrivate }) {
    const name = planned.name;
    if (typeof name !== 'string' || hostNameProblem('domain', name)) return;
    if (prior) {
      // Another spelling of the same name is no change (and no replacement).
      if (typeof prior.name === 'string' && targetKey(prior.name) === targetKey(name)) {
        requiresReplace.delete('name');
        planned.name = name;
      }
      return;
    }
    if (!providerData) return;
    let domains: Domain[];
    try {
      domains = await providerData.domains.get();
    } catch {
      providerData.domains.clear();
      return; // the apply reports a list that fails
    }
    const live = domainNamed(domains, name);
    // The create half of a replacement sees the domain it replaces (handed over as private data).
    if (live && live.id !== priorPrivate.id) return alreadyExists(diagnostics, 'domain', name, live.id);
    // Terraform plans each instance once per configured provider: a second create of a name is another resource.
    const creates = plannedOf(providerData);
    const key = targetKey(name);
    if (creates.has(key)) {
      diagnostics.addError(
        'Domain declared twice',
        `Another resource of this configuration plans domain ${JSON.stringify(key)} too; a name identifies one domain within an account, so declare it once and refer to it (networkcalc_domain.<name>.id).`,
        ['name'],
      );
    }
    creates.add(key);
  },

  async create({ plan, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const name = plan.name as string;
    const key = targetKey(name);
    const inFlight = creatingOf(providerData);
    if (inFlight.has(key)) {
      diagnostics.addError(
        'Domain declared twice',
        `Another resource of this configuration is creating domain ${JSON.stringify(key)} in this run; a name identifies one domain within an account, so declare it once and refer to it.`,
        ['name'],
      );
      return null;
    }
    inFlight.add(key);
    try {
      const before = await listDomains(providerData, diagnostics, true);
      if (!before) return null;
      const live = domainNamed(before, name);
      if (live) {
        alreadyExists(diagnostics, 'domain', name, live.id);
        return null;
      }
      return await createDomain(providerData, name, diagnostics);
    } finally {
      inFlight.delete(key);
    }
  },

  async read({ state, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return state;
    const id = targetIdOf(state);
    let domains: Domain[];
    try {
      domains = await providerData.domains.get();
    } catch (err) {
      providerData.domains.clear();
      addClientError(diagnostics, 'Could not read domains', err);
      return state;
    }
    const live = id === null ? undefined : domains.find((d) => d.id === id);
    if (!live) {
      diagnostics.addWarning(
        'Domain deleted outside Terraform',
        `Domain ${id ?? '(no id)'}${typeof state.name === 'string' ? ` (${JSON.stringify(state.name)})` : ''} no longer exists in the account. It was removed from the state; the next apply creates it again.`,
      );
      return null;
    }
    const kept = typeof state.name === 'string' && targetKey(state.name) === targetKey(live.domain);
    return stateOf(kept ? (state.name as string) : live.domain, live);
  },

  // The name forces replacement and other spellings plan no change: an update only carries the plan.
  update({ plan }) {
    return Promise.resolve(plan);
  },

  async delete({ state, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return;
    const id = targetIdOf(state);
    if (id === null) return;
    await deleteTarget(providerData, diagnostics, `domain ${id}`, () => providerData.targets.deleteDomain(id));
  },

  /** The domain an object holds, kept beside its state: the plan of its replacement knows it. */
  privateOf(state) {
    const id = targetIdOf(state);
    return id === null ? {} : { id };
  },

  /** By id (`terraform import ... 12`) or by name (`... example.com`). */
  async importState({ id, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domains = await listDomains(providerData, diagnostics, false);
    if (!domains) return null;
    const n = numericId(id);
    const live = n !== undefined ? domains.find((d) => d.id === n) : domainNamed(domains, id);
    if (!live) {
      diagnostics.addError(
        'Domain not found',
        `The account has no domain ${n !== undefined ? `with id ${n}` : JSON.stringify(id.trim())}; import a ${TYPE} by its id or its name (the networkcalc_domains data source lists them).`,
      );
      return null;
    }
    return stateOf(live.domain, live);
  },
};
