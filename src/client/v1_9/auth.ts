/**
 * Access tokens: a ready token, or client credentials exchanged at POST /api/auth/token and
 * cached until shortly before they expire. Concurrent callers share one exchange.
 */
import { NetworkCalcError } from '../errors';
import { isObject } from '../../support/json';
import { describe, type Transport } from '../transport';
import { PATHS } from './paths';

/** Seconds before expiry at which a cached token is renewed: 60 s, or 10% of short lifetimes. */
export function renewalMarginSeconds(expiresIn: number): number {
  return Math.min(60, expiresIn * 0.1);
}

/** Used when a token response gives no lifetime. */
const DEFAULT_LIFETIME_SECONDS = 3600;

/**
 * A token issued with a shorter lifetime (0, negative, a fraction of a second) is taken as
 * already expired: it is used for the call that asked for it, never cached, and a refusal of
 * it is blamed on the service, not on the credentials.
 */
export const MIN_LIFETIME_SECONDS = 1;

export function isIssuedExpired(lifetime: number | undefined): boolean {
  return lifetime !== undefined && lifetime < MIN_LIFETIME_SECONDS;
}

interface Cached {
  token: string;
  renewAt: number;
}

export class TokenSource {
  readonly #transport: Transport;
  readonly #clientId: string | undefined;
  readonly #clientSecret: string | undefined;
  #staticToken: string | undefined;
  readonly #configuredToken: string | undefined;
  #cached: Cached | undefined;
  #inflight: Promise<string> | undefined;
  #exchanges = 0;
  /** The last issued token and the lifetime it came with. */
  #lastIssued: { token: string; lifetime: number } | undefined;

  readonly #onIssued: (token: string) => void;

  /**
   * `creds` are one account's: callers pass only what that account's configuration names
   * (src/accounts/account-rules), so renewing a refused token from the client credentials never
   * reaches another account. `onIssued` learns each new token, so it can be scrubbed from
   * texts like the configured ones.
   */
  constructor(
    transport: Transport,
    creds: { token?: string; clientId?: string; clientSecret?: string },
    onIssued: (token: string) => void = () => {},
  ) {
    this.#transport = transport;
    this.#onIssued = onIssued;
    this.#staticToken = creds.token;
    this.#configuredToken = creds.token;
    this.#clientId = creds.clientId;
    this.#clientSecret = creds.clientSecret;
  }

  /** True when a refused token can be replaced by a fresh exchange. */
  get canRenew(): boolean {
    return this.#clientId !== undefined && this.#clientSecret !== undefined;
  }

  /** Token exchanges made so far (for diagnostics and tests). */
  get exchanges(): number {
    return this.#exchanges;
  }

  /** True when `token` is the ready token the client was configured with (not an issued one). */
  isConfigured(token: string): boolean {
    return token === this.#configuredToken;
  }

  /** The lifetime `token` was issued with, in seconds, when it is the last one issued. */
  issuedLifetime(token: string): number | undefined {
    return this.#lastIssued?.token === token ? this.#lastIssued.lifetime : undefined;
  }

  async current(): Promise<string> {
    if (this.#staticToken !== undefined) return this.#staticToken;
    if (this.#cached && Date.now() < this.#cached.renewAt) return this.#cached.token;
    this.#inflight ??= this.#exchange().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  /**
   * Forgets `token` after the server refused it, so the next `current()` exchanges anew.
   * A token refused after another caller already renewed it is ignored: one renewal for all.
   */
  invalidate(token: string): void {
    if (!this.canRenew) return;
    if (this.#staticToken === token) this.#staticToken = undefined;
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  async #exchange(): Promise<string> {
    this.#exchanges++;
    const { body, status } = await this.#transport.send({
      operation: 'exchangeToken',
      subject: 'POST /api/auth/token',
      method: 'POST',
      path: PATHS.token,
      body: { client_id: this.#clientId, client_secret: this.#clientSecret, grant_type: 'client_credentials' },
      // Issuing a token changes nothing a second one would not: safe to repeat.
      mode: 'idempotent',
    });
    const holder = isObject(body.token) ? body.token : body;
    const token = holder.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new NetworkCalcError({
        operation: 'exchangeToken',
        code: 'UNEXPECTED_RESPONSE',
        httpStatus: status,
        message: `${describe('exchangeToken', undefined, 'UNEXPECTED_RESPONSE', status)}: the token response carries no token.access_token`,
      });
    }
    this.#onIssued(token);
    // Absent or unreadable: the default. Zero or negative is a lifetime too: already expired.
    const raw =
      holder.expires_in === undefined || holder.expires_in === null || holder.expires_in === ''
        ? Number.NaN
        : Number(holder.expires_in);
    const lifetime = Number.isFinite(raw) ? raw : DEFAULT_LIFETIME_SECONDS;
    this.#lastIssued = { token, lifetime };
    this.#cached = isIssuedExpired(lifetime)
      ? undefined
      : { token, renewAt: Date.now() + (lifetime - renewalMarginSeconds(lifetime)) * 1000 };
    return token;
  }
}
