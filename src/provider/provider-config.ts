/**
 * The provider block: where the API is and which credentials to use. Secrets default to
 * environment variables (named by token_env / client_id_env / client_secret_env) so that
 * they never need to be written into a configuration.
 */
import type { NetworkCalcClient } from '../client/client';
import type { AlertsApi } from '../plan/types';
import type { Domain } from '../client/types';
import { AccountAlerts } from '../converge/account-alerts';
import { parseProviderBlock, type ProviderBlock } from '../accounts/account-rules';
import { DEFAULT_BASE_URL } from '../accounts/base-url';
import { ENV } from '../accounts/environment';
import { PROVIDER_VERSION } from '../schema/provider-schema';
import { ListCache } from './cache';
import { CreateJournal } from './create-journal';
import type { Diagnostics } from './diagnostics';
import type { ConfigureRequest, Model } from './framework';
import { isUnknown } from './values';

/** What every handler gets: one client and the per-process read caches of one account. */
export interface NetworkcalcData {
  /** The API as the interface the reconciler uses (`AlertsApi`), whatever client or API version serves it. */
  readonly client: AlertsApi;
  /**
   * The account's alerts: one list call answers every read; writes share coalesced lists to
   * learn ids and read back; claims keep two creates from taking one alert.
   */
  readonly alerts: AccountAlerts;
  /** Creates in flight recorded in terraform's data directory; undefined outside one. */
  readonly journal: CreateJournal | undefined;
  /** Every domain with its subdomains: one list call answers every lookup. */
  readonly domains: ListCache<Domain[]>;
  /** The writes of the Domains API, for the networkcalc_domain and networkcalc_subdomain resources. */
  readonly targets: Pick<NetworkCalcClient, 'addDomain' | 'addSubdomain' | 'deleteDomain' | 'deleteSubdomain'>;
}

/** A known, non-blank string attribute, or undefined. */
export function knownString(m: Model, name: string): string | undefined {
  const v = m[name];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/**
 * The provider block by the account rules every front door shares (src/accounts/account-rules):
 * each problem an error on its attribute. Values not known yet are left for configure.
 */
export function validateProviderConfig(config: Model, diags: Diagnostics): void {
  readProviderBlock(config, diags);
}

function readProviderBlock(config: Model, diags: Diagnostics): ProviderBlock {
  const { config: block, problems } = parseProviderBlock(config, { isUnknown });
  for (const p of problems) diags.addError(`Invalid ${p.field}`, `${p.message}.`, [p.field]);
  return block;
}

/** Every attribute known only after apply is an error: the provider needs it to read alerts. */
function refuseUnknown(config: Model, diags: Diagnostics): void {
  for (const [name, v] of Object.entries(config)) {
    if (isUnknown(v)) {
      diags.addError(
        'Provider configuration not known yet',
        `${name} depends on a value known only after apply; the provider needs it to read alerts. Give it a value known at plan time.`,
        [name],
      );
    }
  }
}

/** The credentials and base URL a block resolves to, and what each was read from (for messages). */
interface ResolvedCredentials {
  token: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  baseUrl: string | undefined;
  tokenSource: string | null;
  idSource: string | null;
  secretSource: string | null;
}

/**
 * Only what the block names: the NETWORKCALC_* defaults apply to a block that names no
 * credential (src/accounts/account-rules), so another account's variables are never read.
 */
function resolveCredentials(block: ProviderBlock, env: NodeJS.ProcessEnv): ResolvedCredentials {
  const { tokenEnv, clientIdEnv: idEnv, clientSecretEnv: secretEnv } = block;
  const fromEnv = (name: string | null) => (name !== null && env[name]?.trim() ? env[name]!.trim() : undefined);
  return {
    token: block.token ?? fromEnv(tokenEnv),
    clientId: block.clientId ?? fromEnv(idEnv),
    clientSecret: block.clientSecret ?? fromEnv(secretEnv),
    baseUrl: block.baseUrl ?? fromEnv(ENV.baseUrl),
    tokenSource: block.token !== null ? 'token' : tokenEnv,
    idSource: block.clientId !== null ? 'client_id' : idEnv,
    secretSource: block.clientSecret !== null ? 'client_secret' : secretEnv,
  };
}

/** An error when no credential is set, or only half of the client credentials; true when added. */
function credentialsMissing(block: ProviderBlock, creds: ResolvedCredentials, diags: Diagnostics): boolean {
  const { token, clientId, clientSecret, tokenSource, idSource, secretSource } = creds;
  const { tokenEnv, clientIdEnv: idEnv, clientSecretEnv: secretEnv } = block;
  if (token === undefined && clientId === undefined && clientSecret === undefined) {
    const sources = [
      ...(tokenSource !== null ? [`${tokenSource} to an access token`] : []),
      ...(idSource !== null && secretSource !== null ? [`${idSource} and ${secretSource} to client credentials`] : []),
    ];
    diags.addError(
      'Missing NetworkCalc credentials',
      block.defaultCredentials
        ? `Set the environment variable ${tokenEnv} to an access token, or ${idEnv} and ${secretEnv} to client credentials. ` +
            'The provider block can name other variables with token_env, client_id_env and client_secret_env ' +
            '(token, client_id and client_secret also work, but write the secret into the configuration).'
        : `This provider block reads its credentials only from what it names: set ${sources.join(', or ')}. ` +
            'The NETWORKCALC_* variables apply only to a block that names no credential.',
    );
    return true;
  }
  if (token === undefined && (clientId === undefined || clientSecret === undefined)) {
    const missing = clientId === undefined ? idSource : secretSource;
    diags.addError(
      'Incomplete NetworkCalc client credentials',
      `A client id needs its secret and the other way round: set ${missing} as well${tokenSource !== null ? ` (or ${tokenSource} to an access token instead)` : ''}.`,
    );
    return true;
  }
  return false;
}

/** The client for the block; undefined (with an error) when the client refuses its settings. */
async function newClient(
  req: ConfigureRequest,
  block: ProviderBlock,
  creds: ResolvedCredentials,
  stopSignal: AbortSignal | undefined,
): Promise<NetworkCalcClient | undefined> {
  const { token, clientId, clientSecret, baseUrl } = creds;
  // Loaded here, not at start-up: the HTTP stack is not needed for the handshake.
  const { NetworkCalcClient } = await import('../client/client');
  const { maxRetries: retries, timeoutSeconds: timeout } = block;
  try {
    return new NetworkCalcClient({
      baseUrl,
      token,
      clientId,
      clientSecret,
      retry: retries === null ? undefined : { maxAttempts: retries },
      timeoutMs: timeout === null ? undefined : timeout * 1000,
      userAgent: `terraform-provider-networkcalc/${PROVIDER_VERSION} (terraform ${req.terraformVersion || 'unknown'})`,
      // stderr is terraform's log (TF_LOG); the client never writes secrets into these lines.
      logger: (line) => process.stderr.write(`[networkcalc] ${line}\n`),
      stopSignal,
      // The client's messages name what this block was configured from, and the address used.
      variables: {
        token: creds.tokenSource,
        clientId: creds.idSource,
        clientSecret: creds.secretSource,
        baseUrl: `${block.baseUrl === null && baseUrl !== undefined ? ENV.baseUrl : 'base_url'} (${baseUrl ?? DEFAULT_BASE_URL})`,
      },
    });
  } catch (err) {
    // The block's own rules (base_url, timeout_seconds, …) were checked above; what is left is
    // the credentials' content, which the message names by variable.
    req.diagnostics.addError(
      'Invalid NetworkCalc provider configuration',
      err instanceof Error ? err.message : String(err),
    );
    return undefined;
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
  const block = readProviderBlock(config, diags);
  refuseUnknown(config, diags);
  if (diags.hasError()) return undefined;

  const creds = resolveCredentials(block, env);
  if (credentialsMissing(block, creds, diags)) return undefined;
  const client = await newClient(req, block, creds, stopSignal);
  if (!client) return undefined;

  return {
    client,
    alerts: new AccountAlerts(() => client.listAlerts()),
    journal: CreateJournal.open(`${client.baseUrl}\n${creds.clientId ?? creds.token}`, env),
    domains: new ListCache(() => client.listDomains()),
    targets: client,
  };
}
