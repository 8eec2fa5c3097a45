export * from './matrix';
export * from './alert';
export * from './fields';
export * from './problems';
export * from './validate';
export * from './canonical';
export * from './diff';
export * from './hostname';
