import { whenParentGone } from '../support/parent-watch';
import { Option, type Command } from 'commander';
import type { EmulatorSeed, RunningEmulator } from '../emulator';
import { DELETE_FORMS, type DeleteForm } from '../emulator/settings';
import { FORMAT_VERSION, errorJson } from '../render/json';
import { ERROR_PREFIX, type CliIO } from './io';
import { defineAction } from './contract';
import { EXIT } from './pipeline';
import { parsedOption } from './options';
import { UsageError } from './usage';
// The emulator (fastify and its dependencies) is loaded only when this command runs, not on
// every `ncalc plan`.
// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- a type-only import() keeps the module out of the load path
type EmulatorModule = typeof import('../emulator');

interface EmulatorCommandOptions {
  json?: boolean;
  port: number;
  host: string;
  data?: string;
  seed?: string;
  controlToken?: string;
  deleteForm?: DeleteForm;
}

/** A usage error: commander prints it with the option's name and the usage hint, exit code 1. */
function parsePort(value: string): number {
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65535)
    throw new UsageError([`--port must be a whole number from 0 to 65535, got ${JSON.stringify(value)}`]);
  return port;
}

function describe(
  emulator: EmulatorModule,
  running: RunningEmulator,
  seed: EmulatorSeed | undefined,
  opts: EmulatorCommandOptions,
): string {
  const { DEMO_ACCOUNT } = emulator;
  const lines = [`NetworkCalc emulator (API v1.9) listening on ${running.url}`, ''];
  lines.push(`  NETWORKCALC_BASE_URL=${running.url}`);
  if (!seed) {
    lines.push(
      `  demo account:   client id ${DEMO_ACCOUNT.clientId}, client secret ${DEMO_ACCOUNT.clientSecret}`,
      `  ready token:    NETWORKCALC_TOKEN=${DEMO_ACCOUNT.token}`,
      `  domains:        example.com (id 1; www 2, mail 3), example.org (id 4)`,
    );
  } else {
    for (const a of seed.accounts) {
      const ids = (a.credentials ?? []).map((c) => c.client_id);
      const tokens = (a.tokens ?? []).length;
      const how = [
        ids.length ? `client id ${ids.join(', ')}` : '',
        tokens ? `${tokens} ready token${tokens > 1 ? 's' : ''}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      lines.push(`  account ${a.name}: ${how || 'no credentials or tokens'} (secrets as in the seed file)`);
    }
  }
  lines.push(`  control token:  x-emulator-token: ${running.controlToken}`);
  lines.push(
    `  state:          ${opts.data ? `saved to ${opts.data}` : 'in memory (lost on stop; use --data <file> to keep it)'}`,
  );
  lines.push(
    `  DELETE:         ${opts.deleteForm ? `alert id in the ${opts.deleteForm} only (--delete-form)` : 'alert id in the path, ?alert_id= or a JSON body'}`,
  );
  lines.push('', 'Press Ctrl+C to stop.');
  return lines.join('\n');
}

/** `--json`: what `describe` says, as one JSON document (secrets as the text shows them). */
function describeJson(
  emulator: EmulatorModule,
  running: RunningEmulator,
  seed: EmulatorSeed | undefined,
  opts: EmulatorCommandOptions,
): Record<string, unknown> {
  const { DEMO_ACCOUNT } = emulator;
  const accounts = seed
    ? seed.accounts.map((a) => ({
        name: a.name,
        client_ids: (a.credentials ?? []).map((c) => c.client_id),
        tokens: (a.tokens ?? []).length,
      }))
    : [
        {
          name: DEMO_ACCOUNT.name,
          client_id: DEMO_ACCOUNT.clientId,
          client_secret: DEMO_ACCOUNT.clientSecret,
          token: DEMO_ACCOUNT.token,
        },
      ];
  return {
    format_version: FORMAT_VERSION,
    command: 'emulator',
    status: 'listening',
    url: running.url,
    control_token: running.controlToken,
    data_file: opts.data ?? null,
    delete_form: opts.deleteForm ?? null,
    accounts,
  };
}

/**
 * `ncalc emulator`: runs the local NetworkCalc API until SIGINT / SIGTERM. A process of its
 * own: it writes to the process's streams, and once it serves, a signal ends it (and sets
 * its exit code).
 */
export function register(program: Command, _io: CliIO): void {
  const cmd = program
    .command('emulator')
    .description('Run a local emulator of the NetworkCalc Reports and Alerts API v1.9.');
  parsedOption(cmd, '--port <n>', 'port to listen on (0 picks a free one)', parsePort, '8787');
  cmd
    .option('--host <h>', 'address to bind', '127.0.0.1')
    .option(
      '--data <file>',
      'save state to this JSON file (every change first to a journal beside it), and load it on start',
    )
    .option(
      '--seed <file>',
      'accounts, credentials, tokens and domains to start with (JSON); default: the demo account',
    )
    .option('--control-token <t>', 'value of the x-emulator-token header for /_emulator (default: random)')
    .addOption(
      new Option(
        '--delete-form <form>',
        'accept a DELETE of an alert only with the id in this form, like the real service: path /api/alerts/{id}, ' +
          'query ?alert_id={id}, body {"alert_id": id}; another form answers 400 MISSING_VALUES (default: every form)',
      ).choices(DELETE_FORMS),
    )
    .option('--json', 'print the address, tokens and accounts as one JSON document (or the error document)')
    .addHelpText(
      'after',
      '\nExit codes:\n  0  stopped by SIGINT or SIGTERM\n  1  could not start (a usage error, a port in use, a bad --seed or --data file)',
    );
  defineAction(cmd, runEmulator);
}

async function runEmulator(opts: EmulatorCommandOptions): Promise<number> {
  const emulator: EmulatorModule = await import('../emulator');
  const { loadSeedFile, startEmulator, SeedError } = emulator;
  const { DataFileError } = emulator;
  let running: RunningEmulator;
  let seed: EmulatorSeed | undefined;
  try {
    seed = opts.seed ? loadSeedFile(opts.seed) : undefined;
    running = await startEmulator({
      host: opts.host,
      port: opts.port,
      seed,
      dataFile: opts.data,
      controlToken: opts.controlToken,
      deleteForm: opts.deleteForm,
    });
  } catch (err) {
    const known = err instanceof SeedError || err instanceof DataFileError || (err as Error).name === 'PortInUseError';
    const message = known ? (err as Error).message : ((err as Error).stack ?? String(err));
    if (opts.json)
      process.stdout.write(JSON.stringify(errorJson('emulator', [message], undefined, 'ERROR'), null, 2) + '\n');
    process.stderr.write(`${ERROR_PREFIX}${message}\n`);
    return EXIT.ERROR;
  }
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) process.exit(1); // a second signal: do not wait any longer
    stopping = true;
    // With --json, stdout holds only the document.
    (opts.json ? process.stderr : process.stdout).write(`\n${reason}: stopping the emulator\n`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`${ERROR_PREFIX}the emulator did not stop cleanly: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started in the background of a script (`ncalc emulator &`), through npx, it is not the
  // job the script's `kill %1` or its end reaches: it stops when its parent is gone.
  whenParentGone((parent) => stop(`its parent (pid ${parent}) is gone`));
  // Announced only once a signal can stop it cleanly: whoever waits for this line may
  // send SIGTERM at once.
  process.stdout.write(
    opts.json
      ? JSON.stringify(describeJson(emulator, running, seed, opts)) + '\n'
      : describe(emulator, running, seed, opts) + '\n',
  );
  // It goes on serving until a signal stops it (above); the process's exit code is set there.
  return EXIT.OK;
}
