import { readDesired } from '../../src/read/desired';
import { problemText } from '../../src/model/problems';
import { alert, stack } from '../cli/support';
import type { Json } from '../../src/support/json';

/** A stack with declared domains and subdomains beside its alerts and triggers (the contract's JSON shape). */
function withTargets(
  opts: Parameters<typeof stack>[0] & { domains?: Record<string, Json>; subdomains?: Record<string, Json> },
): Json {
  const out = stack(opts);
  const resource = (out.resource ?? {}) as Record<string, Json>;
  if (opts.domains) resource.networkcalc_domain = opts.domains;
  if (opts.subdomains) resource.networkcalc_subdomain = opts.subdomains;
  out.resource = resource;
  return out;
}

const providers = [{ token_env: 'A_TOKEN' }, { alias: 'b', token_env: 'B_TOKEN' }];

function read(json: Json) {
  const d = readDesired([{ name: 'app', json }]);
  return { ...d, messages: d.problems.map(problemText) };
}

describe('declared domains and subdomains', () => {
  it('reads domains, subdomains and the alerts and triggers that refer to them', () => {
    const d = read(
      withTargets({
        provider: providers,
        domains: { ex: { name: 'Bücher.DE' }, b: { name: 'example.org', provider: 'networkcalc.b' } },
        subdomains: {
          www: { domain_id: '${networkcalc_domain.ex.id}', prefix: 'WWW' },
          byId: { domain_id: 7, prefix: 'my.demo' },
          byData: { domain_id: '${data.networkcalc_domain.old.id}', prefix: 'api' },
        },
        alerts: {
          OnDomain: alert({ name: 'apex', target_id: '${networkcalc_domain.ex.id}' }),
          OnSub: alert({ name: 'www', target_type: 'subdomain', target_id: '${networkcalc_subdomain.www.id}' }),
          OnById: alert({ name: 'demo', target_type: 'subdomain', target_id: '${networkcalc_subdomain.byId.id}' }),
        },
        triggers: { Rep: { subdomain_id: '${networkcalc_subdomain.www.id}' } },
        data: { networkcalc_domain: { old: { name: 'old.example' } } },
      }),
    );
    expect(d.messages).toEqual([]);
    expect(d.targets.map((t) => [t.resource, t.scopeKey, t.name, t.prefix])).toEqual([
      ['networkcalc_domain.ex', 'app/networkcalc', 'xn--bcher-kva.de', null],
      ['networkcalc_domain.b', 'app/networkcalc.b', 'example.org', null],
      ['networkcalc_subdomain.www', 'app/networkcalc', 'www.xn--bcher-kva.de', 'www'],
      ['networkcalc_subdomain.byId', 'app/networkcalc', null, 'my.demo'],
      ['networkcalc_subdomain.byData', 'app/networkcalc', 'api.old.example', 'api'],
    ]);
    expect(d.alerts.map((a) => a.target)).toEqual([
      { kind: 'declared', targetType: 'domain', name: 'xn--bcher-kva.de', resource: 'networkcalc_domain.ex' },
      {
        kind: 'declared',
        targetType: 'subdomain',
        name: 'www.xn--bcher-kva.de',
        resource: 'networkcalc_subdomain.www',
      },
      {
        kind: 'declared',
        targetType: 'subdomain',
        name: null,
        resource: 'networkcalc_subdomain.byId',
        under: { domainId: 7, prefix: 'my.demo' },
      },
    ]);
    expect(d.triggers[0]!.target).toMatchObject({ kind: 'declared', resource: 'networkcalc_subdomain.www' });
  });

  it('refuses bad names, dangling and cross-account references, and one name declared twice', () => {
    const d = read(
      withTargets({
        provider: providers,
        domains: {
          bad: { name: 'exa_mple.com' },
          one: { name: 'example.com' },
          two: { name: 'EXAMPLE.com.' },
          other: { name: 'example.net', provider: 'networkcalc.b' },
        },
        subdomains: {
          badPrefix: { domain_id: '${networkcalc_domain.one.id}', prefix: '-www' },
          dangling: { domain_id: '${networkcalc_domain.missing.id}', prefix: 'www' },
          cross: { domain_id: '${networkcalc_domain.other.id}', prefix: 'www' },
        },
        alerts: {
          Dangling: alert({ name: 'x', target_id: '${networkcalc_domain.nowhere.id}' }),
          Mismatch: alert({ name: 'y', target_type: 'subdomain', target_id: '${networkcalc_domain.one.id}' }),
        },
      }),
    );
    expect(d.messages).toEqual([
      expect.stringContaining('domain name "exa_mple.com" is not valid'),
      expect.stringContaining('subdomain prefix "-www" of example.com is not valid'),
      expect.stringContaining('domain_id refers to networkcalc_domain.missing, which this stack does not declare'),
      expect.stringContaining(
        'domain_id refers to networkcalc_domain.other of provider networkcalc.b, another account',
      ),
      expect.stringContaining('target_id refers to networkcalc_domain.nowhere, which this stack does not declare'),
      expect.stringContaining('target_type is "subdomain" but target_id refers to a domain (networkcalc_domain.one)'),
      expect.stringContaining('domain "example.com" is declared twice for provider networkcalc (app/one and app/two)'),
    ]);
    for (const m of d.messages) expect(m).not.toMatch(/\n\s+at /);
  });

  it('refuses an unknown attribute of a target resource', () => {
    const d = read(withTargets({ domains: { ex: { name: 'example.com', colour: 'red' } } }));
    expect(d.messages).toEqual([expect.stringContaining('unknown attribute "colour"; allowed: name')]);
  });
});
