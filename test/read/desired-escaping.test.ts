import { Testing, type TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership, ReportTarget, ReportTrigger } from '../../src/constructs';
import { readDesired } from '../../src/read/desired';
import { holdsTemplate, unescapeTemplate } from '../../src/support/terraform-template';
import { alert, stack } from '../cli/support';
import '../constructs/support'; // removes what cdktf's Testing writes to the temp directory

const read = (json: Record<string, unknown>) => readDesired([{ name: 'app', json }]);
import { problemText } from '../../src/model/problems';

describe('readDesired reads literal strings as Terraform does', () => {
  it('gives back exactly what the constructs were given', () => {
    const json = JSON.parse(
      Testing.synthScope((scope) => {
        const s = scope as TerraformStack;
        new NetworkcalcAccount(s, 'Account', { ownership: Ownership.prefix('t ${p} ') });
        new Alert(s, 'Spf', {
          name: 't ${p} template ${var.x} %{ if x }',
          // A host name cannot hold `${`; the names and values around it can.
          target: AlertTarget.domain('Example.com'),
          spfRecord: { filter: 'contains', value: 'v=spf1 "quoted" ${x}' },
        });
        new Alert(s, 'Txt', {
          name: 't ${p} $${a} %%{b}',
          target: AlertTarget.subdomainId(3),
          dnsRecord: { record: 'TXT', filter: 'equals', value: '$$${x} %%%{y}' },
        });
        new ReportTrigger(s, 'Report', { target: ReportTarget.domainId(1), triggers: { v: '${v}' } });
      }),
    );
    const d = read(json);
    expect(d.problems.map(problemText)).toEqual([]);
    expect(d.scopes[0]).toMatchObject({ ownership: 'prefix', prefix: 't ${p} ' });
    expect(d.alerts.map((a) => [a.spec.name, a.spec.filter_value])).toEqual([
      ['t ${p} template ${var.x} %{ if x }', 'v=spf1 "quoted" ${x}'],
      ['t ${p} $${a} %%{b}', '$$${x} %%%{y}'],
    ]);
    expect(d.alerts[0].target).toMatchObject({ kind: 'name', targetType: 'domain', name: 'example.com' });
    expect(d.triggers[0].triggers).toEqual({ v: '${v}' });
  });

  it('a reference is still a reference; an escaped one is literal text, not a reference', () => {
    const d = read(
      stack({
        alerts: {
          Ref: alert({ name: 'ref', target_id: '${data.networkcalc_domain.apex.id}' }),
          Escaped: alert({ name: 'escaped', target_id: '$${data.networkcalc_domain.apex.id}' }),
        },
        data: { networkcalc_domain: { apex: { name: 'example.com' } } },
      }),
    );
    expect(d.alerts.map((a) => a.logicalId)).toEqual(['Ref']);
    expect(d.alerts[0].target).toMatchObject({ kind: 'name', name: 'example.com' });
    expect(d.problems.map(problemText)).toEqual([
      'stack app, alert Escaped: target_id "$${data.networkcalc_domain.apex.id}" is neither a positive id nor a reference to a networkcalc_domain / networkcalc_subdomain resource or data source',
    ]);
  });

  it('a template Terraform would evaluate is reported instead of being read as a literal', () => {
    const d = read(
      stack({
        alerts: {
          Name: alert({ name: 'template ${var.x}' }),
          Value: alert({ name: 'v', subtype: 'TXT', filter_value: '%{ if x }y%{ endif }' }),
          Lookup: alert({ name: 'l', target_id: '${data.networkcalc_domain.d.id}' }),
        },
        data: { networkcalc_domain: { d: { name: '${var.domain}' } } },
        triggers: { Rep: { domain_id: 1 } },
      }),
    );
    expect(d.alerts).toEqual([]);
    expect(d.problems.map(problemText)).toHaveLength(3);
    expect(d.problems.map(problemText)[0]).toContain(
      'stack app, alert Name: name "template ${var.x}" holds a Terraform template',
    );
    expect(d.problems.map(problemText)[1]).toContain(
      'stack app, alert Value: filter_value "%{ if x }y%{ endif }" holds a Terraform template',
    );
    expect(d.problems.map(problemText)[2]).toContain(
      'stack app, alert Lookup: the name of data.networkcalc_domain.d "${var.domain}" holds a Terraform template',
    );
    // the default trigger is a Terraform call, kept as written
    expect(d.triggers[0].triggers).toEqual({ always: '${timestamp()}' });
  });

  it('holdsTemplate / unescapeTemplate follow Terraform: n sigils before { read as n - 1', () => {
    expect(['${a}', 'x ${a}', '%{a}', 'x%{a}', '$%{a}', '%${a}'].map(holdsTemplate)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['$${a}', '$$${a}', '%%{a}', '$ {a}', '{a}', '$', '%'].map(holdsTemplate)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(unescapeTemplate('$${a} $$${b} $$$${c} %%{d} %%%{e} $$ %% {f}')).toBe(
      '${a} $${b} $$${c} %{d} %%{e} $$ %% {f}',
    );
  });
});
