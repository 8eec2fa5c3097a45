/** The rules of alert policies that the constructs and ncalc share (src/model/policy). */
import {
  checkAlert,
  checkKey,
  couldSelectHost,
  defaultCheckLabel,
  describeTargets,
  generatedAlertName,
  hostPatternProblem,
  matchesHostPattern,
  parsePolicyCheck,
  policyNameProblems,
  selectsHost,
  splitGeneratedName,
  type PolicyTargets,
} from '../../src/model/policy';

const ALL: PolicyTargets = { domains: true, subdomains: true, include: ['*'], exclude: [] };

describe('generated names', () => {
  test('are "<label> · <host>" and split back at the last separator', () => {
    expect(generatedAlertName('SPF validity', 'example.com')).toBe('SPF validity · example.com');
    expect(splitGeneratedName('SPF validity · example.com')).toEqual({ label: 'SPF validity', host: 'example.com' });
    expect(splitGeneratedName('a · b · www.example.com')).toEqual({ label: 'a · b', host: 'www.example.com' });
    expect(splitGeneratedName('www certificate')).toBeNull();
    expect(splitGeneratedName(' · example.com')).toBeNull();
  });

  test('default labels name what is checked, not the value', () => {
    expect(defaultCheckLabel({ type: 'Certificate (TLS)', filter: 'expires in (days)', filter_value: '21' })).toBe(
      'certificate expiry',
    );
    expect(defaultCheckLabel({ type: 'Certificate (TLS)', filter: 'subject', filter_value: 'CN=x' })).toBe(
      'certificate subject',
    );
    expect(defaultCheckLabel({ type: 'SPF Record', filter: 'validity' })).toBe('SPF validity');
    expect(defaultCheckLabel({ type: 'SPF Record', filter: 'contains', filter_value: 'include:x' })).toBe(
      'SPF contains',
    );
    expect(defaultCheckLabel({ type: 'DNS Record', subtype: 'MX', filter: 'contains', filter_value: 'mail' })).toBe(
      'DNS MX contains',
    );
  });
});

describe('host patterns', () => {
  test.each([
    ['*', 'example.com', true],
    ['*.example.com', 'www.example.com', true],
    ['*.example.com', 'a.b.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'wwwexample.com', false],
    ['example.*', 'example.org', true],
    ['Example.COM', 'example.com', true],
    ['ex-*.com', 'ex-1.com', true],
    ['ex-*.com', 'ex.com', false],
  ])('%s matches %s: %s', (pattern, host, expected) => {
    expect(matchesHostPattern(pattern, host)).toBe(expected);
  });

  test('a dot in a pattern is a dot, not any character', () => {
    expect(matchesHostPattern('a.example.com', 'abexample.com')).toBe(false);
  });

  test('bad patterns are named with what to write instead', () => {
    expect(hostPatternProblem('*.example.com', 'include[0]')).toBeNull();
    expect(hostPatternProblem('', 'include[0]')).toMatch(
      /^include\[0\] "" is not a pattern; give a host name in which \* stands for any run of characters/,
    );
    expect(hostPatternProblem(7, 'exclude[1]')).toMatch(/^exclude\[1\] 7 is not a pattern/);
    expect(hostPatternProblem('https://example.com', 'include[0]')).toBe(
      'include[0] "https://example.com" is not a valid pattern; use letters, digits, hyphens, dots and *, e.g. "*.example.com" or "example.*"',
    );
    expect(hostPatternProblem('ex?mple.com', 'include[0]')).toMatch(/is not a valid pattern/);
  });

  test('selection: kinds, include, then exclude', () => {
    const t: PolicyTargets = {
      domains: false,
      subdomains: true,
      include: ['*.example.com', '*.example.org'],
      exclude: ['legacy.*'],
    };
    expect(selectsHost(t, 'subdomain', 'www.example.com')).toBe(true);
    expect(selectsHost(t, 'domain', 'www.example.com')).toBe(false);
    expect(selectsHost(t, 'subdomain', 'www.example.net')).toBe(false);
    expect(selectsHost(t, 'subdomain', 'legacy.example.org')).toBe(false);
    expect(couldSelectHost(t, 'legacy.example.org')).toBe(false);
    expect(couldSelectHost(t, 'www.example.org')).toBe(true);
    expect(describeTargets(t)).toBe('subdomains matching *.example.com, *.example.org, except legacy.*');
    expect(describeTargets(ALL)).toBe('domains and subdomains');
  });
});

describe('parsePolicyCheck', () => {
  test('a valid check comes back canonical, its label trimmed', () => {
    expect(
      parsePolicyCheck({
        label: ' cert ',
        type: 'certificate (tls)',
        filter: 'Expires In (Days)',
        filter_value: '021',
      }),
    ).toEqual({
      ok: true,
      check: {
        label: 'cert',
        type: 'Certificate (TLS)',
        subtype: null,
        filter: 'expires in (days)',
        filter_value: '21',
      },
    });
  });

  test('a threshold "before renewal fails": an expiry check without a value; the days come per target', () => {
    const r = parsePolicyCheck({
      label: 'renewal',
      type: 'Certificate (TLS)',
      filter: 'expires in (days)',
      threshold: 'before renewal fails',
    });
    expect(r).toEqual({
      ok: true,
      check: {
        label: 'renewal',
        type: 'Certificate (TLS)',
        subtype: null,
        filter: 'expires in (days)',
        filter_value: '',
        threshold: 'before renewal fails',
      },
    });
    if (!r.ok) return;
    expect(checkAlert(r.check, 'subdomain', 7, 'www.example.com', 15).filter_value).toBe('15');
  });

  test('a threshold: only "before renewal fails", only for certificate expiry, never with a value', () => {
    const messages = (input: Record<string, unknown>) => {
      const r = parsePolicyCheck({ label: 'x', ...input });
      return r.ok ? [] : r.problems.map((p) => p.message);
    };
    const expiry = { type: 'Certificate (TLS)', filter: 'expires in (days)' };
    expect(messages({ ...expiry, threshold: 'soon' })).toEqual([
      'threshold "soon" is not valid; the only threshold is "before renewal fails"',
    ]);
    expect(messages({ ...expiry, threshold: 'before renewal fails', filter_value: '21' })).toEqual([
      'filter_value and threshold "before renewal fails" are both given; the threshold chooses the days per target, so leave filter_value out',
    ]);
    expect(messages({ type: 'SPF Record', filter: 'validity', threshold: 'before renewal fails' })).toEqual([
      'threshold "before renewal fails" is for Certificate (TLS) checks with filter "expires in (days)", not SPF Record "validity"',
    ]);
  });

  test('the alert model judges the check, the alert-name rule the label; every problem at once', () => {
    const r = parsePolicyCheck({ label: 'bad\nlabel', type: 'DNS Record', subtype: 'SRV', filter: 'validity' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => [p.field, p.message])).toEqual([
      [
        'label',
        'label "bad\\nlabel" cannot begin an alert name: name "bad\\nlabel · example.com" contains the control character U+000A at position 4; names are one line of printable text',
      ],
      ['subtype', 'subtype "SRV" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT'],
      [
        'filter',
        'filter "validity" is not valid for type "DNS Record"; allowed: equals, does not equal, contains, does not contain',
      ],
    ]);
  });

  test('a missing label is named as such', () => {
    const r = parsePolicyCheck({ type: 'SPF Record', filter: 'validity' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems.map((p) => p.message)).toEqual([
        `label null is not valid; give the check a non-empty label, the first part of its alerts' names`,
      ]);
  });
});

describe('checkKey: "the same check on the same target"', () => {
  const spec = {
    type: 'Certificate (TLS)',
    subtype: null,
    filter: 'expires in (days)',
    filter_value: '21',
    target_type: 'domain',
    target_id: 1,
  } as const;
  test('ignores the name and spelling, not the value or the target', () => {
    expect(checkKey({ ...spec, filter_value: '021', filter: 'Expires in (days)' } as never)).toBe(checkKey(spec));
    expect(checkKey({ ...spec, filter_value: '30' })).not.toBe(checkKey(spec));
    expect(checkKey({ ...spec, target_id: 2 })).not.toBe(checkKey(spec));
    expect(checkKey({ ...spec, target_type: 'subdomain' })).not.toBe(checkKey(spec));
  });
});

describe('policyNameProblems', () => {
  const baseline = {
    path: 'main/Baseline',
    mode: 'generate' as const,
    targets: { ...ALL, exclude: ['legacy.example.com'] },
    labels: ['SPF validity', 'certificate expiry'],
  };

  test('a declared alert named like a generated one, for a host the policy may select', () => {
    const problems = policyNameProblems(
      [baseline],
      [
        { path: 'main/Mine', name: 'SPF validity · WWW.example.com' },
        { path: 'main/Excluded', name: 'SPF validity · legacy.example.com' },
        { path: 'main/NotAHost', name: 'SPF validity · the apex' },
        { path: 'main/OtherLabel', name: 'SPF contains · example.com' },
      ],
    );
    expect(problems).toEqual([
      {
        policy: 'main/Baseline',
        message:
          'alert main/Mine is named "SPF validity · WWW.example.com", the name policy main/Baseline gives its "SPF validity" alert for www.example.com; ' +
          'rename the alert (an explicit alert for the same target and check wins over the generated one under any name), or exclude www.example.com from the policy',
      },
    ]);
  });

  test('require policies generate no names; two generate policies may not share a label', () => {
    const require = { ...baseline, path: 'main/Require', mode: 'require' as const };
    expect(policyNameProblems([require], [{ path: 'main/Mine', name: 'SPF validity · example.com' }])).toEqual([]);
    const second = { ...baseline, path: 'main/Second', labels: ['SPF validity'] };
    expect(policyNameProblems([baseline, second], [])).toEqual([
      {
        policy: 'main/Second',
        message:
          'policies main/Baseline and main/Second both generate alerts labelled "SPF validity", so their names would collide; give the checks of one of them other labels',
      },
    ]);
  });
});
