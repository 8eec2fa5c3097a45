/**
 * The saved-plan file on its own: what its digest covers, and that a file of the wrong shape
 * is refused with its JSON path even when its checksum was made to match.
 */
import { createHash } from 'node:crypto';
import { type LiveAlert } from '../../src/model';
import { PlanFileError, liveDigest, readSavedPlan } from '../../src/read/saved-plan';
import { alertSpec, liveAlert, scope } from '../helpers/fixtures';

describe('liveDigest', () => {
  const base = [liveAlert(1), liveAlert(2)];

  it('ignores order and the status fields the service changes by itself', () => {
    expect(liveDigest([liveAlert(2), liveAlert(1)])).toBe(liveDigest(base));
    expect(
      liveDigest([
        liveAlert(1, { current_status: 'triggered', last_triggered_at: '2024-01-01T00:00:00Z', is_active: false }),
        liveAlert(2),
      ]),
    ).toBe(liveDigest(base));
  });

  it.each<[string, LiveAlert[]]>([
    ['a setting', [liveAlert(1, { filter_value: '192.0.2.9' }), liveAlert(2)]],
    ['a name', [liveAlert(1, { name: 'renamed' }), liveAlert(2)]],
    ['a target', [liveAlert(1, { target_id: 4 }), liveAlert(2)]],
    ['an id (deleted and created again)', [liveAlert(3, { name: 'alert 1' }), liveAlert(2)]],
    ['a user', [liveAlert(1, { user_id: 2 }), liveAlert(2)]],
    ['one alert more', [...base, liveAlert(3)]],
    ['one alert less', [liveAlert(1)]],
  ])('changes with %s', (_what, changed) => {
    expect(liveDigest(changed)).not.toBe(liveDigest(base));
  });
});

/** A saved plan with a checksum that matches whatever the body says. */
function file(body: Record<string, unknown>): string {
  const checksum = `sha256:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;
  return JSON.stringify({ ...body, checksum });
}

const spec = alertSpec();
const change = {
  action: 'create',
  reason: 'missing',
  name: 'a',
  id: null,
  scopeKey: 'main/networkcalc',
  stack: 'main',
  logicalId: 'A',
  path: 'main/A',
  before: null,
  after: spec,
  fields: [],
};
const account = (over: Record<string, unknown> = {}) => ({
  key: 'k',
  label: 'main',
  base_url: 'http://127.0.0.1:1',
  identity: 'token sha256:00000000',
  scopes: [scope({ stack: 'main' })],
  live_alerts: { count: 0, digest: liveDigest([]) },
  unchanged: 0,
  warnings: [],
  changes: [change],
  triggers: [],
  domains: null,
  ...over,
});
const body = (accounts: unknown[]) => ({
  format: 'ncalc-saved-plan',
  format_version: '1.0',
  ncalc_version: '0',
  created_at: 'now',
  report_triggers: true,
  shard: null,
  accounts,
});

describe('readSavedPlan', () => {
  it('reads a well-formed file', () => {
    expect(readSavedPlan(file(body([account()])), 'p.json').accounts[0].changes).toEqual([change]);
  });

  it.each<[string, unknown, RegExp]>([
    [
      'an action it does not know',
      account({ changes: [{ ...change, action: 'rename' }] }),
      /p\.json: accounts\[0\]\.changes\[0\]\.action is not create, update or delete/,
    ],
    [
      'an alert the model refuses',
      account({ changes: [{ ...change, after: { ...spec, subtype: 'AAAA' } }] }),
      /accounts\[0\]\.changes\[0\]\.after is not a valid alert \(.*subtype/,
    ],
    [
      'a change in a scope the account lacks',
      account({ changes: [{ ...change, scopeKey: 'other/networkcalc' }] }),
      /changes\[0\]\.scopeKey is not one of the account's scopes/,
    ],
    [
      'an update without an id',
      account({ changes: [{ ...change, action: 'update' }] }),
      /changes\[0\]\.id is not an alert id/,
    ],
    [
      'an ownership it does not know',
      account({ scopes: [{ ...scope({ stack: 'main' }), ownership: 'all' }] }),
      /scopes\[0\]\.ownership is not one of exclusive, prefix, additive/,
    ],
    ['no digest', account({ live_alerts: null }), /accounts\[0\]\.live_alerts is not a count and a digest/],
  ])('refuses %s, naming where, even with a matching checksum', (_what, acc, message) => {
    let error: unknown;
    try {
      readSavedPlan(file(body([acc])), 'p.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PlanFileError);
    expect((error as PlanFileError).problems.join('\n')).toMatch(message);
    expect((error as PlanFileError).problems[0]).toMatch(/; make a new one with ncalc plan --save$/);
  });
});
