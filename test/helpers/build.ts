import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Fails when the compiled entry point is missing or the build older than any source file. Tests never
 * build themselves: a rebuild while another suite runs the provider or the CLI from dist/
 * would let that process load half-written files. `npm test` builds once, first.
 */
export function requireBuild(relativeEntry: string): string {
  const entry = path.join(REPO_ROOT, relativeEntry);
  const hint = 'Build first: npm run build (npm test does it).';
  let built: number;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    throw new Error(`${relativeEntry} is missing. ${hint}`);
  }
  // The build writes only the outputs that changed, and its build information every time.
  try {
    built = Math.max(built, statSync(path.join(REPO_ROOT, 'dist', '.tsbuildinfo')).mtimeMs);
  } catch {
    // A build without it (tsc run by hand): the entry's own time.
  }
  if (newestSource(path.join(REPO_ROOT, 'src')) > built)
    throw new Error(`${relativeEntry} is older than the sources in src/. ${hint}`);
  return entry;
}
