import { Lazy, type TerraformStack, TerraformVariable, Testing, Token } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership, ReportTarget, ReportTrigger } from '../../src/constructs';
import { isPlainText, terraformLiteral } from '../../src/constructs/terraform-string';
import { escapeTemplateText } from '../../src/support/terraform-template';
import { parse, synthWithAccount } from './support';

// Terraform reads `${` / `%{` in any JSON string as a template; literal text must say `$${` / `%%{`.
describe('literal text is escaped for Terraform in the synthesized JSON', () => {
  it('alert name and filter value (a lookup name is a host name and cannot hold one)', () => {
    let alert!: Alert;
    const json = parse(
      synthWithAccount((stack) => {
        alert = new Alert(stack, 'Spf', {
          name: 'template ${var.x} %{ if x }',
          target: AlertTarget.domain('example.com'),
          spfRecord: { filter: 'contains', value: 'v=spf1 "quoted" ${x}' },
        });
      }),
    );
    const [body] = Object.values(json.resource.networkcalc_alert) as any[];
    expect(body.name).toBe('template $${var.x} %%{ if x }');
    expect(body.filter_value).toBe('v=spf1 "quoted" $${x}');
    const [[dataId, data]] = Object.entries(json.data.networkcalc_domain) as [string, any][];
    expect(data.name).toBe('example.com');
    // the reference cdktf wrote for the lookup is untouched
    expect(body.target_id).toBe(`\${data.networkcalc_domain.${dataId}.id}`);
    // the construct keeps the value as given
    expect(alert.alertName).toBe('template ${var.x} %{ if x }');
  });

  it('already doubled sigils gain one more, so they read back as given', () => {
    const json = parse(
      synthWithAccount((stack) => {
        new Alert(stack, 'Txt', {
          name: 'a $${b} %%{c} $ % {}',
          target: AlertTarget.domainId(1),
          dnsRecord: { record: 'TXT', filter: 'contains', value: '$$${x}' },
        });
      }),
    );
    const [body] = Object.values(json.resource.networkcalc_alert) as any[];
    expect(body.name).toBe('a $$${b} %%%{c} $ % {}');
    expect(body.filter_value).toBe('$$$${x}');
  });

  it('provider prefix and trigger values; the default trigger stays a Terraform call', () => {
    const json = parse(
      Testing.synthScope((scope) => {
        const stack = scope as TerraformStack;
        new NetworkcalcAccount(stack, 'Account', { ownership: Ownership.prefix('team-${a}-') });
        new Alert(stack, 'A', {
          name: 'team-${a}-mx',
          target: AlertTarget.domainId(1),
          dnsRecord: { record: 'MX', filter: 'contains', value: 'mail' },
        });
        new ReportTrigger(stack, 'Fixed', { target: ReportTarget.domainId(1), triggers: { release: '${v}' } });
        new ReportTrigger(stack, 'Always', { target: ReportTarget.domainId(2), everyApply: true });
      }),
    );
    const provider = [json.provider.networkcalc].flat()[0];
    expect(provider.ownership_prefix).toBe('team-$${a}-');
    const triggers = Object.values(json.resource.networkcalc_report_trigger).map((t: any) => t.triggers);
    expect(triggers).toEqual(expect.arrayContaining([{ release: '$${v}' }, { always: '${timestamp()}' }]));
  });

  it('cdktf tokens embedded in a value pass through; only the text around them is escaped', () => {
    const json = parse(
      synthWithAccount((stack) => {
        const v = new TerraformVariable(stack, 'suffix', { type: 'string' });
        new Alert(stack, 'Mixed', {
          name: `\${lit} ${v.stringValue}`,
          target: AlertTarget.domainId(1),
          dnsRecord: { record: 'A', filter: 'equals', value: v.stringValue },
        });
      }),
    );
    const [body] = Object.values(json.resource.networkcalc_alert) as any[];
    expect(body.name).toBe('$${lit} ${var.suffix}');
    expect(body.filter_value).toBe('${var.suffix}');
  });

  it('escapeTemplateText / terraformLiteral', () => {
    expect(escapeTemplateText('${a} %{b} $a %a {c}')).toBe('$${a} %%{b} $a %a {c}');
    expect(terraformLiteral(undefined)).toBeUndefined();
    expect(terraformLiteral(7)).toBe(7);
  });

  // terraformLiteral returns text without `{` as it is, unsearched: that holds only while
  // every token the CDK encodes in a string has one.
  it('no token the CDK encodes in a string is plain text', () => {
    const lazy = Lazy.stringValue({ produce: () => 'x' });
    const strings = [lazy, Token.asString({ resolve: () => 'x' }), `text ${lazy} text`];
    for (const s of strings) expect(Token.isUnresolved(s)).toBe(true);
    const encoded = [
      ...strings,
      ...Token.asList(Lazy.listValue({ produce: () => ['x'] })),
      ...Object.keys(Token.asStringMap(Lazy.anyValue({ produce: () => ({ a: 'x' }) }))),
    ];
    expect(encoded).toHaveLength(5);
    for (const s of encoded) expect(isPlainText(s)).toBe(false);
    expect(isPlainText('bench alert 00001')).toBe(true);
    expect(isPlainText('a ${b}')).toBe(false);
    expect(isPlainText('a %{b}')).toBe(false);
  });
});
