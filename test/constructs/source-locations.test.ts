/**
 * Where constructs are declared, as `ncalc drift --suggest` reads it: the app's frames of a
 * stack trace, innermost first (this package's and node_modules' left out), and the file the
 * app writes, read back with the outer call sites that tell code shared by stacks apart.
 */
import * as path from 'node:path';
import { appFrames, parseSourceLocations } from '../../src/contract/source-locations';

const OWN = path.resolve(__dirname, '..', '..', 'src', 'constructs', 'alert.ts');

it("the app's frames, innermost first: this package's own and node_modules' are not the app's", () => {
  const stack = [
    'Error',
    `    at recordSourceLocation (${OWN}:10:5)`,
    '    at new Alert (/app/node_modules/some-l3/index.js:3:1)',
    '    at new AccountStack (/app/main.ts:8:5)',
    '    at Object.<anonymous> (file:///app/main.ts:14:1)',
    '    at Module._compile (node:internal/modules/cjs/loader:1256:14)',
  ].join('\n');
  expect(appFrames(stack)).toEqual([
    { file: '/app/main.ts', line: 8, column: 5 },
    { file: '/app/main.ts', line: 14, column: 1 },
  ]);
});

it('the file the app writes: callers kept; a file that is not one is null', () => {
  const text = JSON.stringify({
    locations: [
      {
        path: 'prod/Account',
        kind: 'NetworkcalcAccount',
        file: '/app/main.ts',
        line: 8,
        column: 5,
        alias: null,
        callers: [{ file: '/app/main.ts', line: 14, column: 1 }],
      },
      { path: 'prod/Spf', kind: 'Alert', file: '/app/main.ts', line: 9, column: 5 },
    ],
  });
  expect(parseSourceLocations(text)).toEqual([
    {
      path: 'prod/Account',
      kind: 'NetworkcalcAccount',
      file: '/app/main.ts',
      line: 8,
      column: 5,
      alias: null,
      callers: [{ file: '/app/main.ts', line: 14, column: 1 }],
    },
    { path: 'prod/Spf', kind: 'Alert', file: '/app/main.ts', line: 9, column: 5 },
  ]);
  const badCaller = JSON.parse(text);
  badCaller.locations[0].callers = [{ file: '/app/main.ts', line: 'x', column: 1 }];
  expect(parseSourceLocations(JSON.stringify(badCaller))).toBeNull();
  expect(parseSourceLocations('not json')).toBeNull();
});
