import { type LiveAlert } from '../../src/model';
import { applySummary, changeLines, driftText } from '../../src/render/text';
import { reportDocument } from '../../src/render/html/report-data';
import { PLAIN } from '../../src/render/style';
import { driftMarkdown } from '../../src/render/markdown-report';
import { targetNames } from '../../src/plan/targets';
import { type AccountPlan } from '../../src/plan/account-plan';
import { type ApplyReport } from '../../src/engine/apply';
import type { Change } from '../../src/plan/types';
import { account, accountPlan, alertSpec, liveAlert } from '../helpers/fixtures';

const live = (over: Partial<LiveAlert>): LiveAlert => liveAlert(9, { name: 'a', ...over });

describe('target names in plan output', () => {
  // GIVEN names from the domains list and from a live alert's target details
  const names = targetNames({
    domains: [
      {
        id: 1,
        domain: 'example.com',
        subdomains: [{ id: 2, domain_id: 1, prefix: 'www', subdomain: 'www.example.com' }],
      },
    ],
    live: [live({ target_type: 'domain', target_id: 4, target_domain: { id: 4, domain: 'example.org' } })],
  });

  it('knows domains and subdomains from both sources', () => {
    expect([...names.entries()].sort()).toEqual([
      ['domain:1', 'example.com'],
      ['domain:4', 'example.org'],
      ['subdomain:2', 'www.example.com'],
    ]);
  });

  it('annotates the target id of a create, and both ends of a target change', () => {
    const create = {
      action: 'create',
      name: 'a',
      id: null,
      path: 's/A',
      after: alertSpec({ target_type: 'subdomain', target_id: 2 }),
      before: null,
      fields: [],
    } as unknown as Change;
    expect(changeLines(create, PLAIN, true, undefined, names)).toContain('      target_id:    2  # www.example.com');

    const move = {
      action: 'update',
      name: 'a',
      id: 9,
      path: 's/A',
      before: alertSpec({ target_id: 4 }),
      after: alertSpec({ target_id: 1 }),
      fields: [{ field: 'target_id', before: 4, after: 1 }],
    } as unknown as Change;
    expect(changeLines(move, PLAIN, true, undefined, names)).toEqual([
      '  ~ alert "a" id 9 (s/A)',
      '      target_id: 4 → 1  # example.org → example.com',
    ]);
  });

  it('prints ids alone when no name is known', () => {
    const create = {
      action: 'create',
      name: 'a',
      id: null,
      path: null,
      after: alertSpec({ target_id: 77 }),
      before: null,
      fields: [],
    } as unknown as Change;
    expect(changeLines(create, PLAIN, true, undefined, names)).toContain('      target_id:    77');
  });
});

describe('summaries', () => {
  const inSync = accountPlan(account('good'), { unchanged: 3 });
  const failed: AccountPlan = {
    ...inSync,
    account: account('bad'),
    status: 'error',
    unchanged: 0,
    error: { code: 'NOT_AUTHORIZED', message: 'listAlerts failed: NOT_AUTHORIZED (HTTP 401)', retryable: false },
  };

  it('the markdown drift headline is never green while an account could not be checked', () => {
    const text = driftMarkdown([inSync, failed]);
    expect(text).not.toContain('✅');
    expect(text).toContain(
      '❌ **Not fully checked**: no drift in the accounts checked (3 alerts), 1 account not checked.',
    );
    expect(driftMarkdown([inSync])).toContain('✅ **In sync**: 3 alerts match the code.');
  });

  it('a create on a target no live alert watches reads as a new target in text, markdown and the report, not as a deletion', () => {
    const create = (name: string, newTarget: boolean): Change => ({
      action: 'create',
      reason: 'missing',
      name,
      id: null,
      scopeKey: 'good/networkcalc',
      stack: 'good',
      logicalId: null,
      path: `good/${name}`,
      before: null,
      after: alertSpec({ name }) as Change['after'],
      fields: [],
      ...(newTarget ? { newTarget: true as const } : {}),
    });
    const plan = accountPlan(account('good'), { changes: [create('on new.example', true), create('gone', false)] });
    const text = driftText([plan], PLAIN);
    expect(text).toMatch(
      /\+ alert "on new\.example" \(good\/on new\.example\) {2}# new target \(no alert of the account watches it yet\); apply creates it/,
    );
    expect(text).toMatch(/\+ alert "gone" .*# missing \(deleted out of band\); apply creates it/);
    const md = driftMarkdown([plan]);
    expect(md).toContain('new target (no alert of the account watches it yet); apply creates it');
    expect(md).toContain('missing (deleted out of band); apply creates it');
    const doc = reportDocument([plan], null, { now: new Date(0) }) as {
      accounts: Array<{ changes: Array<{ drift: string }> }>;
    };
    expect(doc.accounts[0]!.changes.map((c) => c.drift)).toEqual(['new', 'missing']);
  });

  it('destroy says destroy', () => {
    const gone: Change = {
      action: 'delete',
      reason: 'destroy',
      name: 'a',
      id: 1,
      scopeKey: 'good/networkcalc',
      stack: 'good',
      logicalId: null,
      path: null,
      before: alertSpec(),
      after: null,
      fields: [],
    };
    const deleted: AccountPlan = { ...inSync, changes: [gone] };
    const report: ApplyReport = new Map([[deleted, { results: [{ status: 'ok', id: 1 }], triggerResults: [] }]]);
    expect(applySummary([deleted], report, PLAIN, 'destroy')).toContain(
      'Destroy complete: 0 created, 0 updated, 1 deleted, 0 failed.',
    );
    expect(applySummary([deleted], report, PLAIN)).toContain('Apply complete:');
  });
});
