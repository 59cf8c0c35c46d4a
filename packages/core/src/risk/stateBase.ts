/** A state's base points, as the scorer and the tuner's feature score read them. */
import type { TenureConfig } from '../config/defaultConfig.js';
import type { SubscriberState } from '../subscriber/subscriber.js';

/**
 * Given the configured base points per state and a state, returns that state's points. Pure.
 *
 * A switch of named reads rather than `base[state]`: a lookup keyed by seven different strings is a
 * megamorphic keyed load (~110 instructions of each scoring, measured 2026-11-29), a named read of
 * one config object is a compare and a load.
 *
 * @example
 * stateBase(DEFAULT_CONFIG.risk.state_base, 'billing_issue'); // 80
 */
export function stateBase(base: TenureConfig['risk']['state_base'], state: SubscriberState): number {
  switch (state) {
    case 'trialing':
      return base.trialing;
    case 'active':
      return base.active;
    case 'pending_cancel':
      return base.pending_cancel;
    case 'churned':
      return base.churned;
    case 'billing_issue':
      return base.billing_issue;
    case 'paused':
      return base.paused;
    case 'refunded':
      return base.refunded;
    default:
      // Exhaustive; a state no version names (a hand-made record) reads as the keyed lookup did.
      state satisfies never;
      return (base as Record<string, number>)[state as string]!;
  }
}
