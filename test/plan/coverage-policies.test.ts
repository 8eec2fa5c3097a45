/**
 * Alert policies in the reconciler: read strictly from the JSON (readDesired), expanded
 * against a domains list, and planned by the real planner; the coverage each cell reports.
 */
import { type AlertSpec, type LiveAlert } from '../../src/model';
import { expandPolicies, type DeclaredPolicy } from '../../src/plan/coverage';
import { readDesired } from '../../src/read/desired';
import { planScope } from '../../src/plan/plan';
import type { ApiDomain } from '../../src/plan/types';
import { declared, liveAlert, scope, SPF_VALIDITY } from '../helpers/fixtures';
import { problemText } from '../../src/model/problems';

const SCOPE = scope({ stack: 'main' });

const DOMAINS: ApiDomain[] = [
  { id: 1, domain: 'example.com', subdomains: [{ id: 2, domain_id: 1, prefix: 'www', subdomain: 'www.example.com' }] },
  { id: 4, domain: 'Example.ORG', subdomains: [] },
];

const CERT = {
  label: 'certificate expiry',
  type: 'Certificate (TLS)' as const,
  subtype: null,
  filter: 'expires in (days)',
  filter_value: '21',
};
const SPF = { label: 'SPF validity', type: 'SPF Record' as const, subtype: null, filter: 'validity', filter_value: '' };

const policy = (over: Partial<DeclaredPolicy> = {}): DeclaredPolicy => ({
  stack: 'main',
  logicalId: 'Baseline_1',
  path: 'main/Baseline',
  scopeKey: SCOPE.key,
  mode: 'generate',
  targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
  checks: [CERT, SPF],
  ...over,
});

const live = (id: number, name: string, over: Partial<AlertSpec>): LiveAlert =>
  liveAlert(id, { name, ...SPF_VALIDITY, ...over });

function stackWith(policies: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { provider: { networkcalc: [{}] }, '//': { metadata: {}, networkcalc_alert_policies: policies }, ...extra };
}

describe('readDesired: policies', () => {
  test('a policy as the construct writes it is read with its scope; defaults for what is left out', () => {
    const d = readDesired([
      {
        name: 'main',
        json: stackWith({
          Baseline_1: {
            path: 'main/Baseline',
            mode: 'require',
            checks: [{ label: 'spf', type: 'spf record', filter: 'Validity' }],
          },
        }),
      },
    ]);
    expect(d.problems.map(problemText)).toEqual([]);
    expect(d.policies).toEqual([
      {
        stack: 'main',
        logicalId: 'Baseline_1',
        path: 'main/Baseline',
        scopeKey: 'main/networkcalc',
        mode: 'require',
        targets: { domains: true, subdomains: true, include: ['*'], exclude: [] },
        checks: [{ label: 'spf', type: 'SPF Record', subtype: null, filter: 'validity', filter_value: '' }],
      },
    ]);
  });

  test('strict: the wrong shape, unknown attributes, an unknown provider, duplicate labels and checks', () => {
    const d = readDesired([
      {
        name: 'main',
        json: stackWith({
          A: {
            mode: 'generate',
            provider: 'networkcalc.other',
            checks: [SPF, { ...SPF, label: 'again' }, { ...CERT, label: 'SPF validity' }],
            colour: 'red',
          },
          B: { mode: 'require', targets: [], checks: [] },
        }),
      },
      { name: 'two', json: { '//': { networkcalc_alert_policies: ['x'] } } },
    ]);
    expect(d.problems.map(problemText)).toEqual([
      'stack main, policy A: provider "networkcalc.other" is not configured in this stack (configured: networkcalc); add a NetworkcalcAccount with that alias or fix the reference',
      'stack main, policy A: unknown attribute "colour"; allowed: checks, mode, path, provider, targets',
      'stack main, policy A: checks[0] and checks[1] check the same thing; remove one',
      'stack main, policy A: checks[0] and checks[2] are both labelled "SPF validity"; give each check its own label',
      'stack main, policy B: targets is an array; expected an object (domains, subdomains, include, exclude)',
      'stack main, policy B: checks is an array (empty); expected a non-empty array of checks',
      'stack two: //.networkcalc_alert_policies is an array; expected an object of policies keyed by logical id',
    ]);
    expect(d.policies).toEqual([]);
  });

  test('declared alerts named like generated ones, and unprefixed labels in a prefix scope, are refused', () => {
    const withChecks = (checks: unknown[]) => {
      const json = stackWith(
        { Baseline_1: { path: 'main/Baseline', mode: 'generate', checks } },
        {
          resource: {
            networkcalc_alert: {
              Mine: {
                name: 'team-SPF · www.example.com',
                type: 'SPF Record',
                filter: 'validity',
                target_type: 'subdomain',
                target_id: 2,
              },
            },
          },
        },
      );
      (json.provider as any).networkcalc[0] = { ownership: 'prefix', ownership_prefix: 'team-' };
      return readDesired([{ name: 'main', json }]).problems.map(problemText);
    };
    // A label without the prefix is not rewritten: the problem says what to write.
    expect(withChecks([{ ...SPF, label: 'team-SPF' }, CERT])).toEqual([
      'stack main, policy main/Baseline: checks[1]: label "certificate expiry" does not start with the ownership prefix "team-" of provider networkcalc, so its alerts would be outside the scope; write label "team-certificate expiry"',
    ]);
    expect(
      withChecks([
        { ...SPF, label: 'team-SPF' },
        { ...CERT, label: 'team-certificate expiry' },
      ]),
    ).toEqual([
      'alert main/Mine is named "team-SPF · www.example.com", the name policy main/Baseline gives its "team-SPF" alert for www.example.com; ' +
        'rename the alert (an explicit alert for the same target and check wins over the generated one under any name), or exclude www.example.com from the policy',
    ]);
  });
});

describe('expandPolicies', () => {
  test('one alert per selected target and check, named <label> · <host> in canonical form; explicit alerts win', () => {
    const explicit = declared('www spf', { ...SPF_VALIDITY, target_type: 'subdomain', target_id: 2 }, 'main');
    const x = expandPolicies([policy()], [explicit], DOMAINS);
    expect(x.alerts.map((a) => [a.spec.name, a.spec.target_type, a.spec.target_id, a.path])).toEqual([
      ['certificate expiry · example.com', 'domain', 1, 'main/Baseline'],
      ['SPF validity · example.com', 'domain', 1, 'main/Baseline'],
      ['certificate expiry · www.example.com', 'subdomain', 2, 'main/Baseline'],
      ['certificate expiry · example.org', 'domain', 4, 'main/Baseline'],
      ['SPF validity · example.org', 'domain', 4, 'main/Baseline'],
    ]);
  });

  test('two policies making one check on one target: the first by construct path generates it', () => {
    const second = policy({
      path: 'main/Another',
      logicalId: 'Another_1',
      checks: [{ ...SPF, label: 'spf' }],
      targets: { domains: true, subdomains: false, include: ['example.org'], exclude: [] },
    });
    const x = expandPolicies([policy({ checks: [SPF] }), second], [], DOMAINS);
    expect(x.alerts.map((a) => a.spec.name)).toEqual([
      'spf · example.org',
      'SPF validity · example.com',
      'SPF validity · www.example.com',
    ]);
  });

  test('planned by the real planner: a generated alert of a domain no longer listed is deleted (exclusive scope); require creates nothing', () => {
    const x = expandPolicies(
      [policy({ checks: [SPF] }), policy({ path: 'main/Audit', mode: 'require', checks: [CERT] })],
      [],
      DOMAINS,
    );
    const have = [
      live(10, 'SPF validity · example.com', {}),
      live(11, 'SPF validity · gone.example.com', { target_type: 'subdomain', target_id: 99 }),
      live(12, 'old cert', {
        type: 'Certificate (TLS)',
        filter: 'expires in (days)',
        filter_value: '21',
        target_id: 4,
      }),
    ];
    const plan = planScope(SCOPE, x.alerts, have);
    expect(plan.changes.map((c) => [c.action, c.name, c.reason])).toEqual([
      ['create', 'SPF validity · example.org', 'missing'],
      ['create', 'SPF validity · www.example.com', 'missing'],
      ['delete', 'SPF validity · gone.example.com', 'undeclared'],
      ['delete', 'old cert', 'undeclared'],
    ]);
    // As planAll hands them over (fromPolicy): www.example.com, which no live alert watches, is a
    // new target; example.org has a live alert on it, so its missing one was deleted.
    const asPlanned = planScope(
      SCOPE,
      x.alerts.map((a) => ({ ...a, fromPolicy: true as const })),
      have,
    );
    expect(asPlanned.changes.filter((c) => c.action === 'create').map((c) => [c.name, c.newTarget ?? false])).toEqual([
      ['SPF validity · example.org', false],
      ['SPF validity · www.example.com', true],
    ]);
    const report = x.report(have, plan.changes)!;
    const cells = (path: string) =>
      report.policies
        .find((p) => p.path === path)!
        .rows.map((r) => [r.host, ...r.cells.map((c) => `${c.status} ${c.alert}`)]);
    expect(cells('main/Baseline')).toEqual([
      ['example.com', 'covered SPF validity · example.com'],
      ['www.example.com', 'pending SPF validity · www.example.com'],
      ['example.org', 'pending SPF validity · example.org'],
    ]);
    // old cert covers example.org now, but apply deletes it (undeclared): a gap.
    expect(cells('main/Audit')).toEqual([
      ['example.com', 'gap null'],
      ['www.example.com', 'gap null'],
      ['example.org', 'gap null'],
    ]);
    expect(x.report(have, plan.changes, 'destroy')).toBeUndefined();
  });
});
