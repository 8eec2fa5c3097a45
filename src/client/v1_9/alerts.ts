/**
 * The alert operations of the v1.9 interface: list, get, create, update, delete (with the DELETE form learned once per base URL).
 */
import { readLiveAlert, requestBody, type AlertSpec, type LiveAlert } from '../../model';
import {
  DELETE_FORMS,
  DELETE_FORM_SHAPES,
  deleteAlertRequest,
  deleteFormState,
  isFormNotUnderstood,
  type DeleteForm,
} from './delete-forms';
import { NetworkCalcError, isNetworkCalcError } from '../errors';
import { readCreatedId } from './decode';
import { describe } from '../transport';
import { isObject } from '../../support/json';
import { checkId, type ApiSession } from '../session';
import { PATHS } from './paths';

/** One alert per id: a list naming an id twice leaves any action on that id ambiguous. */
function checkUniqueIds(alerts: LiveAlert[]): LiveAlert[] {
  const seen = new Set<number>();
  for (const a of alerts) {
    if (seen.has(a.id)) throw new Error(`the list holds two alerts with id ${a.id}, so neither can be acted on safely`);
    seen.add(a.id);
  }
  return alerts;
}

export class AlertsResource {
  readonly #s: ApiSession;

  constructor(session: ApiSession) {
    this.#s = session;
  }

  async listAlerts(): Promise<LiveAlert[]> {
    const req = { operation: 'listAlerts', method: 'GET', path: PATHS.alerts, mode: 'idempotent' } as const;
    const res = await this.#s.call(req);
    return this.#s.read(
      req,
      res,
      (body) => {
        if (!Array.isArray(body.alerts)) throw new Error('the response has no alerts array');
        return body.alerts.map((a) => {
          if (!isObject(a)) throw new Error('an alerts entry is not an object');
          return readLiveAlert(a);
        });
      },
      checkUniqueIds,
    );
  }

  async getAlert(id: number): Promise<LiveAlert> {
    checkId(id, 'alert id');
    const req = {
      operation: 'getAlert',
      subject: `alert ${id}`,
      method: 'GET',
      path: PATHS.alert(id),
      mode: 'idempotent',
    } as const;
    const res = await this.#s.call(req);
    const found = this.#s.read(req, res, (body) => {
      const list: unknown[] = Array.isArray(body.alerts) ? body.alerts : isObject(body.alert) ? [body.alert] : [];
      const alerts = list.filter(isObject).map((a) => readLiveAlert(a));
      return checkUniqueIds(alerts.filter((a) => a.id === id))[0];
    });
    if (found) return found;
    throw new NetworkCalcError({
      operation: 'getAlert',
      code: 'NOT_FOUND',
      httpStatus: res.status,
      message: `${describe('getAlert', `alert ${id}`, 'NOT_FOUND', res.status)} (the response did not contain it)`,
    });
  }

  /**
   * Creates an alert. The create response (AlertUpdateResponse) carries no id in the
   * interface; `id` is returned only when a server sends one anyway. Callers needing the id
   * re-list and find the alert by name. Never repeated after an ambiguous failure: that
   * throws OUTCOME_UNKNOWN instead.
   */
  async createAlert(spec: AlertSpec): Promise<{ id?: number }> {
    const req = {
      operation: 'createAlert',
      subject: `alert ${JSON.stringify(spec.name)}`,
      method: 'POST',
      path: PATHS.alerts,
      body: requestBody(spec),
      mode: 'create',
    } as const;
    const res = await this.#s.call(req);
    const id = readCreatedId(res.body);
    return id === undefined ? {} : { id };
  }

  /** PATCH with the whole body: the interface does not say which fields an edit may omit. */
  async updateAlert(id: number, spec: AlertSpec): Promise<void> {
    checkId(id, 'alert id');
    await this.#s.call({
      operation: 'updateAlert',
      subject: `alert ${id}`,
      method: 'PATCH',
      path: PATHS.alert(id),
      body: requestBody(spec),
      mode: 'idempotent',
    });
  }

  /**
   * Deletes an alert. A missing alert throws NOT_FOUND (callers converging state may treat
   * that as done), except when an earlier attempt of this same call may have deleted it.
   *
   * The id form is learned once per base URL (see delete-forms.ts): while it is unknown, the
   * first delete probes the forms and the others wait for it, then each sends one request.
   */
  async deleteAlert(id: number): Promise<void> {
    checkId(id, 'alert id');
    const learned = deleteFormState(this.#s.baseUrl);
    let relearned = false;
    // Each turn sends one request with the learned form, waits for another call's probe, or
    // probes: a call sends at most one request with a learned form and makes one probe.
    for (;;) {
      const form = learned.form;
      if (form !== undefined) {
        try {
          return await this.#deleteWith(form, id, learned);
        } catch (err) {
          // The server stopped understanding the learned form (redeployed?): learn it again, once.
          if (relearned || !isFormNotUnderstood(err)) throw err;
          relearned = true;
          if (learned.form === form) learned.form = undefined;
          continue;
        }
      }
      if (learned.probe !== undefined) {
        await learned.probe;
        continue;
      }
      let finished!: () => void;
      learned.probe = new Promise<void>((resolve) => {
        finished = resolve;
      });
      try {
        return await this.#probeDelete(id, learned);
      } finally {
        learned.probe = undefined;
        finished();
      }
    }
  }

  /** Tries the forms in order until one is understood, and keeps it for this base URL. */
  async #probeDelete(id: number, learned: ReturnType<typeof deleteFormState>): Promise<void> {
    let last: NetworkCalcError | undefined;
    for (const form of DELETE_FORMS) {
      try {
        return await this.#deleteWith(form, id, learned);
      } catch (err) {
        if (!isFormNotUnderstood(err)) throw err;
        last = err as NetworkCalcError;
      }
    }
    const forms = DELETE_FORMS.map((f) => DELETE_FORM_SHAPES[f]).join('; ');
    throw new NetworkCalcError({
      operation: 'deleteAlert',
      code: last!.code,
      httpStatus: last!.httpStatus,
      detail: last!.detail,
      attempts: last!.attempts,
      retryable: false,
      message: describe(
        'deleteAlert',
        `alert ${id}`,
        last!.code,
        last!.httpStatus,
        `the server understood none of the ways this client sends the alert id (${forms}), so the alert was not deleted; ` +
          `${this.#s.variables.baseUrl} may not point at the NetworkCalc Alerts API, or the service changed how DELETE takes the id (please report it)`,
      ),
      cause: last,
    });
  }

  /** One DELETE in `form`; success and NOT_FOUND both prove the form is understood. */
  async #deleteWith(form: DeleteForm, id: number, learned: ReturnType<typeof deleteFormState>): Promise<void> {
    try {
      await this.#s.call({
        operation: 'deleteAlert',
        subject: `alert ${id}`,
        method: 'DELETE',
        ...deleteAlertRequest(form, id),
        mode: 'idempotent',
      });
      learned.form = form;
    } catch (err) {
      if (!isNetworkCalcError(err) || err.code !== 'NOT_FOUND' || isFormNotUnderstood(err)) throw err;
      learned.form = form;
      // A retried DELETE whose earlier attempt got through finds nothing: that is success.
      if ((err.attempts ?? 1) > 1) return;
      throw err;
    }
  }
}
