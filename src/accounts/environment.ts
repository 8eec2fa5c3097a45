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
