/**
 * The construct library stays a jsii module: CI compiles it with jsii (`npm run build:jsii`,
 * .ci/run), which takes a minute; these checks fail in seconds on the two mistakes jsii would
 * report, importing a module that pulls in non-jsii runtime dependencies, and props written
 * as exclusive unions (`?: undefined`), which jsii cannot express.
 */
import * as fs from 'fs';
import * as path from 'path';

const { importClosure, ENTRY, ROOT } = require('../../jsii/build.js') as {
  importClosure: (entry: string) => string[];
  ENTRY: string;
  ROOT: string;
};

const files = importClosure(ENTRY).map((f) => path.relative(ROOT, f).split(path.sep).join('/'));

test('the library reaches only the constructs, the model, the account rules, the app contract, the schema, the bindings and the CDK shim', () => {
  expect(files).toContain('src/constructs/index.ts');
  // The CDK shim, and the types the published declarations use in place of the CDK's (types only).
  const shim = new Set(['src/cdk.ts', 'src/cdk-choice.ts', 'src/public-types.ts']);
  const outside = files.filter(
    (f) => !/^src\/(constructs|model|accounts|contract|schema|gen|support)\//.test(f) && !shim.has(f),
  );
  expect(outside).toEqual([]);
  // The client, the provider, the emulator and ncalc (undici, grpc, fastify) stay out.
  expect(files.filter((f) => /^src\/(client|provider|emulator|plan|read|engine|render|codegen|cli)\//.test(f))).toEqual(
    [],
  );
});

test('no member of the library is declared `?: undefined`', () => {
  const offenders = files.filter((f) => /\?\s*:\s*undefined\s*;/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
  expect(offenders).toEqual([]);
});
