export * from './ownership';
export * from './target';
export * from './lookup';
export {
  NetworkcalcAccount,
  type NetworkcalcAccountProps,
  DEFAULT_TOKEN_ENV,
  DEFAULT_CLIENT_ID_ENV,
  DEFAULT_CLIENT_SECRET_ENV,
} from './account';
export * from './alert-body';
export * from './alert';
export * from './report-trigger';
export { NetworkcalcValidationError } from './validation';
export type { ConstructProblem } from './problems';
