import { type App, Testing, type TerraformStack } from 'cdktf';
import 'cdktf/lib/testing/adapters/jest'; // the matcher types
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { NetworkcalcAccount } from '../../src/constructs';

Testing.setupJest();

export { Alert as AlertL1 } from '../../src/gen/providers/networkcalc/alert';
export { ReportTrigger as ReportTriggerL1 } from '../../src/gen/providers/networkcalc/report-trigger';
export { NetworkcalcProvider } from '../../src/gen/providers/networkcalc/provider';
export { DataNetworkcalcDomain } from '../../src/gen/providers/networkcalc/data-networkcalc-domain';
export { DataNetworkcalcSubdomain } from '../../src/gen/providers/networkcalc/data-networkcalc-subdomain';

/** Synthesizes a stack holding one default account plus whatever `fn` adds. */
export function synthWithAccount(fn: (stack: TerraformStack, account: NetworkcalcAccount) => void): string {
  return Testing.synthScope((scope) => {
    const stack = scope as TerraformStack;
    fn(stack, new NetworkcalcAccount(stack, 'Account'));
  });
}

export function parse(json: string): any {
  return JSON.parse(json);
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// Testing.app() (and so Testing.synthScope) makes a cdktf.outdir.* directory per call and never
// removes it: give it one that is removed after the file's tests.
const testingApp = Testing.app.bind(Testing);
Testing.app = (options = {}) => {
  if (options.outdir) return testingApp(options);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ncalc-testing-'));
  tempDirs.push(dir);
  return testingApp({ ...options, outdir: dir });
};

/** A real app writing to a fresh directory (removed after the file's tests), for tests of what `app.synth()` writes. */
export function tempApp(): { app: App; outdir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ncalc-synth-'));
  tempDirs.push(dir);
  const outdir = path.join(dir, 'cdktf.out');
  return { app: Testing.app({ outdir }), outdir };
}

/** The message `app.synth()` fails with, or '' when it succeeds. */
export function synthError(app: App): string {
  try {
    app.synth();
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

/** Every file under `dir`, relative. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full).map((f) => path.join(entry.name, f)));
    else out.push(entry.name);
  }
  return out.sort();
}
