/**
 * The provider block: where the API is and which credentials to use. Secrets default to
 * environment variables (named by token_env / client_id_env / client_secret_env) so that
 * they never need to be written into a configuration.
 */
import type { NetworkCalcClient } from '../client/client';
import type { Domain } from '../client/types';
import { AccountAlerts } from '../converge/account-alerts';
import { OWNERSHIP_MODES, PROVIDER_VERSION } from '../schema';
import { ListCache } from './cache';
import { CreateJournal } from './create-journal';
import type { Diagnostics } from './diagnostics';
import type { ConfigureRequest, Model } from './framework';
import { isUnknown } from './values';
import { ENV as DEFAULT_ENV } from '../schema/environment';

/** The variables read when the provider block names none. */
export { ENV as DEFAULT_ENV } from '../schema/environment';

/** What every handler gets: one client and the per-process read caches of one account. */
export interface NetworkcalcData {
  readonly client: NetworkCalcClient;
  /**
   * The account's alerts: one list call answers every read; writes share coalesced lists to
   * learn ids and read back; claims keep two creates from taking one alert.
   */
  readonly alerts: AccountAlerts;
  /** Creates in flight recorded in terraform's data directory; undefined outside one. */
  readonly journal: CreateJournal | undefined;
  /** Every domain with its subdomains: one list call answers every lookup. */
  readonly domains: ListCache<Domain[]>;
  /**
   * A client message in this provider block's terms: the client's advice names the default
   * variables (NETWORKCALC_TOKEN, NETWORKCALC_BASE_URL, ...); this names the ones configured
   * and the address actually used.
   */
  explain(message: string): string;
}

/** A known, non-blank string attribute, or undefined. */
export function knownString(m: Model, name: string): string | undefined {
  const v = m[name];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function knownNumber(m: Model, name: string): number | undefined {
  const v = m[name];
  return typeof v === 'number' ? v : undefined;
}

export function validateProviderConfig(config: Model, diags: Diagnostics): void {
  const retries = knownNumber(config, 'max_retries');
  if (retries !== undefined && (!Number.isInteger(retries) || retries < 1 || retries > 20)) {
    diags.addError('Invalid max_retries', `max_retries must be a whole number from 1 to 20 (attempts per request, the first included); got ${retries}.`, ['max_retries']);
  }
  const timeout = knownNumber(config, 'timeout_seconds');
  if (timeout !== undefined && (!(timeout > 0) || timeout > 3600)) {
    diags.addError('Invalid timeout_seconds', `timeout_seconds must be more than 0 and at most 3600; got ${timeout}.`, ['timeout_seconds']);
  }
  for (const name of ['token_env', 'client_id_env', 'client_secret_env']) {
    const v = knownString(config, name);
    if (v !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) {
      diags.addError(`Invalid ${name}`, `${name} is the name of an environment variable (letters, digits and _), not its value.`, [name]);
    }
  }
  const mode = knownString(config, 'ownership');
  if (mode !== undefined && !(OWNERSHIP_MODES as readonly string[]).includes(mode)) {
    diags.addError('Invalid ownership', `ownership must be one of ${OWNERSHIP_MODES.map((m) => JSON.stringify(m)).join(', ')}; got ${JSON.stringify(mode)}.`, ['ownership']);
  }
}

/**
 * Builds the client from the provider block and the environment. stopSignal (aborted on
 * StopProvider) ends the client's retries and waits, so Ctrl-C is not held up by them.
 */
export async function configureProvider(
  req: ConfigureRequest,
  env: NodeJS.ProcessEnv = process.env,
  stopSignal?: AbortSignal,
): Promise<NetworkcalcData | undefined> {
  const { config, diagnostics: diags } = req;
  validateProviderConfig(config, diags);
  for (const [name, v] of Object.entries(config)) {
    if (isUnknown(v)) {
      diags.addError('Provider configuration not known yet', `${name} depends on a value known only after apply; the provider needs it to read alerts. Give it a value known at plan time.`, [name]);
    }
  }
  if (diags.hasError()) return undefined;

  const tokenEnv = knownString(config, 'token_env') ?? DEFAULT_ENV.token;
  const idEnv = knownString(config, 'client_id_env') ?? DEFAULT_ENV.clientId;
  const secretEnv = knownString(config, 'client_secret_env') ?? DEFAULT_ENV.clientSecret;
  const fromEnv = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const token = knownString(config, 'token') ?? fromEnv(tokenEnv);
  const clientId = knownString(config, 'client_id') ?? fromEnv(idEnv);
  const clientSecret = knownString(config, 'client_secret') ?? fromEnv(secretEnv);
  const baseUrl = knownString(config, 'base_url') ?? fromEnv(DEFAULT_ENV.baseUrl);

  if (token === undefined && clientId === undefined && clientSecret === undefined) {
    diags.addError(
      'Missing NetworkCalc credentials',
      `Set the environment variable ${tokenEnv} to an access token, or ${idEnv} and ${secretEnv} to client credentials. ` +
        'The provider block can name other variables with token_env, client_id_env and client_secret_env ' +
        '(token, client_id and client_secret also work, but write the secret into the configuration).',
    );
    return undefined;
  }
  if (token === undefined && (clientId === undefined || clientSecret === undefined)) {
    const missing = clientId === undefined ? idEnv : secretEnv;
    diags.addError(
      'Incomplete NetworkCalc client credentials',
      `A client id needs its secret and the other way round: set ${missing} as well (or ${tokenEnv} to an access token instead).`,
    );
    return undefined;
  }

  // Loaded here, not at start-up: the HTTP stack is not needed for the handshake.
  const { NetworkCalcClient } = await import('../client/client');
  const retries = knownNumber(config, 'max_retries');
  const timeout = knownNumber(config, 'timeout_seconds');
  let client: NetworkCalcClient;
  try {
    client = new NetworkCalcClient({
      baseUrl,
      token,
      clientId,
      clientSecret,
      retry: retries === undefined ? undefined : { maxAttempts: retries },
      timeoutMs: timeout === undefined ? undefined : timeout * 1000,
      userAgent: `terraform-provider-networkcalc/${PROVIDER_VERSION} (terraform ${req.terraformVersion || 'unknown'})`,
      // stderr is terraform's log (TF_LOG); the client never writes secrets into these lines.
      logger: (line) => process.stderr.write(`[networkcalc] ${line}\n`),
      stopSignal,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const path = /BASE_URL|URL/.test(message) ? ['base_url'] : /timeout/i.test(message) ? ['timeout_seconds'] : undefined;
    diags.addError('Invalid NetworkCalc provider configuration', message, path);
    return undefined;
  }

  const renamed: [string, string][] = [
    [DEFAULT_ENV.token, tokenEnv],
    [DEFAULT_ENV.clientId, idEnv],
    [DEFAULT_ENV.clientSecret, secretEnv],
    [DEFAULT_ENV.baseUrl, `${knownString(config, 'base_url') === undefined && baseUrl !== undefined ? DEFAULT_ENV.baseUrl : 'base_url'} (${client.baseUrl})`],
  ];
  return {
    client,
    explain: (message) => renamed.reduce((text, [from, to]) => text.split(from).join(to), message),
    alerts: new AccountAlerts(() => client.listAlerts()),
    journal: CreateJournal.open(`${client.baseUrl}\n${clientId ?? token}`, env),
    domains: new ListCache(() => client.listDomains()),
  };
}
