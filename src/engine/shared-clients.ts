import type { AlertsApi, ClientFactory } from '../plan/types';

/**
 * A client factory that makes one client per set of credentials, so that planning and
 * applying one account share it (and its token) although the plan holds no client.
 */
export function sharedClients(factory: ClientFactory): ClientFactory {
  const clients = new WeakMap<object, AlertsApi>();
  return (credentials) => {
    let api = clients.get(credentials);
    if (!api) clients.set(credentials, (api = factory(credentials)));
    return api;
  };
}
