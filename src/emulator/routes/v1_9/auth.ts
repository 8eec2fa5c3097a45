import type { FastifyInstance } from 'fastify';
import type { EmulatorCore } from '../../core';
import { ApiError } from '../../errors';
import { randomToken, type Change, type StoredAccount, type StoredToken } from '../../state';
import { responses, routeDefaults } from '../shared';
import { isObject } from '../../../support/json';

/** Tokens an account keeps; issuing one more forgets the oldest. */
const TOKENS_PER_ACCOUNT = 1000;

/** The Authorization API: client credentials for a bearer token. */
export async function authRoutes(app: FastifyInstance, { core }: { core: EmulatorCore }): Promise<void> {
  const store = core.store;
  routeDefaults(app, { group: 'auth' });

  app.post('/api/auth/token', {
    schema: {
      response: responses({
        type: 'object',
        properties: {
          status: { type: 'string' },
          token: {
            type: 'object',
            properties: {
              access_token: { type: 'string' },
              token_type: { type: 'string' },
              expires_in: { type: 'number' },
            },
          },
        },
      }),
    },
    handler: async (request) => {
      const body = isObject(request.body) ? request.body : {};
      const { client_id: clientId, client_secret: secret, grant_type: grant } = body;
      if (typeof clientId !== 'string' || clientId === '' || typeof secret !== 'string' || secret === '') {
        throw new ApiError('MISSING_CREDENTIALS');
      }
      if (grant !== 'client_credentials') throw new ApiError('INVALID_GRANT_TYPE');
      let found: { account: StoredAccount; revoked: boolean; secret: string } | undefined;
      for (const account of store.state.accounts) {
        const c = account.credentials.find((x) => x.client_id === clientId);
        if (c) found = { account, revoked: c.revoked, secret: c.client_secret };
      }
      if (!found) throw new ApiError('CREDENTIALS_NOT_FOUND');
      if (found.secret !== secret) throw new ApiError('INVALID_CREDENTIALS');
      if (found.revoked) throw new ApiError('REVOKED_CREDENTIALS');
      const now = Date.now();
      const lifetime = core.tokenLifetimeSeconds;
      const token: StoredToken = {
        access_token: randomToken(),
        expires_at: new Date(now + lifetime * 1000).toISOString(),
      };
      // Expired tokens answer like unknown ones, so dropping them changes nothing visible.
      const live = found.account.tokens.filter((t) => t.expires_at === null || Date.parse(t.expires_at) > now);
      const kept = new Set(live.slice(-(TOKENS_PER_ACCOUNT - 1)));
      const gone = found.account.tokens.filter((t) => !kept.has(t)).map((t) => t.access_token);
      const account = found.account.name;
      const changes: Change[] = [{ op: 'put', account, list: 'tokens', item: token }];
      if (gone.length) changes.unshift({ op: 'remove', account, list: 'tokens', keys: gone });
      await store.commit(changes);
      core.retireTokens(gone, account);
      return { status: 'OK', token: { access_token: token.access_token, token_type: 'bearer', expires_in: lifetime } };
    },
  });
}
