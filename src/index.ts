/**
 * The package root: the constructs, the alert model and the provider's names. The client and
 * the emulator have entry points of their own ('cdktf-provider-networkcalc/client',
 * '…/emulator'); helpers the modules share among themselves stay internal. Every name here
 * is listed in test/package/exports.test.ts, so a change to this surface is deliberate.
 */

// Constructs (docs/constructs.md)
export {
  NetworkcalcAccount,
  Ownership,
  AlertTarget,
  ReportTarget,
  DomainLookup,
  SubdomainLookup,
  Domain,
  Subdomain,
  Alert,
  ReportTrigger,
  AlertPolicy,
  PolicyMode,
} from './constructs';
export { NetworkcalcValidationError } from './constructs/validation';
export type {
  NetworkcalcAccountProps,
  DomainProps,
  SubdomainProps,
  IDeclaredTarget,
  AccountOptions,
  IAlert,
  AlertProps,
  AlertBaseProps,
  AlertCheckSpec,
  DnsRecordAlertSpec,
  SpfRecordAlertSpec,
  CertificateAlertSpec,
  DnsRecordType,
  ComparisonFilter,
  DnsRecordCheck,
  SpfRecordCheck,
  SpfValidityCheck,
  SpfComparisonCheck,
  CertificateCheck,
  CertificateSubjectCheck,
  CertificateExpiryCheck,
  ReportTriggerProps,
  AlertPolicyProps,
  AlertPolicyTargets,
  PolicyCheck,
  PolicyCertificateCheck,
} from './constructs';
export type { ConstructProblem } from './contract/problems';
export type { AlertBody } from './constructs/alert-body';

// The alert model (docs/model.md)
export {
  ALERT_TYPES,
  DNS_RECORD_SUBTYPES,
  COMPARISON_FILTERS,
  SPF_FILTERS,
  CERTIFICATE_FILTERS,
  TARGET_TYPES,
  AlertValidationError,
  validateAlert,
  canonicalizeAlert,
  parseAlert,
  toAlertSpec,
  readLiveAlert,
  diffAlert,
  requestBody,
} from './model';
export type {
  AlertType,
  DnsRecordSubtype,
  AlertFilter,
  DnsRecordFilter,
  SpfRecordFilter,
  CertificateFilter,
  TargetType,
  AlertSpec,
  CanonicalAlert,
  AlertServerFields,
  TargetDetails,
  LiveAlert,
  Problem,
  ParseResult,
  FieldChange,
} from './model';

// The provider's names and the environment it reads (docs/terraform.md)
export { PROVIDER_SOURCE, PROVIDER_VERSION, PROVIDER_VERSION_CONSTRAINT } from './schema';
export { OWNERSHIP_MODES, DEFAULT_BASE_URL, ENV } from './accounts';
export type { OwnershipMode } from './accounts';
