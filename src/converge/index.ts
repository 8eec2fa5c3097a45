export {
  AccountAlerts,
  MAX_WINDOW_MS,
  type AccountAlertsOptions,
  type CreateInProgress,
  type Listing,
} from './account-alerts';
export {
  MAX_CREATE_SENDS,
  createAlertOnce,
  type CreateOptions,
  type CreateOutcome,
  type CreatingApi,
} from './create-alert';
export { alertNameKey, sameAlertName, takeMatching } from './resolve';
