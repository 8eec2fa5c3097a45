/** How often a process that must not outlive its parent checks that it is still there. */
export const PARENT_CHECK_MS = 1000;

/**
 * Calls `gone` once when this process is re-parented (to init or a subreaper): the sign that
 * its parent ended, also by SIGKILL, when no signal or closed pipe says so. Checked every
 * `interval` ms; the timer does not keep the process alive by itself.
 */
export function whenParentGone(gone: (parent: number) => void, interval = PARENT_CHECK_MS): NodeJS.Timeout {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone(parent);
  }, interval);
  timer.unref();
  return timer;
}
