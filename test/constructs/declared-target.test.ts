import { TerraformStack } from 'cdktf';
import {
  Alert,
  AlertTarget,
  Domain,
  NetworkcalcAccount,
  ReportTarget,
  ReportTrigger,
  Subdomain,
} from '../../src/constructs';
import { parse, synthError, synthWithAccount, tempApp } from './support';

/** The resources of one type, without cdktf's metadata. */
function resources(json: string, type: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [lid, r] of Object.entries((parse(json).resource?.[type] ?? {}) as Record<string, any>)) {
    const { ['//']: _meta, ...rest } = r;
    out[lid] = rest;
  }
  return out;
}

const tls = { certificate: { expiresInDays: 14 } };

describe('Domain and Subdomain', () => {
  test('GIVEN a domain, a subdomain, alerts by object and by name and a report THEN the JSON of the contract', () => {
    const json = synthWithAccount((stack) => {
      const shop = new Domain(stack, 'Shop', { name: 'shop.example' });
      const www = new Subdomain(stack, 'Www', { domain: shop, prefix: 'www' });
      new Alert(stack, 'ByObject', { name: 'www tls', target: www, ...tls });
      new Alert(stack, 'ByName', { name: 'apex tls', target: AlertTarget.domain('Shop.Example'), ...tls });
      new Alert(stack, 'ByOf', {
        name: 'www a',
        target: AlertTarget.of(www),
        dnsRecord: { record: 'A', filter: 'equals', value: '192.0.2.1' },
      });
      new ReportTrigger(stack, 'Report', { target: ReportTarget.of(shop) });
    });
    const domains = resources(json, 'networkcalc_domain');
    const [domainLid] = Object.keys(domains);
    expect(Object.values(domains)).toEqual([{ name: 'shop.example' }]);
    const subdomains = resources(json, 'networkcalc_subdomain');
    const [subLid] = Object.keys(subdomains);
    expect(Object.values(subdomains)).toEqual([{ domain_id: `\${networkcalc_domain.${domainLid}.id}`, prefix: 'www' }]);
    const alerts = Object.values(resources(json, 'networkcalc_alert'));
    const target = (name: string) => {
      const a = alerts.find((x) => x.name === name)!;
      return [a.target_type, a.target_id];
    };
    expect(target('www tls')).toEqual(['subdomain', `\${networkcalc_subdomain.${subLid}.id}`]);
    expect(target('www a')).toEqual(['subdomain', `\${networkcalc_subdomain.${subLid}.id}`]);
    expect(target('apex tls')).toEqual(['domain', `\${networkcalc_domain.${domainLid}.id}`]);
    expect(Object.values(resources(json, 'networkcalc_report_trigger'))[0]!.domain_id).toBe(
      `\${networkcalc_domain.${domainLid}.id}`,
    );
    // Nothing looked up: the declared domain answers the name.
    expect(parse(json).data?.networkcalc_domain).toBeUndefined();
  });

  test('GIVEN an aliased account THEN the resources name its provider; a subdomain by domain name or id', () => {
    const json = synthWithAccount((stack) => {
      const teamA = new NetworkcalcAccount(stack, 'TeamA', { alias: 'team_a' });
      const d = new Domain(stack, 'D', { account: teamA, name: 'a.example' });
      d.subdomain('my.demo');
      new Subdomain(stack, 'ByName', { account: teamA, domain: 'a.example', prefix: 'api' });
      new Subdomain(stack, 'ById', { account: teamA, domain: 42, prefix: 'old' });
    });
    const subs = Object.values(resources(json, 'networkcalc_subdomain'));
    const lid = Object.keys(resources(json, 'networkcalc_domain'))[0];
    expect(subs).toEqual(
      expect.arrayContaining([
        { domain_id: `\${networkcalc_domain.${lid}.id}`, prefix: 'my.demo', provider: 'networkcalc.team_a' },
        { domain_id: `\${networkcalc_domain.${lid}.id}`, prefix: 'api', provider: 'networkcalc.team_a' },
        { domain_id: 42, prefix: 'old', provider: 'networkcalc.team_a' },
      ]),
    );
    expect(Object.values(resources(json, 'networkcalc_domain'))).toEqual([
      { name: 'a.example', provider: 'networkcalc.team_a' },
    ]);
  });

  const failing = (build: (stack: TerraformStack) => void): string => {
    const { app } = tempApp();
    const stack = new TerraformStack(app, 'S');
    build(stack);
    return synthError(app);
  };

  test('GIVEN bad names, a name declared twice, a subdomain or alert across accounts, a late declaration THEN synth fails saying so', () => {
    expect(
      failing((s) => {
        new NetworkcalcAccount(s, 'A');
        new Domain(s, 'Bad', { name: 'https://x.example/path' });
        new Domain(s, 'Port', { name: 'x.example:8080' });
        new Domain(s, 'Ok', { name: 'bücher.example' });
        new Subdomain(s, 'BadPrefix', { domain: 'bücher.example', prefix: '-www' });
      }),
    ).toMatch(
      /domain name "https:\/\/x\.example\/path" is not valid[\s\S]*domain name "x\.example:8080" is not valid[\s\S]*subdomain prefix "-www" of xn--bcher-kva\.example is not valid/,
    );
    expect(
      failing((s) => {
        new NetworkcalcAccount(s, 'A');
        new Domain(s, 'One', { name: 'dup.example' });
        new Domain(s, 'Two', { name: 'DUP.example.' });
      }),
    ).toContain('domain "DUP.example." is declared twice in account S/A (S/One and S/Two)');
    expect(
      failing((s) => {
        const a = new NetworkcalcAccount(s, 'A', { alias: 'a' });
        const b = new NetworkcalcAccount(s, 'B', { alias: 'b' });
        const d = new Domain(s, 'D', { account: a, name: 'a.example' });
        new Subdomain(s, 'Sub', { account: b, domain: d, prefix: 'www' });
        new Alert(s, 'Al', { account: b, name: 'x', target: d, ...tls });
      }),
    ).toMatch(
      /domain S\/D belongs to account S\/A, not to S\/B[\s\S]*target S\/D belongs to account S\/A, not to S\/B/,
    );
    expect(
      failing((s) => {
        new NetworkcalcAccount(s, 'A');
        new Alert(s, 'Early', { name: 'x', target: AlertTarget.domain('late.example'), ...tls });
        new Domain(s, 'Late', { name: 'late.example' });
      }),
    ).toContain('domain "late.example" was named by a target before this declaration');
  });

  test('GIVEN an internationalised name THEN the domain is declared as its A-label and found by its Unicode name', () => {
    const json = synthWithAccount((stack) => {
      new Domain(stack, 'Idn', { name: 'bücher.example' });
      new Alert(stack, 'A', { name: 'idn', target: AlertTarget.domain('BÜCHER.example'), ...tls });
    });
    expect(Object.values(resources(json, 'networkcalc_domain'))).toEqual([{ name: 'xn--bcher-kva.example' }]);
    const lid = Object.keys(resources(json, 'networkcalc_domain'))[0];
    expect(Object.values(resources(json, 'networkcalc_alert'))[0]!.target_id).toBe(`\${networkcalc_domain.${lid}.id}`);
  });
});
