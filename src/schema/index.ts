export * from './types';
export * from './provider-schema';
export * from './json';
