import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateBindings } from '../../src/schema/generate-bindings';
import { listFiles } from './support';

const COMMITTED = path.resolve(__dirname, '..', '..', 'src', 'gen');

const afterCleanup: Array<() => void> = [];
afterEach(() => {
  for (const clean of afterCleanup.splice(0)) clean();
});

describe('generated bindings', () => {
  test('src/gen is what `npm run generate` produces from the current provider schema', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'ncalc-gen-'));
    // Removed whether the comparison passes or not.
    afterCleanup.push(() => fs.rmSync(fresh, { recursive: true, force: true }));
    await generateBindings(fresh);

    const expected = listFiles(fresh);
    const actual = listFiles(COMMITTED);
    const stale = [
      ...expected.filter((f) => !actual.includes(f)).map((f) => `missing: ${f}`),
      ...actual.filter((f) => !expected.includes(f)).map((f) => `not generated: ${f}`),
      ...expected
        .filter((f) => actual.includes(f))
        .filter(
          (f) => fs.readFileSync(path.join(fresh, f), 'utf8') !== fs.readFileSync(path.join(COMMITTED, f), 'utf8'),
        )
        .map((f) => `differs: ${f}`),
    ];
    if (stale.length)
      throw new Error(`src/gen is stale; run \`npm run generate\` and commit:\n  ${stale.join('\n  ')}`);
  }, 60000);

  test('bindings pin the provider source and version constraint', () => {
    const provider = fs.readFileSync(path.join(COMMITTED, 'providers', 'networkcalc', 'provider', 'index.ts'), 'utf8');
    expect(provider).toContain("terraformProviderSource: 'networkcalc/networkcalc'");
    expect(provider).toContain("providerVersionConstraint: '~> 0.1'");
    expect(provider).not.toContain('providerVersion:');
  });
});
