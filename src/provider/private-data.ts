/**
 * The private bytes terraform keeps beside an object's state, as JSON objects (framework.ts,
 * PrivateData). Bytes that are not a JSON object (an older provider's, or none) read as {}.
 */
import type { Model, PrivateData, ResourceHandler } from './framework';

export function decodePrivate(bytes: Uint8Array | undefined | null): PrivateData {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PrivateData) : {};
  } catch {
    return {};
  }
}

export function encodePrivate(data: PrivateData): Buffer {
  return Object.keys(data).length === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(data), 'utf8');
}

/** The private bytes for a state a handler hands back: its privateOf, else `fallback` as it came. */
export function privateFor<P>(
  handler: ResourceHandler<P> | undefined,
  state: Model | null,
  fallback: Uint8Array | undefined,
): Uint8Array {
  if (handler?.privateOf && state !== null) return encodePrivate(handler.privateOf(state));
  return fallback ?? Buffer.alloc(0);
}

/** What a plan hands on: the private data the handler set while planning, else the prior object's. */
export function plannedPrivateOf(planned: PrivateData, prior: Uint8Array | undefined): Uint8Array {
  return Object.keys(planned).length > 0 ? encodePrivate(planned) : (prior ?? Buffer.alloc(0));
}
