/**
 * Readiness (`GET /ready`): whether this instance should get traffic. Liveness (`/health`) only says
 * the process answers; readiness asks the stores (a PostgreSQL that went away, a SQLite file closed
 * under it), and says no while the service shuts down, so a load balancer drains it first.
 */
import type { SubscriberStore } from '@tenure/core';
import { errorLine } from '../store/openStore.js';

/** How long a store may take to answer the probe before the instance counts as not ready. */
export const READY_TIMEOUT_MS = 2_000;

/** The customer id the probe looks up: one no webhook can carry (ids are non-empty), so the lookup finds nothing and changes nothing. */
const PROBE_ID = '';

/** A store the probe asks, named for the reason. */
export interface ProbedStore {
  name: string;
  store: SubscriberStore;
}

/**
 * Given the stores, whether the service is shutting down and a timeout, resolves with null when
 * every store answers a lookup in time, else with the first reason it is not ready (`shutting
 * down`, `<store> did not answer within 2000 ms`, `<store> failed: <error>`). Never rejects.
 *
 * @example
 * const reason = await probeReadiness([{ name: 'store', store }], () => false);
 * reason === null; // ready
 */
export async function probeReadiness(stores: readonly ProbedStore[], closing: () => boolean, timeoutMs = READY_TIMEOUT_MS): Promise<string | null> {
  if (closing()) return 'shutting down';
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${stores.map((s) => s.name).join(' or ')} did not answer within ${timeoutMs} ms`), timeoutMs);
    timer.unref();
  });
  const asked = Promise.all(
    stores.map(({ name, store }) =>
      store.get(PROBE_ID).then(
        () => null,
        (error: unknown) => `${name} failed: ${errorLine(error)}`,
      ),
    ),
  ).then((reasons) => reasons.find((r) => r !== null) ?? null);
  try {
    const reason = await Promise.race([asked, late]);
    return reason === null && closing() ? 'shutting down' : reason;
  } finally {
    clearTimeout(timer);
  }
}
