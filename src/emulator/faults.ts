import { randomUUID } from 'node:crypto';
import { ERROR_TABLE, isErrorCode, type ErrorCode } from './errors';
import { isObject } from '../support/json';

export type FaultKind = 'latency' | 'status' | 'rate_limit' | 'drop' | 'reject';
export type FaultPhase = 'before' | 'after';

/** What a caller posts to /_emulator/faults. */
export interface FaultSpec {
  kind: FaultKind;
  /**
   * Only requests with this method, a path starting with this prefix and on behalf of this
   * account (its name as in the seed: the account whose token the request carries, valid,
   * expired or refused, or whose client id a token exchange sends).
   */
  match?: FaultMatch;
  /** Apply to the next n matching requests, then disappear; absent: until cleared. */
  count?: number;
  /** Probability (0..1) that a matching request is hit; default 1. */
  rate?: number;
  /** latency: delay in milliseconds. */
  latencyMs?: number;
  /** status: the 5xx to answer; default 500. */
  status?: number;
  /** rate_limit: value of the Retry-After header; default 1. */
  retryAfterSeconds?: number;
  /**
   * before (default): instead of handling the request.
   * after: the handler runs and commits its change, then the fault replaces the answer
   * (drop: the connection is destroyed; status: a 5xx; latency: a delay before answering).
   */
  phase?: FaultPhase;
  /** reject: the interface code to answer, e.g. NOT_CREATED; nothing is changed. */
  code?: ErrorCode;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Matching requests this fault still applies to; null = unlimited. */
  remaining: number | null;
  /** How many requests it has hit so far. */
  hits: number;
}

/** Which requests a fault applies to; every field given must match. */
export interface FaultMatch {
  method?: string;
  path?: string;
  account?: string;
}

/** The faults chosen for one request, decided once when it arrives. */
export interface FaultPlan {
  delayBeforeMs: number;
  delayAfterMs: number;
  /** At most one fault that replaces the answer. */
  terminal?: Fault;
  /** Every fault that hit the request (latency ones included), for the request log. */
  hits: Fault[];
}

/**
 * The one rule for "a request matches": the method, when given, is equal (any case) and the
 * path, when given, is a prefix of the request's path (query excluded). Used by faults and
 * by the request counts.
 */
export function requestMatches(
  match: FaultMatch | undefined,
  method: string,
  path: string,
  account: string | null = null,
): boolean {
  if (match?.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match?.path && !path.startsWith(match.path)) return false;
  if (match?.account !== undefined && match.account !== account) return false;
  return true;
}

/** True when some fault needs the request's account to decide whether it matches. */
export function matchesByAccount(faults: readonly FaultSpec[]): boolean {
  return faults.some((f) => f.match?.account !== undefined);
}

const KINDS: readonly FaultKind[] = ['latency', 'status', 'rate_limit', 'drop', 'reject'];

export class FaultSpecError extends Error {}

function bad(message: string): never {
  throw new FaultSpecError(message);
}

/** Checks a posted fault; messages name the field. */
export function parseFaultSpec(input: unknown): FaultSpec {
  if (!isObject(input)) bad('fault must be a JSON object');
  const f = input as Record<string, unknown>;
  const known = ['kind', 'match', 'count', 'rate', 'latencyMs', 'status', 'retryAfterSeconds', 'phase', 'code'];
  for (const k of Object.keys(f))
    if (!known.includes(k)) bad(`fault.${k} is not a known field (known: ${known.join(', ')})`);
  if (!KINDS.includes(f.kind as FaultKind)) bad(`fault.kind must be one of ${KINDS.join(', ')}`);
  const kind = f.kind as FaultKind;
  const spec: FaultSpec = { kind };

  if (f.match !== undefined) {
    if (!isObject(f.match)) bad('fault.match must be an object');
    const m = f.match as Record<string, unknown>;
    for (const k of Object.keys(m))
      if (k !== 'method' && k !== 'path' && k !== 'account')
        bad(`fault.match.${k} is not a known field (known: method, path, account)`);
    if (m.method !== undefined && (typeof m.method !== 'string' || !m.method))
      bad('fault.match.method must be an HTTP method');
    if (m.path !== undefined && (typeof m.path !== 'string' || !m.path.startsWith('/')))
      bad('fault.match.path must be a path prefix starting with "/"');
    if (m.account !== undefined && (typeof m.account !== 'string' || !m.account))
      bad('fault.match.account must be the name of an account, as in the seed');
    spec.match = {};
    if (m.method !== undefined) spec.match.method = (m.method as string).toUpperCase();
    if (m.path !== undefined) spec.match.path = m.path as string;
    if (m.account !== undefined) spec.match.account = m.account as string;
  }
  if (f.count !== undefined) {
    if (typeof f.count !== 'number' || !Number.isSafeInteger(f.count) || f.count < 1)
      bad('fault.count must be a positive whole number');
    spec.count = f.count;
  }
  if (f.rate !== undefined) {
    if (typeof f.rate !== 'number' || !(f.rate >= 0 && f.rate <= 1)) bad('fault.rate must be a number from 0 to 1');
    spec.rate = f.rate;
  }
  if (f.phase !== undefined) {
    if (f.phase !== 'before' && f.phase !== 'after') bad('fault.phase must be "before" or "after"');
    if (f.phase === 'after' && (kind === 'reject' || kind === 'rate_limit'))
      bad(`fault.phase "after" does not apply to kind "${kind}" (it would have to undo the change)`);
    spec.phase = f.phase;
  }
  switch (kind) {
    case 'latency':
      if (typeof f.latencyMs !== 'number' || !Number.isFinite(f.latencyMs) || f.latencyMs < 0)
        bad('fault.latencyMs must be a number of milliseconds (0 or more)');
      spec.latencyMs = f.latencyMs;
      break;
    case 'status':
      if (
        f.status !== undefined &&
        (typeof f.status !== 'number' || !Number.isInteger(f.status) || f.status < 500 || f.status > 599)
      ) {
        bad('fault.status must be a 5xx status');
      }
      spec.status = (f.status as number | undefined) ?? 500;
      break;
    case 'rate_limit':
      if (
        f.retryAfterSeconds !== undefined &&
        (typeof f.retryAfterSeconds !== 'number' || !Number.isInteger(f.retryAfterSeconds) || f.retryAfterSeconds < 0)
      ) {
        bad('fault.retryAfterSeconds must be a whole number of seconds');
      }
      spec.retryAfterSeconds = (f.retryAfterSeconds as number | undefined) ?? 1;
      break;
    case 'reject':
      if (!isErrorCode(f.code) || ERROR_TABLE[f.code] !== 400) {
        const codes = Object.entries(ERROR_TABLE)
          .filter(([, s]) => s === 400)
          .map(([c]) => c);
        bad(`fault.code must be one of ${codes.join(', ')}`);
      }
      spec.code = f.code;
      break;
    case 'drop':
      break;
  }
  return spec;
}

/** A small seeded generator (mulberry32) so fault rates can be reproduced. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultBook {
  private faults: Fault[] = [];
  private random: () => number = Math.random;

  constructor(randomSeed: number | null = null) {
    this.reseed(randomSeed);
  }

  /** Restarts the generator behind rates: seeded (the same sequence again) or Math.random (null). */
  reseed(randomSeed: number | null): void {
    this.random = randomSeed === null ? Math.random : seededRandom(randomSeed);
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: randomUUID(), remaining: spec.count ?? null, hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** True when a fault matches by account (a token exchange then waits for its body to decide). */
  get byAccount(): boolean {
    return matchesByAccount(this.faults);
  }

  /**
   * Decides which faults hit a request. In the order they were added: every latency fault
   * that matches adds its delay; the first other matching fault replaces the answer and the
   * rest are not consumed. A fault's count is used up only by requests it actually hits.
   */
  plan(method: string, path: string, account: string | null = null): FaultPlan | undefined {
    const plan: FaultPlan = { delayBeforeMs: 0, delayAfterMs: 0, hits: [] };
    for (const f of this.faults) {
      if (!requestMatches(f.match, method, path, account)) continue;
      if (f.kind !== 'latency' && plan.terminal) continue;
      if ((f.rate ?? 1) < 1 && this.random() >= (f.rate ?? 1)) continue;
      f.hits++;
      if (f.remaining !== null) f.remaining--;
      plan.hits.push(f);
      if (f.kind === 'latency') {
        if (f.phase === 'after') plan.delayAfterMs += f.latencyMs ?? 0;
        else plan.delayBeforeMs += f.latencyMs ?? 0;
      } else {
        plan.terminal = f;
      }
    }
    this.faults = this.faults.filter((f) => f.remaining === null || f.remaining > 0);
    return plan.hits.length ? plan : undefined;
  }
}
