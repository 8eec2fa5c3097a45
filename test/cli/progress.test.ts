import { PROGRESS_LOG_INTERVAL_MS, Progress, inCi, progressMode } from '../../src/cli/progress';

/** A Progress over `total` pieces of work, writing to a string; ticks `n` times, `everyMs` apart. */
function running(total: number, mode: boolean | 'log') {
  const out = { stderr: '', stdout: '' };
  const io = {
    stdout: { write: (s: string) => ((out.stdout += s), true) },
    stderr: { write: (s: string) => ((out.stderr += s), true) },
  };
  const p = new Progress(io, total, mode, () => Date.now());
  const ticks = (n: number, everyMs: number) => {
    for (let i = 0; i < n; i++) {
      p.tick();
      jest.advanceTimersByTime(everyMs);
    }
  };
  return { p, out, ticks };
}

describe('apply progress', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('on a terminal, one line redrawn in place with the rate and the time left once a second has passed', () => {
    const { p, out, ticks } = running(1000, true);
    ticks(5, 100);
    // Too early for a rate.
    expect(out.stderr.split('\r\u001b[K').pop()).toMatch(/^ {2}… \d\/1000 done$/);
    // 200 pieces in about 2.5 s: about 80/s, 800 left, about 10 s.
    ticks(195, 10);
    jest.advanceTimersByTime(100);
    const last = out.stderr.split('\r\u001b[K').pop()!;
    const [, rate, left] = last.match(/^ {2}… 200\/1000 done, (\d+)\/s, about (\d+) s left$/) ?? [];
    expect(+rate!).toBeGreaterThanOrEqual(75);
    expect(+rate!).toBeLessThanOrEqual(85);
    expect(Math.abs(+left! - 800 / +rate!)).toBeLessThanOrEqual(1);
    expect(out.stderr).not.toContain('\n');
    p.clear();
    expect(out.stderr.endsWith('\r\u001b[K')).toBe(true);
  });

  it('in a log, a line of its own every few seconds, never redrawn in place', () => {
    const { p, out, ticks } = running(10_000, 'log');
    // 100 per second for 12 s.
    ticks(1200, 10);
    const lines = out.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(Math.floor(12_000 / PROGRESS_LOG_INTERVAL_MS));
    expect(lines[0]).toMatch(/^ {2}… 50\d\/10000 done, 100\/s, about 1 min 3\d s left$/);
    expect(out.stderr).not.toContain('\r');
    p.clear();
    // Nothing to erase, and no line once the work is over.
    const before = out.stderr;
    jest.advanceTimersByTime(3 * PROGRESS_LOG_INTERVAL_MS);
    expect(out.stderr).toBe(before);
  });

  it('redraws in place only on a terminal outside CI; writes lines in a log only when output is grouped', () => {
    const io = (isTTY: boolean, env: NodeJS.ProcessEnv) => ({ stderr: { write: () => true, isTTY }, env });
    expect(progressMode(io(true, {}), false, false)).toBe(true);
    expect(progressMode(io(true, { CI: 'true' }), false, true)).toBe('log');
    expect(progressMode(io(true, { CI: 'true' }), false, false)).toBe(false);
    expect(progressMode(io(true, { CI: 'false' }), false, true)).toBe(true);
    expect(progressMode(io(false, {}), false, true)).toBe('log');
    expect(progressMode(io(false, {}), false, false)).toBe(false);
    expect(progressMode(io(true, {}), true, true)).toBe(false);
    expect(inCi({ CI: '1' })).toBe(true);
    expect(inCi({ CI: '' })).toBe(false);
  });
});
