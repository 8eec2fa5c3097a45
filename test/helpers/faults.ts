import type { FaultSpec } from '../../src/emulator/faults';

/**
 * Transient faults over `rate` of all API requests (5xx, 429 and connections dropped before
 * the server reads the request, a third each), plus `ambiguous` of the creates stored and
 * then dropped before the answer.
 */
export function faultMix(rate: number, ambiguous: number): FaultSpec[] {
  const api = { path: '/api/' };
  return [
    { kind: 'status', status: 503, rate: rate / 3, match: api },
    { kind: 'rate_limit', retryAfterSeconds: 0, rate: rate / 3, match: api },
    { kind: 'drop', phase: 'before', rate: rate / 3, match: api },
    { kind: 'drop', phase: 'after', rate: ambiguous, match: { method: 'POST', path: '/api/alerts' } },
  ];
}

/**
 * `count` creates (POST /api/alerts) dropped: `after` the server stored the alert (its answer is
 * lost: the ambiguous create) or `before` the server read the request (nothing was stored).
 */
export function droppedCreates(phase: 'before' | 'after', count = 1): FaultSpec {
  return { kind: 'drop', phase, match: { method: 'POST', path: '/api/alerts' }, count };
}
