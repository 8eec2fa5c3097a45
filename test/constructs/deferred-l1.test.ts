/**
 * An alert's L1 is made only when something reaches for it; until then one element per stack
 * writes the alert. These tests hold that to "the JSON is what the L1 would write": the same
 * app synthesized with every L1 made (the former path) and without gives the same files.
 */
import {
  Aspects,
  type IAspect,
  TerraformOutput,
  TerraformResource,
  TerraformStack,
  TerraformVariable,
  Testing,
  type App,
} from 'cdktf';
import { Construct, type IConstruct } from 'constructs';
import * as fs from 'fs';
import * as path from 'path';
import {
  Alert,
  AlertPolicy,
  AlertTarget,
  NetworkcalcAccount,
  Ownership,
  PolicyMode,
  ReportTarget,
  ReportTrigger,
} from '../../src/constructs';
import { AlertL1, type ReportTriggerL1, listFiles, tempApp } from './support';

/** Every alert of a two-stack app with two accounts, references, overrides and depends_on. */
function representativeApp(app: App): Alert[] {
  const alerts: Alert[] = [];
  const a = new TerraformStack(app, 'alpha');
  const main = new NetworkcalcAccount(a, 'Account');
  const prod = new NetworkcalcAccount(a, 'Prod', {
    alias: 'prod',
    tokenEnv: 'PROD_TOKEN',
    ownership: Ownership.prefix('team-'),
  });
  alerts.push(
    new Alert(a, 'Www', {
      name: 'www cert ${not a template}',
      target: AlertTarget.subdomain('www.example.com'),
      certificate: { expiresInDays: 21 },
      account: main,
    }),
    new Alert(a, 'Mx', {
      name: 'team-mx',
      target: AlertTarget.domain('example.com'),
      dnsRecord: { record: 'MX', filter: 'contains', value: 'mail %{x}' },
      account: prod,
    }),
  );
  const domainId = new TerraformVariable(a, 'domain_id', { type: 'number' });
  alerts.push(
    new Alert(a, 'Spf', {
      name: 'spf',
      target: AlertTarget.domainId(domainId.numberValue),
      spfRecord: { filter: 'validity' },
      account: main,
    }),
  );
  // Nested constructs, and an alert whose own id is `Resource`.
  const inner = new Construct(new Construct(a, 'Group'), 'Inner');
  for (let i = 0; i < 4; i++) {
    alerts.push(
      new Alert(inner, `A${i}`, {
        name: `nested ${i}`,
        target: AlertTarget.domainId(i + 1),
        dnsRecord: { record: 'A', filter: 'equals', value: `192.0.2.${i}` },
        account: main,
      }),
    );
  }
  alerts.push(
    new Alert(inner.node.scope as Construct, 'Resource', {
      name: 'named Resource',
      target: AlertTarget.subdomainId(7),
      certificate: { subject: 'CN=www.example.com' },
      account: main,
    }),
  );
  const report = new ReportTrigger(a, 'Report', { target: ReportTarget.domain('example.com'), account: main });
  // Escape hatches: depends_on from another resource to an alert, an override, an output.
  (report.node.defaultChild as ReportTriggerL1).dependsOn = [(alerts[1]!.node.defaultChild as AlertL1).fqn];
  (alerts[0]!.node.defaultChild as AlertL1).addOverride('lifecycle.prevent_destroy', true);
  new TerraformOutput(a, 'mx_id', { value: alerts[1]!.alertId });
  new AlertPolicy(a, 'Policy', {
    account: main,
    mode: PolicyMode.GENERATE,
    targets: { domains: true },
    checks: [{ spfRecord: { filter: 'validity' } }],
  });

  const b = new TerraformStack(app, 'beta');
  new NetworkcalcAccount(b, 'Account', { alias: 'b' });
  for (let i = 0; i < 3; i++) {
    alerts.push(
      new Alert(b, `B${i}`, {
        name: `b ${i}`,
        target: AlertTarget.subdomain(`h${i}.example.org`),
        spfRecord: { filter: 'contains', value: 'include:_spf.example.org' },
      }),
    );
  }
  // A reference across stacks (cdktf adds an output and a remote state for it).
  new TerraformOutput(b, 'spf_id', { value: alerts[2]!.alertId });
  return alerts;
}

/** Every file of an output directory, by relative path. */
function readTree(outdir: string): Record<string, string> {
  return Object.fromEntries(listFiles(outdir).map((f) => [f, fs.readFileSync(path.join(outdir, f), 'utf8')]));
}

function stackJson(outdir: string, stack: string): any {
  return JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8'));
}

const hasL1 = (alert: Alert) => alert.node.children.some((c) => c instanceof AlertL1);

describe('alerts without an L1 write what their L1 would', () => {
  test('a representative app writes the same files with every L1 made and with L1s only where reached for', () => {
    const withL1s = tempApp();
    for (const alert of representativeApp(withL1s.app)) expect(alert.node.defaultChild).toBeInstanceOf(AlertL1);
    withL1s.app.synth();

    const deferred = tempApp();
    const alerts = representativeApp(deferred.app);
    deferred.app.synth();
    // Only the alerts the app reached for (override, depends_on, outputs) have an L1.
    expect(alerts.filter(hasL1).map((a) => a.node.path)).toEqual(['alpha/Www', 'alpha/Mx', 'alpha/Spf']);

    const files = readTree(deferred.outdir);
    expect(Object.keys(files).sort()).toEqual(Object.keys(readTree(withL1s.outdir)).sort());
    expect(files).toEqual(readTree(withL1s.outdir));
    // The comparison is not vacuous: every alert is there, each under its own logical id.
    const alpha = stackJson(deferred.outdir, 'alpha').resource.networkcalc_alert;
    expect(Object.keys(alpha)).toHaveLength(8);
    expect(new Set(Object.values(alpha).map((x: any) => x['//'].metadata.uniqueId))).toEqual(
      new Set(Object.keys(alpha)),
    );
    expect(Object.keys(stackJson(deferred.outdir, 'beta').resource.networkcalc_alert)).toHaveLength(3);
  });

  test('an app that writes HCL gives every alert its L1 at once, and writes them all', () => {
    // What `cdktf synth --hcl` sets; cdktf's app and stacks read it when they are created.
    process.env.SYNTH_HCL_OUTPUT = 'true';
    let made: ReturnType<typeof tempApp>;
    let alerts: Alert[];
    try {
      made = tempApp();
      alerts = representativeApp(made.app);
    } finally {
      delete process.env.SYNTH_HCL_OUTPUT;
    }
    expect(alerts.filter((a) => !hasL1(a))).toEqual([]);
    made.app.synth();
    const hcl = fs.readFileSync(path.join(made.outdir, 'stacks', 'alpha', 'cdk.tf'), 'utf8');
    expect(hcl.match(/^resource "networkcalc_alert" /gm)).toHaveLength(8);
  });

  test('Testing.synthHcl of a JSON app: one alert is rendered, several are a clear error', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const spf = { name: 'one', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' as const } };
    new Alert(stack, 'One', spf);
    expect(Testing.synthHcl(stack)).toContain('resource "networkcalc_alert" "One_');
    new Alert(stack, 'Two', { ...spf, name: 'two' });
    new Alert(stack, 'Three', { ...spf, name: 'three' });
    expect(() => Testing.synthHcl(stack)).toThrow(
      '2 NetworkCalc alerts of stack stack have no L1 to render as HCL. Synthesize HCL with SYNTH_HCL_OUTPUT=true set',
    );
  });
});

describe('the L1 is made when reached for', () => {
  function oneAlert(): { app: App; outdir: string; stack: TerraformStack; alerts: Alert[] } {
    const { app, outdir } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const alerts = ['a', 'b'].map(
      (name) => new Alert(stack, name.toUpperCase(), { name, target: apex, spfRecord: { filter: 'validity' } }),
    );
    return { app, outdir, stack, alerts };
  }
  const apex = AlertTarget.domainId(1);

  test('an override made through defaultChild reaches cdk.tf.json, and the alert is written once', () => {
    const { app, outdir, alerts } = oneAlert();
    expect(hasL1(alerts[0]!)).toBe(false);
    const l1 = alerts[0]!.node.defaultChild as TerraformResource;
    expect(l1).toBeInstanceOf(AlertL1);
    expect(l1.node.id).toBe('Resource');
    l1.addOverride('lifecycle.prevent_destroy', true);
    l1.addOverride('filter_value', 'overridden');
    app.synth();

    const json = stackJson(outdir, 'stack');
    const written = json.resource.networkcalc_alert;
    expect(Object.keys(written)).toEqual(expect.arrayContaining([l1.friendlyUniqueId]));
    expect(Object.keys(written)).toHaveLength(2);
    expect(written[l1.friendlyUniqueId]).toMatchObject({
      name: 'a',
      filter_value: 'overridden',
      lifecycle: { prevent_destroy: true },
      '//': { metadata: { path: 'stack/A/Resource', uniqueId: l1.friendlyUniqueId } },
    });
    expect(json['//'].metadata.overrides).toEqual({ networkcalc_alert: ['lifecycle', 'filter_value'] });
    // The other alert is written by the shared element, without an L1.
    expect(hasL1(alerts[1]!)).toBe(false);
    expect(Object.values(written).find((x: any) => x.name === 'b')).toMatchObject({
      '//': { metadata: { path: 'stack/B/Resource' } },
    });
  });

  test('findChild and tryFindChild of Resource make it too; other ids do not', () => {
    const { alerts } = oneAlert();
    expect(alerts[0]!.node.tryFindChild('Default')).toBeUndefined();
    expect(hasL1(alerts[0]!)).toBe(false);
    expect(alerts[0]!.node.findChild('Resource')).toBeInstanceOf(AlertL1);
    expect(alerts[1]!.node.tryFindChild('Resource')).toBeInstanceOf(AlertL1);
    expect(alerts[0]!.node.defaultChild).toBe(alerts[0]!.node.findChild('Resource'));
  });

  test('a defaultChild set by the app wins, as for any construct', () => {
    const { alerts } = oneAlert();
    const other = new Construct(alerts[0]!, 'Other');
    alerts[0]!.node.defaultChild = other;
    expect(alerts[0]!.node.defaultChild).toBe(other);
    expect(hasL1(alerts[0]!)).toBe(false);
  });

  test('an Aspect that visits resources sees every alert it applies to as its L1, and its changes are written', () => {
    const { app, outdir } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const team = new Construct(stack, 'Team');
    for (let i = 0; i < 2; i++)
      new Alert(team, `T${i}`, { name: `t${i}`, target: apex, spfRecord: { filter: 'validity' } });
    const loose = new Alert(stack, 'Loose', { name: 'loose', target: apex, spfRecord: { filter: 'validity' } });
    const visited: string[] = [];
    const protect: IAspect = {
      visit(node: IConstruct) {
        if (!TerraformResource.isTerraformResource(node) || node.terraformResourceType !== 'networkcalc_alert') return;
        visited.push(node.node.path);
        node.addOverride('lifecycle.prevent_destroy', true);
      },
    };
    // Applies to the alerts under Team only: the others keep no L1.
    Aspects.of(team).add(protect);
    app.synth();

    expect(visited.sort()).toEqual(['stack/Team/T0/Resource', 'stack/Team/T1/Resource']);
    const written = Object.values(stackJson(outdir, 'stack').resource.networkcalc_alert) as any[];
    expect(written.map((a) => [a.name, a.lifecycle?.prevent_destroy ?? false]).sort()).toEqual([
      ['loose', false],
      ['t0', true],
      ['t1', true],
    ]);
    expect(hasL1(loose)).toBe(false);
  });

  test('a stack that allocates logical ids its own way gets an L1 per alert, with its ids', () => {
    class ShortIds extends TerraformStack {
      protected override allocateLogicalId(element: any): string {
        return (element.node.scopes as IConstruct[])
          .slice(2)
          .map((c) => c.node.id)
          .filter((id) => id !== 'Resource')
          .join('_');
      }
    }
    const { app, outdir } = tempApp();
    const stack = new ShortIds(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const alert = new Alert(stack, 'Short', { name: 's', target: apex, spfRecord: { filter: 'validity' } });
    expect(hasL1(alert)).toBe(true);
    app.synth();
    expect(Object.keys(stackJson(outdir, 'stack').resource.networkcalc_alert)).toEqual(['Short']);
  });
});
