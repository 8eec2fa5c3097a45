/**
 * networkcalc_subdomain: a prefix under a domain of the account (www of example.com), with
 * the owner rules of networkcalc_domain (domain-resource.ts): a prefix the domain already
 * has is refused at plan with the id to import; a create whose answer was lost or came
 * without an id is settled by a fresh list; reads come from the process's one domains list.
 */
import type { Domain, Subdomain } from '../client/types';
import { isNetworkCalcError } from '../client/errors';
import { normalizeHostName, normalizePrefix, prefixProblem } from '../model/hostname';
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

const TYPE = 'networkcalc_subdomain';
type Data = NetworkcalcData | undefined;

const prefixIn = (domain: Domain, prefix: string): Subdomain | undefined =>
  domain.subdomains.find((s) => normalizePrefix(s.prefix) === normalizePrefix(prefix));

const fullName = (s: Subdomain) => normalizeHostName(s.subdomain);

function stateOf(domainId: number, prefix: string, live: Subdomain): Model {
  return { id: String(live.id), domain_id: domainId, prefix, name: fullName(live) };
}

function noDomain(diags: Diagnostics, domainId: number): void {
  diags.addError(
    'Domain not found',
    `The account has no domain with id ${domainId}; give domain_id = networkcalc_domain.<name>.id of a declared domain, or the id of one the account has (the networkcalc_domains data source lists them).`,
    ['domain_id'],
  );
}

async function createSubdomain(
  data: NetworkcalcData,
  domain: Domain,
  prefix: string,
  diags: Diagnostics,
): Promise<Model | null> {
  const full = `${normalizePrefix(prefix)}.${normalizeHostName(domain.domain)}`;
  try {
    const made = await data.targets.addSubdomain(domain.id, normalizePrefix(prefix));
    return stateOf(domain.id, prefix, made);
  } catch (err) {
    if (isNetworkCalcError(err) && err.code === 'NOT_SAVED') {
      notSaved(diags, 'subdomain', full);
      return null;
    }
    if (!mayHaveCreated(err)) {
      addClientError(diags, `Could not create subdomain ${JSON.stringify(full)}`, err);
      return null;
    }
    // The list before the POST had no such prefix under the domain.
    const after = await listDomains(data, diags, true);
    const made = after?.find((d) => d.id === domain.id);
    const sub = made && prefixIn(made, prefix);
    if (!sub) {
      if (after) addClientError(diags, `Subdomain ${JSON.stringify(full)} was not created`, err);
      return null;
    }
    diags.addWarning(
      'Subdomain found by a list after an unclear create',
      `The create of subdomain ${JSON.stringify(full)} got no usable answer; the account now lists it as subdomain ${sub.id}, absent before this create, so the state holds that one.`,
    );
    return stateOf(domain.id, prefix, sub);
  } finally {
    data.domains.clear();
  }
}

export const subdomainResource: ResourceHandler<Data> = {
  typeName: TYPE,
  schema: PROVIDER_SCHEMA.resources[TYPE]!,

  validate({ config, diagnostics }) {
    if (typeof config.prefix === 'string') {
      // The domain's name is known only at plan: here the labels alone, under a short stand-in.
      const problem = prefixProblem(config.prefix, 'example.com');
      if (problem) diagnostics.addError('Invalid subdomain prefix', `${problem}.`, ['prefix']);
    }
    const id = config.domain_id;
    if (typeof id === 'number' && !(Number.isSafeInteger(id) && id > 0)) {
      diagnostics.addError(
        'Invalid domain id',
        `domain_id ${id} is not valid; give the positive whole-number id of the domain.`,
        ['domain_id'],
      );
    }
  },

  async modifyPlan({ prior, planned, requiresReplace, diagnostics, providerData, priorPrivate }) {
    const { prefix, domain_id: domainId } = planned;
    if (typeof prefix !== 'string' || prefixProblem(prefix, 'example.com')) return;
    if (prior) {
      if (typeof prior.prefix === 'string' && normalizePrefix(prior.prefix) === normalizePrefix(prefix)) {
        requiresReplace.delete('prefix');
      }
      return;
    }
    // A domain created in this plan has no id yet: nothing to check until apply.
    if (typeof domainId !== 'number' || !providerData) return;
    let domains: Domain[];
    try {
      domains = await providerData.domains.get();
    } catch {
      providerData.domains.clear();
      return;
    }
    const domain = domains.find((d) => d.id === domainId);
    if (!domain) return noDomain(diagnostics, domainId);
    const tooLong = prefixProblem(prefix, normalizeHostName(domain.domain));
    if (tooLong) return diagnostics.addError('Invalid subdomain prefix', `${tooLong}.`, ['prefix']);
    const live = prefixIn(domain, prefix);
    if (live && live.id !== priorPrivate.id) alreadyExists(diagnostics, 'subdomain', fullName(live), live.id);
    else planned.name = `${normalizePrefix(prefix)}.${normalizeHostName(domain.domain)}`;
  },

  async create({ plan, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domainId = plan.domain_id as number;
    const prefix = plan.prefix as string;
    const before = await listDomains(providerData, diagnostics, true);
    if (!before) return null;
    const domain = before.find((d) => d.id === domainId);
    if (!domain) {
      noDomain(diagnostics, domainId);
      return null;
    }
    const live = prefixIn(domain, prefix);
    if (live) {
      alreadyExists(diagnostics, 'subdomain', fullName(live), live.id);
      return null;
    }
    return createSubdomain(providerData, domain, prefix, diagnostics);
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
    const live = id === null ? undefined : domains.flatMap((d) => d.subdomains).find((s) => s.id === id);
    if (!live) {
      diagnostics.addWarning(
        'Subdomain deleted outside Terraform',
        `Subdomain ${id ?? '(no id)'}${typeof state.name === 'string' ? ` (${JSON.stringify(state.name)})` : ''} no longer exists in the account (or its domain was deleted). It was removed from the state; the next apply creates it again.`,
      );
      return null;
    }
    const kept = typeof state.prefix === 'string' && normalizePrefix(state.prefix) === normalizePrefix(live.prefix);
    return stateOf(live.domain_id, kept ? (state.prefix as string) : live.prefix, live);
  },

  update({ plan, prior }) {
    return Promise.resolve({ ...plan, id: prior.id ?? null, name: prior.name ?? null });
  },

  async delete({ state, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return;
    const id = targetIdOf(state);
    if (id === null || typeof state.domain_id !== 'number') return;
    const domainId = state.domain_id;
    await deleteTarget(providerData, diagnostics, `subdomain ${id}`, () =>
      providerData.targets.deleteSubdomain(domainId, id),
    );
  },

  privateOf(state) {
    const id = targetIdOf(state);
    return id === null ? {} : { id };
  },

  /** By id (`terraform import ... 31`) or by full name (`... www.example.com`). */
  async importState({ id, diagnostics, providerData }) {
    if (!requireData(providerData, diagnostics)) return null;
    const domains = await listDomains(providerData, diagnostics, false);
    if (!domains) return null;
    const n = numericId(id);
    const all = domains.flatMap((d) => d.subdomains);
    const live = n !== undefined ? all.find((s) => s.id === n) : all.find((s) => fullName(s) === normalizeHostName(id));
    if (!live) {
      diagnostics.addError(
        'Subdomain not found',
        `The account has no subdomain ${n !== undefined ? `with id ${n}` : JSON.stringify(id.trim())}; import a ${TYPE} by its id or its full name (the networkcalc_domains data source lists them).`,
      );
      return null;
    }
    return stateOf(live.domain_id, live.prefix, live);
  },
};
