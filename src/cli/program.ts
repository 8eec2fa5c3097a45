import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_SYNTH_TIMEOUT_SECONDS } from '../read/synth';
import { EXIT, REPORT_FORMATS } from './pipeline';
import { applyCommand } from './apply-command';
import { type ApplyFlags } from './apply-flow';
import { destroyCommand } from './destroy-command';
import { planCommand, type PlanFlags } from './plan-command';
import { validateCommand, type ValidateFlags } from './validate-command';
import { coverageCommand, type CoverageFlags } from './coverage-command';
import { driftCommand, type DriftCommandFlags } from './drift-command';
import { exportCommand, type ExportFlags } from './export-command';
import { registerEmulatorCommand } from './emulator-command';
import { ERROR_PREFIX, terminalSafeIO, type CliIO } from './io';
import { FORMAT_VERSION, errorJson, type JsonCommand } from '../render/json';
import { registerProviderCommand } from './provider-command';
import { registerImportBlocksCommand } from './import-blocks-command';
import { synthCommand, type SynthFlags } from './synth-command';
import { lookupOptions, previewOptions, registerPreviewCommand } from './preview-command';
import { registerReportCommand } from './report-command';
import { MASS_DELETE } from '../plan/plan';
import { GROUP_FIRST_LINES, GROUP_IN_ALL, GROUP_PER_ACCOUNT } from '../render/grouping';
import { PACKAGE_VERSION } from '../version';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * `--json` for a command that prints text (provider install): its output is kept, then
 * printed as one JSON document, `{"status": "ok", "messages": [...]}` or the error document
 * with its `Error:` lines as problems.
 */
class JsonCapture {
  capturing = false;
  private out = '';
  private err = '';
  readonly io: CliIO;
  constructor(private readonly real: CliIO) {
    this.io = {
      ...real,
      stdout: { write: (s: string) => (this.capturing ? (this.out += s) : real.stdout.write(s)) },
      stderr: { write: (s: string) => (this.capturing ? (this.err += s) : real.stderr.write(s)) },
    };
  }

  capture(): void {
    this.capturing = true;
  }

  emit(command: JsonCommand, code: number): void {
    this.capturing = false;
    const lines = (text: string) =>
      text
        .split('\n')
        .map((l) => l.trimEnd())
        .filter(Boolean);
    if (code === EXIT.OK) {
      const doc = { format_version: FORMAT_VERSION, command, status: 'ok', messages: lines(this.err + this.out) };
      this.real.stdout.write(JSON.stringify(doc, null, 2) + '\n');
      return;
    }
    const problems = lines(this.err).map((l) => l.replace(/^Error: /, '').trim());
    this.real.stdout.write(JSON.stringify(errorJson(command, problems, undefined, 'ERROR'), null, 2) + '\n');
    this.real.stderr.write(this.err);
  }
}

const EXIT_HELP = `
Exit codes (each command's --help gives its own):
  0  success: plan planned, apply/destroy did everything, drift in sync, coverage complete
  1  error: a usage error, an invalid configuration, an account could not be reached, or a change failed
  2  plan --detailed-exitcode: there are changes; drift: there is drift (or a coverage gap);
     coverage: a target is not covered`;

const PLAN_EXIT_HELP = `
Exit codes:
  0  planned (with --detailed-exitcode: and there are no changes)
  1  error: a usage error, an invalid configuration, an account could not be planned, or --save not written
  2  with --detailed-exitcode: there are changes`;

const APPLY_EXIT_HELP = (command: 'apply' | 'destroy') => `
Exit codes:
  0  every change${command === 'apply' ? ' and report trigger' : ''} succeeded (or there was nothing to do)
  1  error: a usage error, an invalid configuration, refused (${command === 'apply' ? 'a delete guard, a stale saved plan, ' : ''}a Terraform state, no confirmation),
     cancelled or interrupted, an account could not be planned, or a change failed
  ${command} never exits 2: changes are what it makes`;

const DRIFT_EXIT_HELP = `
Exit codes:
  0  in sync
  1  error (a usage error, an invalid configuration, an account not checked; with --write, an edit not made)
  2  drift: apply would change something, or an alert policy has a coverage gap`;

const COVERAGE_EXIT_HELP = `
Exit codes:
  0  every selected target is covered by a live alert for every check
  1  error: a usage error, an invalid configuration, no alert policy, or an account could not be reached
  2  some target is not covered (a gap, or an alert apply has yet to make)`;

const DRIFT_SUGGEST_HELP = `
From drift to code (--suggest):
  An alert whose props are literals gets a diff of its declaration; a value from a variable,
  a loop or an alert policy gets one line naming where it comes from and the live value; a
  live alert the app lacks gets a declaration beside its account; one deleted live gets the
  choice (ncalc apply re-creates it, or the diff deletes it). --write applies the diffs
  (then ncalc plan shows no change for those alerts); or pipe --json's suggest.patch to git apply.
`;
const SYNTH_ONCE_HELP = `
Synthesize once: ncalc synth --out cdktf.out runs the app and checks it; the jobs of a CI
matrix then read that output with --no-synth --out cdktf.out --shard i/n instead of each
running the app (pass the directory between jobs as an artifact).
`;

const SHARD_HELP = `
Sharding: --shard i/n takes only the accounts whose key (base URL and stack, never a
credential) hashes to shard i of n, so a CI matrix of n jobs (--shard 1/n … n/n) covers every
account once, and a job needs only its own accounts' secrets. Each job synthesizes and
validates the whole app, unless it reads the output of one ncalc synth (--no-synth --out <dir>).
`;

const SAVED_PLAN_HELP = `
Saved plans: ncalc plan --save plan.json, then ncalc apply plan.json applies exactly those
changes without asking again, once a fresh list shows every account still holds the alerts the
plan saw (a stale plan is refused, nothing written). Credentials are read from the environment
again; the file holds none. The delete guards are checked at apply (--allow-empty,
--allow-mass-delete).
`;

const DELETE_GUARD_HELP = `
Delete guards: apply shows the plan, then refuses (exit 1, nothing changed) when a scope that
declares no alerts would delete live ones (--allow-empty), or when one run would delete more than
${MASS_DELETE.share * 100} % and more than ${MASS_DELETE.moreThan} of a scope's live alerts (--allow-mass-delete). destroy is not guarded:
deleting is what it is asked for.
`;

const TERRAFORM_STATE_OPTION =
  'write even to alerts a local Terraform state of the app holds (refused otherwise; the states are not read)';

const TERRAFORM_STATE_HELP = `
Terraform states: when the app holds a local Terraform state of a stack (cdktn/cdktf's
terraform.<stack>.tfstate, or the path of the stack's local backend), the alerts it holds are
Terraform's. plan warns when it would change or delete one; apply and destroy refuse (exit 1,
nothing changed) unless --ignore-terraform-state is given. Use one door per stack.
`;

/** Options every reconciling command takes: where the app is and how to reach the API. */
function common(cmd: Command): Command {
  return cmd
    .option('-C, --chdir <dir>', 'directory of the app (holding cdktf.json)', '.')
    .option('--app <command>', 'command that synthesizes the app (default: "app" of cdktf.json)')
    .option('--out <dir>', 'synthesized output directory (default: "output" of cdktf.json, then cdktf.out)')
    .option('--no-synth', 'do not run the app; read the existing synthesized output')
    .option('--synth-timeout <seconds>', 'time limit for synthesizing', String(DEFAULT_SYNTH_TIMEOUT_SECONDS))
    .option('--stack <name>', 'only this stack (repeatable; default: all stacks)', collect)
    .option('--base-url <url>', 'API base URL for every account (overrides base_url and NETWORKCALC_BASE_URL)')
    .option('--no-color', 'no colour (also: NO_COLOR set, or output not a terminal)')
    .option('--verbose', 'log every HTTP attempt to stderr (never secrets)');
}

const shardOption = (cmd: Command) =>
  cmd.option('--shard <i/n>', 'only the accounts of shard i of n (for a CI matrix; see below)');

/** plan, apply, destroy, drift: the text output grouped by account above a threshold, unless --detail. */
const detailOption = (cmd: Command) =>
  cmd.option(
    '--detail',
    `print every change and result in the text output (above ${GROUP_PER_ACCOUNT} changes in an account or ${GROUP_IN_ALL} in all, it shows each account's counts and first ${GROUP_FIRST_LINES} lines)`,
  );

/** Long names of the options given on the command line (not defaults). */
const givenFlags = (cmd: Command) =>
  cmd.options.filter((o) => cmd.getOptionValueSource(o.attributeName()) === 'cli').map((o) => o.long ?? '');

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
 * The `ncalc` program. Returns the exit code of the reconciling commands; never calls
 * process.exit (the long-running `emulator` command manages its own process).
 */
export async function run(argv: string[], given: CliIO): Promise<number> {
  const io = terminalSafeIO(given);
  let code: number = EXIT.OK;
  const jsonCapable = new JsonCapture(io);
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

  previewOptions(detailOption(shardOption(common(program.command('plan')))))
    .description('Show what apply would change: one list call per account, then a diff by alert name.')
    .option('--preview', 'also evaluate every declared alert now (see ncalc preview --help)')
    .option('--json', 'machine-readable output (format in docs/cli.md)')
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none, 1 on error')
    .option('--save <file>', 'also write the plan to this file, for ncalc apply <file> (holds no secret)')
    .addHelpText('after', SAVED_PLAN_HELP + TERRAFORM_STATE_HELP + SHARD_HELP + PLAN_EXIT_HELP)
    .action(async (opts: PlanFlags) => {
      code = await planCommand(io, opts);
    });

  common(program.command('validate'))
    .description(
      'Check the app without credentials or API calls: every alert, reference, name and scope (for pull requests).',
    )
    .option('--json', 'machine-readable result (format in docs/cli.md)')
    .addHelpText('after', '\nExit codes:\n  0  the configuration is valid\n  1  it is not (every problem is listed)')
    .action(async (opts: ValidateFlags) => {
      code = await validateCommand(io, opts);
    });

  program
    .command('synth')
    .description(
      'Run the app once and check it (no credentials, no API call), leaving the output for --no-synth: synthesize once for many shards.',
    )
    .option('-C, --chdir <dir>', 'directory of the app (holding cdktf.json)', '.')
    .option('--app <command>', 'command that synthesizes the app (default: "app" of cdktf.json)')
    .option('--out <dir>', 'where to write the output (default: "output" of cdktf.json, then cdktf.out)')
    .option('--synth-timeout <seconds>', 'time limit for synthesizing', String(DEFAULT_SYNTH_TIMEOUT_SECONDS))
    .option('--base-url <url>', 'API base URL to check for every account (as --base-url of the other commands)')
    .option('--no-color', 'no colour (also: NO_COLOR set, or output not a terminal)')
    .option('--json', 'machine-readable result')
    .addHelpText(
      'after',
      SYNTH_ONCE_HELP + '\nExit codes:\n  0  synthesized and valid\n  1  it is not (every problem is listed)',
    )
    .action(async (opts: SynthFlags) => {
      code = await synthCommand(io, opts);
    });

  lookupOptions(detailOption(shardOption(common(program.command('apply')))))
    .argument(
      '[plan-file]',
      'a plan saved by ncalc plan --save: apply exactly it (refused when an account changed since)',
    )
    .description('Create, update and delete alerts to match the app, then run its report triggers.')
    .option('--auto-approve', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--parallelism <n>', 'API writes in flight at once', '8')
    .option(
      '--account-parallelism <n>',
      'API writes in flight at once in one account, within --parallelism (default: --parallelism with one account, half of it with more)',
    )
    .option('--no-triggers', 'do not run report triggers')
    .option('--allow-empty', 'let a scope that declares no alerts delete every live alert it owns (refused otherwise)')
    .option(
      '--allow-mass-delete',
      `let one apply delete more than ${MASS_DELETE.share * 100} % (and more than ${MASS_DELETE.moreThan}) of a scope's live alerts (refused otherwise)`,
    )
    .option('--ignore-terraform-state', TERRAFORM_STATE_OPTION)
    .option('--json', 'machine-readable result (needs --auto-approve, except with a saved plan)')
    .addHelpText(
      'after',
      DELETE_GUARD_HELP + TERRAFORM_STATE_HELP + SAVED_PLAN_HELP + SHARD_HELP + APPLY_EXIT_HELP('apply'),
    )
    .action(async (planFile: string | undefined, opts: ApplyFlags, cmd: Command) => {
      code = await applyCommand(io, opts, planFile, givenFlags(cmd));
    });

  lookupOptions(detailOption(shardOption(common(program.command('drift')))))
    .description('Check that the live alerts match the app (for CI). Exit 0 in sync, 2 drift, 1 error.')
    .option('--json', 'machine-readable output (the same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices([...REPORT_FORMATS]).default('text'))
    .option('--suggest', "also propose the edits to the app's source that adopt the live settings (diffs)")
    .option(
      '--write',
      'with --suggest: make those edits (refused when a file changed since, is read-only or untracked)',
    )
    .option('--force', 'with --write: also edit files that git does not track')
    .option(
      '--terraform-plan <file>',
      'with --suggest: adopt the drift of plain Terraform instead (terraform show -json of a plan -refresh-only), in the .tf files of -C',
    )
    .option(
      '--report-dir <dir>',
      'also write one markdown report per account there, with index.json (one issue per account)',
    )
    .addHelpText(
      'after',
      '\nWith $GITHUB_STEP_SUMMARY set, the markdown report is appended to that file as well.\n' +
        DRIFT_SUGGEST_HELP +
        SHARD_HELP +
        DRIFT_EXIT_HELP,
    )
    .action(async (opts: DriftCommandFlags, cmd: Command) => {
      code = await driftCommand(io, opts, cmd.getOptionValueSource('format') === 'cli');
    });

  registerPreviewCommand(
    program,
    (cmd) => shardOption(common(cmd)),
    io,
    (c) => {
      code = c;
    },
  );

  registerReportCommand(
    program,
    (cmd) => shardOption(common(cmd)),
    io,
    (c) => (code = c),
  );

  lookupOptions(shardOption(common(program.command('coverage'))))
    .description(
      "Show which domains and subdomains the app's alert policies cover: a targets × checks table. Exit 0 covered, 2 not, 1 error.",
    )
    .option('--json', 'machine-readable output (the same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices([...REPORT_FORMATS]).default('text'))
    .addHelpText(
      'after',
      '\nWith $GITHUB_STEP_SUMMARY set, the markdown table is appended to that file as well.\n' +
        SHARD_HELP +
        COVERAGE_EXIT_HELP,
    )
    .action(async (opts: CoverageFlags, cmd: Command) => {
      code = await coverageCommand(io, opts, cmd.getOptionValueSource('format') === 'cli');
    });

  detailOption(common(program.command('destroy')))
    .description(
      'Delete the alerts the app declares (and, with --all-in-scope, every alert its exclusive/prefix scopes own).',
    )
    .option('--auto-approve', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--parallelism <n>', 'API writes in flight at once', '8')
    .option(
      '--account-parallelism <n>',
      'API writes in flight at once in one account, within --parallelism (default: --parallelism with one account, half of it with more)',
    )
    .option('--all-in-scope', 'also delete undeclared alerts in exclusive and prefix scopes (never in additive ones)')
    .option('--ignore-terraform-state', TERRAFORM_STATE_OPTION)
    .option('--json', 'machine-readable result (needs --auto-approve)')
    .addHelpText('after', TERRAFORM_STATE_HELP + APPLY_EXIT_HELP('destroy'))
    .action(async (opts: ApplyFlags) => {
      code = await destroyCommand(io, opts);
    });

  program
    .command('export')
    .description(
      "Write a TypeScript app (cdktf or CDK Terrain, and optionally HCL) declaring an account's live alerts.",
    )
    .option(
      '--account <name>',
      'a provider alias of the app, or an environment prefix: PREFIX_TOKEN / PREFIX_CLIENT_ID / PREFIX_CLIENT_SECRET / PREFIX_BASE_URL',
      'NETWORKCALC',
    )
    .option('--out <file>', 'write the TypeScript here (default: stdout)')
    .option('--hcl [file]', 'also write Terraform HCL (default file: next to --out, with .tf)')
    .option('--stack-name <name>', 'stack name in the generated app', 'exported')
    .option(
      '--import-from <module>',
      'module the generated code imports the constructs from',
      'cdktf-provider-networkcalc',
    )
    .option(
      '--cdk <library>',
      'CDK library the generated app imports App and TerraformStack from: cdktn or cdktf (default: the one installed in the --chdir directory, else cdktn)',
    )
    .option('-C, --chdir <dir>', 'directory of the app, to look up --account as a provider alias', '.')
    .option('--app <command>', 'command that synthesizes the app (for an alias)')
    .option('--cdktf-out <dir>', 'synthesized output directory (for an alias)')
    .option('--no-synth', 'read the existing synthesized output (for an alias)')
    .option('--synth-timeout <seconds>', 'time limit for synthesizing', String(DEFAULT_SYNTH_TIMEOUT_SECONDS))
    .option('--base-url <url>', 'API base URL (overrides the alias or the environment)')
    .option('--verbose', 'log every HTTP attempt to stderr (never secrets)')
    .option('--json', 'a JSON result on stdout (the TypeScript in it when --out is not given), or the error document')
    .addHelpText(
      'after',
      '\nThe directories of --out and --hcl must exist (they are not created).\n\nExit codes:\n  0  written\n  1  error (nothing was written)',
    )
    .action(async (opts: ExportFlags) => {
      code = await exportCommand(io, opts);
    });

  registerImportBlocksCommand(program, io, (c) => (code = c));
  registerEmulatorCommand(program);
  registerProviderCommand(program, jsonCapable.io, (c) => {
    code = c;
  });
  const install = program.commands.find((c) => c.name() === 'provider')?.commands.find((c) => c.name() === 'install');
  install
    ?.option('--json', 'a JSON result on stdout: {"status": "ok", "messages": [...]}, or the error document')
    .addHelpText('after', '\nExit codes:\n  0  installed (or already installed)\n  1  error')
    .hook('preAction', (_cmd, action) => {
      if (action.opts().json) jsonCapable.capture();
    })
    .hook('postAction', () => {
      if (jsonCapable.capturing) jsonCapable.emit('provider install', code);
    });
  // `ncalc provider schema --json`, like `terraform providers schema -json`: JSON is its only format.
  program.commands
    .find((c) => c.name() === 'provider')
    ?.commands.find((c) => c.name() === 'schema')
    ?.option('--json', 'the schema as JSON (its only format)');
  acceptNoColor(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here with exit code 0.
      return e.exitCode === 0 ? EXIT.OK : EXIT.ERROR;
    }
    io.stderr.write(`${ERROR_PREFIX}${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.ERROR;
  }
  return code;
}
