import { TerraformStack } from 'cdktf';
import {
  Alert,
  AlertPolicy,
  AlertTarget,
  NetworkcalcAccount,
  PolicyMode,
  ReportTarget,
  ReportTrigger,
  type AlertProps,
} from '../../src/constructs';
import { closestWord } from '../../src/support/unknown-keys';
import { synthError, tempApp } from './support';

/** The message the synth of one stack fails with, after `fn` declared its constructs. */
function errorOf(fn: (stack: TerraformStack) => void, accountProps?: Record<string, unknown>): string {
  const { app } = tempApp();
  const stack = new TerraformStack(app, 'stack');
  new NetworkcalcAccount(stack, 'Account', accountProps);
  fn(stack);
  return synthError(app);
}

const alert = (props: Record<string, unknown>) => (stack: TerraformStack) =>
  new Alert(stack, 'Bad', { name: 'bad', target: AlertTarget.domainId(1), ...props } as unknown as AlertProps);

const lines = (message: string) => message.split('\n').filter((l) => l.startsWith('  ['));

describe('a mistyped prop is named, with the prop meant', () => {
  test('Alert: the mistyped check alone, not the problems it causes', () => {
    const message = errorOf(alert({ dnsRecrod: { record: 'MX', filter: 'contains', value: 'mx.example.com' } }));
    expect(lines(message)).toEqual(['  [stack/Bad] unknown property `dnsRecrod` (did you mean `dnsRecord`?)']);
  });

  test('Alert: a mistyped prop of a check is named by its path', () => {
    expect(lines(errorOf(alert({ dnsRecord: { recrod: 'MX', filter: 'contains', value: 'x' } })))).toEqual([
      '  [stack/Bad] unknown property `dnsRecord.recrod` (did you mean `dnsRecord.record`?)',
    ]);
    expect(lines(errorOf(alert({ spfRecord: { filter: 'validity', vaule: 'x' } })))).toEqual([
      '  [stack/Bad] unknown property `spfRecord.vaule` (did you mean `spfRecord.value`?)',
    ]);
    expect(lines(errorOf(alert({ certificate: { expiresInDay: 21 } })))).toEqual([
      '  [stack/Bad] unknown property `certificate.expiresInDay` (did you mean `certificate.expiresInDays`?)',
    ]);
  });

  test('Alert: a prop nothing is close to lists the props there are', () => {
    expect(lines(errorOf(alert({ spfRecord: { filter: 'validity' }, colour: 'red' })))).toEqual([
      '  [stack/Bad] unknown property `colour`; the properties are name, target, dnsRecord, spfRecord, certificate, account',
    ]);
  });

  test("Alert: a policy's renewal option says where it belongs", () => {
    expect(lines(errorOf(alert({ certificate: { expiresBeforeRenewalFails: true } })))).toEqual([
      '  [stack/Bad] certificate.expiresBeforeRenewalFails is a check of an AlertPolicy, not of an Alert; give certificate.expiresInDays here, or declare an AlertPolicy with checks: [{ certificate: { expiresBeforeRenewalFails: true } }] and targets: { include: [<host>] } for days ncalc chooses when it plans',
    ]);
  });

  test('Alert: an L3 passing props of its own is not refused for them', () => {
    class Watched extends Alert {
      constructor(scope: TerraformStack, id: string, props: AlertProps & { readonly owner: string }) {
        super(scope, id, props);
      }
    }
    expect(
      errorOf((stack) => {
        new Watched(stack, 'L3', {
          name: 'l3',
          target: AlertTarget.domainId(1),
          spfRecord: { filter: 'validity' },
          owner: 'ops',
        });
      }),
    ).toBe('');
    // Its checks are still ours.
    expect(
      lines(
        errorOf((stack) => {
          const props = {
            name: 'l3',
            target: AlertTarget.domainId(1),
            spfRecord: { filtre: 'validity' },
            owner: 'ops',
          };
          new Watched(stack, 'L3', props as unknown as AlertProps & { owner: string });
        }),
      ),
    ).toEqual(['  [stack/L3] unknown property `spfRecord.filtre` (did you mean `spfRecord.filter`?)']);
  });

  test('AlertPolicy: its props and each check (its targets as the policy reader says)', () => {
    const message = errorOf((stack) => {
      new AlertPolicy(stack, 'Policy', {
        mode: PolicyMode.GENERATE,
        checks: [
          { certificate: { expiresBeforeRenewalFails: true } },
          { lable: 'x', spfRecord: { filter: 'validity' } },
        ],
        targets: { exlude: ['legacy.*'] },
        mdoe: 'generate',
      } as never);
    });
    expect(lines(message)).toEqual([
      '  [stack/Policy] unknown property `mdoe` (did you mean `mode`?)',
      '  [stack/Policy] unknown attribute "exlude"; allowed: domains, exclude, include, subdomains',
      '  [stack/Policy] unknown property `checks[1].lable` (did you mean `checks[1].label`?)',
    ]);
  });

  test("AlertPolicy: a check's expiresBeforeRenewalFails is its own prop, true or false", () => {
    expect(
      errorOf((stack) => {
        new AlertPolicy(stack, 'Policy', {
          mode: PolicyMode.GENERATE,
          checks: [
            { certificate: { expiresBeforeRenewalFails: true } },
            { label: 'cert 21d', certificate: { expiresBeforeRenewalFails: false, expiresInDays: 21 } },
          ],
        });
      }),
    ).toBe('');
  });

  test('NetworkcalcAccount and ReportTrigger', () => {
    const message = errorOf(
      (stack) => {
        new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1), trigers: {} } as never);
      },
      { tokenENV: 'NC_TOKEN' },
    );
    expect(lines(message)).toEqual([
      '  [stack/Account] unknown property `tokenENV` (did you mean `tokenEnv`?)',
      '  [stack/Report] unknown property `trigers` (did you mean `triggers`?)',
    ]);
  });
});

test('closestWord: a swap, a missing or extra letter, case; nothing when a third of the word is off', () => {
  expect(closestWord('dnsRecrod', ['dnsRecord', 'spfRecord'])).toBe('dnsRecord');
  expect(closestWord('certifcate', ['certificate'])).toBe('certificate');
  expect(closestWord('NAME', ['name'])).toBe('name');
  expect(closestWord('colour', ['name', 'target'])).toBeUndefined();
});
