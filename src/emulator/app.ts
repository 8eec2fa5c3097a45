import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { EmulatorCore, REPORTS_PER_ACCOUNT_LIMIT } from './core';
import { ApiError, BAD_BODY_CODE, ERROR_TABLE } from './errors';
import { registerRequestHooks } from './request-hooks';
import { REQUEST_LOG_LIMIT } from './request-log';
import { controlRoutes } from './routes/control';
import { v1_9Routes } from './routes/v1_9';
import { SCHEMAS, type RouteConfig } from './routes/shared';
import { demoSeed, loadSeedFile, parseSeed, type EmulatorSeed } from './seed';
import {
  checkDeleteForm,
  checkFlag,
  checkRandomSeed,
  SettingsError,
  type DeleteForm,
  type EmulatorSettings,
} from './settings';
import { Store } from './store';

export interface BuildEmulatorOptions {
  /** Accounts to start with: a seed object or the path of a seed file. Default: the demo account. */
  seed?: EmulatorSeed | string;
  /** Where state is saved after every change; in memory when absent. */
  dataFile?: string;
  /** Value of the x-emulator-token header the control surface requires; random when absent. */
  controlToken?: string;
  /** Lifetime of tokens issued by /api/auth/token. Default 3600. */
  tokenLifetimeSeconds?: number;
  /** fastify's request logging to stdout. Default false. */
  logger?: boolean;
  /** Seed of the generator behind fault rates, for reproducible runs (reset restarts it). Default: Math.random. */
  randomSeed?: number;
  /** Reports kept per account; the oldest are forgotten (their URLs answer 404). Default 1000. */
  reportsPerAccount?: number;
  /**
   * The one form a DELETE of an alert may carry its id in, like the real service: `path`,
   * `query` or `body`; another form answers 400 MISSING_VALUES. Default: every form.
   */
  deleteForm?: DeleteForm;
  /** A domain or subdomain create answers without the new id (see EmulatorSettings). Default false. */
  targetCreateOmitsId?: boolean;
  /** A domain or subdomain delete takes the alerts that target it along (see EmulatorSettings). Default false. */
  targetDeleteTakesAlerts?: boolean;
  /** Entries the request log keeps (its counters keep counting). Default 10000. */
  requestLogLimit?: number;
}

export type EmulatorApp = FastifyInstance & { emulator: EmulatorCore };

function positiveWhole(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive whole number (got ${String(value)})`);
  return value;
}

/** The settings the emulator starts with (and returns to on reset), checked. */
function startSettings(opts: BuildEmulatorOptions): EmulatorSettings {
  try {
    return {
      deleteForm: opts.deleteForm === undefined ? null : checkDeleteForm(opts.deleteForm, 'deleteForm'),
      randomSeed: opts.randomSeed === undefined ? null : checkRandomSeed(opts.randomSeed, 'randomSeed'),
      targetCreateOmitsId: checkFlag(opts.targetCreateOmitsId ?? false, 'targetCreateOmitsId'),
      targetDeleteTakesAlerts: checkFlag(opts.targetDeleteTakesAlerts ?? false, 'targetDeleteTakesAlerts'),
    };
  } catch (err) {
    if (err instanceof SettingsError) throw new RangeError(err.message, { cause: err });
    throw err;
  }
}

function resolveSeed(seed: EmulatorSeed | string | undefined): EmulatorSeed {
  if (seed === undefined) return demoSeed();
  if (typeof seed === 'string') return loadSeedFile(seed);
  return parseSeed(seed);
}

/** Reads the JSON body as text and never fails: a bad body becomes the interface's code. */
function parseJson(request: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void): void {
  if (body.trim() === '') return done(null, undefined); // DELETE and friends without a body
  try {
    done(null, JSON.parse(body));
  } catch {
    request.emulator.invalidJson = true;
    done(null, undefined);
  }
}

/**
 * Builds the emulator as a fastify app, without listening (tests may `inject`).
 * Ajv is set on purpose: no type coercion, no defaults, nothing removed, so a body reaches
 * the handlers as it was sent and every failure carries the interface's code.
 */
export async function buildEmulator(opts: BuildEmulatorOptions = {}): Promise<EmulatorApp> {
  // Every option is checked before the data file is locked.
  const seed = resolveSeed(opts.seed);
  const lifetime = positiveWhole(opts.tokenLifetimeSeconds ?? 3600, 'tokenLifetimeSeconds');
  const reportsPerAccount = positiveWhole(opts.reportsPerAccount ?? REPORTS_PER_ACCOUNT_LIMIT, 'reportsPerAccount');
  const requestLogLimit = positiveWhole(opts.requestLogLimit ?? REQUEST_LOG_LIMIT, 'requestLogLimit');
  const settings = startSettings(opts);
  const store = await Store.open(seed, opts.dataFile);
  try {
    const core = new EmulatorCore(
      store,
      opts.controlToken ?? randomBytes(18).toString('base64url'),
      lifetime,
      settings,
      reportsPerAccount,
      requestLogLimit,
    );
    return await assemble(core, opts);
  } catch (err) {
    await store.release();
    throw err;
  }
}

async function assemble(core: EmulatorCore, opts: BuildEmulatorOptions): Promise<EmulatorApp> {
  const app = Fastify({
    logger: opts.logger ?? false,
    // A subdomain prefix may be up to 253 characters (a whole host name); fastify's default of
    // 100 answered longer ones with its own 414 body instead of the interface's NOT_SAVED.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    ajv: { customOptions: { coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: true } },
  });
  app.decorate('emulator', core);

  registerRequestHooks(app, core);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  // Any other body is kept out of reach: handlers see no body and answer with their codes.
  // Exception: a DELETE whose JSON body comes without a content type (how the id travels
  // is not documented, so every plausible form is accepted).
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (request.method === 'DELETE' && request.headers['content-type'] === undefined)
      return parseJson(request, body as string, done);
    done(null, undefined);
  });

  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    const config = request.routeOptions.config as Partial<RouteConfig>;
    const group = config.group ?? 'alerts';
    let error: ApiError;
    if (err instanceof ApiError) {
      error = err;
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      error = new ApiError(BAD_BODY_CODE[group], err.message); // unreadable body, too large, ...
    } else {
      request.log.error({ err }, 'emulator handler failed');
      error = new ApiError('SYSTEM_ERROR', 'internal error');
    }
    const body: Record<string, string> = { status: error.code };
    if (config.updateShape && error.detail) body.error = error.detail;
    return reply.code(ERROR_TABLE[error.code]).send(body);
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ status: 'NOT_FOUND' }));

  for (const schema of SCHEMAS) app.addSchema(schema);
  await app.register(v1_9Routes, { core });
  await app.register(controlRoutes, { core, prefix: '/_emulator' });

  // Every change is on disk before its answer; closing folds the journal into the data file
  // and gives up its lock.
  app.addHook('onClose', async () => core.store.close());

  try {
    await app.ready();
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  return app as unknown as EmulatorApp;
}
