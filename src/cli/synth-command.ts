/**
 * `ncalc synth`: run the app once, check what it declares (as `validate` does, without
 * credentials or API calls) and leave the output in --out, for the shards of a CI matrix to
 * read with `--no-synth --out <dir>` instead of each running the app again.
 */
import * as path from 'node:path';
import { FORMAT_VERSION, outDirOf } from '../reconcile';
import {
  EXIT,
  checkOffline,
  cwdOf,
  reportError,
  styleFor,
  synthesize,
  writeJson,
  type CommonOptions,
} from './commands';
import type { CliIO } from './io';

export type SynthFlags = Pick<CommonOptions, 'chdir' | 'app' | 'out' | 'synthTimeout' | 'baseUrl' | 'color'> & {
  json?: boolean;
};

export async function synthCommand(io: CliIO, opts: SynthFlags): Promise<number> {
  const json = !!opts.json;
  try {
    const stacks = await synthesize(io, { ...opts, synth: true }, json);
    const desired = checkOffline(stacks, io, opts);
    const cwd = cwdOf(io, opts);
    const out = path.relative(io.cwd, outDirOf({ cwd, out: opts.out })) || '.';
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
  }
}
