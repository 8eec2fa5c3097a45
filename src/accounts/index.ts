/** The account rules every front door applies: credentials, base URL, ownership, environment variables. */
export * from './base-url';
export * from './environment';
export * from './account-rules';
