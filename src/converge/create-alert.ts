/**
 * The one policy for creating an alert without ever making two, used by `ncalc apply` and by
 * the Terraform provider alike.
 *
 * The client never repeats a POST whose outcome it cannot know (a dropped connection after
 * sending, a timeout, a 5xx, a 2xx it cannot read): it reports OUTCOME_UNKNOWN. Then:
 * 1. list the account (a coalesced list that started after the POST returned);
 * 2. an alert with the same name and spec that is new since the POST was sent and that no one
 *    has claimed is ours: adopt it;
 * 3. otherwise the list proves the create did not happen: send it again, at most
 *    MAX_CREATE_SENDS times in all, each time only after such a proof;
 * 4. still unknown after that: OUTCOME_UNKNOWN goes to the caller, who must not forget the
 *    alert (the provider keeps it in state without an id, and the next run refuses the name).
 *
 * With `identify` (the provider), an alert is this create's only when the proof is its own:
 * the list after the POST shows exactly one alert of the name that no list before the POST
 * showed, with these settings, and no other alert of the name. Anything else (a second
 * writer of the same name at the same time, or an alert of the name that appeared since the
 * caller's name check) is a `duplicate`: no alert is picked, the caller refuses and names them.
 *
 * docs/architecture.md ("Creates whose answer is lost") records what this assumes about the
 * service.
 */
import { NetworkCalcError, isNetworkCalcError } from '../client/errors';
import type { CanonicalAlert, LiveAlert } from '../model';
import type { AccountAlerts, CreateInProgress, Listing } from './account-alerts';
import { sameAlertName, takeMatching } from './resolve';

export interface CreatingApi {
  createAlert(spec: CanonicalAlert): Promise<unknown>;
}

export interface CreateOptions {
  /**
   * Learn the created alert (id and server-side fields) when the answer carries no id, by a
   * coalesced list. The provider needs it for state; the reconciler does not.
   */
  identify: boolean;
}

export type CreateOutcome =
  /** The POST succeeded. `alert` when identified; `resent` when the first POST did not happen. */
  | { kind: 'created'; id?: number; alert?: LiveAlert; resent: boolean }
  /** The POST's outcome was unknown and the alert turned out to exist. */
  | { kind: 'adopted'; alert: LiveAlert; resent: boolean }
  /** The POST certainly succeeded, but the alert could not be found in a list. */
  | { kind: 'unidentified'; reason: string; resent: boolean }
  /**
   * `identify` only: the list after the POST shows alerts of this name that this create
   * cannot tell from its own (`alerts`, by id); `created` when this create certainly or
   * provably made one of them, false when the list proves it made none. Nothing is claimed.
   */
  | { kind: 'duplicate'; alerts: LiveAlert[]; created: boolean; resent: boolean };

/**
 * Sends of one create, the first included. Each re-send follows a list that proved the last
 * send created nothing, so under read-after-write none can duplicate; against a service that
 * breaks it, at most MAX_CREATE_SENDS - 1 duplicates, which the post-apply check reports. Two
 * sends left 1–2 % of creates failed at 20 % faults (about one run in ten needed a third);
 * three leave about 0.2 %.
 */
export const MAX_CREATE_SENDS = 3;

const isOutcomeUnknown = (e: unknown): e is NetworkCalcError => isNetworkCalcError(e) && e.code === 'OUTCOME_UNKNOWN';

function answeredId(answer: unknown): number | undefined {
  const id = (answer as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? id : undefined;
}

/** OUTCOME_UNKNOWN with what was learned since, for the caller to report. */
function stillUnknown(first: NetworkCalcError, why: string): NetworkCalcError {
  return new NetworkCalcError({
    operation: first.operation,
    code: 'OUTCOME_UNKNOWN',
    httpStatus: first.httpStatus,
    detail: first.detail,
    attempts: first.attempts,
    retryable: true,
    message: `${first.message}; ${why}`,
    cause: first,
  });
}

/** Every POST lost its answer and lists show none of them: certainly nothing was created. */
function notCreated(last: NetworkCalcError, name: string, sends: number): NetworkCalcError {
  return new NetworkCalcError({
    operation: last.operation,
    code: 'RETRIES_EXHAUSTED',
    httpStatus: last.httpStatus,
    detail: last.detail,
    attempts: sends,
    message:
      `${last.operation} (alert ${JSON.stringify(name)}) failed: RETRIES_EXHAUSTED: the create was sent ${sends} times, every answer was lost, and the account ` +
      `lists no such alert after any of them, so nothing was created; run again (last error: ${last.detail ?? last.code})`,
    cause: last,
  });
}

export async function createAlertOnce(
  api: CreatingApi,
  alerts: AccountAlerts,
  spec: CanonicalAlert,
  options: CreateOptions,
): Promise<CreateOutcome> {
  const create = alerts.beginCreate();
  try {
    return await sendUntilSettled(api, alerts, spec, options, create);
  } finally {
    create.done();
  }
}

async function sendUntilSettled(
  api: CreatingApi,
  alerts: AccountAlerts,
  spec: CanonicalAlert,
  options: CreateOptions,
  create: CreateInProgress,
): Promise<CreateOutcome> {
  for (let attempt = 1; ; attempt++) {
    const resent = attempt > 1;
    // Alerts already listed before the POST was sent cannot be the one it creates.
    const sentAfter = alerts.completedMark();
    const isNew = (a: LiveAlert) => alerts.isNewSince(a.id, sentAfter);
    let answer: unknown;
    let unknown: NetworkCalcError | undefined;
    create.sending();
    try {
      answer = await api.createAlert(spec);
    } catch (e) {
      if (!isOutcomeUnknown(e)) throw e;
      unknown = e;
    } finally {
      create.posted();
    }
    const mark = alerts.mark();

    if (!unknown) {
      const id = answeredId(answer);
      if (!options.identify) return { kind: 'created', id, resent };
      let listing: Listing;
      try {
        listing = await alerts.after(mark);
      } catch (e) {
        return {
          kind: 'unidentified',
          reason: `listing the account failed: ${e instanceof Error ? e.message : String(e)}`,
          resent,
        };
      }
      const named = namedLike(listing, alerts, spec);
      if (named.length > 1) return { kind: 'duplicate', alerts: named, created: true, resent };
      const alert = id !== undefined ? listing.byId.get(id) : takeMatching(listing, alerts, spec, isNew);
      if (!alert)
        return named.length > 0
          ? { kind: 'duplicate', alerts: named, created: true, resent }
          : { kind: 'unidentified', reason: 'the account list taken after the create does not show it', resent };
      alerts.claimed.add(alert.id);
      return { kind: 'created', id: alert.id, alert, resent };
    }

    let listing: Listing;
    try {
      listing = await alerts.after(mark);
    } catch (e) {
      throw stillUnknown(
        unknown,
        `listing the account to find out failed too (${e instanceof Error ? e.message : String(e)})`,
      );
    }
    if (options.identify) {
      // Adopted only when this create's own proof is complete (see the file's comment); an
      // alert of the name that was listed before the POST was sent is someone else's, and a
      // re-send would duplicate it.
      const named = namedLike(listing, alerts, spec);
      const fresh = named.filter(isNew);
      if (named.length > 1 || (named.length === 1 && fresh.length === 0))
        return { kind: 'duplicate', alerts: named, created: fresh.length > 0, resent };
    }
    const alert = takeMatching(listing, alerts, spec, isNew);
    if (alert) return { kind: 'adopted', alert, resent };
    // The list started after the POST ended and does not show the alert: it was not created.
    if (attempt >= MAX_CREATE_SENDS) throw notCreated(unknown, spec.name, attempt);
  }
}

/** The unclaimed alerts of a list that carry the name of `spec` (as names compare). */
function namedLike(listing: Listing, alerts: AccountAlerts, spec: CanonicalAlert): LiveAlert[] {
  return listing.alerts.filter((a) => sameAlertName(a.name, spec.name) && !alerts.claimed.has(a.id));
}
