/**
 * The construct library: what the package root exports for CDK apps, and the entry point
 * jsii compiles for other languages (jsii/README.md), so everything here is jsii-ready:
 * props are interfaces of readonly fields, checks are structs, no name is both static and
 * instance. Helpers the constructs share stay in their modules.
 */
export { NetworkcalcAccount, type NetworkcalcAccountProps } from './account';
export { Ownership } from './ownership';
export { AlertTarget, ReportTarget, type IDeclaredTarget } from './target';
export { Domain, Subdomain, type DomainProps, type SubdomainProps } from './declared-target';
export { DomainLookup, SubdomainLookup } from './lookup';
export { Alert, type AccountOptions, type AlertProps, type IAlert } from './alert';
export {
  type AlertBaseProps,
  type AlertCheckSpec,
  type DnsRecordCheck,
  type SpfRecordCheck,
  type CertificateCheck,
  type DnsRecordType,
  type ComparisonFilter,
  type DnsRecordAlertSpec,
  type SpfRecordAlertSpec,
  type CertificateAlertSpec,
  type SpfValidityCheck,
  type SpfComparisonCheck,
  type CertificateSubjectCheck,
  type CertificateExpiryCheck,
} from './alert-body';
export { ReportTrigger, type ReportTriggerProps } from './report-trigger';
export {
  AlertPolicy,
  PolicyMode,
  type AlertPolicyProps,
  type AlertPolicyTargets,
  type PolicyCheck,
  type PolicyCertificateCheck,
} from './alert-policy';
