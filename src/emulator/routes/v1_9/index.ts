import type { FastifyInstance } from 'fastify';
import type { EmulatorCore } from '../../core';
import { alertRoutes } from './alerts';
import { authRoutes } from './auth';
import { domainRoutes } from './domains';
import { reportRoutes } from './reports';

/**
 * The routes of API v1.9, registered in the order the service matches them. A v2 adds its own
 * `routes/v2/index.ts` and is registered beside this one in `app.ts`.
 */
export async function v1_9Routes(app: FastifyInstance, { core }: { core: EmulatorCore }): Promise<void> {
  await app.register(authRoutes, { core });
  await app.register(reportRoutes, { core });
  await app.register(alertRoutes, { core });
  await app.register(domainRoutes, { core });
}
