/**
 * The parsers `ncalc drift --suggest` could read an app with, side by side on the source of a
 * 1,000-alert main.ts (5,000 lines of TypeScript): load time and first parse in a fresh
 * process each (as one ncalc run pays them), a second parse, and the size installed. Each run
 * also checks what the suggestions need: the offset of a `new` expression and of a comment.
 *
 * `@babel/parser` (what ncalc uses) and `typescript` are in node_modules; for oxc-parser,
 * `npm install --no-save oxc-parser` first (it is measured when it can be loaded). The row of
 * declarations parsed alone needs the build.
 *
 *   npm run build && npx tsx bench/parsers.ts [runs, default 7]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT, median, table } from './support';

const RUNS = Number(process.argv[2] ?? 7);
const N = 1000;

function appSource(): string {
  const lines = [
    "import { App, TerraformStack } from 'cdktf';",
    "import { Alert, AlertTarget, NetworkcalcAccount } from 'cdktf-provider-networkcalc';",
    'const app: App = new App();',
    "const stack = new TerraformStack(app, 'bench');",
    "new NetworkcalcAccount(stack, 'Account');",
  ];
  for (let i = 0; i < N; i++)
    lines.push(
      `new Alert(stack, 'Alert${i}', {`,
      `  name: 'bench alert ${String(i).padStart(5, '0')}',`,
      `  target: AlertTarget.subdomain('h${String(i % 40).padStart(2, '0')}.example.com'),`,
      `  certificate: { expiresInDays: ${(i % 60) + 1} }, // alert ${i}`,
      '});',
    );
  lines.push('app.synth();', '');
  return lines.join('\n');
}

/** Per parser: how to load it and parse `text`, and the start of the 6th statement and of the first comment. */
const PARSERS: Record<string, { packages: string[]; script: string }> = {
  '@babel/parser 7 (typescript plugin)': {
    packages: ['@babel/parser', '@babel/types', '@babel/helper-string-parser', '@babel/helper-validator-identifier'],
    script: `
      const t0 = performance.now();
      const { parse: p } = require('@babel/parser');
      const load = performance.now() - t0;
      const parse = () => p(text, { sourceType: 'unambiguous', plugins: ['typescript'], errorRecovery: true, attachComment: false });
      return { load, parse, check: (ast) => [ast.program.body[5].start, ast.comments[0].start] };`,
  },
  '@babel/parser 7, 100 declarations parsed alone (what --suggest does for 100 changed alerts)': {
    packages: ['@babel/parser', '@babel/types', '@babel/helper-string-parser', '@babel/helper-validator-identifier'],
    script: `
      const t0 = performance.now();
      const { parseNewExpressionAt } = require('./dist/codegen/js-source.js');
      const load = performance.now() - t0;
      const at = [];
      for (let i = text.indexOf("new Alert("); i !== -1 && at.length < 100; i = text.indexOf("new Alert(", i + 1)) at.push(i);
      const parse = () => at.map((o) => parseNewExpressionAt('main.ts', text, o));
      return { load, parse, check: (nodes) => [nodes[0].start, nodes[0].arguments[2].properties[2].end + 2] };`,
  },
  'typescript 5.9 (createSourceFile)': {
    packages: ['typescript'],
    script: `
      const t0 = performance.now();
      const ts = require('typescript');
      const load = performance.now() - t0;
      const parse = () => ts.createSourceFile('main.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      return { load, parse, check: (sf) => [sf.statements[5].getStart(sf), ts.getTrailingCommentRanges(text, sf.statements[5].expression.arguments[2].properties[2].end + 1)[0].pos] };`,
  },
  'oxc-parser (native)': {
    packages: ['oxc-parser', '@oxc-project/types', '@oxc-parser/binding-linux-x64-gnu'],
    script: `
      const t0 = performance.now();
      const { parseSync } = await import('oxc-parser');
      const load = performance.now() - t0;
      const parse = () => { const r = parseSync('main.ts', text); return { program: r.program, comments: r.comments }; };
      return { load, parse, check: (r) => [r.program.body[5].start, r.comments[0].start] };`,
  },
};

function duBytes(dir: string): number {
  const s = statSync(dir);
  if (!s.isDirectory()) return s.size;
  return readdirSync(dir).reduce((sum, f) => sum + duBytes(path.join(dir, f)), 0);
}

function main(): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncalc-bench-parsers-'));
  try {
    const text = appSource();
    const file = path.join(dir, 'main.ts');
    writeFileSync(file, text);
    const expected = [text.indexOf("new Alert(stack, 'Alert0'"), text.indexOf('// alert 0')];
    const rows: string[][] = [];
    for (const [name, p] of Object.entries(PARSERS)) {
      const program = `
        import { createRequire } from 'node:module';
        import { readFileSync } from 'node:fs';
        const require = createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))});
        const text = readFileSync(${JSON.stringify(file)}, 'utf8');
        const setup = async () => { ${p.script} };
        const { load, parse, check } = await setup();
        const t1 = performance.now(); const ast = parse(); const first = performance.now() - t1;
        const t2 = performance.now(); parse(); const second = performance.now() - t2;
        console.log(JSON.stringify({ load, first, second, offsets: check(ast) }));`;
      const runs: { load: number; first: number; second: number; offsets: number[] }[] = [];
      try {
        for (let r = 0; r < RUNS; r++)
          runs.push(
            JSON.parse(
              execFileSync(process.execPath, ['--input-type=module', '-e', program], {
                encoding: 'utf8',
                stdio: 'pipe',
              }),
            ),
          );
      } catch (e) {
        rows.push([name, `not measured: ${(e as Error).message.split('\n')[0]}`, '', '', '', '']);
        continue;
      }
      const exact = runs.every((r) => r.offsets[0] === expected[0] && r.offsets[1] === expected[1]);
      const bytes = p.packages.reduce((sum, pkg) => {
        try {
          return sum + duBytes(path.join(ROOT, 'node_modules', pkg));
        } catch {
          return sum;
        }
      }, 0);
      const ms = (k: 'load' | 'first' | 'second') => median(runs.map((r) => r[k])).toFixed(0);
      rows.push([name, ms('load'), ms('first'), ms('second'), (bytes / 1e6).toFixed(1), exact ? 'yes' : 'NO']);
    }
    console.log(
      `${N} alerts, ${text.split('\n').length} lines; Node ${process.version}; median of ${RUNS} fresh processes\n`,
    );
    console.log(
      table(['parser', 'load ms', 'first parse ms', 'second parse ms', 'installed MB', 'offsets exact'], rows),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
