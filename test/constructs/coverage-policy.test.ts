/** AlertPolicy: what it writes into cdk.tf.json for ncalc, and what it refuses at synth. */
import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership } from '../../src/constructs';
import { AlertPolicy, PolicyMode, type AlertPolicyProps } from '../../src/constructs/alert-policy';
import { synthError, tempApp } from './support';

/** Synthesizes a real app (as `cdktf synth` does) and returns the stack's JSON. */
function synthStack(fn: (stack: TerraformStack) => void): any {
  const { app, outdir } = tempApp();
  const stack = new TerraformStack(app, 'main');
  fn(stack);
  app.synth();
  return JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'main', 'cdk.tf.json'), 'utf8'));
}

/** The problems `app.synth()` reports for a stack, one per line, without the frame. */
function problems(fn: (stack: TerraformStack) => void): string[] {
  const { app } = tempApp();
  fn(new TerraformStack(app, 'main'));
  return synthError(app)
    .split('\n')
    .filter((l) => l.startsWith('  ['))
    .map((l) => l.trim());
}

const baseline: AlertPolicyProps = {
  mode: PolicyMode.GENERATE,
  checks: [{ certificate: { expiresInDays: 21 } }, { spfRecord: { filter: 'validity' } }],
};

describe('AlertPolicy: the JSON ncalc reads', () => {
  test("GIVEN a generate policy with defaults THEN the stack's // object holds it, with wire names and default labels", () => {
    const json = synthStack((stack) => {
      new NetworkcalcAccount(stack, 'Account');
      new AlertPolicy(stack, 'Baseline', baseline);
    });
    expect(json['//'].networkcalc_alert_policies).toEqual({
      Baseline_013357C7: {
        path: 'main/Baseline',
        mode: PolicyMode.GENERATE,
        targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
        checks: [
          { label: 'certificate expiry', type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' },
          { label: 'SPF validity', type: 'SPF Record', filter: 'validity' },
        ],
      },
    });
    // Nothing for Terraform: no resource, no data source.
    expect(json.resource).toBeUndefined();
    expect(json.data).toBeUndefined();
  });

  test('labels, patterns in canonical form, the provider of an aliased account, the ownership prefix before default labels', () => {
    const json = synthStack((stack) => {
      const account = new NetworkcalcAccount(stack, 'Team', { alias: 'team', ownership: Ownership.prefix('team-a-') });
      new AlertPolicy(stack, 'Mx', {
        account,
        mode: PolicyMode.GENERATE,
        checks: [
          { label: 'team-a-mail', dnsRecord: { record: 'MX', filter: 'contains', value: 'mx.example.com' } },
          { spfRecord: { filter: 'validity' } },
        ],
        targets: { subdomains: false, include: ['*.Example.COM', 'example.com.'], exclude: ['legacy.*'] },
      });
      new AlertPolicy(stack, 'Audit', {
        account,
        mode: PolicyMode.REQUIRE,
        checks: [{ certificate: { subject: 'CN=example.com' } }],
      });
    });
    const policies = (Object.values(json['//'].networkcalc_alert_policies) as any[]).sort((a, b) =>
      a.path > b.path ? -1 : 1,
    );
    expect(policies).toEqual([
      {
        path: 'main/Mx',
        provider: 'networkcalc.team',
        mode: PolicyMode.GENERATE,
        targets: { domains: true, subdomains: false, include: ['*.example.com', 'example.com'], exclude: ['legacy.*'] },
        checks: [
          {
            label: 'team-a-mail',
            type: 'DNS Record',
            subtype: 'MX',
            filter: 'contains',
            filter_value: 'mx.example.com',
          },
          { label: 'team-a-SPF validity', type: 'SPF Record', filter: 'validity' },
        ],
      },
      // A require policy names no alert: its labels are only columns.
      {
        path: 'main/Audit',
        provider: 'networkcalc.team',
        mode: PolicyMode.REQUIRE,
        targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
        checks: [
          {
            label: 'certificate subject',
            type: 'Certificate (TLS)',
            filter: 'subject',
            filter_value: 'CN=example.com',
          },
        ],
      },
    ]);
  });

  test('members: mode, labels, account', () => {
    synthStack((stack) => {
      const account = new NetworkcalcAccount(stack, 'Account');
      const policy = new AlertPolicy(stack, 'Baseline', baseline);
      expect(policy.mode).toBe('generate');
      expect(policy.labels).toEqual(['certificate expiry', 'SPF validity']);
      expect(policy.account).toBe(account);
      expect(AlertPolicy.isAlertPolicy(policy)).toBe(true);
      expect(AlertPolicy.isAlertPolicy(account)).toBe(false);
    });
  });
});

describe('AlertPolicy: validation at synth, every problem at once', () => {
  test('invalid checks name the prop, the value and what is allowed', () => {
    expect(
      problems((stack) => {
        new NetworkcalcAccount(stack, 'Account');
        new AlertPolicy(stack, 'Bad', {
          mode: PolicyMode.GENERATE,
          checks: [
            { certificate: { expiresInDays: 0 } },
            { dnsRecord: { record: 'SRV' as never, filter: 'contains', value: 'x' } },
            { spfRecord: { filter: 'validity' }, certificate: { expiresInDays: 3 } } as never,
            { label: ' ', spfRecord: { filter: 'validity' } },
          ],
        });
      }),
    ).toEqual([
      '[main/Bad] filter_value "0" is not valid for filter "expires in (days)"; give a positive whole number of days (from checks[0].certificate.expiresInDays)',
      '[main/Bad] subtype "SRV" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT (from checks[1].dnsRecord.record)',
      '[main/Bad] checks[2]: spfRecord and certificate are given together; set exactly one of dnsRecord, spfRecord, certificate',
      `[main/Bad] label " " is not valid; give the check a non-empty label, the first part of its alerts' names (from checks[3].label)`,
    ]);
  });

  test('a policy that selects nothing, bad patterns, no mode, no checks', () => {
    expect(
      problems((stack) => {
        new NetworkcalcAccount(stack, 'Account');
        new AlertPolicy(stack, 'Empty', { checks: [] } as never);
        new AlertPolicy(stack, 'Nothing', {
          mode: PolicyMode.REQUIRE,
          checks: [{ spfRecord: { filter: 'validity' } }],
          targets: { domains: false, subdomains: false, include: ['https://example.com'] },
        });
      }),
    ).toEqual([
      `[main/Empty] mode is missing; give PolicyMode.GENERATE (ncalc creates the alerts) or PolicyMode.REQUIRE (ncalc reports targets without them)`,
      `[main/Empty] checks must be a non-empty array of checks such as { certificate: { expiresInDays: 21 } } or { spfRecord: { filter: 'validity' } }; got an empty array`,
      '[main/Nothing] targets.include[0] "https://example.com" is not a valid pattern; use letters, digits, hyphens, dots and *, e.g. "*.example.com" or "example.*"',
      '[main/Nothing] targets.domains and targets.subdomains are both false, so the policy covers nothing; leave one of them out',
    ]);
  });

  test('two checks with one label or of the same thing', () => {
    expect(
      problems((stack) => {
        new NetworkcalcAccount(stack, 'Account');
        new AlertPolicy(stack, 'Twice', {
          mode: PolicyMode.GENERATE,
          checks: [
            { certificate: { expiresInDays: 21 } },
            { certificate: { expiresInDays: 30 } },
            { label: 'spf', spfRecord: { filter: 'validity' } },
            { label: 'spf again', spfRecord: { filter: 'validity' } },
          ],
        });
      }),
    ).toEqual([
      '[main/Twice] checks[0] and checks[1] are both labelled "certificate expiry"; give each check its own label',
      '[main/Twice] checks[2] and checks[3] check the same thing; remove one',
    ]);
  });

  test('generated names that collide with declared alerts, and labels shared by two generate policies of the account', () => {
    expect(
      problems((stack) => {
        new NetworkcalcAccount(stack, 'Account');
        new AlertPolicy(stack, 'Baseline', { ...baseline, targets: { exclude: ['legacy.example.com'] } });
        new AlertPolicy(stack, 'Again', { mode: PolicyMode.GENERATE, checks: [{ spfRecord: { filter: 'validity' } }] });
        new AlertPolicy(stack, 'Audit', { mode: PolicyMode.REQUIRE, checks: [{ spfRecord: { filter: 'validity' } }] });
        new Alert(stack, 'Www', {
          name: 'SPF validity · www.example.com',
          target: AlertTarget.subdomain('www.example.com'),
          spfRecord: { filter: 'validity' },
        });
        // Excluded from the policy, so not a name it generates.
        new Alert(stack, 'Legacy', {
          name: 'SPF validity · legacy.example.com',
          target: AlertTarget.domainId(9),
          spfRecord: { filter: 'validity' },
        });
      }),
    ).toEqual([
      '[main/Baseline] alert main/Www is named "SPF validity · www.example.com", the name policy main/Baseline gives its "SPF validity" alert for www.example.com; ' +
        'rename the alert (an explicit alert for the same target and check wins over the generated one under any name), or exclude www.example.com from the policy',
      '[main/Again] policies main/Baseline and main/Again both generate alerts labelled "SPF validity", so their names would collide; give the checks of one of them other labels',
    ]);
  });

  test('a policy needs an account, like an alert; props that are not an object are one problem', () => {
    expect(
      problems((stack) => {
        new AlertPolicy(stack, 'Orphan', baseline);
        new AlertPolicy(stack, 'Null', null as never);
      }),
    ).toEqual([
      "[main/Orphan] no NetworkcalcAccount in stack main; declare one before the alerts and report triggers of the stack (new NetworkcalcAccount(stack, 'Account')) or pass `account`",
      '[main/Null] props must be an object (mode, checks and optionally targets, account); got null',
    ]);
  });
});
