/**
 * The provider writes its client's request log (`[networkcalc] GET /api/alerts/ 200 attempt=1
 * 3ms`) to its own stderr, which Terraform keeps as its log (TF_LOG). A test that runs the
 * provider's handlers in-process would send those lines to jest's stderr, where `--silent`
 * (which quiets only `console`) does not reach them: this collects them for the test instead.
 * Everything else written to stderr passes through.
 */
const PREFIX = '[networkcalc] ';

/** Collects the provider's log lines for every test of the calling file; returns a reader. */
export function collectProviderLog(): () => string[] {
  const lines: string[] = [];
  let spy: jest.SpyInstance | undefined;
  beforeAll(() => {
    const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
    spy = jest.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'string' || !chunk.startsWith(PREFIX)) return write(chunk, ...rest);
      lines.push(chunk.slice(PREFIX.length).trimEnd());
      return true;
    }) as typeof process.stderr.write);
  });
  beforeEach(() => lines.splice(0));
  afterAll(() => spy?.mockRestore());
  return () => [...lines];
}
