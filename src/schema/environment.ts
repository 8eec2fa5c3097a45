/**
 * The environment variables this package reads, named once for the client, the provider,
 * the constructs and `ncalc`. An account may name other variables (token_env, …); these
 * are the defaults.
 */
export const ENV = {
  baseUrl: 'NETWORKCALC_BASE_URL',
  token: 'NETWORKCALC_TOKEN',
  clientId: 'NETWORKCALC_CLIENT_ID',
  clientSecret: 'NETWORKCALC_CLIENT_SECRET',
} as const;

export const DEFAULT_TOKEN_ENV = ENV.token;
export const DEFAULT_CLIENT_ID_ENV = ENV.clientId;
export const DEFAULT_CLIENT_SECRET_ENV = ENV.clientSecret;
