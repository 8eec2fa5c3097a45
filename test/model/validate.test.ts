import {
  ALERT_TYPES,
  MATRIX,
  allowedCombinations,
  canonicalizeAlert,
  parseAlert,
  validateAlert,
  type AlertType,
} from '../../src/model';

/** A valid body for a combination, with a value that suits its filter. */
function bodyFor(type: string, subtype: string | null, filter: string): Record<string, unknown> {
  const value = filter === 'validity' ? undefined : filter === 'expires in (days)' ? '21' : 'v=spf1 -all';
  const body: Record<string, unknown> = {
    name: `${type} ${filter}`,
    type,
    filter,
    target_type: 'domain',
    target_id: 1,
  };
  if (subtype !== null) body.subtype = subtype;
  if (value !== undefined) body.filter_value = value;
  return body;
}

describe('validateAlert: the matrix of 2.4', () => {
  const combos = allowedCombinations();

  // Section 2.4, per type: a type added to the model without its count here does not compile.
  const PER_TYPE: { readonly [T in AlertType]: number } = {
    'DNS Record': 4 * 4,
    'SPF Record': 5,
    'Certificate (TLS)': 2,
  };

  it.each(ALERT_TYPES.map((t) => [t, PER_TYPE[t]] as const))(
    'knows the %s combinations of the interface (%d)',
    (t, n) => {
      expect(combos.filter((c) => c.type === t)).toHaveLength(n);
    },
  );

  it.each(combos.map((c) => [c.type, c.subtype ?? '(none)', c.filter, c] as const))(
    'accepts %s / %s / %s',
    (_t, _s, _f, c) => {
      expect(validateAlert(bodyFor(c.type, c.subtype, c.filter))).toEqual([]);
    },
  );

  it('rejects a subtype the type does not have, naming the allowed ones', () => {
    const problems = validateAlert({ ...bodyFor('DNS Record', 'A', 'equals'), subtype: 'AAAA' });
    expect(problems.map((p) => p.message)).toEqual([
      'subtype "AAAA" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT',
    ]);
    expect(problems[0]).toMatchObject({
      field: 'subtype',
      value: 'AAAA',
      kind: 'invalid',
      allowed: ['A', 'CNAME', 'MX', 'TXT'],
    });
  });

  it('requires a subtype for DNS Record', () => {
    const body = bodyFor('DNS Record', 'A', 'equals');
    delete body.subtype;
    expect(validateAlert(body).map((p) => p.message)).toEqual([
      'subtype is missing for type "DNS Record"; allowed: A, CNAME, MX, TXT',
    ]);
  });

  it.each(['SPF Record', 'Certificate (TLS)'])('rejects any subtype for %s', (type) => {
    const filter = MATRIX[type as keyof typeof MATRIX].filters[0];
    const problems = validateAlert({ ...bodyFor(type, null, filter), subtype: 'TXT' });
    expect(problems.map((p) => p.message)).toEqual([
      `subtype "TXT" is not valid for type "${type}"; it takes no subtype (leave it empty)`,
    ]);
  });

  it('rejects a filter of another type', () => {
    expect(
      validateAlert({ ...bodyFor('DNS Record', 'MX', 'equals'), filter: 'validity' }).map((p) => p.message),
    ).toEqual([
      'filter "validity" is not valid for type "DNS Record"; allowed: equals, does not equal, contains, does not contain',
    ]);
    expect(
      validateAlert({ ...bodyFor('Certificate (TLS)', null, 'subject'), filter: 'contains' }).map((p) => p.message),
    ).toEqual(['filter "contains" is not valid for type "Certificate (TLS)"; allowed: subject, expires in (days)']);
  });

  it('rejects an unknown type', () => {
    expect(
      validateAlert({ ...bodyFor('DNS Record', 'A', 'equals'), type: 'HTTP Check' }).map((p) => p.message),
    ).toEqual(['type "HTTP Check" is not valid; allowed: DNS Record, SPF Record, Certificate (TLS)']);
  });

  it.each([
    ['0', 'filter_value "0" is not valid for filter "expires in (days)"; give a positive whole number of days'],
    ['-3', 'filter_value "-3" is not valid for filter "expires in (days)"; give a positive whole number of days'],
    ['1.5', 'filter_value "1.5" is not valid for filter "expires in (days)"; give a positive whole number of days'],
    ['soon', 'filter_value "soon" is not valid for filter "expires in (days)"; give a positive whole number of days'],
    ['', 'filter_value is missing for filter "expires in (days)"; give a positive whole number of days'],
  ])('expires in (days) rejects %j', (value, message) => {
    const body = { ...bodyFor('Certificate (TLS)', null, 'expires in (days)'), filter_value: value };
    expect(validateAlert(body).map((p) => p.message)).toEqual([message]);
  });

  it('validity takes no value', () => {
    expect(validateAlert({ ...bodyFor('SPF Record', null, 'validity'), filter_value: '' })).toEqual([]);
    expect(
      validateAlert({ ...bodyFor('SPF Record', null, 'validity'), filter_value: 'strict' }).map((p) => p.message),
    ).toEqual(['filter_value "strict" is not valid for filter "validity"; it takes no value (leave it empty)']);
  });

  it('comparison filters need a value', () => {
    const body = bodyFor('SPF Record', null, 'contains');
    delete body.filter_value;
    expect(validateAlert(body)).toEqual([
      expect.objectContaining({
        field: 'filter_value',
        kind: 'missing',
        message: 'filter_value is missing for filter "contains"; give the value to compare',
      }),
    ]);
  });

  it('checks the target', () => {
    const problems = validateAlert({ ...bodyFor('DNS Record', 'A', 'equals'), target_type: 'host', target_id: 0 });
    expect(problems.map((p) => p.message)).toEqual([
      'target_type "host" is not valid; allowed: domain, subdomain',
      'target_id 0 is not valid; give the positive whole-number id of the domain or subdomain',
    ]);
  });

  it('reports every problem at once, in field order', () => {
    const problems = validateAlert({ type: 'DNS Record', subtype: 'SOA', filter: 'validity' });
    expect(problems.map((p) => p.field)).toEqual(['name', 'subtype', 'filter', 'target_type', 'target_id']);
    expect(problems.filter((p) => p.kind === 'missing').map((p) => p.field)).toEqual([
      'name',
      'target_type',
      'target_id',
    ]);
  });

  it('is strict about spelling: canonicalization is a separate step', () => {
    const sloppy = { ...bodyFor('DNS Record', 'A', 'equals'), type: 'dns record', subtype: 'a', filter: 'Equals' };
    expect(validateAlert(sloppy).map((p) => p.field)).toEqual(['type']);
    expect(parseAlert(sloppy)).toMatchObject({
      ok: true,
      alert: { type: 'DNS Record', subtype: 'A', filter: 'equals' },
    });
  });

  it('lists every type in ALERT_TYPES', () => {
    expect(Object.keys(MATRIX)).toEqual([...ALERT_TYPES]);
  });
});

describe('canonicalizeAlert', () => {
  it('folds case and spacing of documented names', () => {
    expect(
      canonicalizeAlert({
        name: '  www A  ',
        type: ' certificate  (tls) ',
        filter: 'EXPIRES IN  (DAYS)',
        filter_value: ' 021 ',
        target_type: 'Subdomain',
        target_id: '12',
      }),
    ).toEqual({
      name: 'www A',
      type: 'Certificate (TLS)',
      subtype: null,
      filter: 'expires in (days)',
      filter_value: '21',
      target_type: 'subdomain',
      target_id: 12,
    });
  });

  it('treats numbers and numeric strings alike', () => {
    const a = canonicalizeAlert({ ...bodyFor('Certificate (TLS)', null, 'expires in (days)'), filter_value: 21 });
    const b = canonicalizeAlert({ ...bodyFor('Certificate (TLS)', null, 'expires in (days)'), filter_value: '21' });
    expect(a).toEqual(b);
  });

  it('treats null, absent and empty alike', () => {
    const base = bodyFor('SPF Record', null, 'validity');
    const forms = [
      { ...base },
      { ...base, subtype: null, filter_value: null },
      { ...base, subtype: '', filter_value: '' },
      { ...base, subtype: '  ', filter_value: '  ' },
    ];
    const canonical = forms.map((f) => canonicalizeAlert(f));
    for (const c of canonical) expect(c).toEqual(canonical[0]);
    expect(canonical[0]).toMatchObject({ subtype: null, filter_value: '' });
  });

  it('is idempotent', () => {
    for (const c of allowedCombinations()) {
      const once = canonicalizeAlert(bodyFor(c.type, c.subtype, c.filter));
      expect(canonicalizeAlert(once)).toEqual(once);
    }
  });

  it('passes unrecognised values through for validation to report', () => {
    const result = parseAlert({ ...bodyFor('DNS Record', 'A', 'equals'), subtype: 'aaaa' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems[0].message).toBe(
        'subtype "AAAA" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT',
      );
  });
});
