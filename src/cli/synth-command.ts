/**
 * `ncalc synth`: run the app once, check what it declares (as `validate` does, without
 * credentials or API calls) and leave the output in --out, for the shards of a CI matrix to
 * read with `--no-synth --out <dir>` instead of each running the app again.
 */
import type { Command } from 'commander';
import * as path from 'node:path';
import { SOURCE_LOCATIONS_ENV } from '../contract/source-locations';
import { FORMAT_VERSION } from '../render/json';
import { outDirOf } from '../read/synth';
import { EXIT, checkOffline, reportError, styleFor, synthesize, writeJson, type CommonOptions } from './pipeline';
import type { CliIO } from './io';
import {
  appOption,
  baseUrlOption,
  chdirOption,
  colorOption,
  synthOutOption,
  synthTimeoutOption,
  synthWorkersOption,
} from './options';
import { defineAction } from './contract';
import { writeSynthSources } from './synth-sources';
import { scratchDirectory } from './files';

export type SynthFlags = Pick<
  CommonOptions,
  'chdir' | 'app' | 'out' | 'synthTimeout' | 'synthWorkers' | 'baseUrl' | 'color'
> & {
  json?: boolean;
};

const SYNTH_ONCE_HELP = `
Synthesize once: ncalc synth --out cdktf.out runs the app and checks it; the jobs of a CI
matrix then read that output with --no-synth --out cdktf.out --shard i/n instead of each
running the app (pass the directory between jobs as an artifact).
`;

export function register(program: Command, io: CliIO): void {
  const cmd = program
    .command('synth')
    .description(
      'Run the app once and check it (no credentials, no API call), leaving the output for --no-synth: synthesize once for many shards.',
    );
  chdirOption(cmd);
  appOption(cmd);
  synthOutOption(cmd, '--out <dir>', 'where to write the output (default: "output" of cdktf.json, then cdktf.out)');
  synthTimeoutOption(cmd);
  synthWorkersOption(cmd);
  baseUrlOption(cmd, 'API base URL to check for every account (as --base-url of the other commands)');
  defineAction(
    colorOption(cmd)
      .option('--json', 'machine-readable result')
      .addHelpText(
        'after',
        SYNTH_ONCE_HELP + '\nExit codes:\n  0  synthesized and valid\n  1  it is not (every problem is listed)',
      ),
    (opts: SynthFlags) => synthCommand(io, opts),
  );
}

export async function synthCommand(io: CliIO, opts: SynthFlags): Promise<number> {
  const json = !!opts.json;
  // The app records where each construct is declared, for drift --suggest in the shards.
  const scratch = scratchDirectory('ncalc-locations-');
  try {
    const locations = path.join(scratch.dir, 'locations.json');
    const { stacks, dir: cwd } = await synthesize(io, { ...opts, synth: true }, json, {
      [SOURCE_LOCATIONS_ENV]: locations,
    });
    const desired = checkOffline(stacks, io, opts);
    const outdir = outDirOf({ cwd, out: opts.out });
    writeSynthSources(cwd, outdir, locations);
    const out = path.relative(io.cwd, outdir) || '.';
    const summary = {
      stacks: stacks.length,
      providers: desired.scopes.length,
      alerts: desired.alerts.length,
      report_triggers: desired.triggers.length,
      alert_policies: desired.policies.length,
    };
    if (json) writeJson(io, { format_version: FORMAT_VERSION, command: 'synth', out, summary, accounts: [] });
    else {
      const n = (k: number, word: string) => `${k.toLocaleString('en-US')} ${word}${k === 1 ? '' : 's'}`;
      const chdir = opts.chdir && opts.chdir !== '.' ? ` -C ${opts.chdir}` : '';
      io.stdout.write(
        `${styleFor(io, opts).green('Synthesized')} ${n(summary.stacks, 'stack')} (${n(summary.alerts, 'alert')}, ${n(summary.providers, 'provider configuration')}) into ${out}; checked without credentials.\n` +
          `Read it without running the app again: ncalc plan|apply|drift${chdir} --no-synth --out ${out} [--shard i/n]\n`,
      );
    }
    return EXIT.OK;
  } catch (e) {
    return reportError(io, 'synth', e, json);
  } finally {
    scratch.remove();
  }
}
