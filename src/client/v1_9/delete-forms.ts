/**
 * How DELETE /api/alerts/ carries the alert id, and what this process has learned of it.
 *
 * The interface shows the path without an id segment and does not say (4.7), so the forms
 * are tried in this order: the path segment (as GET and PATCH use), the `alert_id` query
 * parameter, a JSON body `{"alert_id": id}`. The first form a server understands is kept per
 * base URL for the life of the process, shared by every client: the Terraform provider makes
 * a client per ConfigureProvider, and the reconciler one per account.
 */
import { isNetworkCalcError } from '../errors';
import type { HttpRequest } from '../transport';
import { PATHS } from './paths';

export const DELETE_FORMS = ['path', 'query', 'body'] as const;
export type DeleteForm = (typeof DELETE_FORMS)[number];

export function deleteAlertRequest(form: DeleteForm, id: number): Pick<HttpRequest, 'path' | 'query' | 'body'> {
  switch (form) {
    case 'path':
      return { path: PATHS.alert(id) };
    case 'query':
      return { path: PATHS.alerts, query: { alert_id: String(id) } };
    case 'body':
      return { path: PATHS.alerts, body: { alert_id: id } };
  }
}

/** How each form looks, for messages. */
export const DELETE_FORM_SHAPES: Readonly<Record<DeleteForm, string>> = {
  path: 'DELETE /api/alerts/{id}',
  query: 'DELETE /api/alerts/?alert_id={id}',
  body: 'DELETE /api/alerts/ with the JSON body {"alert_id": id}',
};

/**
 * True when the server did not understand this DELETE form: no such route (HTTP 404 or 405,
 * whatever the body: an unknown route may answer `{"status": "NOT_FOUND"}` too, and taking
 * that for "alert gone" would leave the alert in place) or no id found (MISSING_VALUES).
 * Never NOT_FOUND with HTTP 400, the interface's "no alert with this id": the form worked.
 */
export function isFormNotUnderstood(err: unknown): boolean {
  if (!isNetworkCalcError(err)) return false;
  if (err.httpStatus === 404 || err.httpStatus === 405) return true;
  return err.code === 'MISSING_VALUES';
}

/**
 * What one base URL has taught: the form that works, once known, and the probe under way
 * while it is not (single flight: the other deletes wait for it instead of probing too).
 */
export interface DeleteFormState {
  form: DeleteForm | undefined;
  probe: Promise<void> | undefined;
}

const learned = new Map<string, DeleteFormState>();

/** The state for a normalized base URL, created on first use; lives as long as the process. */
export function deleteFormState(baseUrl: string): DeleteFormState {
  let state = learned.get(baseUrl);
  if (!state) {
    state = { form: undefined, probe: undefined };
    learned.set(baseUrl, state);
  }
  return state;
}
