import { Command, CommanderError, Option } from 'commander';
import { applyCommand, driftCommand, planCommand, validateCommand, EXIT, type ApplyFlags, type DriftFlags, type PlanFlags, type ValidateFlags } from './commands';
import { exportCommand, type ExportFlags } from './export-command';
import { registerEmulatorCommand } from './emulator-command';
import type { CliIO } from './io';
import { registerProviderCommand } from './provider-command';
import { MASS_DELETE } from '../reconcile/plan';
import { PACKAGE_VERSION } from '../version';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

const EXIT_HELP = `
Exit codes:
  0  success (plan/drift: no changes)
  1  error: invalid configuration, an account could not be reached, or a change failed
  2  plan --detailed-exitcode / drift: there are changes`;

const DELETE_GUARD_HELP = `
Delete guards: apply shows the plan, then refuses (exit 1, nothing changed) when a scope that
declares no alerts would delete live ones (--allow-empty), or when one run would delete more than
${MASS_DELETE.share * 100} % and more than ${MASS_DELETE.moreThan} of a scope's live alerts (--allow-mass-delete). destroy is not guarded:
deleting is what it is asked for.
`;

/** Options every reconciling command takes: where the app is and how to reach the API. */
function common(cmd: Command): Command {
  return cmd
    .option('-C, --chdir <dir>', 'directory of the app (holding cdktf.json)', '.')
    .option('--app <command>', 'command that synthesizes the app (default: "app" of cdktf.json)')
    .option('--out <dir>', 'synthesized output directory (default: "output" of cdktf.json, then cdktf.out)')
    .option('--no-synth', 'do not run the app; read the existing synthesized output')
    .option('--synth-timeout <seconds>', 'time limit for synthesizing', '120')
    .option('--stack <name>', 'only this stack (repeatable; default: all stacks)', collect)
    .option('--base-url <url>', 'API base URL for every account (overrides base_url and NETWORKCALC_BASE_URL)')
    .option('--no-color', 'no colour (also: NO_COLOR set, or output not a terminal)')
    .option('--verbose', 'log every HTTP attempt to stderr (never secrets)');
}


/**
 * The `ncalc` program. Returns the exit code of the reconciling commands; never calls
 * process.exit (the long-running `emulator` command manages its own process).
 */
export async function run(argv: string[], io: CliIO): Promise<number> {
  let code: number = EXIT.OK;
  const program = new Command('ncalc')
    .description('Alerts as code for NetworkCalc: plan, apply and check drift of the alerts a cdktf app declares.')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .version(PACKAGE_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_HELP);

  common(program.command('plan'))
    .description('Show what apply would change: one list call per account, then a diff by alert name.')
    .option('--json', 'machine-readable output (format in docs/cli.md)')
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none, 1 on error')
    .addHelpText('after', EXIT_HELP)
    .action(async (opts: PlanFlags) => {
      code = await planCommand(io, opts);
    });

  common(program.command('validate'))
    .description('Check the app without credentials or API calls: every alert, reference, name and scope (for pull requests).')
    .option('--json', 'machine-readable result (format in docs/cli.md)')
    .addHelpText('after', '\nExit codes:\n  0  the configuration is valid\n  1  it is not (every problem is listed)')
    .action(async (opts: ValidateFlags) => {
      code = await validateCommand(io, opts);
    });

  common(program.command('apply'))
    .description('Create, update and delete alerts to match the app, then run its report triggers.')
    .option('--auto-approve', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--parallelism <n>', 'API writes in flight at once', '8')
    .option('--no-triggers', 'do not run report triggers')
    .option('--allow-empty', 'let a scope that declares no alerts delete every live alert it owns (refused otherwise)')
    .option('--allow-mass-delete', `let one apply delete more than ${MASS_DELETE.share * 100} % (and more than ${MASS_DELETE.moreThan}) of a scope's live alerts (refused otherwise)`)
    .option('--json', 'machine-readable result (needs --auto-approve)')
    .addHelpText('after', DELETE_GUARD_HELP + EXIT_HELP)
    .action(async (opts: ApplyFlags) => {
      code = await applyCommand(io, opts, 'apply');
    });

  common(program.command('drift'))
    .description('Check that the live alerts match the app (for CI). Exit 0 in sync, 2 drift, 1 error.')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .addHelpText('after', '\nWith $GITHUB_STEP_SUMMARY set, the markdown report is appended to that file as well.\n' + EXIT_HELP)
    .action(async (opts: DriftFlags) => {
      code = await driftCommand(io, opts);
    });

  common(program.command('destroy'))
    .description('Delete the alerts the app declares (and, with --all-in-scope, every alert its exclusive/prefix scopes own).')
    .option('--auto-approve', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--parallelism <n>', 'API writes in flight at once', '8')
    .option('--all-in-scope', 'also delete undeclared alerts in exclusive and prefix scopes (never in additive ones)')
    .option('--json', 'machine-readable result (needs --auto-approve)')
    .addHelpText('after', EXIT_HELP)
    .action(async (opts: ApplyFlags) => {
      code = await applyCommand(io, opts, 'destroy');
    });

  program
    .command('export')
    .description("Write a TypeScript cdktf app (and optionally HCL) declaring an account's live alerts.")
    .option('--account <name>', 'a provider alias of the app, or an environment prefix: PREFIX_TOKEN / PREFIX_CLIENT_ID / PREFIX_CLIENT_SECRET / PREFIX_BASE_URL', 'NETWORKCALC')
    .option('--out <file>', 'write the TypeScript here (default: stdout)')
    .option('--hcl [file]', 'also write Terraform HCL (default file: next to --out, with .tf)')
    .option('--stack-name <name>', 'stack name in the generated app', 'exported')
    .option('--import-from <module>', 'module the generated code imports the constructs from', 'cdktf-provider-networkcalc')
    .option('-C, --chdir <dir>', 'directory of the app, to look up --account as a provider alias', '.')
    .option('--app <command>', 'command that synthesizes the app (for an alias)')
    .option('--cdktf-out <dir>', 'synthesized output directory (for an alias)')
    .option('--no-synth', 'read the existing synthesized output (for an alias)')
    .option('--synth-timeout <seconds>', 'time limit for synthesizing', '120')
    .option('--base-url <url>', 'API base URL (overrides the alias or the environment)')
    .option('--verbose', 'log every HTTP attempt to stderr (never secrets)')
    .addHelpText('after', '\nExit codes:\n  0  written\n  1  error')
    .action(async (opts: ExportFlags) => {
      code = await exportCommand(io, opts);
    });

  registerEmulatorCommand(program);
  registerProviderCommand(program, io, (c) => {
    code = c;
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here with exit code 0.
      return e.exitCode === 0 ? EXIT.OK : EXIT.ERROR;
    }
    io.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.ERROR;
  }
  return code;
}
