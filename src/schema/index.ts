export * from './types';
export * from './provider-schema';
export * from './json';
export * from './base-url';
export * from './environment';
export * from './account-rules';
