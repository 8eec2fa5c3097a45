/**
 * GIVEN a drift report too long for a GitHub comment or issue body
 * WHEN it is rendered as markdown
 * THEN it stays within 65,536 characters and says what it left out.
 */
import type { AccountPlan } from '../../src/plan/account-plan';
import { GITHUB_BODY_LIMIT, accountMarker, driftMarkdown } from '../../src/render/markdown-report';
import type { Change } from '../../src/plan/types';
import { unifiedDiff } from '../../src/codegen/patch';
import type { Suggestion } from '../../src/codegen/suggestion';
import { account, accountPlan } from '../helpers/fixtures';

function planWith(n: number): { plan: AccountPlan; suggestions: Suggestion[] } {
  const changes: Change[] = [];
  const suggestions: Suggestion[] = [];
  const source =
    Array.from({ length: n * 6 }, (_, i) => `line ${i} of the app, long enough to make a diff of some size`).join(
      '\n',
    ) + '\n';
  for (let i = 0; i < n; i++) {
    const name = `alert ${String(i).padStart(5, '0')}`;
    changes.push({
      action: 'update',
      reason: 'changed',
      name,
      id: i + 1,
      scopeKey: 'main/networkcalc',
      stack: 'main',
      logicalId: `A${i}`,
      path: `main/A${i}`,
      before: null,
      after: null,
      fields: [{ field: 'filter_value', before: '30', after: '21' }],
    });
    const at = source.indexOf(`line ${i * 6 + 3} `);
    const edits = [{ start: at, end: at + 4, text: 'LINE' }];
    suggestions.push({
      kind: 'changed',
      account: 'main',
      alert: name,
      path: `main/A${i}`,
      file: 'main.ts',
      line: i * 6 + 4,
      summary: `main/A${i}: filter_value changed in the account`,
      edits,
      diff: unifiedDiff('main.ts', source, edits),
    });
  }
  const plan = accountPlan(
    account('main', {
      key: 'https://networkcalc.com token sha256:1',
      baseUrl: 'https://networkcalc.com',
      identity: 'token sha256:1',
      credentials: { baseUrl: 'https://networkcalc.com' },
    }),
    { changes },
  );
  return { plan, suggestions };
}

it('fits: the whole report with its diffs when it is short', () => {
  const { plan, suggestions } = planWith(5);
  const md = driftMarkdown([plan], undefined, suggestions);
  expect(md.length).toBeLessThan(GITHUB_BODY_LIMIT);
  expect(md.match(/<details>/g)).toHaveLength(5);
});

it('leaves the diffs out first, keeping a line per alert', () => {
  const { plan, suggestions } = planWith(150);
  const full = suggestions.reduce((n, s) => n + s.diff!.length, 0);
  expect(full).toBeGreaterThan(GITHUB_BODY_LIMIT);
  const md = driftMarkdown([plan], undefined, suggestions);
  expect(md.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
  expect(md).not.toContain('<details>');
  expect(md.match(/diff left out: the report is over the size limit/g)).toHaveLength(150);
});

it('then cuts lines from the end and says how many, the marker kept', () => {
  const { plan, suggestions } = planWith(1500);
  const marker = accountMarker(plan);
  const md = driftMarkdown([plan], undefined, suggestions, marker);
  expect(md.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
  expect(md.startsWith(`${marker}\n## NetworkCalc alert drift`)).toBe(true);
  expect(md).toMatch(/_… \d+ more lines not shown: the report is over GitHub's 65,536-character limit\./);
});
