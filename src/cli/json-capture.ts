import { FORMAT_VERSION, errorJson, type JsonCommand } from '../render/json';
import type { CliIO } from './io';
import { EXIT } from './pipeline';

/**
 * `--json` for a command that prints text (provider install): its output is kept, then
 * printed as one JSON document, `{"status": "ok", "messages": [...]}` or the error document
 * with its `Error:` lines as problems.
 */
export class JsonCapture {
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
