import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SPEC_FIELDS, validateAlert, type Problem } from '../../../model';
import type { EmulatorCore } from '../../core';
import { ApiError, type ErrorCode } from '../../errors';
import { DELETE_FORMS, type DeleteForm } from '../../settings';
import type { StoredAccount, StoredAlert } from '../../state';
import type { Store } from '../../store';
import { alertListBody, alertView } from '../../views';
import {
  accountOf,
  authorize,
  now,
  OK_ONLY,
  pathId,
  requireJson,
  responses,
  routeDefaults,
  type Body,
} from '../shared';
import { isObject } from '../../../support/json';

function findAlert(account: StoredAccount, raw: unknown): StoredAlert {
  const id = typeof raw === 'number' ? raw : pathId(typeof raw === 'string' ? raw : undefined);
  const alert = id === null ? undefined : account.alerts.find((a) => a.id === id);
  if (!alert) throw new ApiError('NOT_FOUND', `no alert with id ${JSON.stringify(raw)}`);
  return alert;
}

/** MISSING_VALUES when something required is absent, INVALID_BODY otherwise (7.2). */
function rejectProblems(problems: Problem[]): never {
  const code: ErrorCode = problems.some((p) => p.kind === 'missing') ? 'MISSING_VALUES' : 'INVALID_BODY';
  throw new ApiError(code, problems.map((p) => p.message).join('; '));
}

/** The model accepts a few things 4.6 types otherwise (a number of days); the schema does not. */
function rejectSchemaError(request: FastifyRequest): void {
  const err = request.validationError;
  if (err) throw new ApiError('INVALID_BODY', err.message);
}

function checkTarget(account: StoredAccount, targetType: unknown, targetId: unknown): void {
  const exists =
    targetType === 'subdomain'
      ? account.subdomains.some((s) => s.id === targetId)
      : account.domains.some((d) => d.id === targetId);
  if (!exists)
    throw new ApiError('INVALID_BODY', `target_id ${String(targetId)} is not a ${String(targetType)} of this account`);
}

/** The body of create / edit as an object, or the code for why it is not one. */
function alertBody(request: FastifyRequest): Body {
  if (request.emulator.invalidJson) throw new ApiError('INVALID_BODY', 'the body is not valid JSON');
  if (request.body === undefined)
    throw new ApiError('MISSING_VALUES', 'the body is empty; send the alert as a JSON object');
  if (!isObject(request.body)) throw new ApiError('INVALID_BODY', 'the body must be a JSON object');
  return request.body;
}

/** Checks a create / edit body (merged into the stored alert for an edit) as sent. */
function checkAlert(request: FastifyRequest, account: StoredAccount, fields: Body): void {
  // Validated as sent: the service takes the documented spellings only.
  const problems = validateAlert(fields);
  if (problems.length) rejectProblems(problems);
  rejectSchemaError(request);
  checkTarget(account, fields.target_type, fields.target_id);
}

function blankToNull(v: unknown): unknown {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v;
}

/** The 4.6 fields of a checked body, as stored. */
function specFields(fields: Body): Pick<StoredAlert, (typeof SPEC_FIELDS)[number]> {
  return {
    name: fields.name as string,
    type: fields.type as string,
    subtype: blankToNull(fields.subtype) as string | null,
    filter: fields.filter as string,
    filter_value: String(blankToNull(fields.filter_value) ?? ''),
    target_type: fields.target_type as 'domain' | 'subdomain',
    target_id: fields.target_id as number,
  };
}

/** Edits: a JSON body that fastify's update shape applies to. */
const UPDATE = { config: { group: 'alerts', updateShape: true }, onRequest: requireJson } as const;

/**
 * Create and edit: an alert body, checked by the model (attachValidation), AlertUpdateResponse
 * answers. A new object per route, as fastify may add to a route's schema.
 */
function alertWrite() {
  return {
    ...UPDATE,
    attachValidation: true,
    schema: { body: { $ref: 'AlertBody#' }, response: responses(OK_ONLY, true) },
  } as const;
}

/** GET of all alerts and of one (4.3, 4.4). */
function readRoutes(app: FastifyInstance): void {
  const listResponse = responses({
    type: 'object',
    properties: { status: { type: 'string' }, alerts: { type: 'array', items: { $ref: 'AlertResponse#' } } },
  });

  app.get('/api/alerts', {
    // The 200 schema documents the shape; the body is alertListBody's bytes, which fastify
    // sends as they are (the schema's serializer is slow and wasteful at 10,000 alerts).
    schema: { response: listResponse },
    handler: async (request, reply) => {
      reply.type('application/json; charset=utf-8');
      return alertListBody(accountOf(request));
    },
  });

  app.get('/api/alerts/:alert_id', {
    schema: { response: listResponse },
    handler: async (request) => {
      const account = accountOf(request);
      const alert = findAlert(account, (request.params as { alert_id: string }).alert_id);
      return { status: 'OK', alerts: [alertView(account, alert)] };
    },
  });
}

/** POST of a new alert (4.5): the stored alert starts active and healthy. */
function createRoute(app: FastifyInstance, store: Store): void {
  app.post('/api/alerts', {
    ...alertWrite(),
    handler: async (request) => {
      const account = accountOf(request);
      const body = alertBody(request);
      checkAlert(request, account, body);
      const at = now();
      await store.commit([
        {
          op: 'put',
          account: account.name,
          list: 'alerts',
          item: {
            id: store.state.next_alert_id,
            ...specFields(body),
            is_active: true,
            current_status: 'healthy',
            action: 'email',
            last_triggered_at: null,
            created_at: at,
            updated_at: at,
          },
        },
      ]);
      // AlertUpdateResponse: no id. A client lists to learn it.
      return { status: 'OK' };
    },
  });
}

/** PATCH of an alert (4.6): the body merged into the stored alert, checked whole; without an id, refused. */
function editRoutes(app: FastifyInstance, store: Store): void {
  app.patch('/api/alerts/:alert_id', {
    ...alertWrite(),
    handler: async (request) => {
      const account = accountOf(request);
      const alert = findAlert(account, (request.params as { alert_id: string }).alert_id);
      const body = alertBody(request);
      const merged: Body = {};
      for (const f of SPEC_FIELDS) merged[f] = f in body ? body[f] : alert[f];
      checkAlert(request, account, merged);
      await store.commit([
        {
          op: 'put',
          account: account.name,
          list: 'alerts',
          item: { ...alert, ...specFields(merged), updated_at: now() },
        },
      ]);
      return { status: 'OK' };
    },
  });

  app.patch('/api/alerts', {
    ...UPDATE,
    schema: { response: responses(OK_ONLY, true) },
    handler: async () => {
      throw new ApiError('MISSING_VALUES', 'give the alert id in the path: /api/alerts/{alert_id}');
    },
  });
}

/** Where each DELETE form carries the alert id (undefined: not there). */
const DELETE_ID_FROM: Record<DeleteForm, (request: FastifyRequest) => unknown> = {
  path: (request) => (request.params as { alert_id?: string }).alert_id,
  query: (request) => (request.query as Record<string, unknown>).alert_id,
  body: (request) => (isObject(request.body) && !request.emulator.invalidJson ? request.body.alert_id : undefined),
};

/** DELETE of an alert (4.7), with or without the id in the path. */
function deleteRoutes(app: FastifyInstance, core: EmulatorCore): void {
  const store = core.store;
  /**
   * DELETE reads the id from the one form the settings name, like the real service; with none
   * named, from the path, else ?alert_id=, else a JSON body {"alert_id": id}. An id in a form
   * that is not read is missing, never NOT_FOUND: a client must not take it for a delete.
   */
  async function deleteAlert(request: FastifyRequest) {
    const account = accountOf(request);
    const only = core.settings.deleteForm;
    const raw = (only ? [only] : DELETE_FORMS)
      .map((form) => DELETE_ID_FROM[form](request))
      .find((v) => v !== undefined && v !== '');
    if (raw === undefined)
      throw new ApiError('MISSING_VALUES', only ? `give alert_id in the ${only}` : 'give alert_id');
    const alert = findAlert(account, raw);
    await store.commit([{ op: 'remove', account: account.name, list: 'alerts', keys: [alert.id] }]);
    return { status: 'OK' };
  }
  for (const url of ['/api/alerts', '/api/alerts/:alert_id']) {
    app.delete(url, { schema: { response: responses(OK_ONLY) }, handler: deleteAlert });
  }
}

/** The alert operations (4.3 to 4.7). */
export async function alertRoutes(app: FastifyInstance, { core }: { core: EmulatorCore }): Promise<void> {
  routeDefaults(app, { group: 'alerts' });
  app.addHook('onRequest', authorize('alerts'));
  readRoutes(app);
  createRoute(app, core.store);
  editRoutes(app, core.store);
  deleteRoutes(app, core);
}
