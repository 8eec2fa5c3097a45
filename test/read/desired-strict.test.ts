/** readDesired reads hostile JSON strictly: every malformed part is a problem, nothing is dropped. */
import { readDesired } from '../../src/read/desired';
import { alert, stack } from '../cli/support';
import { problemData, problemText, type Problem } from '../../src/model/problems';

const read = (json: unknown) => readDesired([{ name: 'main', json: json as Record<string, unknown> }]);

describe('readDesired: strict reading', () => {
  it('an id such as __proto__ is an alert like any other, not lost in an assignment', () => {
    const json =
      JSON.parse(`{"provider":{"networkcalc":[{}]},"resource":{"networkcalc_alert":{"__proto__":${JSON.stringify(alert({ name: 'p' }))}},
      "networkcalc_report_trigger":{"R":{"domain_id":1,"triggers":{"__proto__":"x"}}}}}`);
    const d = read(json);
    expect(d.problems.map(problemText)).toEqual([]);
    expect(d.alerts.map((a) => [a.logicalId, a.spec.name])).toEqual([['__proto__', 'p']]);
    expect(Object.entries(d.triggers[0].triggers)).toEqual([['__proto__', 'x']]);
  });

  it('every problem of a stack is listed at once, each with its JSON path', () => {
    const d = read({
      provider: { networkcalc: [{ alias: 5 }, 'x'] },
      resource: {
        networkcalc_alert: { A: 'x', B: alert({ name: 'b', for_each: [], nmae: 'typo' }) },
        networkcalc_alerts: {},
        aws_instance: 'ignored',
      },
      data: { networkcalc_domain: [] },
    });
    expect(d.problems.map(problemText)).toEqual([
      'stack main, provider networkcalc: alias is a number; expected a string',
      'stack main: provider.networkcalc[1] is a string; expected an object (a provider configuration)',
      "stack main: resource.networkcalc_alert.A is a string; expected an object (the block's attributes)",
      'stack main: resource.networkcalc_alert.B: "for_each" is not supported: ncalc reads one block as one object and cannot evaluate for_each; declare each one in the app (a loop in TypeScript) instead',
      'stack main: resource.networkcalc_alert.B: unknown attribute "nmae"; allowed: filter, filter_value, name, subtype, target_id, target_type, type',
      'stack main: resource.networkcalc_alerts is not a NetworkCalc resource type; known: networkcalc_alert, networkcalc_report_trigger, networkcalc_domain, networkcalc_subdomain',
      'stack main: data.networkcalc_domain is an array; expected an object of blocks keyed by logical id',
    ]);
  });

  it('blocks of other providers and Terraform meta-arguments it can honour are left alone', () => {
    const d = read({
      ...stack({
        provider: {},
        alerts: {
          A: alert({
            name: 'a',
            depends_on: ['x'],
            lifecycle: { prevent_destroy: true },
            '//': { metadata: { path: 'main/A/Resource' } },
          }),
        },
      }),
      output: { x: { value: 1 } },
      variable: { y: {} },
    });
    expect(d.problems.map(problemText)).toEqual([]);
    expect(d.alerts.map((a) => a.path)).toEqual(['main/A']);
  });
});

describe('readDesired: problems keep their structure', () => {
  it('each problem has its place, the field at fault and the value given, as the message names them', () => {
    const d = read({
      provider: { networkcalc: [{ max_retries: 50 }] },
      resource: { networkcalc_alert: { A: alert({ name: '${var.x}' }), B: alert({ name: 'b', subtype: 'SRV' }) } },
      '//': {
        networkcalc_alert_policies: {
          P_1: {
            path: 'main/P',
            mode: 'generate',
            checks: [{ type: 'DNS Record', subtype: 'SRV', filter: 'equals', filter_value: 'x' }],
          },
        },
      },
    });
    const pick = (p: Problem) => ({ path: p.path, field: p.field, value: p.value });
    expect(d.problems.map(pick)).toEqual([
      { path: 'stack main, provider networkcalc', field: 'max_retries', value: 50 },
      { path: 'stack main, alert A', field: 'name', value: '${var.x}' },
      { path: 'stack main, alert B', field: 'subtype', value: 'SRV' },
      { path: 'stack main, policy main/P', field: 'checks[0].subtype', value: 'SRV' },
    ]);
    expect(d.problems.map(problemText)[3]).toBe(
      'stack main, policy main/P: checks[0]: subtype "SRV" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT',
    );
    // As --json shows them: every key, null for what is not known.
    expect(problemData(d.problems[2])).toEqual({
      path: 'stack main, alert B',
      field: 'subtype',
      value: 'SRV',
      allowed: ['A', 'CNAME', 'MX', 'TXT'],
      message: 'subtype "SRV" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT',
    });
  });
});
