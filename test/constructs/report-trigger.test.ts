import { Testing, TerraformOutput, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, ReportTarget, ReportTrigger } from '../../src/constructs';
import { ReportTriggerL1, parse, synthError, synthWithAccount, tempApp } from './support';

function triggersOf(json: string): Record<string, any>[] {
  return Object.values(parse(json).resource?.networkcalc_report_trigger ?? {}).map((r: any) => {
    const { ['//']: _meta, ...rest } = r;
    return rest;
  });
}

describe('ReportTrigger', () => {
  test('GIVEN a domain id THEN domain_id is set and the report re-runs when the alerts of the domain change', () => {
    const json = synthWithAccount((stack) => {
      new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1) });
    });
    expect(triggersOf(json)).toEqual([{ domain_id: 1, triggers: { alerts: expect.stringMatching(/^[0-9a-f]{32}$/) } }]);
  });

  const www = (value: string, target = AlertTarget.domain('example.com')) => ({
    name: 'www',
    target,
    dnsRecord: { record: 'A' as const, filter: 'equals' as const, value },
  });
  const digest = (build: (stack: TerraformStack) => void) =>
    triggersOf(synthWithAccount(build)).map((t) => t.triggers.alerts as string)[0]!;

  test('the default digest is stable across syntheses, follows the alerts of its target only, and sees alerts declared after it', () => {
    const report = (stack: TerraformStack) =>
      new ReportTrigger(stack, 'Report', { target: ReportTarget.domain('Example.com.') });
    const base = digest((stack) => {
      report(stack);
      new Alert(stack, 'Www', www('192.0.2.1'));
    });
    expect(
      digest((stack) => {
        report(stack);
        new Alert(stack, 'Www', www('192.0.2.1'));
      }),
    ).toBe(base);
    // Another target's alert: no new report.
    expect(
      digest((stack) => {
        report(stack);
        new Alert(stack, 'Www', www('192.0.2.1'));
        new Alert(stack, 'Other', { ...www('192.0.2.9', AlertTarget.domain('example.org')), name: 'other' });
      }),
    ).toBe(base);
    // A changed alert of the target: a new report.
    expect(
      digest((stack) => {
        report(stack);
        new Alert(stack, 'Www', www('192.0.2.2'));
      }),
    ).not.toBe(base);
    expect(digest((stack) => report(stack))).not.toBe(base);
  });

  test('depends_on: the alerts of its target in its account, whether declared before or after it, with or without their L1; no others', () => {
    const json = parse(
      synthWithAccount((stack) => {
        new Alert(stack, 'Before', { ...www('192.0.2.1'), name: 'before' });
        new ReportTrigger(stack, 'Report', { target: ReportTarget.domain('example.com') });
        const withL1 = new Alert(stack, 'WithL1', { ...www('192.0.2.2'), name: 'with l1' });
        expect(withL1.node.defaultChild).toBeDefined(); // its L1 writes it from now on
        new Alert(stack, 'After', { ...www('192.0.2.3'), name: 'after' });
        new Alert(stack, 'Other', { ...www('192.0.2.9', AlertTarget.domain('example.org')), name: 'other' });
        const staging = new NetworkcalcAccount(stack, 'Staging', { alias: 'staging' });
        new Alert(stack, 'StagingWww', { ...www('192.0.2.1'), name: 'staging www', account: staging });
      }),
    );
    const alerts = json.resource.networkcalc_alert as Record<string, { name: string }>;
    const address = (name: string) =>
      `networkcalc_alert.${Object.entries(alerts).find(([, a]) => a.name === name)![0]}`;
    const [trigger] = Object.values(json.resource.networkcalc_report_trigger) as Array<{ depends_on: string[] }>;
    expect(trigger!.depends_on).toEqual([address('before'), address('with l1'), address('after')]);
  });

  test('everyApply: a new report on every apply; with triggers it is refused', () => {
    const json = synthWithAccount((stack) => {
      new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1), everyApply: true });
    });
    expect(triggersOf(json)).toEqual([{ domain_id: 1, triggers: { always: '${timestamp()}' } }]);
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1), everyApply: true, triggers: { a: 'b' } });
    expect(synthError(app)).toContain('[stack/Report] everyApply and triggers cannot both be given');
  });

  test('GIVEN a subdomain id THEN subdomain_id is set', () => {
    const json = synthWithAccount((stack) => {
      new ReportTrigger(stack, 'Report', { target: ReportTarget.subdomainId(2) });
    });
    expect(json).toHaveResourceWithProperties(ReportTriggerL1, { subdomain_id: 2 });
    expect(triggersOf(json)[0].domain_id).toBeUndefined();
  });

  test("GIVEN names THEN the account's lookups are reused", () => {
    const json = synthWithAccount((stack, account) => {
      account.lookupDomain('example.com');
      new ReportTrigger(stack, 'Apex', { target: ReportTarget.domain('example.com') });
      new ReportTrigger(stack, 'Www', { target: ReportTarget.subdomain('www.example.com') });
    });
    const data = parse(json).data;
    const [domain] = Object.keys(data.networkcalc_domain);
    const [sub] = Object.keys(data.networkcalc_subdomain);
    expect(Object.keys(data.networkcalc_domain)).toHaveLength(1);
    expect(triggersOf(json)).toEqual(
      expect.arrayContaining([
        { domain_id: `\${data.networkcalc_domain.${domain}.id}`, triggers: { alerts: expect.any(String) } },
        { subdomain_id: `\${data.networkcalc_subdomain.${sub}.id}`, triggers: { alerts: expect.any(String) } },
      ]),
    );
  });

  test('GIVEN triggers THEN a report runs only when they change', () => {
    const json = synthWithAccount((stack) => {
      new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1), triggers: { release: '2024-06' } });
    });
    expect(json).toHaveResourceWithProperties(ReportTriggerL1, { triggers: { release: '2024-06' } });
  });

  test('reportUrl references the resource; aliased accounts bind the provider', () => {
    const json = Testing.synthScope((stack) => {
      new NetworkcalcAccount(stack, 'Account', { alias: 'prod' });
      const report = new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1) });
      new TerraformOutput(stack, 'Url', { value: report.reportUrl });
    });
    const [id] = Object.keys(parse(json).resource.networkcalc_report_trigger);
    expect(parse(json).output.Url.value).toBe(`\${networkcalc_report_trigger.${id}.report_url}`);
    expect(json).toHaveResourceWithProperties(ReportTriggerL1, { provider: 'networkcalc.prod' });
  });

  test('the L1 resource is the default child, id Resource', () => {
    const stack = new TerraformStack(Testing.app(), 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const report = new ReportTrigger(stack, 'Report', { target: ReportTarget.domainId(1) });
    expect(report.node.defaultChild).toBeInstanceOf(ReportTriggerL1);
    expect(report.node.defaultChild?.node.id).toBe('Resource');
  });

  test.each([
    [
      ReportTarget.domainId(0),
      '[stack/Report] domain_id 0 is not valid; give the positive whole-number id of the domain (from target)',
    ],
    [
      ReportTarget.subdomainId(1.5),
      '[stack/Report] subdomain_id 1.5 is not valid; give the positive whole-number id of the subdomain (from target)',
    ],
  ])('an invalid id is rejected at synth: %s', (target, expected) => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    new ReportTrigger(stack, 'Report', { target });
    expect(synthError(app)).toContain(expected);
  });

  test('no account: a clear error', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new ReportTrigger(stack, 'Report', { target: ReportTarget.domain('example.com') });
    expect(synthError(app)).toContain('[stack/Report] no NetworkcalcAccount in stack stack');
  });
});
