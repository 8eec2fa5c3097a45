/**
 * Declared targets (networkcalc_domain, networkcalc_subdomain): how a name a configuration
 * writes is compared with the names the account lists, and the errors both resources share.
 * The name rules themselves are those of src/model/hostname.ts.
 */
import { isNetworkCalcError } from '../client/errors';
import type { Domain } from '../client/types';
import type { Diagnostics } from './diagnostics';
import { addClientError } from './errors';
import type { Model } from './framework';
import type { NetworkcalcData } from './provider-config';

/** The numeric id of a state's `id`, or null. */
export function targetIdOf(m: Model): number | null {
  return typeof m.id === 'string' && /^[0-9]+$/.test(m.id) ? Number(m.id) : null;
}

/** An import id that is a positive whole number, or undefined. */
export function numericId(text: string): number | undefined {
  const t = text.trim();
  return /^[0-9]+$/.test(t) && Number.isSafeInteger(Number(t)) && Number(t) > 0 ? Number(t) : undefined;
}

/** How to take over a target that already exists in the account. */
export function importSentence(id: number): string {
  return `import it: an import block { to = <this resource's address>, id = "${id}" }, or terraform import <this resource's address> ${id}`;
}

/** A target of this name exists and no state here holds it: refused, never created a second time. */
export function alreadyExists(diags: Diagnostics, kind: 'domain' | 'subdomain', name: string, id: number): void {
  diags.addError(
    `${kind === 'domain' ? 'Domain' : 'Subdomain'} already exists`,
    `The account already has ${kind} ${JSON.stringify(name)} (id ${id}), so it is not created a second time. To manage it here, ${importSentence(id)}; or declare another name.`,
    [kind === 'domain' ? 'name' : 'prefix'],
  );
}

/**
 * Whether a create failure may still have created the object: an answer lost after the
 * write (OUTCOME_UNKNOWN) or an answer without the object or its id (UNEXPECTED_RESPONSE).
 * Either is settled by a list, never by sending the create again.
 */
export function mayHaveCreated(err: unknown): boolean {
  return isNetworkCalcError(err) && (err.code === 'OUTCOME_UNKNOWN' || err.code === 'UNEXPECTED_RESPONSE');
}

/** The service refused to save the name (NOT_SAVED): one sentence naming it. */
export function notSaved(diags: Diagnostics, kind: 'domain' | 'subdomain', name: string): void {
  diags.addError(
    `${kind === 'domain' ? 'Domain' : 'Subdomain'} not saved`,
    `NetworkCalc refused to save ${kind} ${JSON.stringify(name)} (NOT_SAVED): nothing was created; check that the name is one the service accepts and that no other account holds it, then run terraform apply again.`,
    [kind === 'domain' ? 'name' : 'prefix'],
  );
}

/** The account's domains: the process's list, or a fresh one (before a create); undefined with an error when it fails. */
export async function listDomains(
  data: NetworkcalcData,
  diags: Diagnostics,
  fresh: boolean,
): Promise<Domain[] | undefined> {
  if (fresh) data.domains.clear();
  try {
    return await data.domains.get();
  } catch (err) {
    data.domains.clear();
    addClientError(diags, 'Could not list domains', err);
    return undefined;
  }
}

/**
 * Deletes one domain or subdomain: NOT_FOUND counts as done (it is gone either way). The cached
 * domains list and alerts are dropped whatever the answer: a delete takes the subdomains and, we
 * assume, the alerts on the target with it.
 */
export async function deleteTarget(
  data: NetworkcalcData,
  diags: Diagnostics,
  what: string,
  remove: () => Promise<void>,
): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (!(isNetworkCalcError(err) && err.code === 'NOT_FOUND')) addClientError(diags, `Could not delete ${what}`, err);
  } finally {
    data.domains.clear();
    data.alerts.invalidate();
  }
}
