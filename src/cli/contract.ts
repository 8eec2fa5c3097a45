/**
 * The contract of every `ncalc` command, in one place. A command declares its action with
 * `defineAction`: the action returns the exit code, and what it throws goes to one error path
 * (`reportFailure`), the same for text and `--json`: a usage error or an invalid configuration
 * as the pipeline reports it, anything else as an internal error (a bug), its stack behind
 * `--debug`. `bindActions` hands the actions to commander once the commands are registered; a
 * command that runs something and declares no action is refused there.
 */
import { Option, type Command } from 'commander';
import { ERROR_PREFIX, type CliIO } from './io';
import { flagParser } from './options';
import { UsageError } from './usage';
import { EXIT, isExpectedError, reportError } from './pipeline';
import { errorJson, type JsonCommand } from '../render/json';
import { PACKAGE_VERSION } from '../version';

/** What commander calls with the arguments and options, resolving to the exit code. */
// commander hands an action its arguments, then its options and the command, typed by the command.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Action = (...args: any[]) => Promise<number>;

const ACTIONS = new WeakMap<Command, Action>();

/** Declares what `cmd` runs: `action` returns the exit code and throws what went wrong. */
export function defineAction<C extends Command>(cmd: C, action: Action): C {
  ACTIONS.set(cmd, action);
  return cmd;
}

/** The commands that run something: every command without subcommands. */
export function runnableCommands(program: Command): Command[] {
  return program.commands.flatMap((c) => (c.commands.length ? runnableCommands(c) : [c]));
}

/** `plan`, `provider install`: the command's words after `ncalc`. */
export function commandPath(cmd: Command): string {
  return cmd.parent?.parent ? `${commandPath(cmd.parent)} ${cmd.name()}` : cmd.name();
}

/** The outcome of one run of the program. */
export interface RunOutcome {
  code: number;
}

/**
 * Binds each command's declared action to commander: its exit code goes to `outcome`, what it
 * throws to `reportFailure`. Every command also takes `--debug` (not listed in --help).
 */
export function bindActions(program: Command, io: CliIO, outcome: RunOutcome): void {
  for (const cmd of runnableCommands(program)) {
    const action = ACTIONS.get(cmd);
    if (!action) throw new Error(`ncalc ${commandPath(cmd)} declares no action (defineAction)`);
    cmd.addOption(new Option('--debug', 'with an internal error, print its stack').hideHelp());
    cmd.action(async (...args: unknown[]) => {
      try {
        parseFlags(cmd);
        outcome.code = await action(...args);
      } catch (e) {
        outcome.code = reportFailure(io, cmd, e);
      }
    });
  }
}

/**
 * Every flag declared with a parser (`parsedOption`) becomes its typed value, before the action
 * runs; one UsageError lists every bad one, in the order --help lists them.
 */
export function parseFlags(cmd: Command): void {
  const problems: string[] = [];
  for (const option of cmd.options) {
    const parse = flagParser(option);
    const name = option.attributeName();
    const value: unknown = cmd.getOptionValue(name);
    if (!parse || typeof value !== 'string') continue;
    try {
      cmd.setOptionValueWithSource(name, parse(value), cmd.getOptionValueSource(name) ?? 'default');
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      problems.push(...e.problems);
    }
  }
  if (problems.length) throw new UsageError(problems);
}

/** Whether the command's output is its JSON document (`--json`, or `--format json`). */
function wantsJson(cmd: Command): boolean {
  const opts = cmd.opts<{ json?: unknown; format?: unknown }>();
  return opts.json === true || opts.format === 'json';
}

/** The one error path of every command: text on stderr and, with --json, the error document. */
export function reportFailure(io: CliIO, cmd: Command, e: unknown): number {
  const json = wantsJson(cmd);
  const name = commandPath(cmd) as JsonCommand;
  if (isExpectedError(e)) return reportError(io, name, e, json);
  return reportInternalError(io, name, e, json, cmd.opts<{ debug?: boolean }>().debug === true);
}

/**
 * The command `argv` names (the program itself when it names none): what commander was parsing
 * when it threw, which its error does not say.
 */
export function commandOf(program: Command, argv: readonly string[]): Command {
  let cmd = program;
  for (const word of argv) {
    if (word === '--') break;
    if (word.startsWith('-')) continue;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    cmd = sub;
  }
  return cmd;
}

/** Whether `argv` asks `cmd` for its JSON document, read from the words (parsing failed). */
function argvWantsJson(cmd: Command, argv: readonly string[]): boolean {
  const has = (flag: string) => cmd.options.some((o) => o.long === flag);
  const formatJson = argv.some((w, i) => w === '--format=json' || (w === '--format' && argv[i + 1] === 'json'));
  return (has('--json') && argv.includes('--json')) || (has('--format') && formatJson);
}

/**
 * A command line commander refused (an unknown flag, a value its parser rejected): commander
 * has said why on stderr; a caller that asked for JSON gets the USAGE_ERROR document too, so a
 * script reading stdout never finds it empty.
 */
export function reportParseFailure(io: CliIO, program: Command, argv: readonly string[], message: string): void {
  const cmd = commandOf(program, argv);
  if (cmd === program || !argvWantsJson(cmd, argv)) return;
  const problem = message.replace(/^error: /i, '');
  io.stdout.write(
    JSON.stringify(errorJson(commandPath(cmd) as JsonCommand, [problem], undefined, 'USAGE_ERROR'), null, 2) + '\n',
  );
}

/** An exception nothing expected: a bug of ncalc, said so, with the stack behind --debug. */
export function reportInternalError(
  io: CliIO,
  command: JsonCommand,
  e: unknown,
  json: boolean,
  debug: boolean,
): number {
  const message = e instanceof Error ? e.message : String(e);
  if (json) io.stdout.write(JSON.stringify(errorJson(command, [message], undefined, 'INTERNAL_ERROR'), null, 2) + '\n');
  const stack = e instanceof Error && e.stack ? e.stack : message;
  io.stderr.write(
    `${ERROR_PREFIX}internal error: ${message}\n` +
      `  This is a bug of ncalc ${PACKAGE_VERSION}, not of your configuration. Please report it with the command line` +
      (debug
        ? ' and the stack below.\n' + stack.replace(/^/gm, '  ') + '\n'
        : ' and the output of the same command with --debug.\n'),
  );
  return EXIT.ERROR;
}
