import type { Dispatcher } from 'undici';
import type { ClientVariables } from './errors';
import type { RetryPolicy } from './retry';

export interface ClientOptions {
  /** @default "https://networkcalc.com" */
  baseUrl?: string;
  /** A ready access token. Cannot be renewed; with client credentials too, they take over once it is refused. */
  token?: string;
  /** Client credentials, exchanged at POST /api/auth/token and renewed when refused. */
  clientId?: string;
  clientSecret?: string;
  /** @default 5 attempts, 60 s in total, 250 ms base, 10 s cap */
  retry?: Partial<RetryPolicy>;
  /** Per attempt, headers and body included. @default 30000 */
  timeoutMs?: number;
  /**
   * Largest response body read, in bytes; a larger one fails with RESPONSE_TOO_LARGE as soon
   * as the limit is passed (or at once, from its Content-Length). @default 134217728 (128 MiB)
   */
  maxResponseBytes?: number;
  /**
   * The names of the variables the options were read from, for messages and advice ("check
   * PROD_TOKEN"); never their values. @default the NETWORKCALC_* names (`ENV`)
   */
  variables?: Partial<ClientVariables>;
  /** Receives one line per HTTP attempt; never the token. @default no logging */
  logger?: (line: string) => void;
  /** @default undici's global dispatcher */
  dispatcher?: Dispatcher;
  /** @default "cdktf-provider-networkcalc/<package version> node/<node version>" */
  userAgent?: string;
  /**
   * Once aborted, no request is retried and a wait between attempts ends at once; an attempt
   * already sent runs to its answer or its timeout. The Terraform provider aborts it on
   * StopProvider (Ctrl-C).
   */
  stopSignal?: AbortSignal;
}

/** Result of a report trigger (2.1). Ids are numbers even when the server quotes them. */
export interface ReportResult {
  status: string;
  domain_id: number | null;
  subdomain_id: number | null;
  report_url: string;
}

export interface Subdomain {
  id: number;
  domain_id: number;
  /** The part before the domain, e.g. `www` or `my.demo`. */
  prefix: string;
  /** The full name, e.g. `www.example.com`. */
  subdomain: string;
}

export interface Domain {
  id: number;
  domain: string;
  created_at?: string;
  updated_at?: string;
  subdomains: Subdomain[];
}
