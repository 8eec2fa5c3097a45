/**
 * The markdown headline of a preview: it says how many alerts were evaluated, and is green only
 * when every alert of every account was evaluated and none fires.
 */
import { previewHeadline } from '../../src/render/preview';
import type { PreviewTotals } from '../../src/preview';

const totals = (t: Partial<PreviewTotals>): PreviewTotals => {
  const base = { fires: 0, quiet: 0, unknown: 0, newFiring: 0, warnings: 0, ...t };
  return { ...base, alerts: base.fires + base.quiet + base.unknown };
};

test.each<[string, Partial<PreviewTotals>, number, string]>([
  ['all evaluated, none fires', { quiet: 4 }, 0, '✅ **No alert would fire now** (all 4 alerts evaluated).'],
  ['one alert, evaluated', { quiet: 1 }, 0, '✅ **No alert would fire now** (the alert evaluated).'],
  [
    'some cannot be evaluated',
    { quiet: 3, unknown: 2 },
    0,
    '❔ **No alert would fire now among those evaluated** (3 of 5 alerts evaluated, 2 cannot be).',
  ],
  [
    'none can be evaluated (no DNS)',
    { unknown: 6 },
    0,
    '❔ **No alert could be evaluated** (6 alerts); the reasons are below.',
  ],
  [
    'an account not planned',
    { quiet: 2 },
    1,
    '❔ **No alert would fire now among those evaluated** (all 2 alerts evaluated; 1 account not planned).',
  ],
  ['nothing to evaluate', {}, 0, 'ℹ️ **No alert was evaluated**: there is none to evaluate.'],
  [
    'nothing to evaluate, an account not planned',
    {},
    2,
    '❌ **No alert was evaluated**: there is none to evaluate; 2 accounts not planned.',
  ],
  [
    'alerts fire',
    { fires: 2, quiet: 1, unknown: 1 },
    0,
    '⚠️ **2 alerts would fire now** (3 of 4 alerts evaluated, 1 cannot be).',
  ],
  [
    'new alerts fire',
    { fires: 1, newFiring: 1, quiet: 1 },
    0,
    '⚠️ **1 new alert would fire as soon as it is created** (all 2 alerts evaluated).',
  ],
])('%s', (_what, t, failedAccounts, headline) => {
  expect(previewHeadline(totals(t), failedAccounts)).toBe(headline);
});
