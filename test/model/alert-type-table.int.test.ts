/**
 * A new alert type touches one place, and the compiler says where: in a scratch copy of `src`,
 * a type added to `ALERT_TYPES` without its module, and then with a module that lacks members,
 * is compiled with the project's own compiler options. Every error must point to the table of
 * types (src/model/types/index.ts), the new module, the preview's table of evaluators
 * (src/preview/evaluate.ts, the one table above the model: lookups are I/O) or the construct
 * props jsii needs written out, never to a file that branches on the type itself.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const TABLE = 'src/model/types/index.ts';
const EVALUATORS = 'src/preview/evaluate.ts';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'ncalc-types-'));
  cpSync(path.join(ROOT, 'src'), path.join(scratch, 'src'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function edit(file: string, from: string, to: string): void {
  const full = path.join(scratch, file);
  const text = readFileSync(full, 'utf8');
  expect(text).toContain(from);
  writeFileSync(full, text.replace(from, to));
}

/** The errors of compiling the scratch `src` (tsconfig.build.json's options), as `file: message`. */
function compileErrors(): { file: string; message: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const files = ts.sys
    .readDirectory(path.join(scratch, 'src'), ['.ts'])
    .filter((f) => !f.endsWith('.d.ts') && !f.endsWith('generate-bindings.ts'));
  const program = ts.createProgram(files, { ...config.options, noEmit: true, rootDir: path.join(scratch, 'src') });
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file ? path.relative(scratch, d.file.fileName).split(path.sep).join('/') : '(options)',
    message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
  }));
}

test('a type without its module fails to compile in the table of types and the table of evaluators only', () => {
  edit(TABLE, "'Certificate (TLS)'] as const", "'Certificate (TLS)', 'HTTP Status'] as const");
  const errors = compileErrors();
  const files = [...new Set(errors.map((e) => e.file))].sort();
  expect(files).toEqual([TABLE, EVALUATORS]);
  for (const e of errors) expect(e.message).toContain('HTTP Status');
}, 180_000);

// On the scratch of the test above, where ALERT_TYPES already holds 'HTTP Status'.
test('a module without all its members fails to compile in the new module, the typed props and the evaluators only', () => {
  writeFileSync(
    path.join(scratch, 'src/model/types/http-status.ts'),
    `import type { AlertTypeModule } from './module';
export const HTTP_STATUS: AlertTypeModule<'HTTP Status', 'httpStatus'> = {
  type: 'HTTP Status',
  subtypes: [],
  filters: ['equals'],
  prop: 'httpStatus',
};
`,
  );
  edit(
    TABLE,
    "  'Certificate (TLS)': CERTIFICATE,\n",
    "  'Certificate (TLS)': CERTIFICATE,\n  'HTTP Status': HTTP_STATUS,\n",
  );
  edit(
    TABLE,
    "import { SPF_RECORD } from './spf-record';",
    "import { SPF_RECORD } from './spf-record';\nimport { HTTP_STATUS } from './http-status';",
  );
  const errors = compileErrors();
  const files = [...new Set(errors.map((e) => e.file))].sort();
  expect(files).toEqual([
    'src/constructs/alert-body.ts',
    'src/constructs/alert-policy.ts',
    'src/model/types/http-status.ts',
    EVALUATORS,
  ]);
  const module = errors.filter((e) => e.file.endsWith('http-status.ts')).map((e) => e.message);
  expect(module.join('\n')).toMatch(/defaultLabel/);
  // The construct's props must declare the new check: AlertCheckSpec and PolicyCheck have no `httpStatus`.
  for (const file of ['src/constructs/alert-body.ts', 'src/constructs/alert-policy.ts'])
    expect(errors.find((e) => e.file === file)!.message).toContain('httpStatus');
}, 180_000);
