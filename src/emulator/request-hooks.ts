import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorCore, RequestState } from './core';
import { ApiError } from './errors';
import type { RouteConfig } from './routes/shared';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const TOKEN_PATH = '/api/auth/token';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Destroys the connection without an answer; the request log records status 0. */
function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  request.emulator.dropped = true;
  reply.hijack();
  request.raw.socket?.destroy();
}

/** Decides the request's faults and acts on those that come before the handler. */
async function actBefore(
  core: EmulatorCore,
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  path: string,
  account: string | null,
): Promise<FastifyReply | undefined> {
  const plan = core.faults.plan(method, path, account);
  request.emulator.plan = plan;
  if (!plan) return;
  if (plan.delayBeforeMs > 0) await sleep(plan.delayBeforeMs);
  const f = plan.terminal;
  if (!f || f.phase === 'after') return;
  switch (f.kind) {
    case 'drop':
      dropConnection(request, reply);
      return reply;
    case 'status':
      return reply.code(f.status ?? 500).send({ status: 'SYSTEM_ERROR' });
    case 'rate_limit':
      return reply
        .code(429)
        .header('retry-after', String(f.retryAfterSeconds ?? 1))
        .send({ status: 'RATE_LIMITED' });
    default:
      return; // reject: answered in preHandler, once authorization has passed
  }
}

/** Adds an API request to the request log once its connection closes (answered or dropped). */
function logWhenClosed(
  core: EmulatorCore,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  state: RequestState,
): void {
  const q = request.url.indexOf('?');
  reply.raw.once('close', () => {
    core.requestLog.add({
      method: request.method,
      path,
      query: q === -1 ? '' : request.url.slice(q + 1),
      account: state.account?.name ?? null,
      claimedAccount: state.claimedAccount ?? null,
      status: reply.raw.writableFinished && !state.dropped ? reply.raw.statusCode : 0,
      faults: (state.plan?.hits ?? []).map((f) => ({ id: f.id, kind: f.kind, phase: f.phase ?? 'before' })),
      at: new Date().toISOString(),
    });
  });
}

/** onRequest: the request's state (its account), the request log, and the faults that act first. */
function addRequestStart(app: FastifyInstance, core: EmulatorCore): void {
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const state: RequestState = { authorization: header !== undefined && header.trim() !== '' };
    request.emulator = state;
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/_emulator')) return;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token !== undefined) {
      state.account = core.store.accountForToken(token);
      state.claimedAccount = core.accountClaimedBy(token);
    }

    if (path.startsWith('/api')) logWhenClosed(core, request, reply, path, state);

    // A token exchange names its account in the body: when a fault matches by account, its
    // faults are decided once the body is read (preValidation).
    const deferred = token === undefined && path === TOKEN_PATH && core.faults.byAccount;
    if (deferred) {
      state.faultsDeferred = true;
      return;
    }
    return actBefore(core, request, reply, request.method, path, state.claimedAccount ?? null);
  });
}

/** preValidation: a token exchange's account, from its body, and the faults deferred until then. */
function addTokenExchangeFaults(app: FastifyInstance, core: EmulatorCore): void {
  app.addHook('preValidation', async (request, reply) => {
    const state = request.emulator;
    if (request.url.split('?')[0] !== TOKEN_PATH || state.claimedAccount !== undefined) return;
    const body = request.body as { client_id?: unknown } | undefined;
    state.claimedAccount = core.accountOfClientId(body?.client_id);
    if (state.faultsDeferred)
      return actBefore(core, request, reply, request.method, TOKEN_PATH, state.claimedAccount ?? null);
  });
}

/** preHandler: `reject` faults, once authorization and the Content-Type check have passed. */
function addRejectFaults(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    // Routes of the API and the report download have a group; unknown paths do not.
    if (!(request.routeOptions.config as Partial<RouteConfig>).group) return;
    const terminal = request.emulator.plan?.terminal;
    if (terminal?.kind === 'reject') throw new ApiError(terminal.code!, `${terminal.code} (injected fault)`);
    request.emulator.handled = true;
  });
}

/** onSend: faults of phase "after", once the handler has committed its change. */
function addAfterFaults(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const plan = request.emulator?.plan;
    if (!plan || !request.emulator.handled) return payload;
    if (plan.delayAfterMs > 0) await sleep(plan.delayAfterMs);
    const terminal = plan.terminal;
    if (terminal?.phase !== 'after') return payload;
    if (terminal.kind === 'drop') {
      // The change is committed; the client never learns it (an ambiguous create).
      dropConnection(request, reply);
      return payload;
    }
    reply.code(terminal.status ?? 500).type('application/json; charset=utf-8');
    return JSON.stringify({ status: 'SYSTEM_ERROR' });
  });
}

/**
 * The hook chain every request goes through, and the one place faults act:
 * - onRequest: the request's state (its account), the request log, and the faults that
 *   act before anything else (latency, drop, 5xx, rate limit);
 * - preHandler: `reject` faults, once authorization and the Content-Type check have passed;
 * - onSend: faults of phase "after", once the handler has committed its change.
 * The control surface (/_emulator) is not logged and faults do not touch it.
 */
export function registerRequestHooks(app: FastifyInstance, core: EmulatorCore): void {
  app.decorateRequest('emulator', null as unknown as RequestState);
  addRequestStart(app, core);
  addTokenExchangeFaults(app, core);
  addRejectFaults(app);
  addAfterFaults(app);
}
