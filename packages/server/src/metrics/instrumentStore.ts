/**
 * Times a store's `atRisk` calls for the `tenure_store_operation_duration_seconds` histogram,
 * whatever the store (memory, SQLite, PostgreSQL or a user's own). `applyEvent` is timed where the
 * webhook handler calls it (the hot path, so no wrapper at all there).
 */
import type { SubscriberStore } from '@tenure/core';
import type { StoreOperation } from './retentionMetrics.js';

/**
 * Given a store and where to report durations (seconds), returns a store that behaves as the given
 * one and reports how long each `atRisk` took (failed calls too). Every other member is the store's
 * own: methods bound to it (so a class with private fields keeps working), other properties read
 * through. Built once, as a plain object: a Proxy would put a trap on every call, about half a
 * microsecond per webhook measured here. Impure (reads `performance.now()`).
 *
 * @example
 * const timed = instrumentStore(store, (operation, seconds) => metrics.storeOperation(operation, seconds));
 */
export function instrumentStore(store: SubscriberStore, report: (operation: StoreOperation, seconds: number) => void): SubscriberStore {
  const wrapped: Record<PropertyKey, unknown> = {};
  for (let layer: object | null = store; layer !== null && layer !== Object.prototype; layer = Object.getPrototypeOf(layer) as object | null) {
    for (const key of Reflect.ownKeys(layer)) {
      if (key === 'constructor' || Object.hasOwn(wrapped, key)) continue;
      const value: unknown = Reflect.get(store, key);
      if (typeof value === 'function') wrapped[key] = (value as (...args: unknown[]) => unknown).bind(store);
      else Object.defineProperty(wrapped, key, { get: () => Reflect.get(store, key), enumerable: true });
    }
  }
  const atRisk: SubscriberStore['atRisk'] = (query, ctx) => {
    const start = performance.now();
    const pending = store.atRisk(query, ctx);
    const done = () => report('at_risk', (performance.now() - start) / 1000);
    pending.then(done, done);
    return pending;
  };
  wrapped['atRisk'] = atRisk;
  return wrapped as unknown as SubscriberStore;
}
