/**
 * docs/architecture.md describes what CI runs in its row for `.ci/run`. The row is made here
 * from `.ci/run` itself (each `use_node <major>` and the steps after it), so the two cannot
 * drift apart: when this fails, paste the row it prints into the doc, or name a new step below.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** What a command line of `.ci/run` runs, in the doc's words; null: setup, not worth a word. */
const STEPS: readonly (readonly [RegExp, string | null])[] = [
  [/^npm ci\b/, null],
  [/^npm run lint$/, 'lint (ESLint and Prettier)'],
  [/^npm run lint:package$/, 'publint and attw on the packed tarball'],
  [/^npm test$/, '`npm test` (build, type-check, the unit, integration and e2e tiers)'],
  [/^npm run test:compat$/, 'the compat tier (installs from the registry)'],
  [
    /^npm run test:soak$/,
    'the soak run (`npm run test:soak`: the long terraform matrices whole, 120 races of two writers among them)',
  ],
  [/^node jsii\/build\.js\b/, 'the construct library through jsii and jsii-pacmak'],
  [/--selectProjects unit integration$/, 'the unit and integration tiers'],
  [/^npm start$/, "the README's `npm start`"],
  [/^check_tmpdir_empty$/, 'a check that the run left nothing in its TMPDIR'],
];

/** Suites run by name: what each shows. */
const SUITES: Record<string, string> = {
  'test/package/cdktn-app.compat.test.ts': 'a CDK Terrain app end to end',
  'test/package/cdktf-app.compat.test.ts': 'a cdktf app end to end',
  'test/examples/examples.e2e.test.ts': "the examples' `cdktf synth`",
  'test/provider/networkcalc-cdktf.e2e.test.ts': '`cdktf deploy` and `diff` of the quickstart',
};

/** Each Node major `.ci/run` installs, in order, with what runs on it. */
function ciStages(script: string): { node: string; steps: string[] }[] {
  const lines = script
    .replace(/\s*\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('echo '));
  const stages: { node: string; steps: string[] }[] = [];
  for (const line of lines) {
    const use = /^use_node (\d+)$/.exec(line);
    if (use) {
      stages.push({ node: use[1], steps: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) continue; // the set-up before the first Node
    const suites = /^node node_modules\/jest\/bin\/jest\.js ((?:test\/\S+\.test\.ts ?)+)$/.exec(line);
    if (suites) {
      for (const file of suites[1].trim().split(' ')) {
        if (!SUITES[file]) throw new Error(`.ci/run runs ${file}, which this test does not name: add it to SUITES`);
        stage.steps.push(SUITES[file]);
      }
      continue;
    }
    const step = STEPS.find(([pattern]) => pattern.test(line));
    if (!step) throw new Error(`a step of .ci/run this test does not know: ${line}; add it to STEPS`);
    if (step[1]) stage.steps.push(step[1]);
  }
  return stages;
}

/** The row of docs/architecture.md's table "Outside src" for `.ci/run`. */
function ciRow(script: string): string {
  const stages = ciStages(script)
    .map(({ node, steps }) => `on Node ${node}, ${steps.join(', ')}`)
    .join('; ');
  return (
    '| `.ci/run` | The CI entry point, one Node.js after another (each pinned in `.ci/node<major>/`; ' +
    `this row is checked against the script by \`test/architecture/ci-doc.test.ts\`): ${stages}. |`
  );
}

test('GIVEN .ci/run THEN docs/architecture.md describes each Node it runs and each step, in order', () => {
  const script = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
  const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const row = doc.split('\n').find((l) => l.startsWith('| `.ci/run` |'));
  expect(row).toBe(ciRow(script));
});

test('GIVEN a script THEN its stages are read in order, with continued lines and suites by name', () => {
  const script = [
    'npm ci # before any Node: not a stage',
    'use_node 24',
    'npm ci --no-audit',
    'echo "== a title"',
    'npm test',
    'use_node 22',
    'node node_modules/jest/bin/jest.js test/package/cdktn-app.compat.test.ts \\',
    '  test/examples/examples.e2e.test.ts',
  ].join('\n');
  expect(ciStages(script)).toEqual([
    { node: '24', steps: [STEPS[3][1]] },
    { node: '22', steps: ['a CDK Terrain app end to end', "the examples' `cdktf synth`"] },
  ]);
  expect(() => ciStages('use_node 24\nnpm run something-new')).toThrow(/npm run something-new; add it to STEPS/);
});
