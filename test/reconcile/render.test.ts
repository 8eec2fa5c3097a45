import type { AlertSpec, LiveAlert } from '../../src/model';
import { PLAIN, changeLines, targetNames } from '../../src/reconcile';
import type { Change } from '../../src/reconcile/types';

const spec = (over: Partial<AlertSpec> = {}): AlertSpec => ({
  name: 'a', type: 'DNS Record', subtype: 'A', filter: 'equals', filter_value: '192.0.2.1', target_type: 'domain', target_id: 1, ...over,
});

const live = (over: Partial<LiveAlert>): LiveAlert => ({
  ...spec(), id: 9, user_id: 1, is_active: true, current_status: 'healthy', action: 'email', last_triggered_at: null,
  target_domain: null, target_subdomain: null, ...over,
});

describe('target names in plan output', () => {
  // GIVEN names from the domains list and from a live alert's target details
  const names = targetNames({
    domains: [{ id: 1, domain: 'example.com', subdomains: [{ id: 2, domain_id: 1, prefix: 'www', subdomain: 'www.example.com' }] }],
    live: [live({ target_type: 'domain', target_id: 4, target_domain: { id: 4, domain: 'example.org' } })],
  } as never);

  it('knows domains and subdomains from both sources', () => {
    expect([...names.entries()].sort()).toEqual([
      ['domain:1', 'example.com'],
      ['domain:4', 'example.org'],
      ['subdomain:2', 'www.example.com'],
    ]);
  });

  it('annotates the target id of a create, and both ends of a target change', () => {
    const create = { action: 'create', name: 'a', id: null, path: 's/A', after: spec({ target_type: 'subdomain', target_id: 2 }), before: null, fields: [] } as unknown as Change;
    expect(changeLines(create, PLAIN, true, undefined, names)).toContain('      target_id:    2  # www.example.com');

    const move = {
      action: 'update', name: 'a', id: 9, path: 's/A', before: spec({ target_id: 4 }), after: spec({ target_id: 1 }),
      fields: [{ field: 'target_id', before: 4, after: 1 }],
    } as unknown as Change;
    expect(changeLines(move, PLAIN, true, undefined, names)).toEqual([
      '  ~ alert "a" id 9 (s/A)',
      '      target_id: 4 → 1  # example.org → example.com',
    ]);
  });

  it('prints ids alone when no name is known', () => {
    const create = { action: 'create', name: 'a', id: null, path: null, after: spec({ target_id: 77 }), before: null, fields: [] } as unknown as Change;
    expect(changeLines(create, PLAIN, true, undefined, names)).toContain('      target_id:    77');
  });
});
