/** Client failures as diagnostics: the client's message already says what failed and what to do. */
import { isNetworkCalcError } from '../client/errors';
import type { Diagnostics } from './diagnostics';
import type { NetworkcalcData } from './provider-config';
import type { LiveAlert } from '../model';

export function addClientError(diags: Diagnostics, summary: string, err: unknown): void {
  if (isNetworkCalcError(err)) {
    diags.addError(summary, err.message);
    return;
  }
  throw err; // not an API failure: a bug, reported as such by the server layer
}

/** The configured client, or an error diagnostic when configure did not succeed. */
export function requireData(data: NetworkcalcData | undefined, diags: Diagnostics): data is NetworkcalcData {
  if (data) return true;
  diags.addError(
    'Provider not configured',
    'The networkcalc provider has no working configuration; see the errors reported for the provider block.',
  );
  return false;
}

/** The account's alerts by id (the process's list), or an error diagnostic when configure or the list failed. */
export async function listedAlerts(
  data: NetworkcalcData | undefined,
  diags: Diagnostics,
): Promise<ReadonlyMap<number, LiveAlert> | null> {
  if (!requireData(data, diags)) return null;
  try {
    return (await data.alerts.current()).byId;
  } catch (err) {
    addClientError(diags, 'Could not list alerts', err);
    return null;
  }
}
