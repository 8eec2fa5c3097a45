/**
 * The `ncalc` program: the commands in the order --help lists them, each registering its own
 * flags, help, action and exit codes (`register(program, io)` of its `*-command.ts`).
 */
import { Command, CommanderError } from 'commander';
import { EXIT } from './pipeline';
import { ERROR_PREFIX, terminalSafeIO, type CliIO } from './io';
import {
  bindActions,
  commandOf,
  commandPath,
  reportInternalError,
  reportParseFailure,
  type RunOutcome,
} from './contract';
import type { JsonCommand } from '../render/json';
import { PACKAGE_VERSION } from '../version';
import * as plan from './plan-command';
import * as validate from './validate-command';
import * as synth from './synth-command';
import * as apply from './apply-command';
import * as drift from './drift-command';
import * as github from './github-command';
import * as preview from './preview-command';
import * as report from './report-command';
import * as coverage from './coverage-command';
import * as destroy from './destroy-command';
import * as exportCommand from './export-command';
import * as importBlocks from './import-blocks-command';
import * as emulator from './emulator-command';
import * as provider from './provider-command';

const COMMANDS = [
  plan,
  validate,
  synth,
  apply,
  drift,
  github,
  preview,
  report,
  coverage,
  destroy,
  exportCommand,
  importBlocks,
  emulator,
  provider,
];

const EXIT_HELP = `
Exit codes (each command's --help gives its own):
  0  success: plan planned, apply/destroy did everything, drift in sync, coverage complete
  1  error: a usage error, an invalid configuration, an account could not be reached, or a change failed
  2  plan --detailed-exitcode: there are changes; drift: there is drift (or a coverage gap);
     coverage: a target is not covered`;

/**
 * Every command accepts --no-color, also those that print no colour (export, emulator,
 * provider), so one alias or CI setting works for all of them.
 */
function acceptNoColor(cmd: Command): void {
  for (const sub of cmd.commands) {
    if (!sub.options.some((o) => o.long === '--no-color'))
      sub.option('--no-color', 'no colour (accepted by every command; this one prints none)');
    acceptNoColor(sub);
  }
}

/**
 * The `ncalc` program with every command registered and its action bound: the exit code of the
 * action that runs goes to `outcome`.
 */
export function buildProgram(io: CliIO, outcome: RunOutcome): Command {
  const program = new Command('ncalc')
    .description('Alerts as code for NetworkCalc: plan, apply and check drift of the alerts a cdktf app declares.')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // One prefix for every error, commander's own included.
      outputError: (s, write) => write(s.replace(/^error: /, ERROR_PREFIX)),
    })
    .version(PACKAGE_VERSION, '-v, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_HELP);
  for (const command of COMMANDS) command.register(program, io);
  acceptNoColor(program);
  bindActions(program, io, outcome);
  return program;
}

/**
 * The `ncalc` program. Returns the exit code the command's action returned (src/cli/contract.ts);
 * never calls process.exit (the long-running `emulator` command manages its own process).
 */
export async function run(argv: string[], given: CliIO): Promise<number> {
  const io = terminalSafeIO(given);
  const outcome: RunOutcome = { code: EXIT.OK };
  const program = buildProgram(io, outcome);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here with exit code 0.
      if (e.exitCode === 0) return EXIT.OK;
      reportParseFailure(io, program, argv, e.message);
      return EXIT.ERROR;
    }
    // What an action throws is reported by the contract; this is only what commander itself threw.
    const cmd = commandOf(program, argv);
    const name = (cmd === program ? 'plan' : commandPath(cmd)) as JsonCommand;
    return reportInternalError(io, name, e, false, argv.includes('--debug'));
  }
  return outcome.code;
}
