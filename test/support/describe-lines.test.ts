import { describeValue, jsonKind } from '../../src/support/describe';
import { JS_LINE_BREAKS, lineIndexAt, lineStarts } from '../../src/support/lines';

test.each([
  ['x', 'a string "x"'],
  [5, 'a number 5'],
  [true, 'a boolean true'],
  [[], 'an empty array'],
  [[1], 'an array'],
  [{ token: 'secret' }, 'an object'],
  [null, 'null'],
  [undefined, 'nothing'],
])('GIVEN %p THEN messages describe it as %p', (value, words) => {
  expect(describeValue(value)).toBe(words);
});

test('GIVEN a value THEN its kind is named in the same words', () => {
  expect([5, 'x', [], {}, null, undefined].map(jsonKind)).toEqual([
    'a number',
    'a string',
    'an array',
    'an object',
    'null',
    'nothing',
  ]);
});

describe('line table', () => {
  const text = 'a\r\nbb\ncc\u2028d\re';

  test('GIVEN text THEN lines end at \\n by default, or at every JavaScript line break', () => {
    expect(lineStarts(text)).toEqual([0, 3, 6]);
    expect(lineStarts(text, JS_LINE_BREAKS)).toEqual([0, 3, 6, 9, 11]);
    expect(lineStarts('')).toEqual([0]);
    expect(lineStarts('x\n')).toEqual([0, 2]);
  });

  test('GIVEN an offset THEN the line holding it (0-based), the last line past the end', () => {
    const starts = lineStarts(text, JS_LINE_BREAKS);
    expect([0, 2, 3, 5, 6, 8, 9, 11, 99].map((o) => lineIndexAt(starts, o))).toEqual([0, 0, 1, 1, 2, 2, 3, 4, 4]);
  });
});
