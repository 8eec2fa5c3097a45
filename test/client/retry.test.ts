import {
  DEFAULT_RETRY_POLICY,
  backoffDelayMs,
  classifyNetworkError,
  isRetryableStatus,
  parseRetryAfter,
  renewalMarginSeconds,
  resolveRetryPolicy,
  retryAfterDelayMs,
} from '../../src/client';

describe('backoffDelayMs (jitter with a floor)', () => {
  const policy = { baseDelayMs: 250, maxDelayMs: 10_000 };

  it('draws from [c/2, c], c = base * 2^(attempt-1)', () => {
    expect(backoffDelayMs(1, policy, () => 0)).toBe(125);
    expect(backoffDelayMs(1, policy, () => 0.999999)).toBe(249);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(375);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(500);
  });

  it('is capped at maxDelayMs, even for huge attempt numbers', () => {
    expect(backoffDelayMs(10, policy, () => 0.999999)).toBe(9999);
    expect(backoffDelayMs(1000, policy, () => 0.999999)).toBe(9999);
    expect(backoffDelayMs(1000, policy, () => 0)).toBe(5000);
  });

  it('never lets the retries of one call bunch up: with the defaults, four waits take at least 1.875 s', () => {
    const total = [1, 2, 3, 4].reduce((sum, attempt) => sum + backoffDelayMs(attempt, policy, () => 0), 0);
    expect(total).toBe(1875);
  });

  it('spreads values with the real random source', () => {
    const values = new Set(Array.from({ length: 50 }, () => backoffDelayMs(5, policy)));
    expect(values.size).toBeGreaterThan(10);
    for (const v of values) expect(v).toBeGreaterThanOrEqual(2000);
    for (const v of values) expect(v).toBeLessThan(4000);
  });
});

describe('retryAfterDelayMs (Retry-After plus jitter)', () => {
  const policy = { baseDelayMs: 250 };

  it('waits at least what the server asked', () => {
    expect(retryAfterDelayMs(10_000, policy, () => 0)).toBe(10_000);
    expect(retryAfterDelayMs(0, policy, () => 0)).toBe(0);
  });

  it('adds up to 20 % of a long wait', () => {
    expect(retryAfterDelayMs(10_000, policy, () => 0.5)).toBe(11_000);
    expect(retryAfterDelayMs(10_000, policy, () => 0.999999)).toBe(11_999);
  });

  it('adds up to twice baseDelayMs (500 ms by default) to a short one', () => {
    expect(retryAfterDelayMs(1000, policy, () => 0.999999)).toBe(1499);
    expect(retryAfterDelayMs(0, policy, () => 0.5)).toBe(250);
    expect(retryAfterDelayMs(1000, { baseDelayMs: 5 }, () => 0.999999)).toBe(1199);
  });

  it('spreads clients told the same Retry-After', () => {
    const waits = Array.from({ length: 50 }, () => retryAfterDelayMs(1000, policy));
    expect(new Set(waits).size).toBeGreaterThan(25);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(200);
    for (const w of waits) expect(w).toBeGreaterThanOrEqual(1000);
    for (const w of waits) expect(w).toBeLessThan(1500);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(['3', '9'], now)).toBe(3000);
  });

  it('reads an HTTP date, and a past date as 0', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores absent or garbage values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('resolveRetryPolicy', () => {
  it('defaults to 5 attempts, 60 s, 250 ms base, 10 s cap', () => {
    expect(resolveRetryPolicy()).toEqual({ maxAttempts: 5, maxTotalMs: 60_000, baseDelayMs: 250, maxDelayMs: 10_000 });
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBe(5);
  });

  it('merges partial policies and rejects nonsense', () => {
    expect(resolveRetryPolicy({ maxAttempts: 2, baseDelayMs: 1 })).toMatchObject({
      maxAttempts: 2,
      baseDelayMs: 1,
      maxDelayMs: 10_000,
    });
    expect(resolveRetryPolicy({ maxAttempts: 0 }).maxAttempts).toBe(1);
    expect(() => resolveRetryPolicy({ maxTotalMs: -1 })).toThrow(/retry.maxTotalMs/);
    expect(() => resolveRetryPolicy({ baseDelayMs: Number.NaN })).toThrow(/retry.baseDelayMs/);
  });
});

describe('isRetryableStatus', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries %d', (s) => expect(isRetryableStatus(s)).toBe(true));
  it.each([200, 301, 400, 401, 404, 405, 413, 431, 501, 505])('does not retry %d', (s) =>
    expect(isRetryableStatus(s)).toBe(false),
  );
});

describe('classifyNetworkError', () => {
  const err = (code: string) => Object.assign(new Error(code), { code });

  it('knows a refused connection was never sent', () => {
    expect(classifyNetworkError(err('ECONNREFUSED'))).toBe('not-sent');
    expect(classifyNetworkError(err('UND_ERR_CONNECT_TIMEOUT'))).toBe('not-sent');
    // Happy eyeballs: every address refused.
    const agg = Object.assign(new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')]), { code: 'ECONNREFUSED' });
    expect(classifyNetworkError(agg)).toBe('not-sent');
  });

  it('treats resets, closed sockets and the unknown as possibly sent', () => {
    expect(classifyNetworkError(err('ECONNRESET'))).toBe('dropped');
    expect(classifyNetworkError(err('UND_ERR_SOCKET'))).toBe('dropped');
    expect(classifyNetworkError(new Error('mystery'))).toBe('dropped');
    expect(classifyNetworkError(Object.assign(new Error('x'), { cause: err('EPIPE') }))).toBe('dropped');
    // A refusal beside a reset: the request may have gone out on the other address.
    expect(
      classifyNetworkError(
        Object.assign(new AggregateError([err('ECONNREFUSED'), err('ECONNRESET')]), { code: 'ECONNREFUSED' }),
      ),
    ).toBe('dropped');
  });

  it('recognises undici timeouts', () => {
    expect(classifyNetworkError(err('UND_ERR_HEADERS_TIMEOUT'))).toBe('timeout');
    expect(classifyNetworkError(err('UND_ERR_BODY_TIMEOUT'))).toBe('timeout');
  });
});

describe('renewalMarginSeconds', () => {
  it('renews 60 s early, or 10% early for short lifetimes', () => {
    expect(renewalMarginSeconds(3600)).toBe(60);
    expect(renewalMarginSeconds(600)).toBe(60);
    expect(renewalMarginSeconds(120)).toBe(12);
    expect(renewalMarginSeconds(2)).toBeCloseTo(0.2);
  });
});
