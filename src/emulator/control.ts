import { request, type Dispatcher } from 'undici';
import type { Fault, FaultSpec } from './faults';
import type { RequestCounts, RequestFilter, RequestLogEntry } from './request-log';
import type { EmulatorSeed, SeedAlert } from './seed';
import type { EmulatorSettings } from './settings';
import type { EmulatorState } from './state';

/**
 * An alert as the control surface takes it: any field of a seed alert (the target by id or
 * by name), plus the action; createAlert may give a fixed, unused id.
 */
export type ControlAlertFields = Partial<SeedAlert> & { action?: string };

/** How much of a body that is not JSON a message shows. */
const SHOWN_TEXT = 200;

/**
 * The control surface answered an error status, or a body that is not JSON. `body` is the
 * parsed JSON when the body is JSON, the text otherwise; `text` is always the body as sent.
 */
export class EmulatorControlError extends Error {
  readonly text: string;

  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    text?: string,
  ) {
    const shown =
      text !== undefined && body === text
        ? `${statusCode} with a body that is not JSON: ${JSON.stringify(text.length > SHOWN_TEXT ? `${text.slice(0, SHOWN_TEXT)}...` : text)}`
        : `${statusCode}: ${JSON.stringify(body)}`;
    super(`emulator control answered ${shown}`);
    this.name = 'EmulatorControlError';
    this.text = text ?? (body === undefined ? '' : JSON.stringify(body));
  }
}

/**
 * The answer of a control call: its parsed body when the status is below 400 and the body is
 * JSON (or empty); an EmulatorControlError, keeping the status and the text, otherwise.
 */
export function readControlAnswer(statusCode: number, text: string): unknown {
  let parsed: unknown;
  let json = true;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      json = false;
    }
  }
  if (statusCode >= 400 || !json) throw new EmulatorControlError(statusCode, json ? parsed : text, text);
  return parsed;
}

/** A typed helper over /_emulator, speaking HTTP like any other user of the control surface. */
export class EmulatorControl {
  constructor(
    readonly url: string,
    readonly controlToken: string,
    private readonly dispatcher?: Dispatcher,
  ) {}

  private async call<T>(method: Dispatcher.HttpMethod, path: string, body?: unknown): Promise<T> {
    const res = await request(`${this.url}/_emulator${path}`, {
      method,
      headers: {
        'x-emulator-token': this.controlToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.dispatcher,
    });
    return readControlAnswer(res.statusCode, await res.body.text()) as T;
  }

  /** Back to the start seed and settings; also clears faults and the request log. */
  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  /** Replace every account with those of `seed`. */
  async seed(seed: EmulatorSeed): Promise<void> {
    await this.call('PUT', '/seed', seed);
  }

  /** Create an alert out of band; returns it as the API shows it, with its id. */
  createAlert(account: string, alert: ControlAlertFields): Promise<Record<string, unknown> & { id: number }> {
    return this.call('POST', `/accounts/${encodeURIComponent(account)}/alerts`, alert);
  }

  /** Change any field out of band (current_status, last_triggered_at, is_active included). */
  patchAlert(
    account: string,
    id: number,
    fields: ControlAlertFields,
  ): Promise<Record<string, unknown> & { id: number }> {
    return this.call('PATCH', `/accounts/${encodeURIComponent(account)}/alerts/${id}`, fields);
  }

  async deleteAlert(account: string, id: number): Promise<void> {
    await this.call('DELETE', `/accounts/${encodeURIComponent(account)}/alerts/${id}`);
  }

  /** Expire every token of the account, or only `accessToken`. Returns how many. */
  async expireTokens(account: string, accessToken?: string): Promise<number> {
    const res = await this.call<{ expired: number }>(
      'POST',
      `/accounts/${encodeURIComponent(account)}/tokens/expire`,
      accessToken === undefined ? undefined : { access_token: accessToken },
    );
    return res.expired;
  }

  /** Add a fault; returns its id. */
  async addFault(fault: FaultSpec): Promise<string> {
    return (await this.call<{ id: string }>('POST', '/faults', fault)).id;
  }

  faults(): Promise<Fault[]> {
    return this.call('GET', '/faults');
  }

  async removeFault(id: string): Promise<void> {
    await this.call('DELETE', `/faults/${encodeURIComponent(id)}`);
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/faults');
  }

  /**
   * The newest requests (the last 50,000 by default), oldest first. Throws when the log no
   * longer holds every request since start or the last clear, rather than hand back part of
   * them as if whole: count with `requestCounts`, or clear the log more often.
   */
  async requests(): Promise<RequestLogEntry[]> {
    const { dropped } = await this.requestCounts();
    const entries = await this.call<RequestLogEntry[]>('GET', '/requests');
    if (dropped > 0)
      throw new Error(
        `the emulator's request log holds the newest ${entries.length} requests; ${dropped} older ones were dropped (requestLogLimit). Count them with requestCounts, or clear the log (clearRequests) more often`,
      );
    return entries;
  }

  /** Counts of the requests since start or the last clear, by method and path; never capped by the log's size. */
  requestCounts(filter: RequestFilter = {}): Promise<RequestCounts> {
    const query = new URLSearchParams();
    for (const key of ['method', 'path', 'pathPrefix', 'account'] as const) {
      const value = filter[key];
      if (value !== undefined) query.set(key, value);
    }
    const qs = query.toString();
    return this.call('GET', `/requests/counts${qs ? `?${qs}` : ''}`);
  }

  /**
   * How many requests match, e.g. `{method: 'GET', path: '/api/alerts/'}` (the list calls) or
   * `{method: 'DELETE', pathPrefix: '/api/alerts'}`, or `{account: 'beta'}` (every request made
   * with account beta's credentials). Throws when the counters were full.
   */
  async countRequests(filter: RequestFilter = {}): Promise<number> {
    const counts = await this.requestCounts(filter);
    if (!counts.complete) {
      throw new Error(
        'the emulator saw more distinct request paths than its counters keep; clear the request log (clearRequests) more often',
      );
    }
    return counts.count;
  }

  async clearRequests(): Promise<void> {
    await this.call('DELETE', '/requests');
  }

  state(): Promise<EmulatorState> {
    return this.call('GET', '/state');
  }

  settings(): Promise<EmulatorSettings> {
    return this.call('GET', '/settings');
  }

  /**
   * Changes settings while the emulator runs, e.g. `{deleteForm: 'body'}` (null: every form
   * again) or `{randomSeed: 7}`; reset returns to the start settings. Answers the settings now.
   */
  updateSettings(update: Partial<EmulatorSettings>): Promise<EmulatorSettings> {
    return this.call('POST', '/settings', update);
  }
}
