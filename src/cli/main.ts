#!/usr/bin/env node
import { ERROR_PREFIX, processIO } from './io';
import { run } from './program';
import { terminalSafe } from '../support/terminal-text';

// A reader that stops early (`ncalc plan | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

run(process.argv.slice(2), processIO()).then(
  (code) => {
    if (code) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(terminalSafe(`${ERROR_PREFIX}${(err as Error).message}\n`));
    process.exit(1);
  },
);
