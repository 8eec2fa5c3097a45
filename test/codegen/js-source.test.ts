/**
 * The app's source as the suggestions read it: the whole file, or one `new …(…)` parsed alone
 * (its end found by a scan). Alone or not, the node must be the same, offsets included.
 */
import {
  dominantQuote,
  lineOf,
  offsetOf,
  parseJsSource,
  parseNewExpressionAt,
  SourceSyntaxError,
} from '../../src/codegen/js-source';

const TRICKY = `import { Alert, AlertTarget } from 'cdktf-provider-networkcalc';
/* a comment with ) and ( */
new Alert(stack, 'A', { name: 'a ) (', target: AlertTarget.domain("x.com"), spfRecord: { filter: 'validity' } });
new Alert(stack, \`B\${id(")")}\`, {
  name: \`b \${ { a: '}' }.a } }\`, // ) not the end
  certificate: { expiresInDays: days / 2 },
  target: AlertTarget.subdomain(/(www)\\)/.source),
});
const x = new ncalc.Alert(stack, 'C', { name: "c", ...rest } as AlertProps);
new (pick())(stack, 'D', {});
`;

function starts(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('new '); i !== -1; i = text.indexOf('new ', i + 1)) out.push(i);
  return out;
}

describe('one new expression parsed alone', () => {
  it('is the node the whole parse finds there: same offsets, same arguments, comments and templates skipped', () => {
    const whole = parseJsSource('main.ts', TRICKY);
    const checked = starts(TRICKY).slice(0, 3);
    expect(checked).toHaveLength(3);
    for (const at of checked) {
      const alone = parseNewExpressionAt('main.ts', TRICKY, at)!;
      const full = whole.news.get(at)!;
      expect(alone).not.toBeNull();
      expect([alone.start, alone.end, alone.arguments.length]).toEqual([full.start, full.end, full.arguments.length]);
      expect(alone.arguments.map((a) => [a.start, a.end])).toEqual(full.arguments.map((a) => [a.start, a.end]));
    }
  });

  it('a callee that is not a name (it would end at the wrong parenthesis), or no `new` there: null', () => {
    const last = starts(TRICKY).pop()!;
    expect(TRICKY.slice(last, last + 12)).toBe('new (pick())');
    expect(parseNewExpressionAt('main.ts', TRICKY, last)).toBeNull();
    expect(parseNewExpressionAt('main.ts', TRICKY, 0)).toBeNull();
  });

  it('a declaration that does not close: null (the caller parses the file, which names the line)', () => {
    const text = "new Alert(stack, 'A', {\n  name: 'a',\n";
    expect(parseNewExpressionAt('main.ts', text, 0)).toBeNull();
  });
});

describe('the whole file', () => {
  it('TypeScript and JavaScript syntax; what the runtime accepts but a strict reading reports is read', () => {
    const ts = `enum E { A = 1 }
class C { override m(): void {} }
@sealed export class D { accessor x = 1; constructor(private readonly y: number) {} }
const v = <T,>(x: T) => x!;
const o = { a: 1 } satisfies Record<string, number>;
new Alert(stack, 'A', {});
`;
    const src = parseJsSource('main.ts', ts);
    expect([...src.news.keys()]).toEqual([ts.indexOf("new Alert(stack, 'A'")]);
    const js = "const { Alert } = require('x');\nnew Alert(stack, 'A', { name: 'a' });\n";
    expect(parseJsSource('main.js', js).news.size).toBe(1);
    expect(() => parseJsSource('main.js', 'const a: number = 1;\n')).toThrow(SourceSyntaxError);
  });

  it('a syntax error: the 1-based line and the message, without the position the parser appends', () => {
    let error: unknown;
    try {
      parseJsSource('main.ts', "const a = 1;\n\nnew Alert(stack, 'A', { name: 'a' ]);\n");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SourceSyntaxError);
    expect((error as SourceSyntaxError).line).toBe(3);
    expect((error as SourceSyntaxError).message).toMatch(/^Unexpected token[^()]*$/);
  });

  it('lines and columns as stack traces count them (CRLF, CR, U+2028), and the dominant quote', () => {
    const text = 'a\r\nb\rc\u2028new X();\n';
    const src = parseJsSource('main.js', text);
    const at = offsetOf(src, 4, 1);
    expect(text.slice(at, at + 3)).toBe('new');
    expect(lineOf(src, at)).toBe(4);
    expect(dominantQuote(`a("x"); b('y'); c('z');`)).toBe("'");
    expect(dominantQuote(`a("x"); b("y"); c('z');`)).toBe('"');
  });
});
