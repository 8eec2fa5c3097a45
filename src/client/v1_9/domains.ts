/**
 * The Domains API: domains and their subdomains, listed, read, added and deleted.
 */
import { readDomain, readSubdomain } from './decode';
import { isObject, type Json } from '../../support/json';
import type { Domain, Subdomain } from '../types';
import { checkId, type ApiSession } from '../session';
import { PATHS } from './paths';

export class DomainsResource {
  readonly #s: ApiSession;

  constructor(session: ApiSession) {
    this.#s = session;
  }

  async listDomains(): Promise<Domain[]> {
    const req = { operation: 'listDomains', method: 'GET', path: PATHS.domains, mode: 'idempotent' } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, (body) => {
      if (!Array.isArray(body.domains)) throw new Error('the response has no domains array');
      return body.domains.map(readDomain);
    });
  }

  async getDomain(id: number): Promise<Domain> {
    checkId(id, 'domain id');
    const req = {
      operation: 'getDomain',
      subject: `domain ${id}`,
      method: 'GET',
      path: PATHS.domain(id),
      mode: 'idempotent',
    } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, (body) => readDomain(body.domain));
  }

  /** Adds a domain by name. Like createAlert, never repeated after an ambiguous failure. */
  async addDomain(name: string): Promise<Domain> {
    const req = {
      operation: 'addDomain',
      subject: `domain ${JSON.stringify(name)}`,
      method: 'POST',
      path: PATHS.domains,
      body: { domain: name },
      mode: 'create',
    } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, (body) => readDomain(body.domain));
  }

  async deleteDomain(id: number): Promise<void> {
    checkId(id, 'domain id');
    await this.#s.call({
      operation: 'deleteDomain',
      subject: `domain ${id}`,
      method: 'DELETE',
      path: PATHS.domain(id),
      mode: 'idempotent',
    });
  }

  /** Adds `prefix` under a domain (`my.demo` for my.demo.example.com). */
  async addSubdomain(domainId: number, prefix: string): Promise<Subdomain> {
    checkId(domainId, 'domain id');
    const req = {
      operation: 'addSubdomain',
      subject: `subdomain ${JSON.stringify(prefix)} of domain ${domainId}`,
      method: 'POST',
      path: PATHS.subdomainByPrefix(domainId, prefix),
      mode: 'create',
    } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, (body) => this.#subdomainFrom(body, domainId));
  }

  async getSubdomain(domainId: number, subdomainId: number): Promise<Subdomain> {
    checkId(domainId, 'domain id');
    checkId(subdomainId, 'subdomain id');
    const req = {
      operation: 'getSubdomain',
      subject: `subdomain ${subdomainId} of domain ${domainId}`,
      method: 'GET',
      path: PATHS.subdomain(domainId, subdomainId),
      mode: 'idempotent',
    } as const;
    const res = await this.#s.call(req);
    return this.#s.read(req, res, (body) => this.#subdomainFrom(body, domainId));
  }

  async deleteSubdomain(domainId: number, subdomainId: number): Promise<void> {
    checkId(domainId, 'domain id');
    checkId(subdomainId, 'subdomain id');
    await this.#s.call({
      operation: 'deleteSubdomain',
      subject: `subdomain ${subdomainId} of domain ${domainId}`,
      method: 'DELETE',
      path: PATHS.subdomain(domainId, subdomainId),
      mode: 'idempotent',
    });
  }

  #subdomainFrom(body: Json, domainId: number): Subdomain {
    const raw = isObject(body.subdomain) ? body.subdomain : body;
    const parent = isObject(body.domain) ? body.domain : isObject(raw.domain) ? raw.domain : undefined;
    const parentName =
      typeof parent?.domain === 'string' ? parent.domain : typeof raw.domain === 'string' ? raw.domain : undefined;
    return readSubdomain(raw, parentName === undefined ? undefined : { id: domainId, domain: parentName });
  }
}
