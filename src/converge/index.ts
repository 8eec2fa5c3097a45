export { AccountAlerts, type AccountAlertsOptions, type Listing } from './account-alerts';
export { createAlertOnce, type CreateOptions, type CreateOutcome, type CreatingApi } from './create-alert';
export { takeMatching } from './resolve';
