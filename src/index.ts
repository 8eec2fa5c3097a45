export * from './model';
export * from './schema';
export * from './constructs';
