#!/usr/bin/env node
// Keeps one GitHub issue per NetworkCalc account up to date from `ncalc drift --report-dir DIR`:
// an account with drift (or an error) gets its issue created once and edited on later runs;
// an account back in sync gets its open issue closed. The issue is found by the account's
// marker (an HTML comment on the report's first line), so a renamed title loses nothing.
//
//   node post-reports.mjs DIR        (needs the gh CLI, authenticated by GH_TOKEN)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node post-reports.mjs DIR (the --report-dir of ncalc drift)');
  process.exit(1);
}
const LABEL = 'networkcalc-drift';
const gh = (...args) => execFileSync('gh', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

gh('label', 'create', LABEL, '--description', 'NetworkCalc alerts differ from the code', '--force');
const open = JSON.parse(
  gh('issue', 'list', '--state', 'open', '--label', LABEL, '--limit', '1000', '--json', 'number,body'),
);
const { reports } = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
for (const r of reports) {
  const issue = open.find((i) => i.body.startsWith(r.marker));
  const file = join(dir, r.file);
  if (r.status === 'in_sync') {
    if (issue)
      gh('issue', 'close', String(issue.number), '--comment', 'In sync again: the live alerts match the code.');
  } else if (issue) {
    gh('issue', 'edit', String(issue.number), '--title', r.title, '--body-file', file);
  } else {
    gh('issue', 'create', '--title', r.title, '--label', LABEL, '--body-file', file);
  }
  console.log(`${r.account}: ${r.status}${issue ? ` (issue #${issue.number})` : ''}`);
}
