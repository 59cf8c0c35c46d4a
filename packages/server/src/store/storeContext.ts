/** The instant and rules every store call is made with, read from the service's clock and config. */
import type { StoreContext, TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';

/**
 * Given the service clock and configuration, returns the store context for a call made now (the
 * clock is read once, so one call sees one instant).
 *
 * @example
 * await store.atRisk({ limit: 50 }, storeContext(runtime));
 */
export function storeContext(deps: { clock: Clock; config: TenureConfig }): StoreContext {
  return { now: deps.clock.now(), config: deps.config };
}
