/**
 * The package root's surface is deliberate: constructs, the alert model, the provider's names.
 * Helpers shared inside the package are not part of it; the client and the emulator have
 * entry points of their own.
 */
import * as root from '../../src';
import * as client from '../../src/client';
import * as emulator from '../../src/emulator';

test('the root exports exactly the documented values', () => {
  expect(Object.keys(root).sort()).toEqual(
    [
      // constructs
      'NetworkcalcAccount',
      'Ownership',
      'AlertTarget',
      'ReportTarget',
      'DomainLookup',
      'SubdomainLookup',
      'Domain',
      'Subdomain',
      'Alert',
      'ReportTrigger',
      'NetworkcalcValidationError',
      'AlertPolicy',
      'PolicyMode',
      // model
      'ALERT_TYPES',
      'DNS_RECORD_SUBTYPES',
      'COMPARISON_FILTERS',
      'SPF_FILTERS',
      'CERTIFICATE_FILTERS',
      'TARGET_TYPES',
      'AlertValidationError',
      'validateAlert',
      'canonicalizeAlert',
      'parseAlert',
      'toAlertSpec',
      'readLiveAlert',
      'diffAlert',
      'requestBody',
      // provider names and environment
      'PROVIDER_SOURCE',
      'PROVIDER_VERSION',
      'PROVIDER_VERSION_CONSTRAINT',
      'OWNERSHIP_MODES',
      'DEFAULT_BASE_URL',
      'ENV',
    ].sort(),
  );
});

test('no internal helper leaks through the root; the client and the emulator stay behind their own entry points', () => {
  for (const helper of [
    'alertBody',
    'lookupKey',
    'domainNameProblems',
    'specOf',
    'formatValue',
    'normalizeBaseUrl',
    'redactUrl',
    'terraformSchemaJson',
    'PROVIDER_SCHEMA',
  ]) {
    expect(root).not.toHaveProperty(helper);
  }
  expect(root).not.toHaveProperty('NetworkCalcClient');
  expect(root).not.toHaveProperty('startEmulator');
  expect(typeof client.NetworkCalcClient).toBe('function');
  expect(typeof emulator.startEmulator).toBe('function');
});
