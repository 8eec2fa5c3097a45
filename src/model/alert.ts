import type { AlertType, TargetType } from './matrix';

/**
 * The alert as the user declares it and as it travels in a create or PATCH body (4.6).
 * Field names are the wire names, so one shape serves the client, the emulator, the
 * reconciler and the provider.
 */
export interface AlertSpec {
  name: string;
  type: AlertType;
  /** DNS Record only; `null` for SPF Record and Certificate (TLS). */
  subtype: string | null;
  filter: string;
  /** Empty string for filters that take no value (`validity`). */
  filter_value: string;
  target_type: TargetType;
  target_id: number;
}

declare const canonical: unique symbol;

/**
 * An alert in canonical form (see `canonicalizeAlert`): made by `parseAlert` (canonical and
 * valid) and by `readLiveAlert` (canonical as the service returned it), so that what takes one
 * (`diffAlert`, `requestBody`) need not canonicalize it again. The brand exists for the
 * compiler only.
 */
export type CanonicalAlert = AlertSpec & { readonly [canonical]: true };

/** Fields the server owns (2.2). They are read, shown, and never part of a diff. */
export interface AlertServerFields {
  id: number;
  user_id: number | null;
  is_active: boolean;
  current_status: string | null;
  action: string | null;
  last_triggered_at: string | null;
  target_domain: TargetDetails | null;
  target_subdomain: TargetDetails | null;
}

/** DomainResponse: the interface does not show its fields; these are the ones we read. */
export interface TargetDetails {
  id: number;
  domain?: string;
  name?: string;
  [extra: string]: unknown;
}

/** An alert as the API returns it, after tolerant reading (see `readLiveAlert`). */
export type LiveAlert = CanonicalAlert & AlertServerFields;
