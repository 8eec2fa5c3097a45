/**
 * Waiting on processes the tests start: whether one is still alive, and a bounded poll until a
 * condition holds.
 */

/** Whether process `pid` is alive; with a negative pid, whether any process of group `-pid` is. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Polls `check` every `pollMs` until it holds, and says how many milliseconds that took; throws
 * `<what>: not within <timeoutMs> ms` otherwise. `check` may throw to end the wait early.
 */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
  pollMs = 20,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started >= timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
