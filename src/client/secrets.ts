/**
 * The secrets a client scrubs from messages and log lines: the configured token and client
 * secret, and the access tokens issued to it. Only the last few issued tokens are kept, so a
 * long-lived client does not collect every token it ever held; the `Bearer <token>` form is
 * scrubbed whatever the token.
 */

/** Issued tokens remembered beside the configured secrets. */
export const ISSUED_TOKENS_KEPT = 4;

/** Shorter texts are not scrubbed: they would mangle ordinary words. */
const MIN_SECRET_LENGTH = 4;

export class Secrets {
  readonly #configured: readonly string[];
  readonly #issued: string[] = [];
  readonly #keep: number;

  constructor(configured: ReadonlyArray<string | undefined>, keep = ISSUED_TOKENS_KEPT) {
    this.#configured = configured.filter((s): s is string => s !== undefined);
    this.#keep = keep;
  }

  /** Remembers an issued token, forgetting the oldest beyond the last `keep`. */
  addIssued(token: string): void {
    if (this.#configured.includes(token)) return;
    const at = this.#issued.indexOf(token);
    if (at >= 0) this.#issued.splice(at, 1);
    this.#issued.push(token);
    if (this.#issued.length > this.#keep) this.#issued.splice(0, this.#issued.length - this.#keep);
  }

  /** How many secrets are held (configured plus remembered issued ones). */
  get size(): number {
    return this.#configured.length + this.#issued.length;
  }

  redact(text: string): string {
    let out = text;
    for (const s of [...this.#configured, ...this.#issued]) {
      if (s.length >= MIN_SECRET_LENGTH) out = out.split(s).join('[redacted]');
    }
    return out.replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]');
  }
}
