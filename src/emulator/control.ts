import { request, type Dispatcher } from 'undici';
import type { RequestLogEntry } from './core';
import type { Fault, FaultSpec } from './faults';
import type { EmulatorSeed, SeedAlert } from './seed';
import type { EmulatorState } from './state';

/**
 * An alert as the control surface takes it: any field of a seed alert (the target by id or
 * by name), plus the action; createAlert may give a fixed, unused id.
 */
export type ControlAlertFields = Partial<SeedAlert> & { action?: string };

export class EmulatorControlError extends Error {
  constructor(readonly statusCode: number, readonly body: unknown) {
    super(`emulator control answered ${statusCode}: ${JSON.stringify(body)}`);
    this.name = 'EmulatorControlError';
  }
}

/** A typed helper over /_emulator, speaking HTTP like any other user of the control surface. */
export class EmulatorControl {
  constructor(readonly url: string, readonly controlToken: string, private readonly dispatcher?: Dispatcher) {}

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
    const text = await res.body.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (res.statusCode >= 400) throw new EmulatorControlError(res.statusCode, parsed);
    return parsed as T;
  }

  /** Back to the start seed; also clears faults and the request log. */
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
  patchAlert(account: string, id: number, fields: ControlAlertFields): Promise<Record<string, unknown> & { id: number }> {
    return this.call('PATCH', `/accounts/${encodeURIComponent(account)}/alerts/${id}`, fields);
  }

  async deleteAlert(account: string, id: number): Promise<void> {
    await this.call('DELETE', `/accounts/${encodeURIComponent(account)}/alerts/${id}`);
  }

  /** Expire every token of the account, or only `accessToken`. Returns how many. */
  async expireTokens(account: string, accessToken?: string): Promise<number> {
    const res = await this.call<{ expired: number }>(
      'POST', `/accounts/${encodeURIComponent(account)}/tokens/expire`, accessToken === undefined ? undefined : { access_token: accessToken });
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

  requests(): Promise<RequestLogEntry[]> {
    return this.call('GET', '/requests');
  }

  async clearRequests(): Promise<void> {
    await this.call('DELETE', '/requests');
  }

  state(): Promise<EmulatorState> {
    return this.call('GET', '/state');
  }
}
