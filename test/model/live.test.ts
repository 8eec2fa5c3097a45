import { diffAlert, readLiveAlert, requestBody, toAlertSpec, AlertValidationError } from '../../src/model';

const apiAlert = {
  id: '41',
  user_id: 7,
  name: 'www A',
  is_active: true,
  current_status: 'healthy',
  type: 'DNS Record',
  subtype: 'A',
  filter: 'equals',
  filter_value: '93.184.216.34',
  action: 'email',
  last_triggered_at: null,
  target_subdomain: { id: '12', domain_id: 3, prefix: 'www', subdomain: 'www.example.com' },
  some_future_field: { nested: true },
};

describe('readLiveAlert', () => {
  it('reads ids given as quoted strings and derives the target from target_subdomain', () => {
    const live = readLiveAlert(apiAlert);
    expect(live).toMatchObject({
      id: 41,
      target_type: 'subdomain',
      target_id: 12,
      last_triggered_at: null,
      user_id: 7,
    });
    expect(live).not.toHaveProperty('some_future_field');
  });

  it('prefers explicit target fields when the server sends them', () => {
    const live = readLiveAlert({
      ...apiAlert,
      target_type: 'domain',
      target_id: 3,
      target_subdomain: undefined,
      target_domain: { id: 3 },
    });
    expect(live).toMatchObject({ target_type: 'domain', target_id: 3 });
  });

  it('takes the id from the detail the target type names, whatever its case', () => {
    const live = readLiveAlert({
      ...apiAlert,
      target_type: 'Subdomain',
      target_subdomain: { id: 7 },
      target_domain: { id: 3 },
    });
    expect(live).toMatchObject({ target_type: 'subdomain', target_id: 7 });
  });

  it('reads an SPF alert whose subtype comes back empty', () => {
    const live = readLiveAlert({
      ...apiAlert,
      type: 'SPF Record',
      subtype: '',
      filter: 'validity',
      filter_value: null,
    });
    expect(live).toMatchObject({ subtype: null, filter_value: '' });
  });

  it('refuses an alert without an id', () => {
    expect(() => readLiveAlert({ ...apiAlert, id: undefined })).toThrow(/no usable id/);
  });

  it('refuses an alert without a name, with a name that is not a string, or without a target (one rule)', () => {
    expect(() => readLiveAlert({ ...apiAlert, id: 4, name: undefined })).toThrow('alert 4 in API response has no name');
    expect(() => readLiveAlert({ ...apiAlert, id: 4, name: 5 })).toThrow(
      'alert 4 in API response has a name that is not a string (5)',
    );
    const { target_domain: _d, target_subdomain: _s, ...untargeted } = apiAlert as Record<string, unknown>;
    expect(() =>
      readLiveAlert({ ...untargeted, id: 4, name: 'x', target_type: undefined, target_id: undefined }),
    ).toThrow(
      'alert 4 "x" in API response has no target (neither target_domain nor target_subdomain, nor target_type and target_id)',
    );
  });
});

describe('diffAlert', () => {
  const desired = toAlertSpec({
    name: 'www A',
    type: 'DNS Record',
    subtype: 'A',
    filter: 'equals',
    filter_value: '93.184.216.34',
    target_type: 'subdomain',
    target_id: 12,
  });

  it('sees no change when only server fields differ', () => {
    const live = readLiveAlert({
      ...apiAlert,
      current_status: 'triggered',
      last_triggered_at: '2026-11-01T00:00:00Z',
      user_id: 9,
      is_active: false,
    });
    expect(diffAlert(desired, live)).toEqual([]);
  });

  it('sees no change when the same intent is spelled differently', () => {
    const live = readLiveAlert({ ...apiAlert, subtype: 'a', filter: 'Equals', filter_value: ' 93.184.216.34 ' });
    expect(diffAlert(desired, live)).toEqual([]);
  });

  it('reports each changed field with before and after', () => {
    const live = readLiveAlert({
      ...apiAlert,
      filter_value: '1.2.3.4',
      target_subdomain: undefined,
      target_domain: { id: 3 },
    });
    expect(diffAlert(desired, live)).toEqual([
      { field: 'filter_value', before: '1.2.3.4', after: '93.184.216.34' },
      { field: 'target_type', before: 'domain', after: 'subdomain' },
      { field: 'target_id', before: 3, after: 12 },
    ]);
  });
});

describe('requestBody and toAlertSpec', () => {
  it('sends a null subtype for types that take none, so an edit clears the old one', () => {
    const spec = toAlertSpec({
      name: 'spf',
      type: 'SPF Record',
      filter: 'validity',
      target_type: 'domain',
      target_id: 3,
    });
    expect(requestBody(spec)).toEqual({
      name: 'spf',
      type: 'SPF Record',
      subtype: null,
      filter: 'validity',
      filter_value: '',
      target_type: 'domain',
      target_id: 3,
    });
  });

  it('throws every problem with the subject named', () => {
    try {
      toAlertSpec(
        {
          name: '',
          type: 'DNS Record',
          subtype: 'SRV',
          filter: 'equals',
          filter_value: 'x',
          target_type: 'domain',
          target_id: 1,
        },
        'alert "x"',
      );
      throw new Error('expected a validation error');
    } catch (e) {
      expect(e).toBeInstanceOf(AlertValidationError);
      expect((e as AlertValidationError).message).toBe(
        'alert "x": name is missing; give the alert a non-empty name; subtype "SRV" is not valid for type "DNS Record"; allowed: A, CNAME, MX, TXT',
      );
      expect((e as AlertValidationError).problems).toHaveLength(2);
    }
  });
});
