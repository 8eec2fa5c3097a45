/**
 * Creating a domain or subdomain so that it exists exactly once. The service refuses a
 * duplicate name (NOT_SAVED), a create may answer without the id, and an answer may be lost
 * after the write: whenever the answer does not give the id, the account's domains list
 * decides. A create is sent again only after a list taken once the previous send ended shows
 * no such target (so never blindly), at most MAX_CREATE_SENDS times.
 */
import { isNetworkCalcError, NetworkCalcError } from '../client/errors';
import type { Domain } from '../client/types';
import { MAX_CREATE_SENDS } from './create-alert';

/** The Domains API calls a target create needs. */
export interface TargetsApi {
  listDomains(): Promise<Pick<Domain, 'id' | 'domain' | 'subdomains'>[]>;
  addDomain?(name: string): Promise<unknown>;
  addSubdomain?(domainId: number, prefix: string): Promise<unknown>;
}

export type TargetSpec =
  { targetType: 'domain'; name: string } | { targetType: 'subdomain'; name: string; domainId: number; prefix: string };

export interface TargetCreated {
  id: number;
  /** Set when the list, not the answer, gave the id; says why. */
  note?: string;
}

function answeredId(answer: unknown): number | undefined {
  const id = (answer as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The target's id in a domains list, names compared in lower case. */
export function findTarget(
  domains: readonly Pick<Domain, 'id' | 'domain' | 'subdomains'>[],
  spec: TargetSpec,
): number | undefined {
  const name = spec.name.toLowerCase();
  for (const d of domains) {
    if (spec.targetType === 'domain' && d.domain.toLowerCase() === name) return d.id;
    if (spec.targetType === 'subdomain' && d.id === spec.domainId)
      return d.subdomains.find((s) => s.subdomain.toLowerCase() === name)?.id;
  }
  return undefined;
}

const codeOf = (e: unknown) => (isNetworkCalcError(e) ? e.code : undefined);

/**
 * `proof`: the domains list that decides when the answer gives no id; it must start after it is
 * asked for (a FreshList shares one among the account's creates). By default a list of its own.
 */
export async function createTargetOnce(
  api: TargetsApi,
  spec: TargetSpec,
  proof: () => Promise<readonly Pick<Domain, 'id' | 'domain' | 'subdomains'>[]> = () => api.listDomains(),
): Promise<TargetCreated> {
  const what = `${spec.targetType} ${JSON.stringify(spec.name)}`;
  for (let send = 1; ; send++) {
    let failure: unknown;
    let answer: unknown;
    try {
      answer =
        spec.targetType === 'domain'
          ? await api.addDomain!(spec.name)
          : await api.addSubdomain!(spec.domainId, spec.prefix);
      const id = answeredId(answer);
      if (id !== undefined) return { id };
    } catch (e) {
      failure = e;
      const code = codeOf(e);
      // Anything but a lost answer, an answer without a usable body or a refusal is the outcome.
      if (code !== 'OUTCOME_UNKNOWN' && code !== 'UNEXPECTED_RESPONSE' && code !== 'NOT_SAVED') throw e;
    }
    const found = findTarget(await proof(), spec);
    const code = codeOf(failure);
    if (found !== undefined) {
      const why =
        failure === undefined || code === 'UNEXPECTED_RESPONSE'
          ? 'the answer gave no id; the domains list did'
          : code === 'NOT_SAVED'
            ? 'the service refused it as already there; the domains list shows it, and it was adopted'
            : "the create's answer was lost; the domains list shows it, and it was adopted";
      return { id: found, note: why };
    }
    if (code === 'NOT_SAVED') {
      throw new NetworkCalcError({
        operation: spec.targetType === 'domain' ? 'addDomain' : 'addSubdomain',
        code: 'NOT_SAVED',
        httpStatus: 400,
        message: `the service refused to create ${what} (NOT_SAVED) and the account does not have it; check the name with the NetworkCalc console`,
        cause: failure,
      });
    }
    // The answer said OK (or gave no usable body) but the list does not show it: not success.
    if (code !== 'OUTCOME_UNKNOWN')
      throw new NetworkCalcError({
        operation: spec.targetType === 'domain' ? 'addDomain' : 'addSubdomain',
        code: 'UNEXPECTED_RESPONSE',
        message: `the create of ${what} answered without its id and the domains list does not show it; run again after checking the account`,
        cause: failure,
      });
    if (send >= MAX_CREATE_SENDS)
      throw new NetworkCalcError({
        operation: spec.targetType === 'domain' ? 'addDomain' : 'addSubdomain',
        code: 'RETRIES_EXHAUSTED',
        attempts: send,
        message: `the create of ${what} was sent ${send} times, every answer was lost and the domains list shows none, so nothing was created; run again`,
        cause: failure,
      });
  }
}
