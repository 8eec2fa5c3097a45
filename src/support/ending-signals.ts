/**
 * The signals that ask ncalc to end (Ctrl-C, and what CI runners and `timeout` send), and the
 * one way code of a run listens for them: every listener is released when its work is done, so
 * that once none is left the signal ends the process as it would have.
 */
export const ENDING_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export type EndingSignal = (typeof ENDING_SIGNALS)[number];

/** Where the signals come from: the process, or a test's emitter (CliIO.signals). */
type SignalSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Calls `handler` on each ending signal until the returned function releases it. */
export function onEndingSignal(handler: (signal: EndingSignal) => void, source: SignalSource = process): () => void {
  for (const s of ENDING_SIGNALS) source.on(s, handler);
  return () => {
    for (const s of ENDING_SIGNALS) source.off(s, handler);
  };
}
