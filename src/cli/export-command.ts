import type { CliIO } from './io';

export interface ExportFlags {
  account: string;
  out?: string;
  hcl?: string | boolean;
  stackName: string;
  importFrom: string;
  chdir?: string;
  app?: string;
  cdktfOut?: string;
  synth: boolean;
  synthTimeout: string;
  baseUrl?: string;
  verbose?: boolean;
}

export async function exportCommand(io: CliIO, _opts: ExportFlags): Promise<number> {
  io.stderr.write('export: not available yet\n');
  return 1;
}
