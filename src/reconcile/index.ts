export * from './types';
export * from './desired';
export * from './accounts';
export * from './plan';
export * from './synth';
export * from './engine';
export * from './render';
export * from './export';
