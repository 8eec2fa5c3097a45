#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerEmulatorCommand } from './emulator-command';
import { processIO } from './io';
import { registerProviderCommand } from './provider-command';
import { run } from './program';

/** The version of the installed package (src/cli and dist/cli are both two levels down). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildProgram(): Command {
  const program = new Command('ncalc')
    .description('alerts as code for the NetworkCalc Reports and Alerts API v1.9')
    .version(packageVersion());
  registerEmulatorCommand(program);
  return program;
}

if (require.main === module) {
  // plan, apply, drift, destroy and export come from ./program; the emulator command is added here.
  run(process.argv.slice(2), processIO(), (program) => {
    program.version(packageVersion());
    registerEmulatorCommand(program);
    registerProviderCommand(program);
  }).then(
    (code) => {
      if (code) process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`ncalc: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
