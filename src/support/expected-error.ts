/**
 * A failure the user can fix, said in one sentence (its message): what ncalc reports as an
 * error of the run (`Error:` and the sentence), never as a bug. Anything else that a command
 * throws is an internal error (src/cli/contract.ts).
 */
export class ExpectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpectedError';
  }
}
