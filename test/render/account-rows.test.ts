/**
 * The per-account rows behind the summary table (text, JSON, markdown): one status per
 * account and command, and the one-line reason of a failed account, whatever failed: its
 * configuration, its list call, a change, a report or the check after apply.
 */
import { applySummary, planText } from '../../src/render/text';
import { PLAIN } from '../../src/render/style';
import { accountRows } from '../../src/render/totals';
import { failedPlan, type AccountPlan } from '../../src/plan/account-plan';
import { type ApplyReport } from '../../src/engine/apply';
import type { Change } from '../../src/plan/types';
import { account, accountPlan, scope, spec } from '../helpers/fixtures';

const plan = (label: string, changes: Change[] = []): AccountPlan =>
  accountPlan(account(label, { scopes: [scope({ stack: label, tokenEnv: `${label.toUpperCase()}_TOKEN` })] }), {
    changes,
    unchanged: 2,
  });

const create = (name: string): Change => ({
  action: 'create',
  reason: 'missing',
  name,
  id: null,
  scopeKey: 'x/networkcalc',
  stack: 'x',
  logicalId: null,
  path: null,
  before: null,
  after: spec(name),
  fields: [],
});

// An account whose secret is not set: failed at configuration, before any call.
const unconfigured = failedPlan(
  { account: account('acct51'), live: [], domains: null },
  { code: 'CONFIG_ERROR', message: 'ACCT51_TOKEN is not set\n(set it, or remove the stack)', retryable: false },
);

describe('account rows', () => {
  const quiet = plan('quiet');
  const busy = plan('busy', [create('a'), create('b')]);

  it('plan and drift: changes or none, drift or in sync, and failed with the first line of the reason', () => {
    expect(
      accountRows('plan', [quiet, busy, unconfigured]).map((r) => [r.account, r.status, r.create, r.reason]),
    ).toEqual([
      ['quiet', 'no_changes', 0, null],
      ['busy', 'changes', 2, null],
      ['acct51', 'failed', 0, 'CONFIG_ERROR: ACCT51_TOKEN is not set'],
    ]);
    expect(accountRows('drift', [quiet, busy]).map((r) => r.status)).toEqual(['in_sync', 'drift']);
  });

  it('apply: what was done, failed with the first failure and how many more, interrupted', () => {
    const err = { code: 'NOT_CREATED', message: 'refused', retryable: false };
    const half: ApplyReport = new Map([
      [busy, { results: [{ status: 'ok' as const }, { status: 'failed' as const, error: err }], triggerResults: [] }],
    ]);
    expect(accountRows('apply', [busy], half)[0]).toMatchObject({
      create: 1,
      failed: 1,
      status: 'failed',
      reason: 'create "b": NOT_CREATED: refused',
    });
    const both: ApplyReport = new Map([
      [
        busy,
        {
          results: [
            { status: 'failed' as const, error: err },
            { status: 'failed' as const, error: err },
          ],
          triggerResults: [],
        },
      ],
    ]);
    expect(accountRows('apply', [busy], both)[0]!.reason).toBe('create "a": NOT_CREATED: refused (and 1 more)');
    const stopped: ApplyReport = new Map([
      [
        busy,
        {
          results: [{ status: 'ok' as const }, { status: 'skipped' as const, note: 'not started' }],
          triggerResults: [],
        },
      ],
    ]);
    expect(accountRows('apply', [busy], stopped)[0]).toMatchObject({ create: 1, status: 'interrupted', reason: null });
    const done: ApplyReport = new Map([
      [busy, { results: [{ status: 'ok' as const }, { status: 'adopted' as const, id: 4 }], triggerResults: [] }],
    ]);
    expect(accountRows('apply', [quiet, busy, unconfigured], done).map((r) => r.status)).toEqual([
      'no_changes',
      'applied',
      'failed',
    ]);
  });

  it('an account failed at configuration is a failed row and the last lines of plan and apply', () => {
    const text = planText([busy, unconfigured], 'plan', PLAIN).trimEnd().split('\n');
    expect(text).toContain('  acct51        0       0       0  failed   CONFIG_ERROR: ACCT51_TOKEN is not set');
    expect(text.slice(-2)).toEqual(['1 of 2 accounts failed:', '  ✗ acct51: CONFIG_ERROR: ACCT51_TOKEN is not set']);
    const done: ApplyReport = new Map([
      [busy, { results: [{ status: 'ok' as const }, { status: 'ok' as const }], triggerResults: [] }],
    ]);
    const end = applySummary([busy, unconfigured], done, PLAIN).trimEnd().split('\n');
    expect(end.slice(-3)).toEqual([
      'Apply finished with errors: 2 created, 0 updated, 0 deleted, 0 failed; 1 of 2 accounts could not be planned.',
      '1 of 2 accounts failed:',
      '  ✗ acct51: CONFIG_ERROR: ACCT51_TOKEN is not set',
    ]);
  });
});
