/**
 * Props a JavaScript caller (or a cast) can pass that the types forbid: each is a
 * NetworkcalcValidationError naming the construct, the prop and what is allowed, never a
 * TypeError from deep inside cdktf.
 */
import { TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership, ReportTrigger } from '../../src/constructs';
import type { ConstructProblem } from '../../src/contract/problems';
import { NetworkcalcValidationError } from '../../src/constructs/validation';
import { tempApp } from './support';

const loose = (v: unknown) => v as never;

/** The problems `app.synth()` throws with; fails the test on any other error. */
function problemsOf(build: (stack: TerraformStack) => void): ConstructProblem[] {
  const { app } = tempApp();
  build(new TerraformStack(app, 'main'));
  try {
    app.synth();
  } catch (e) {
    if (e instanceof NetworkcalcValidationError) return [...e.problems];
    throw e;
  }
  return [];
}

const withAccount = (build: (stack: TerraformStack) => void) =>
  problemsOf((s) => {
    new NetworkcalcAccount(s, 'Account');
    build(s);
  });

describe('hostile props are problems, not TypeErrors', () => {
  test.each([
    ['null', null, 'got null'],
    ['a string', 'x', 'got a string "x"'],
    ['an array', [], 'got an empty array'],
  ])('Alert props that are %s', (_what, props, got) => {
    expect(withAccount((s) => new Alert(s, 'X', loose(props)))).toEqual([
      {
        path: 'main/X',
        field: 'props',
        value: props,
        allowed: null,
        message: `props must be an object (name, target and one of dnsRecord, spfRecord, certificate); ${got}`,
      },
    ]);
  });

  test('ReportTrigger props that are not an object', () => {
    expect(withAccount((s) => new ReportTrigger(s, 'R', loose('example.com')))[0]).toMatchObject({
      path: 'main/R',
      field: 'props',
      message: 'props must be an object (target, and optionally triggers and account); got a string "example.com"',
    });
  });

  test('a target that is not an AlertTarget', () => {
    expect(
      withAccount(
        (s) => new Alert(s, 'X', loose({ name: 'x', target: 'example.com', spfRecord: { filter: 'validity' } })),
      ),
    ).toEqual([
      expect.objectContaining({
        field: 'target',
        value: 'example.com',
        message: expect.stringMatching(
          /^target is not an AlertTarget \(got a string "example.com"\); give AlertTarget.domain/,
        ),
      }),
    ]);
  });

  test('an account that is not a NetworkcalcAccount', () => {
    expect(
      withAccount(
        (s) =>
          new Alert(
            s,
            'X',
            loose({ name: 'x', account: 'prod', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } }),
          ),
      ),
    ).toEqual([
      expect.objectContaining({
        field: 'account',
        message: expect.stringMatching(/^account "prod" is not a NetworkcalcAccount/),
      }),
    ]);
  });

  test('an ownership that is not an Ownership, and a null prefix', () => {
    expect(problemsOf((s) => new NetworkcalcAccount(s, 'A', loose({ ownership: 'prefix' })))).toEqual([
      expect.objectContaining({
        path: 'main/A',
        field: 'ownership',
        value: 'prefix',
        message: expect.stringContaining(
          "give Ownership.exclusive(), Ownership.prefix('team-a-') or Ownership.additive()",
        ),
      }),
    ]);
    expect(
      problemsOf((s) => new NetworkcalcAccount(s, 'A', { ownership: Ownership.prefix(loose(null)) })).map(
        (p) => p.message,
      ),
    ).toEqual(['ownership "prefix" needs a non-empty prefix']);
  });

  test('null values in the check and the name reach validation, not the L1 renderer', () => {
    const problems = withAccount(
      (s) =>
        new Alert(
          s,
          'X',
          loose({
            name: null,
            target: AlertTarget.domainId(1),
            dnsRecord: { record: null, filter: null, value: null },
          }),
        ),
    );
    expect(problems.map((p) => p.field)).toEqual(['name', 'dnsRecord.record', 'dnsRecord.filter']);
  });

  test('the credential variable props are never echoed, even as data', () => {
    const problems = problemsOf((s) => new NetworkcalcAccount(s, 'A', { tokenEnv: 'sekret-token-value' }));
    expect(problems).toEqual([expect.objectContaining({ field: 'tokenEnv', value: null })]);
    expect(JSON.stringify(problems)).not.toContain('sekret');
  });

  test('the error shows the list, and no JavaScript stack', () => {
    const { app } = tempApp();
    const s = new TerraformStack(app, 'main');
    new NetworkcalcAccount(s, 'Account');
    new Alert(s, 'Days', {
      name: 'd',
      target: AlertTarget.domainId(1),
      certificate: { expiresInDays: loose('99999999999999999') },
    });
    let error: Error | undefined;
    try {
      app.synth();
    } catch (e) {
      error = e as Error;
    }
    expect(error?.name).toBe('NetworkcalcValidationError');
    expect(error?.stack).toBe(`NetworkcalcValidationError: ${error?.message}`);
    expect(error?.message).toBe(
      'Validation failed with the following errors:\n' +
        '  [main/Days] filter_value "99999999999999999" is too large for filter "expires in (days)"; give a whole number of days from 1 to 3650 (ten years) (from certificate.expiresInDays)\n\n' +
        'Nothing was written. Fix the errors above and synthesize again.',
    );
    // Not enumerable: Node prints own enumerable properties of an uncaught error after it.
    expect(Object.keys(error!)).toEqual([]);
  });
});
