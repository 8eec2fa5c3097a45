/**
 * Every place that names the alert's fields by hand, checked against the one table in
 * src/model/fields.ts: a field added (or renamed, or retyped) in one place and not in the
 * others fails here.
 */
import 'cdktf/lib/testing/adapters/jest';
import { DEMO_ACCOUNT } from '../../src/emulator';
import { SCHEMAS } from '../../src/emulator/routes/shared';
import { Alert as AlertL1 } from '../../src/gen/providers/networkcalc/alert';
import { DataNetworkcalcAlertsAlertsOutputReference } from '../../src/gen/providers/networkcalc/data-networkcalc-alerts';
import {
  ALERT_FIELDS,
  diffAlert,
  readLiveAlert,
  requestBody,
  SPEC_FIELDS,
  toAlertSpec,
  type AlertField,
  type AlertServerFields,
  type AlertSpec,
  type ServerField,
  type SpecField,
} from '../../src/model';
import { readDesired } from '../../src/read/desired';
import { exportHcl, exportTypeScript, selectForExport, type ExportInput } from '../../src/codegen/export';
import { PROVIDER_SCHEMA } from '../../src/schema';
import type { TypeExpr } from '../../src/schema/types';
import { Alert, AlertTarget } from '../../src/constructs';
import { call, useEmulator } from '../helpers/emulator';
import { exportInput } from '../helpers/fixtures';
import { parse, synthWithAccount } from '../constructs/support';
import { problemText } from '../../src/model/problems';

const names = (rows: readonly AlertField[]) => rows.map((f) => f.name).sort();
const where = (flag: keyof AlertField) => names(ALERT_FIELDS.filter((f) => f[flag] === true));
const ofKind = (...kinds: AlertField['kind'][]) => names(ALERT_FIELDS.filter((f) => kinds.includes(f.kind)));
const row = (name: string) => ALERT_FIELDS.find((f) => f.name === name)!;
const sorted = (keys: Iterable<string>) => [...keys].sort();
const camel = (wire: string) => wire.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Terraform's name for the table's JSON types. */
const TERRAFORM_TYPE: Record<AlertField['type'], TypeExpr | undefined> = {
  string: 'string',
  number: 'number',
  boolean: 'bool',
  object: undefined,
};

/** One alert of each target kind, every field with a value (a DNS Record has them all). */
const DNS_BODY = {
  name: 'apex MX',
  type: 'DNS Record',
  subtype: 'MX',
  filter: 'contains',
  filter_value: 'mail.example.com',
  target_type: 'domain',
  target_id: DEMO_ACCOUNT.domains['example.com'],
} as const;
const desired = toAlertSpec(DNS_BODY);
/** An alert that differs from `desired` in every spec field. */
const other = toAlertSpec({
  name: 'www SPF',
  type: 'SPF Record',
  filter: 'equals',
  filter_value: 'v=spf1 -all',
  target_type: 'subdomain',
  target_id: DEMO_ACCOUNT.subdomains['www.example.com'],
});

describe('the table itself', () => {
  it('names every field once; spec fields are exactly the sent and the compared ones', () => {
    expect(new Set(ALERT_FIELDS.map((f) => f.name)).size).toBe(ALERT_FIELDS.length);
    expect(where('sent')).toEqual(ofKind('spec'));
    expect(where('compared')).toEqual(ofKind('spec'));
    // Only spec fields can be left empty by a request; only server fields are fixed.
    for (const f of ALERT_FIELDS) {
      if (f.optional) expect(f.kind).toBe('spec');
      if (f.fixed) expect(f.kind).toBe('read-only');
    }
  });

  it('matches the AlertSpec and AlertServerFields interfaces (checked by the compiler)', () => {
    type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
    const spec: Same<keyof AlertSpec, SpecField> = true;
    const server: Same<keyof AlertServerFields, ServerField> = true;
    expect([spec, server]).toEqual([true, true]);
  });
});

describe('the model', () => {
  it('requestBody sends the sent fields', () => {
    expect(sorted(Object.keys(requestBody(desired)))).toEqual(where('sent'));
  });

  it('diffAlert compares the compared fields, and nothing else', () => {
    expect(diffAlert(other, desired).map((c) => c.field)).toEqual([...SPEC_FIELDS]);
    expect(sorted(SPEC_FIELDS)).toEqual(where('compared'));
    const live = readLiveAlert({ ...desired, id: 1, user_id: 5, is_active: false, current_status: 'triggered' });
    expect(diffAlert(desired, live)).toEqual([]);
  });

  it('readLiveAlert yields every field of the table', () => {
    const live = readLiveAlert({ ...DNS_BODY, id: 1 });
    expect(sorted(Object.keys(live))).toEqual(names(ALERT_FIELDS));
  });
});

describe('the provider schema', () => {
  const resource = PROVIDER_SCHEMA.resources.networkcalc_alert!.attributes;

  it('networkcalc_alert has the attribute fields, typed, required unless optional, server fields computed', () => {
    expect(sorted(Object.keys(resource))).toEqual(where('attribute'));
    for (const [name, attr] of Object.entries(resource)) {
      const f = row(name);
      // Terraform users expect a resource id to be a string: the number in decimal.
      expect([name, attr.type]).toEqual([name, name === 'id' ? 'string' : TERRAFORM_TYPE[f.type]]);
      const mode = attr.computed ? 'computed' : attr.required ? 'required' : 'optional';
      expect([name, mode]).toEqual([name, f.kind !== 'spec' ? 'computed' : f.optional ? 'optional' : 'required']);
    }
  });

  it('the objects of networkcalc_alerts have the listed fields, typed', () => {
    const type = PROVIDER_SCHEMA.dataSources.networkcalc_alerts!.attributes.alerts!.type;
    expect(type[0]).toBe('list');
    const object = (type as readonly ['list', readonly ['object', Record<string, TypeExpr>]])[1][1];
    expect(sorted(Object.keys(object))).toEqual(where('listed'));
    for (const [name, t] of Object.entries(object)) expect([name, t]).toEqual([name, TERRAFORM_TYPE[row(name).type]]);
  });
});

describe('the emulator', () => {
  const schema = (id: string) => (SCHEMAS.find((s) => s.$id === id) as { properties: Record<string, any> }).properties;
  /** The JSON types a property schema allows, a $ref counting as an object. */
  const types = (p: { type?: string | string[]; $ref?: string }) => (p.$ref ? ['object'] : [p.type].flat());

  it('AlertResponse has the returned fields; null only where the table allows it', () => {
    const props = schema('AlertResponse');
    expect(sorted(Object.keys(props))).toEqual(where('returned'));
    for (const [name, p] of Object.entries(props)) {
      const f = row(name);
      expect([name, types(p).filter((t) => t !== 'null')]).toEqual([name, [f.type]]);
      if (types(p).includes('null')) expect([name, f.nullable]).toEqual([name, true]);
    }
  });

  it('AlertBody has the sent fields; null allowed exactly for the optional ones', () => {
    const props = schema('AlertBody');
    expect(sorted(Object.keys(props))).toEqual(where('sent'));
    for (const [name, p] of Object.entries(props)) {
      const f = row(name);
      expect([name, types(p)]).toEqual([name, f.optional ? [f.type, 'null'] : [f.type]]);
    }
  });

  describe('over HTTP', () => {
    const emu = useEmulator();
    const T = DEMO_ACCOUNT.token;

    it('answers with the returned fields (the target as the detail of its kind), and an edit changes every sent field', async () => {
      const created = await call(emu().url, 'POST', '/api/alerts/', { token: T, json: requestBody(desired) });
      expect(created.status).toBe(200);
      const list = async () => (await call(emu().url, 'GET', '/api/alerts/', { token: T })).body.alerts as any[];
      const [before] = await list();
      const target = (kind: string) => (kind === 'domain' ? 'target_subdomain' : 'target_domain');
      expect(sorted(Object.keys(before))).toEqual(where('returned').filter((f) => f !== target('domain')));

      for (const f of SPEC_FIELDS) expect([f, other[f]]).not.toEqual([f, desired[f]]);
      const patched = await call(emu().url, 'PATCH', `/api/alerts/${before.id}`, {
        token: T,
        json: requestBody(other),
      });
      expect(patched.status).toBe(200);
      const [after] = await list();
      expect(sorted(Object.keys(after))).toEqual(where('returned').filter((f) => f !== target('subdomain')));
      expect(diffAlert(other, readLiveAlert(after))).toEqual([]);
    });
  });
});

describe('the generated L1 bindings', () => {
  it('networkcalc_alert takes the sent fields and reads every attribute', () => {
    const json = synthWithAccount((stack) => {
      const config = Object.fromEntries(where('sent').map((f) => [camel(f), desired[f as SpecField]]));
      new AlertL1(stack, 'L1', config as unknown as ConstructorParameters<typeof AlertL1>[2]);
    });
    const written = parse(json).resource.networkcalc_alert.L1;
    expect(sorted(Object.keys(written).filter((k) => k !== '//' && k !== 'provider'))).toEqual(where('sent'));
    const getters = (proto: object) =>
      Object.entries(Object.getOwnPropertyDescriptors(proto))
        .filter(([k, d]) => d.get && !k.endsWith('Input') && k !== 'internalValue')
        .map(([k]) => k)
        .sort();
    expect(getters(AlertL1.prototype)).toEqual(where('attribute').map(camel).sort());
    expect(getters(DataNetworkcalcAlertsAlertsOutputReference.prototype)).toEqual(where('listed').map(camel).sort());
  });

  it('the Alert construct maps onto the sent fields', () => {
    const json = synthWithAccount((stack) => {
      new Alert(stack, 'A', {
        name: DNS_BODY.name,
        target: AlertTarget.domainId(DNS_BODY.target_id),
        dnsRecord: { record: DNS_BODY.subtype, filter: DNS_BODY.filter, value: DNS_BODY.filter_value },
      });
    });
    const [written] = Object.values(parse(json).resource.networkcalc_alert) as Record<string, unknown>[];
    const { ['//']: _meta, provider: _provider, ...fields } = written;
    expect(fields).toEqual(requestBody(desired));
  });
});

describe('ncalc', () => {
  it('reads every sent string field as a literal (a template in any of them is reported)', () => {
    const strings = where('sent').filter((f) => row(f).type === 'string');
    const body = Object.fromEntries(strings.map((f) => [f, '${var.x}']));
    const { problems } = readDesired([
      {
        name: 'main',
        json: { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: { A: { ...DNS_BODY, ...body } } } },
      },
    ]);
    const named = strings.filter((f) =>
      problems.some((p) => problemText(p).includes(`: ${f} "\${var.x}" holds a Terraform template`)),
    );
    expect(named).toEqual(strings);
  });

  it('knows exactly the sent fields as attributes of networkcalc_alert', () => {
    const { problems } = readDesired([
      {
        name: 'main',
        json: { provider: { networkcalc: [{}] }, resource: { networkcalc_alert: { A: { ...DNS_BODY, x: 1 } } } },
      },
    ]);
    expect(problems.map(problemText).join('\n')).toContain(
      `unknown attribute "x"; allowed: ${where('sent').join(', ')}`,
    );
  });

  const input = (): ExportInput => exportInput([readLiveAlert({ ...DNS_BODY, id: 7 })]);

  it('export --hcl writes every sent field of networkcalc_alert', () => {
    const hcl = exportHcl(input());
    const block = /resource "networkcalc_alert" "[a-z_]+" \{\n([\s\S]*?)\n\}/.exec(hcl)![1];
    const attrs = block.split('\n').map((line) => line.trim().split(/\s+=/)[0]);
    expect(attrs.sort()).toEqual(where('sent'));
  });

  it('export (TypeScript) writes every sent field into the Alert props', () => {
    const selection = selectForExport(input());
    const ts = exportTypeScript(input(), selection);
    // How each sent field shows in construct props; a field missing here is a field to export.
    const shown: Record<SpecField, string> = {
      name: `name: '${DNS_BODY.name}'`,
      type: 'dnsRecord: {',
      subtype: `record: '${DNS_BODY.subtype}'`,
      filter: `filter: '${DNS_BODY.filter}'`,
      filter_value: `value: '${DNS_BODY.filter_value}'`,
      target_type: 'AlertTarget.domainId(',
      target_id: `domainId(${DNS_BODY.target_id})`,
    };
    expect(sorted(Object.keys(shown))).toEqual(where('sent'));
    for (const f of where('sent')) expect([f, ts]).toEqual([f, expect.stringContaining(shown[f as SpecField])]);
  });
});
