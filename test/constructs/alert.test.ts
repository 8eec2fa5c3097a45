import { Testing, TerraformOutput, TerraformStack } from 'cdktf';
import { Alert, AlertTarget, NetworkcalcAccount, Ownership, type AlertProps } from '../../src/constructs';
import { COMPARISON_FILTERS, DNS_RECORD_SUBTYPES } from '../../src/model';
import {
  AlertL1,
  DataNetworkcalcDomain,
  DataNetworkcalcSubdomain,
  parse,
  synthError,
  synthWithAccount,
  tempApp,
} from './support';

const apex = AlertTarget.domain('example.com');

function alertsOf(json: string): Record<string, any>[] {
  return Object.values(parse(json).resource?.networkcalc_alert ?? {}).map((a: any) => {
    const { ['//']: _meta, ...rest } = a;
    return rest;
  });
}

describe('Alert: one variant per type', () => {
  test.each(DNS_RECORD_SUBTYPES.flatMap((record) => COMPARISON_FILTERS.map((filter) => [record, filter] as const)))(
    'DNS Record %s / %s',
    (record, filter) => {
      const json = synthWithAccount((stack) => {
        new Alert(stack, 'Dns', {
          name: 'dns',
          target: AlertTarget.domainId(1),
          dnsRecord: { record, filter, value: 'v' },
        });
      });
      expect(alertsOf(json)).toEqual([
        {
          name: 'dns',
          type: 'DNS Record',
          subtype: record,
          filter,
          filter_value: 'v',
          target_type: 'domain',
          target_id: 1,
        },
      ]);
    },
  );

  test('SPF Record validity: no subtype, no filter_value', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'Spf', { name: 'spf', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    });
    expect(alertsOf(json)).toEqual([
      { name: 'spf', type: 'SPF Record', filter: 'validity', target_type: 'domain', target_id: 1 },
    ]);
  });

  test.each(COMPARISON_FILTERS.map((f) => [f]))('SPF Record %s with a value', (filter) => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'Spf', {
        name: 'spf',
        target: AlertTarget.domainId(1),
        spfRecord: { filter, value: 'include:x' },
      });
    });
    expect(json).toHaveResourceWithProperties(AlertL1, {
      type: 'SPF Record',
      filter,
      filter_value: 'include:x',
    });
    expect(alertsOf(json)[0].subtype).toBeUndefined();
  });

  test('Certificate (TLS) subject', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'Cert', {
        name: 'cert',
        target: AlertTarget.subdomainId(2),
        certificate: { subject: 'CN=www.example.com' },
      });
    });
    expect(alertsOf(json)).toEqual([
      {
        name: 'cert',
        type: 'Certificate (TLS)',
        filter: 'subject',
        filter_value: 'CN=www.example.com',
        target_type: 'subdomain',
        target_id: 2,
      },
    ]);
  });

  test('Certificate (TLS) expiry: days as a decimal string', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'Cert', {
        name: 'cert',
        target: AlertTarget.subdomainId(2),
        certificate: { expiresInDays: 21 },
      });
    });
    expect(json).toHaveResourceWithProperties(AlertL1, {
      type: 'Certificate (TLS)',
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 2,
    });
  });

  test('names and values are written in canonical form (trimmed)', () => {
    const stack = new TerraformStack(Testing.app(), 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const alert = new Alert(stack, 'A', {
      name: '  padded  ',
      target: AlertTarget.domainId(1),
      dnsRecord: { record: 'A', filter: 'equals', value: ' 1.2.3.4 ' },
    });
    expect(alert.alertName).toBe('padded');
    expect(Testing.synth(stack)).toHaveResourceWithProperties(AlertL1, { name: 'padded', filter_value: '1.2.3.4' });
  });
});

describe('Alert: targets', () => {
  test('a domain by name: one networkcalc_domain data source; target_id is its id', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'A', { name: 'a', target: apex, spfRecord: { filter: 'validity' } });
      new Alert(stack, 'B', {
        name: 'b',
        target: AlertTarget.domain(' Example.COM '),
        certificate: { expiresInDays: 21 },
      });
    });
    expect(json).toHaveDataSourceWithProperties(DataNetworkcalcDomain, { name: 'example.com' });
    const domains = parse(json).data.networkcalc_domain;
    expect(Object.keys(domains)).toHaveLength(1);
    const [id] = Object.keys(domains);
    for (const alert of alertsOf(json)) {
      expect(alert.target_type).toBe('domain');
      expect(alert.target_id).toBe(`\${data.networkcalc_domain.${id}.id}`);
    }
  });

  test('a subdomain by name: networkcalc_subdomain data source', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'W', {
        name: 'w',
        target: AlertTarget.subdomain('www.example.com'),
        spfRecord: { filter: 'validity' },
      });
    });
    expect(json).toHaveDataSourceWithProperties(DataNetworkcalcSubdomain, { name: 'www.example.com' });
    const [id] = Object.keys(parse(json).data.networkcalc_subdomain);
    expect(alertsOf(json)[0]).toMatchObject({
      target_type: 'subdomain',
      target_id: `\${data.networkcalc_subdomain.${id}.id}`,
    });
  });

  test('lookups are per account: two aliased accounts get a data source each, bound to their provider', () => {
    const json = Testing.synthScope((stack) => {
      const prod = new NetworkcalcAccount(stack, 'Prod', { alias: 'prod', tokenEnv: 'PROD_TOKEN' });
      const staging = new NetworkcalcAccount(stack, 'Staging', { alias: 'staging', tokenEnv: 'STAGING_TOKEN' });
      new Alert(stack, 'P', { name: 'x', account: prod, target: apex, spfRecord: { filter: 'validity' } });
      new Alert(stack, 'S', { name: 'x', account: staging, target: apex, spfRecord: { filter: 'validity' } });
    });
    const domains = Object.values(parse(json).data.networkcalc_domain) as any[];
    expect(domains.map((d) => d.provider).sort()).toEqual(['networkcalc.prod', 'networkcalc.staging']);
    expect(
      alertsOf(json)
        .map((a) => a.provider)
        .sort(),
    ).toEqual(['networkcalc.prod', 'networkcalc.staging']);
  });

  test('an unaliased account writes no provider meta-argument', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'A', { name: 'a', target: apex, spfRecord: { filter: 'validity' } });
    });
    expect(alertsOf(json)[0].provider).toBeUndefined();
    expect((Object.values(parse(json).data.networkcalc_domain)[0] as any).provider).toBeUndefined();
  });
});

describe('Alert: attributes and references', () => {
  test('alertId, currentStatus, lastTriggeredAt and isActive are references to the resource', () => {
    const json = synthWithAccount((stack) => {
      const alert = new Alert(stack, 'A', {
        name: 'a',
        target: AlertTarget.domainId(1),
        spfRecord: { filter: 'validity' },
      });
      new TerraformOutput(stack, 'Id', { value: alert.alertId });
      new TerraformOutput(stack, 'Status', { value: alert.currentStatus });
      new TerraformOutput(stack, 'Last', { value: alert.lastTriggeredAt });
      new TerraformOutput(stack, 'Active', { value: alert.isActive });
    });
    const [id] = Object.keys(parse(json).resource.networkcalc_alert);
    const outputs = parse(json).output;
    expect(outputs.Id.value).toBe(`\${networkcalc_alert.${id}.id}`);
    expect(outputs.Status.value).toBe(`\${networkcalc_alert.${id}.current_status}`);
    expect(outputs.Last.value).toBe(`\${networkcalc_alert.${id}.last_triggered_at}`);
    expect(outputs.Active.value).toBe(`\${networkcalc_alert.${id}.is_active}`);
  });

  test('the L1 resource is the default child, id Resource', () => {
    const stack = new TerraformStack(Testing.app(), 'stack');
    new NetworkcalcAccount(stack, 'Account');
    const alert = new Alert(stack, 'A', {
      name: 'a',
      target: AlertTarget.domainId(1),
      spfRecord: { filter: 'validity' },
    });
    expect(alert.node.defaultChild).toBeInstanceOf(AlertL1);
    expect(alert.node.defaultChild?.node.id).toBe('Resource');
  });

  test('Alert.fromAlertId references an alert and synthesizes nothing', () => {
    let ref: { alertId: number } | undefined;
    const json = Testing.synthScope((stack) => {
      ref = Alert.fromAlertId(stack, 'Existing', 42);
    });
    expect(ref?.alertId).toBe(42);
    expect(parse(json).resource).toBeUndefined();
    expect(parse(json).provider).toBeUndefined();
  });

  test('the only account of a stack is used by default, also when it is nested', () => {
    const json = Testing.synthScope((stack) => {
      new NetworkcalcAccount(stack, 'Account', { alias: 'only' });
      new Alert(stack, 'A', { name: 'a', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    });
    expect(json).toHaveResourceWithProperties(AlertL1, { provider: 'networkcalc.only' });
  });
});

/** Builds a one-account app with one alert from loose props, and returns the synth error. */
function alertError(props: Record<string, unknown>): string {
  const { app } = tempApp();
  const stack = new TerraformStack(app, 'stack');
  new NetworkcalcAccount(stack, 'Account');
  new Alert(stack, 'Bad', { name: 'bad', target: AlertTarget.domainId(1), ...props } as unknown as AlertProps);
  return synthError(app);
}

const DNS_ALLOWED = 'allowed: equals, does not equal, contains, does not contain';
const SPF_ALLOWED = 'allowed: equals, does not equal, contains, does not contain, validity';

describe("Alert: invalid combinations are rejected at synth with the model's message and the path", () => {
  // Filters of other types on a DNS Record alert, for every record type.
  test.each(
    DNS_RECORD_SUBTYPES.flatMap((record) =>
      ['validity', 'subject', 'expires in (days)'].map((filter) => [record, filter]),
    ),
  )('DNS Record %s with filter %s', (record, filter) => {
    expect(alertError({ dnsRecord: { record, filter, value: 'v' } })).toContain(
      `[stack/Bad] filter "${filter}" is not valid for type "DNS Record"; ${DNS_ALLOWED} (from dnsRecord.filter)`,
    );
  });

  test.each([['SRV'], ['AAAA'], ['SPF']])('DNS Record with record type %s', (record) => {
    expect(alertError({ dnsRecord: { record, filter: 'equals', value: 'v' } })).toContain(
      `[stack/Bad] subtype "${record}" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT (from dnsRecord.record)`,
    );
  });

  test.each([['subject'], ['expires in (days)']])('SPF Record with filter %s', (filter) => {
    expect(alertError({ spfRecord: { filter, value: 'v' } })).toContain(
      `[stack/Bad] filter "${filter}" is not valid for type "SPF Record"; ${SPF_ALLOWED} (from spfRecord.filter)`,
    );
  });

  test('SPF validity takes no value', () => {
    expect(alertError({ spfRecord: { filter: 'validity', value: 'x' } })).toContain(
      '[stack/Bad] filter_value "x" is not valid for filter "validity"; it takes no value (leave it empty) (from spfRecord.value)',
    );
  });

  test('a comparison needs a value', () => {
    expect(alertError({ spfRecord: { filter: 'contains' } })).toContain(
      '[stack/Bad] filter_value is missing for filter "contains"; give the value to compare (from spfRecord.value)',
    );
    expect(alertError({ dnsRecord: { record: 'TXT', filter: 'equals', value: '  ' } })).toContain(
      '[stack/Bad] filter_value is missing for filter "equals"; give the value to compare (from dnsRecord.value)',
    );
  });

  test.each([[0], [-3], [2.5], [Number.NaN]])('certificate expiresInDays %p', (days) => {
    expect(alertError({ certificate: { expiresInDays: days } })).toContain(
      `[stack/Bad] filter_value "${String(days)}" is not valid for filter "expires in (days)"; give a positive whole number of days (from certificate.expiresInDays)`,
    );
  });

  test('certificate subject must not be empty', () => {
    expect(alertError({ certificate: { subject: '' } })).toContain(
      '[stack/Bad] filter_value is missing for filter "subject"; give the value to compare (from certificate.subject)',
    );
  });

  test('certificate needs exactly one of subject and expiresInDays', () => {
    expect(alertError({ certificate: { subject: 'CN=x', expiresInDays: 3 } })).toContain(
      '[stack/Bad] certificate has both subject and expiresInDays; give exactly one',
    );
    expect(alertError({ certificate: {} })).toContain(
      '[stack/Bad] certificate has neither subject nor expiresInDays; give exactly one',
    );
  });

  test('exactly one variant', () => {
    expect(alertError({})).toContain(
      '[stack/Bad] no check given; set exactly one of dnsRecord, spfRecord, certificate',
    );
    expect(
      alertError({ dnsRecord: { record: 'A', filter: 'equals', value: 'v' }, spfRecord: { filter: 'validity' } }),
    ).toContain(
      '[stack/Bad] dnsRecord and spfRecord are given together; set exactly one of dnsRecord, spfRecord, certificate',
    );
  });

  test('name must not be blank', () => {
    expect(alertError({ name: '   ', spfRecord: { filter: 'validity' } })).toContain(
      '[stack/Bad] name is missing; give the alert a non-empty name (from name)',
    );
  });

  test.each([[0], [1.5], [-1]])('target id %p', (id) => {
    expect(alertError({ target: AlertTarget.subdomainId(id), spfRecord: { filter: 'validity' } })).toContain(
      `[stack/Bad] target_id ${id} is not valid; give the positive whole-number id of the domain or subdomain (from target)`,
    );
  });

  test('a bad domain name is reported on its lookup', () => {
    expect(alertError({ target: AlertTarget.domain('example.com:443'), spfRecord: { filter: 'validity' } })).toContain(
      '[stack/Account/Domain example.com:443] domain name "example.com:443" is not valid; give a bare host name such as example.com (labels of letters, digits and hyphens joined by single dots), without scheme, port or path',
    );
  });

  test('every problem is reported at once', () => {
    const message = alertError({ name: '', dnsRecord: { record: 'SRV', filter: 'validity', value: '' } });
    expect(message).toContain('[stack/Bad] name is missing');
    expect(message).toContain('[stack/Bad] subtype "SRV" is not valid');
    expect(message).toContain('[stack/Bad] filter "validity" is not valid');
  });
});

describe('Alert: checks across alerts and accounts', () => {
  test('two alerts with the same (trimmed) name in one account: an error naming both', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    new Alert(stack, 'First', {
      name: 'www MX',
      target: apex,
      dnsRecord: { record: 'MX', filter: 'contains', value: 'mx' },
    });
    new Alert(stack, 'Second', { name: ' www MX ', target: apex, spfRecord: { filter: 'validity' } });
    expect(synthError(app)).toContain(
      '[stack/Account] alert name "www MX" is used by 2 alerts of this account: stack/First, stack/Second; names identify alerts within an account and must be unique',
    );
  });

  test('several repeated names: one error each, in the order the names were first used, every alert named', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account');
    for (const [id, name] of [
      ['A1', 'a'],
      ['B1', 'b'],
      ['C', 'c'],
      ['B2', 'b'],
      ['A2', 'a'],
      ['B3', ' b'],
    ]) {
      new Alert(stack, id, { name, target: apex, spfRecord: { filter: 'validity' } });
    }
    const lines = synthError(app)
      .split('\n')
      .filter((l) => l.includes('is used by'));
    expect(lines).toEqual([
      '  [stack/Account] alert name "a" is used by 2 alerts of this account: stack/A1, stack/A2; names identify alerts within an account and must be unique',
      '  [stack/Account] alert name "b" is used by 3 alerts of this account: stack/B1, stack/B2, stack/B3; names identify alerts within an account and must be unique',
    ]);
  });

  test('the same name in two accounts is fine', () => {
    const json = Testing.synthScope((stack) => {
      const a = new NetworkcalcAccount(stack, 'A', { alias: 'a' });
      const b = new NetworkcalcAccount(stack, 'B', { alias: 'b' });
      new Alert(stack, 'X', { name: 'same', account: a, target: apex, spfRecord: { filter: 'validity' } });
      new Alert(stack, 'Y', { name: 'same', account: b, target: apex, spfRecord: { filter: 'validity' } });
    });
    expect(alertsOf(json)).toHaveLength(2);
  });

  test('a stack without an account: a clear error', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new Alert(stack, 'Orphan', { name: 'o', target: apex, spfRecord: { filter: 'validity' } });
    const message = synthError(app);
    expect(message).toContain(
      "[stack/Orphan] no NetworkcalcAccount in stack stack; declare one before the alerts and report triggers of the stack (new NetworkcalcAccount(stack, 'Account')) or pass `account`",
    );
    expect(message).not.toContain('target_id');
  });

  test('a stack with several accounts: account must be chosen', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'A', { alias: 'a' });
    new NetworkcalcAccount(stack, 'B', { alias: 'b' });
    new Alert(stack, 'Which', { name: 'w', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    expect(synthError(app)).toContain(
      '[stack/Which] stack stack has 2 accounts (stack/A, stack/B); pass `account` to choose one',
    );
  });

  test('an account of another stack is refused', () => {
    const { app } = tempApp();
    const one = new TerraformStack(app, 'one');
    const two = new TerraformStack(app, 'two');
    const account = new NetworkcalcAccount(one, 'Account');
    new Alert(two, 'Elsewhere', {
      name: 'e',
      account,
      target: AlertTarget.domainId(1),
      spfRecord: { filter: 'validity' },
    });
    expect(synthError(app)).toContain(
      '[two/Elsewhere] account one/Account is in stack one, but this construct is in stack two; an account serves only the stack it is declared in, so declare a NetworkcalcAccount in two',
    );
  });

  test('prefix ownership: an alert outside the prefix is an error', () => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'stack');
    new NetworkcalcAccount(stack, 'Account', { ownership: Ownership.prefix('team-a-') });
    new Alert(stack, 'In', { name: 'team-a-ok', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    new Alert(stack, 'Out', { name: 'other', target: AlertTarget.domainId(1), spfRecord: { filter: 'validity' } });
    const message = synthError(app);
    expect(message).toContain(
      '[stack/Account] alert stack/Out is named "other", outside this account\'s ownership prefix "team-a-"; ncalc would never manage it. Start the name with the prefix or change the ownership',
    );
    expect(message).not.toContain('stack/In ');
  });
});
