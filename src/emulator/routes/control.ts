import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorCore } from '../core';
import { FaultSpecError, parseFaultSpec } from '../faults';
import type { RequestFilter } from '../request-log';
import { parseSeed, SeedError } from '../seed';
import { parseSettingsUpdate, SettingsError } from '../settings';
import type { StoredAccount, StoredAlert } from '../state';
import type { Store } from '../store';
import { alertView } from '../views';
import type { Body } from './shared';
import { isObject } from '../../support/json';

/** A failure of the control surface: {status, error} with a plain HTTP status. */
class ControlError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function objectBody(request: FastifyRequest, optional = false): Body {
  if (request.emulator.invalidJson) throw new ControlError(400, 'INVALID_BODY', 'the body is not valid JSON');
  const body = request.body;
  if (body === undefined && optional) return {};
  if (!isObject(body))
    throw new ControlError(400, 'INVALID_BODY', 'send a JSON object with Content-Type: application/json');
  return body;
}

const ALERT_FIELDS: Record<string, 'string' | 'nullable-string' | 'boolean' | 'target'> = {
  name: 'string',
  type: 'string',
  subtype: 'nullable-string',
  filter: 'string',
  filter_value: 'string',
  target_type: 'target',
  target_id: 'target',
  target: 'target',
  is_active: 'boolean',
  current_status: 'string',
  last_triggered_at: 'nullable-string',
  action: 'string',
};

/** Each field of a control body has the type its kind wants; unknown fields are refused. */
function checkAlertFieldTypes(body: Body): void {
  for (const [key, value] of Object.entries(body)) {
    const kind = ALERT_FIELDS[key];
    if (!kind)
      throw new ControlError(
        400,
        'INVALID_BODY',
        `${key} is not an alert field (known: ${Object.keys(ALERT_FIELDS).join(', ')})`,
      );
    if (kind === 'string' && typeof value !== 'string')
      throw new ControlError(400, 'INVALID_BODY', `${key} must be a string`);
    if (kind === 'nullable-string' && value !== null && typeof value !== 'string') {
      throw new ControlError(400, 'INVALID_BODY', `${key} must be a string or null`);
    }
    if (kind === 'boolean' && typeof value !== 'boolean')
      throw new ControlError(400, 'INVALID_BODY', `${key} must be true or false`);
  }
}

/** Points an alert at a domain or subdomain of the account given by name (`target`). */
function applyTargetName(account: StoredAccount, alert: StoredAlert, name: unknown): void {
  const d = account.domains.find((x) => x.domain === name);
  const s = account.subdomains.find(
    (x) => `${x.prefix}.${account.domains.find((y) => y.id === x.domain_id)?.domain}` === name,
  );
  if (d) {
    alert.target_type = 'domain';
    alert.target_id = d.id;
  } else if (s) {
    alert.target_type = 'subdomain';
    alert.target_id = s.id;
  } else {
    throw new ControlError(
      400,
      'INVALID_BODY',
      `target ${JSON.stringify(name)} is not a domain or subdomain of account "${account.name}"`,
    );
  }
}

/** Points an alert at a target given by type and id; either may be left as the alert has it. */
function applyTargetTypeAndId(account: StoredAccount, alert: StoredAlert, body: Body): void {
  const type = 'target_type' in body ? body.target_type : alert.target_type;
  const id = 'target_id' in body ? body.target_id : alert.target_id;
  if (type !== 'domain' && type !== 'subdomain')
    throw new ControlError(400, 'INVALID_BODY', 'target_type must be "domain" or "subdomain"');
  const exists =
    type === 'domain' ? account.domains.some((x) => x.id === id) : account.subdomains.some((x) => x.id === id);
  if (!exists)
    throw new ControlError(
      400,
      'INVALID_BODY',
      `target_id ${JSON.stringify(id)} is not a ${type} of account "${account.name}"`,
    );
  alert.target_type = type;
  alert.target_id = id as number;
}

/**
 * Applies out-of-band fields to an alert. Field types are checked and the target must be
 * one of the account's, but the alert matrix is not enforced: the control surface can plant
 * alerts the public API would refuse (to test tolerant readers).
 */
function applyAlertFields(account: StoredAccount, alert: StoredAlert, body: Body): void {
  checkAlertFieldTypes(body);
  const a = alert as unknown as Record<string, unknown>;
  for (const key of ['name', 'type', 'filter', 'filter_value', 'is_active', 'current_status', 'action'] as const) {
    if (key in body) a[key] = body[key];
  }
  if ('subtype' in body) alert.subtype = body.subtype === '' ? null : (body.subtype as string | null);
  if ('last_triggered_at' in body) alert.last_triggered_at = body.last_triggered_at as string | null;

  if ('target' in body) applyTargetName(account, alert, body.target);
  else if ('target_type' in body || 'target_id' in body) applyTargetTypeAndId(account, alert, body);
  alert.updated_at = new Date().toISOString();
}

/** The account named in the path (`:account`). */
function accountOf(store: Store, request: FastifyRequest): StoredAccount {
  const name = (request.params as { account: string }).account;
  const a = store.account(name);
  if (!a) throw new ControlError(404, 'NOT_FOUND', `no account named ${JSON.stringify(name)}`);
  return a;
}

/** The alert of the account with the id in the path (`:id`). */
function alertOf(a: StoredAccount, request: FastifyRequest): StoredAlert {
  const raw = (request.params as { id: string }).id;
  const alert = /^[0-9]+$/.test(raw) ? a.alerts.find((x) => x.id === Number(raw)) : undefined;
  if (!alert) throw new ControlError(404, 'NOT_FOUND', `no alert ${raw} in account "${a.name}"`);
  return alert;
}

/** Only requests with the control token pass; failures answer {status, error}. */
function guardControl(control: FastifyInstance, core: EmulatorCore): void {
  control.addHook('onRequest', async (request) => {
    if (!tokenMatches(request.headers['x-emulator-token'], core.controlToken)) {
      throw new ControlError(401, 'NOT_AUTHORIZED', 'send the control token in the x-emulator-token header');
    }
  });

  control.setErrorHandler((err: Error & { statusCode?: number }, _request, reply: FastifyReply) => {
    if (err instanceof ControlError) return reply.code(err.httpStatus).send({ status: err.code, error: err.message });
    const status = err.statusCode && err.statusCode < 500 ? 400 : 500;
    return reply.code(status).send({ status: status === 400 ? 'INVALID_BODY' : 'SYSTEM_ERROR', error: err.message });
  });
}

/** Reset, replace and show the whole state. */
function stateRoutes(control: FastifyInstance, core: EmulatorCore): void {
  const store = core.store;
  control.post('/reset', async () => {
    await core.reset();
    return { status: 'OK' };
  });

  control.put('/seed', async (request) => {
    try {
      await store.replace(parseSeed(objectBody(request)));
    } catch (err) {
      if (err instanceof SeedError) throw new ControlError(400, 'INVALID_BODY', err.message);
      throw err;
    }
    return { status: 'OK' };
  });

  control.get('/state', async () => store.state);
}

/** A wanted alert id is a positive whole number no alert of any account has. */
function checkWantedAlertId(store: Store, wantedId: unknown): void {
  if (wantedId === undefined) return;
  if (typeof wantedId !== 'number' || !Number.isSafeInteger(wantedId) || wantedId < 1) {
    throw new ControlError(400, 'INVALID_BODY', 'id must be a positive whole number');
  }
  if (store.state.accounts.some((x) => x.alerts.some((y) => y.id === wantedId))) {
    throw new ControlError(400, 'INVALID_BODY', `alert id ${wantedId} is in use`);
  }
}

/** A new alert before the body's fields are applied: the defaults of the control surface. */
function blankAlert(): StoredAlert {
  const now = new Date().toISOString();
  return {
    id: 0,
    name: '',
    type: '',
    subtype: null,
    filter: '',
    filter_value: '',
    target_type: 'domain',
    target_id: 0,
    is_active: true,
    current_status: 'healthy',
    action: 'email',
    last_triggered_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Plant, change and remove alerts out of band. */
function alertControlRoutes(control: FastifyInstance, store: Store): void {
  control.post('/accounts/:account/alerts', async (request) => {
    const a = accountOf(store, request);
    const { id: wantedId, ...body } = objectBody(request);
    checkWantedAlertId(store, wantedId);
    for (const required of ['name', 'type', 'filter'] as const) {
      if (!(required in body)) throw new ControlError(400, 'INVALID_BODY', `${required} is required`);
    }
    if (!('target' in body) && !('target_id' in body))
      throw new ControlError(400, 'INVALID_BODY', 'give target (a name) or target_type + target_id');
    const alert = blankAlert();
    applyAlertFields(a, alert, body);
    // A wanted id moves the next id past it when the alert is put (ids are never reused).
    alert.id = typeof wantedId === 'number' ? wantedId : store.state.next_alert_id;
    await store.commit([{ op: 'put', account: a.name, list: 'alerts', item: alert }]);
    return alertView(a, alert);
  });

  control.patch('/accounts/:account/alerts/:id', async (request) => {
    const a = accountOf(store, request);
    const alert = alertOf(a, request);
    const body = objectBody(request);
    const copy = { ...alert };
    applyAlertFields(a, copy, body); // on a copy: a bad field changes nothing
    await store.commit([{ op: 'put', account: a.name, list: 'alerts', item: copy }]);
    return alertView(a, copy);
  });

  control.delete('/accounts/:account/alerts/:id', async (request) => {
    const a = accountOf(store, request);
    const alert = alertOf(a, request);
    await store.commit([{ op: 'remove', account: a.name, list: 'alerts', keys: [alert.id] }]);
    return { status: 'OK' };
  });
}

/** Expire an account's tokens (all, or the one given). */
function tokenControlRoutes(control: FastifyInstance, store: Store): void {
  control.post('/accounts/:account/tokens/expire', async (request) => {
    const a = accountOf(store, request);
    const body = objectBody(request, true);
    const only = body.access_token;
    if (only !== undefined && typeof only !== 'string')
      throw new ControlError(400, 'INVALID_BODY', 'access_token must be a string');
    const targets = only === undefined ? a.tokens : a.tokens.filter((t) => t.access_token === only);
    if (only !== undefined && targets.length === 0)
      throw new ControlError(404, 'NOT_FOUND', `no such token in account "${a.name}"`);
    const past = new Date(Date.now() - 1000).toISOString();
    await store.commit(
      targets.map((t) => ({ op: 'put', account: a.name, list: 'tokens', item: { ...t, expires_at: past } })),
    );
    return { status: 'OK', expired: targets.length };
  });
}

/** Add, list and remove injected faults. */
function faultRoutes(control: FastifyInstance, core: EmulatorCore): void {
  control.post('/faults', async (request) => {
    try {
      return { id: core.faults.add(parseFaultSpec(objectBody(request))).id };
    } catch (err) {
      if (err instanceof FaultSpecError) throw new ControlError(400, 'INVALID_BODY', err.message);
      throw err;
    }
  });

  control.get('/faults', async () => core.faults.list());

  control.delete('/faults', async () => {
    core.faults.clear();
    return { status: 'OK' };
  });

  control.delete('/faults/:id', async (request) => {
    const id = (request.params as { id: string }).id;
    if (!core.faults.remove(id)) throw new ControlError(404, 'NOT_FOUND', `no fault ${id}`);
    return { status: 'OK' };
  });
}

/** Show and change the emulator's settings. */
function settingsRoutes(control: FastifyInstance, core: EmulatorCore): void {
  control.get('/settings', async () => core.settings);

  control.post('/settings', async (request) => {
    try {
      core.updateSettings(parseSettingsUpdate(objectBody(request)));
    } catch (err) {
      if (err instanceof SettingsError) throw new ControlError(400, 'INVALID_BODY', err.message);
      throw err;
    }
    return core.settings;
  });
}

/** The filter of `/requests/counts`: known keys only, each given once (paths start with "/"). */
function requestCountsFilter(query: Record<string, unknown>): RequestFilter {
  const filter: RequestFilter = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (key !== 'method' && key !== 'path' && key !== 'pathPrefix' && key !== 'account') {
      throw new ControlError(
        400,
        'INVALID_BODY',
        `${key} is not a filter of the request counts (known: method, path, pathPrefix, account)`,
      );
    }
    const isPath = key === 'path' || key === 'pathPrefix';
    if (typeof value !== 'string' || value === '' || (isPath && !value.startsWith('/'))) {
      throw new ControlError(400, 'INVALID_BODY', `${key} must be given once${isPath ? ', starting with "/"' : ''}`);
    }
    filter[key] = value;
  }
  return filter;
}

/** Read, count and clear the log of requests the emulator answered. */
function requestLogRoutes(control: FastifyInstance, core: EmulatorCore): void {
  // The log says when it no longer holds every request (its ring turned).
  control.get('/requests', async (_request, reply) => {
    void reply.header('x-emulator-requests-dropped', String(core.requestLog.dropped));
    return core.requestLog.entries();
  });

  control.get('/requests/counts', async (request) =>
    core.requestLog.counts(requestCountsFilter(request.query as Record<string, unknown>)),
  );

  control.delete('/requests', async () => {
    core.requestLog.clear();
    return { status: 'OK' };
  });
}

/** The control surface under /_emulator: separate from /api, guarded by x-emulator-token. */
export async function controlRoutes(control: FastifyInstance, { core }: { core: EmulatorCore }): Promise<void> {
  guardControl(control, core);
  stateRoutes(control, core);
  alertControlRoutes(control, core.store);
  tokenControlRoutes(control, core.store);
  faultRoutes(control, core);
  settingsRoutes(control, core);
  requestLogRoutes(control, core);
}
