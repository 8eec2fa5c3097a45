/**
 * What several commands share on the command line: one builder per option (a command may word
 * the description for itself, never the flag or its default), the paragraphs of help they
 * share, and how an action hands its exit code to `run` (program.ts).
 */
import { Option, type Command } from 'commander';
import { DEFAULT_SYNTH_TIMEOUT_SECONDS } from '../read/synth';
import { GROUP_FIRST_LINES, GROUP_IN_ALL, GROUP_PER_ACCOUNT } from '../render/grouping';
import { lookupConcurrencyFlag, lookupTimeoutFlag, resolverFlag } from './lookup-flags';
import { REPORT_FORMATS, positiveInt, shardFlag, synthWorkersFlag } from './pipeline';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** How a flag's value becomes its typed option; a UsageError says what to fix. */
export type FlagParser = (value: string) => unknown;

const PARSERS = new WeakMap<Option, FlagParser>();

/**
 * A flag whose value is parsed and checked once, before the action runs (`parseFlags` of
 * contract.ts): the action receives the typed value, and a bad one is refused before any work.
 */
export function parsedOption(
  cmd: Command,
  flags: string,
  description: string,
  parse: FlagParser,
  defaultValue?: string,
): Command {
  const option = new Option(flags, description);
  if (defaultValue !== undefined) option.default(defaultValue);
  PARSERS.set(option, parse);
  return cmd.addOption(option);
}

/** The parser `option` was declared with (`parsedOption`), if any. */
export const flagParser = (option: Option): FlagParser | undefined => PARSERS.get(option);

export const chdirOption = (cmd: Command, description = 'directory of the app (holding cdktf.json)') =>
  cmd.option('-C, --chdir <dir>', description, '.');

export const appOption = (
  cmd: Command,
  description = 'command that synthesizes the app (default: "app" of cdktf.json)',
) => cmd.option('--app <command>', description);

/** The synthesized output directory: `--out` of most commands, `--cdktf-out` where --out is another file. */
export const synthOutOption = (
  cmd: Command,
  flags = '--out <dir>',
  description = 'synthesized output directory (default: "output" of cdktf.json, then cdktf.out)',
) => cmd.option(flags, description);

export const noSynthOption = (cmd: Command, description = 'do not run the app; read the existing synthesized output') =>
  cmd.option('--no-synth', description);

export const synthTimeoutOption = (cmd: Command) =>
  parsedOption(
    cmd,
    '--synth-timeout <seconds>',
    'time limit for synthesizing',
    (v) => positiveInt(v, '--synth-timeout'),
    String(DEFAULT_SYNTH_TIMEOUT_SECONDS),
  );

export const synthWorkersOption = (cmd: Command) =>
  parsedOption(
    cmd,
    '--synth-workers <k|auto>',
    'spread the synth over k runs of the app at once (auto: one per core, at most 8; default: NCALC_SYNTH_WORKERS, then 1)',
    synthWorkersFlag,
  );

export const stackOption = (cmd: Command) =>
  cmd.option('--stack <name>', 'only this stack (repeatable; default: all stacks)', collect);

export const baseUrlOption = (
  cmd: Command,
  description = 'API base URL for every account (overrides base_url and NETWORKCALC_BASE_URL)',
) => cmd.option('--base-url <url>', description);

export const colorOption = (cmd: Command) =>
  cmd.option('--no-color', 'no colour (also: NO_COLOR set, or output not a terminal)');

export const verboseOption = (cmd: Command) =>
  cmd.option('--verbose', 'log every HTTP attempt to stderr (never secrets)');

/** `cmd` with the options of each builder, in this order (the order --help lists them in). */
export function withOptions(cmd: Command, ...builders: ((cmd: Command) => Command)[]): Command {
  for (const add of builders) add(cmd);
  return cmd;
}

/** Options every reconciling command takes: where the app is and how to reach the API. */
export const appOptions = (cmd: Command): Command =>
  withOptions(
    cmd,
    chdirOption,
    appOption,
    synthOutOption,
    noSynthOption,
    synthTimeoutOption,
    synthWorkersOption,
    stackOption,
    baseUrlOption,
    colorOption,
    verboseOption,
  );

export const shardOption = (cmd: Command) =>
  parsedOption(cmd, '--shard <i/n>', 'only the accounts of shard i of n (for a CI matrix; see below)', shardFlag);

/** plan, apply, destroy, drift: the text output grouped by account above a threshold, unless --detail. */
export const detailOption = (cmd: Command) =>
  cmd.option(
    '--detail',
    `print every change and result in the text output (above ${GROUP_PER_ACCOUNT} changes in an account or ${GROUP_IN_ALL} in all, it shows each account's counts and first ${GROUP_FIRST_LINES} lines)`,
  );

/**
 * The lookup options of every planning command: a preview's lookups, and the certificates that
 * alert policy checks "before renewal fails" read at plan time (parsed by lookup-flags.ts).
 */
export const lookupOptions = (cmd: Command): Command => {
  parsedOption(
    cmd,
    '--resolver <ip[:port]>',
    'DNS server for DNS and TLS lookups (default: the system resolver)',
    resolverFlag,
  );
  parsedOption(cmd, '--lookup-timeout <ms>', 'time for one DNS answer or TLS handshake', lookupTimeoutFlag, '3000');
  return parsedOption(cmd, '--lookup-concurrency <n>', 'lookups in flight at once', lookupConcurrencyFlag, '16');
};

/** The options of a preview (`preview`, and `plan` for --preview). */
export const previewOptions = (cmd: Command): Command =>
  lookupOptions(cmd).option('--changes-only', 'evaluate only the alerts the plan creates or changes');

/** drift, coverage, preview: `--json` and `--format` (see `reportFormat`). */
export const formatOptions = (cmd: Command): Command =>
  cmd
    .option('--json', 'machine-readable output (the same as --format json)')
    .addOption(new Option('--format <format>', 'output format').choices([...REPORT_FORMATS]).default('text'));

/** Whether --format was given on the command line (not its default), for `reportFormat`. */
export const formatGiven = (cmd: Command) => cmd.getOptionValueSource('format') === 'cli';

/** apply, destroy: confirmation and how many writes run at once. */
export const writeOptions = (cmd: Command): Command => {
  cmd.option('--auto-approve', 'do not ask for confirmation (required when stdin is not a terminal)');
  parsedOption(cmd, '--parallelism <n>', 'API writes in flight at once', (v) => positiveInt(v, '--parallelism'), '8');
  return parsedOption(
    cmd,
    '--account-parallelism <n>',
    'API writes in flight at once in one account, within --parallelism (default: --parallelism with one account, half of it with more)',
    (v) => positiveInt(v, '--account-parallelism'),
  );
};

export const terraformStateOption = (cmd: Command) =>
  cmd.option(
    '--ignore-terraform-state',
    'write even to alerts a Terraform state of the app holds (refused otherwise; the states, local, in a backend or of --terraform-config, are not read)',
  );

/** Every command that reads the Terraform states (`load` of pipeline.ts): configurations outside the app. */
export const terraformConfigOption = (cmd: Command) =>
  cmd.option(
    '--terraform-config <dir>',
    'a Terraform configuration outside the app whose state holds alerts of its accounts, read like a stack\'s (repeatable; relative to the app; also "networkcalc": {"terraformConfigurations": [...]} in cdktf.json)',
    collect,
  );

export const SHARD_HELP = `
Sharding: --shard i/n takes only the accounts whose key (base URL and stack, never a
credential) hashes to shard i of n, so a CI matrix of n jobs (--shard 1/n … n/n) covers every
account once, and a job needs only its own accounts' secrets. Each job synthesizes and
validates the whole app, unless it reads the output of one ncalc synth (--no-synth --out <dir>).
`;

export const SAVED_PLAN_HELP = `
Saved plans: ncalc plan --save plan.json, then ncalc apply plan.json applies exactly those
changes without asking again, once a fresh list shows every account still holds the alerts the
plan saw (a stale plan is refused, nothing written). Credentials are read from the environment
again; the file holds none. The delete guards are checked at apply (--allow-empty,
--allow-mass-delete).
`;

export const TERRAFORM_STATE_HELP = `
Terraform states: the alerts a stack's Terraform state holds are Terraform's, in every
workspace: a local state (cdktn/cdktf's terraform.<stack>.tfstate, or the path of the stack's
local backend) is read as a file, any other backend with terraform state pull in the stack's
directory. A Terraform configuration outside the app that manages the same accounts is read
the same way when named (--terraform-config <dir>, or "terraformConfigurations" in cdktf.json's
"networkcalc"): its alerts are matched by id in each account's list. plan warns when it would
change or delete one; apply and destroy refuse (exit 1, nothing changed) unless
--ignore-terraform-state is given; a state that cannot be read refuses the accounts it guards,
before any call to them. Use one door per stack.
`;

export const APPLY_EXIT_HELP = (command: 'apply' | 'destroy') => `
Exit codes:
  0  every change${command === 'apply' ? ' and report trigger' : ''} succeeded (or there was nothing to do)
  1  error: a usage error, an invalid configuration, refused (${command === 'apply' ? 'a delete guard, a stale saved plan, ' : ''}a Terraform state, no confirmation),
     cancelled or interrupted, an account could not be planned, or a change failed
  ${command} never exits 2: changes are what it makes`;
