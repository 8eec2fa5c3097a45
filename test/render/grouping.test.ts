import { driftText, planText } from '../../src/render/text';
import { driftMarkdown } from '../../src/render/markdown-report';
import { PLAIN } from '../../src/render/style';
import { GROUP_FIRST_LINES, GROUP_IN_ALL, GROUP_PER_ACCOUNT, textDetail } from '../../src/render/grouping';
import { type AccountPlan } from '../../src/plan/account-plan';
import type { Change, PlannedTrigger } from '../../src/plan/types';
import { account, accountPlan, spec } from '../helpers/fixtures';

const create = (i: number): Change => ({
  action: 'create',
  reason: 'missing',
  name: `alert-${i}`,
  id: null,
  scopeKey: 'acct/networkcalc',
  stack: 'acct',
  logicalId: null,
  path: `acct/A${i}`,
  before: null,
  after: spec(`alert-${i}`),
  fields: [],
});

const planOf = (label: string, creates: number, over: Partial<AccountPlan> = {}): AccountPlan =>
  accountPlan(account(label), { changes: Array.from({ length: creates }, (_, i) => create(i)), ...over });

describe('grouping text output by account', () => {
  it('groups above the per-account threshold or the threshold in all, never with --detail', () => {
    expect(GROUP_PER_ACCOUNT).toBe(50);
    expect(GROUP_IN_ALL).toBe(2000);
    expect(textDetail([planOf('a', 50)])).toBeNull();
    expect(textDetail([planOf('a', 51)])).toEqual({ firstLines: GROUP_FIRST_LINES });
    // 40 × 50 = 2,000 changes: at the threshold, not above it; one more account is.
    const forty = Array.from({ length: 40 }, (_, i) => planOf(`a${i}`, 50));
    expect(textDetail(forty)).toBeNull();
    expect(textDetail([...forty, planOf('b', 1)])).toEqual({ firstLines: GROUP_FIRST_LINES });
    expect(textDetail([planOf('a', 500)], true)).toBeNull();
  });

  it('below the threshold, the text is what it was without grouping', () => {
    const plans = [planOf('a', 50), planOf('b', 3)];
    expect(planText(plans, 'plan', PLAIN, textDetail(plans))).toBe(planText(plans, 'plan', PLAIN));
    expect(driftText(plans, PLAIN, textDetail(plans))).toBe(driftText(plans, PLAIN));
    // Every create with its fields.
    expect(planText(plans, 'plan', PLAIN).match(/^ {6}name: /gm)).toHaveLength(53);
  });

  it("above it, the plan shows each account's counts, its first lines and how many more", () => {
    const plans = [planOf('big', 60), planOf('small', 2)];
    const text = planText(plans, 'plan', PLAIN, textDetail(plans));
    const lines = text.split('\n');
    const at = lines.indexOf('Account big — http://127.0.0.1:1 (token sha256:00000000)');
    expect(lines.slice(at + 2, at + 2 + 1 + GROUP_FIRST_LINES + 1)).toEqual([
      '  60 changes: 60 to create, 0 to update, 0 to delete',
      ...Array.from({ length: GROUP_FIRST_LINES }, (_, i) => `  + alert "alert-${i}" (acct/A${i})`),
      '  … 50 more (`--detail` for all)',
    ]);
    // A small account in a grouped run: counts and its lines, nothing more to show.
    expect(text).toContain(
      '  2 changes: 2 to create, 0 to update, 0 to delete\n  + alert "alert-0" (acct/A0)\n  + alert "alert-1" (acct/A1)\n\n',
    );
    expect(text.match(/more \(`--detail` for all\)/g)).toHaveLength(1);
    // No field lines, and the totals still count everything.
    expect(text).not.toMatch(/^ {6}name: /m);
    expect(text).toContain('Plan: 62 to create, 0 to update, 0 to delete.');
    // With --detail: every line.
    expect(planText(plans, 'plan', PLAIN, textDetail(plans, true)).match(/^ {2}\+ alert /gm)).toHaveLength(62);
  });

  it('groups drift and report triggers the same way', () => {
    const trigger = (i: number): PlannedTrigger => ({
      stack: 'acct',
      logicalId: `R${i}`,
      path: `acct/R${i}`,
      scopeKey: 'acct/networkcalc',
      targetType: 'domain',
      targetId: i,
      targetName: null,
      triggers: {},
    });
    const withTriggers = planOf('t', 0, { triggers: Array.from({ length: 55 }, (_, i) => trigger(i)) });
    const planned = planText([withTriggers], 'plan', PLAIN, textDetail([withTriggers]));
    expect(planned.match(/^ {2}» /gm)).toHaveLength(GROUP_FIRST_LINES);
    expect(planned).toContain('  … 45 more (`--detail` for all)');

    const drifted = [planOf('d', 70)];
    const drift = driftText(drifted, PLAIN, textDetail(drifted));
    expect(drift).toContain('  70 differences: 70 missing, 0 edited, 0 to delete\n');
    expect(drift.match(/^ {2}\+ alert .*# missing \(deleted out of band\)/gm)).toHaveLength(GROUP_FIRST_LINES);
    expect(drift).toContain('  … 60 more (`--detail` for all)');
    expect(drift).toContain('Drift: 70 differences (70 missing, 0 edited, 0 to delete).');
  });

  /** An update of alert-<i>: renamed from console-<i> in the console, or changed. */
  const update = (i: number, reason: Change['reason']): Change => ({
    ...create(i),
    action: 'update',
    reason,
    id: i,
    before: spec(reason === 'renamed' ? `console-${i}` : `alert-${i}`),
  });

  it('drift counts a console rename as renamed, as docs/cli.md lists it, not as edited', () => {
    const changes = [create(0), update(1, 'renamed'), update(2, 'changed'), update(3, 'changed')];
    const drifted = [
      planOf('d', 0, { changes: [...changes, ...Array.from({ length: 60 }, (_, i) => create(10 + i))] }),
    ];
    const drift = driftText(drifted, PLAIN, textDetail(drifted));
    expect(drift).toContain('  64 differences: 61 missing, 2 edited, 1 renamed, 0 to delete\n');
    expect(drift).toContain('Drift: 64 differences (61 missing, 2 edited, 1 renamed, 0 to delete).');
  });

  it("drift's table of accounts has a renamed column when there is a rename, as its summary line counts it", () => {
    const plans = [
      planOf('renames', 0, { changes: [update(1, 'renamed'), update(2, 'renamed'), update(3, 'changed')] }),
      planOf('edits', 0, { changes: [create(0), update(4, 'changed')] }),
      planOf('clean', 0),
    ];
    const lines = driftText(plans, PLAIN).split('\n');
    const at = lines.indexOf('Accounts: 3 (2 drift, 1 in sync)');
    expect(lines.slice(at, at + 7)).toEqual([
      'Accounts: 3 (2 drift, 1 in sync)',
      '  account  missing  edited  renamed  to delete  status   error',
      '  renames        0       1        2          0  drift',
      '  edits          1       1        0          0  drift',
      '  clean          0       0        0          0  in sync',
      '',
      'Drift: 5 differences (1 missing, 2 edited, 2 renamed, 0 to delete).',
    ]);
    const markdown = driftMarkdown(plans);
    expect(markdown).toContain(
      '| Account | Missing | Edited | Renamed | To delete | Status | Error |\n|---|--:|--:|--:|--:|---|---|\n',
    );
    expect(markdown).toContain('| `renames` | 0 | 1 | 2 | 0 |');
    expect(markdown).toContain('| `edits` | 1 | 1 | 0 | 0 |');
    // Without a rename the table is as it was: no renamed column.
    const edits = driftText(plans.slice(1), PLAIN);
    expect(edits).toContain('  account  missing  edited  to delete  status   error\n');
    expect(driftMarkdown(plans.slice(1))).toContain('| Account | Missing | Edited | To delete | Status | Error |\n');
  });
});
