/**
 * Idempotency keys as part of the world: the first response to a key is remembered for 24 hours of
 * virtual time (`IDEMPOTENCY_TTL_MS`), then forgotten, so a long simulation does not keep every key.
 */
import type { SimContext } from './context.js';
import { readIdempotency, setIdempotency } from './context.js';
import { emptyPMap, pmapForEach, pmapGet, pmapRemove, pmapSet } from './persistentMap.js';
import type { IdempotencyRecord, World } from './world.js';

/**
 * Virtual time an idempotency key is remembered: 24 hours, as the well-known payment APIs keep
 * theirs (Stripe: "keys are eligible to be removed after they are at least 24 hours old").
 *
 * @example
 * record.created_at + IDEMPOTENCY_TTL_MS <= world.now; // forgotten
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const isExpired = (record: IdempotencyRecord, now: number) => record.created_at + IDEMPOTENCY_TTL_MS <= now;

/**
 * Given a world, a project and a key, returns the remembered response, or undefined when the key is
 * unknown or older than 24 hours of virtual time.
 *
 * @example
 * lookupKey(world, 'proj1', 'key-1')?.status; // 200
 */
export function lookupKey(world: World, projectId: string, key: string): IdempotencyRecord | undefined {
  const project = pmapGet(world.projects, projectId);
  const record = project === undefined ? undefined : pmapGet(project.idempotency, key);
  return record === undefined || isExpired(record, world.now) ? undefined : record;
}

/** Remembers the response to a key from now on (replacing an expired one). */
export function rememberKey(ctx: SimContext, projectId: string, key: string, record: Omit<IdempotencyRecord, 'created_at'>): IdempotencyRecord {
  const stored: IdempotencyRecord = { ...record, created_at: ctx.now };
  setIdempotency(ctx, projectId, pmapSet(readIdempotency(ctx, projectId), key, stored));
  return stored;
}

/** Forgets every key older than 24 hours at the transition's time (run when the clock moves). */
export function forgetExpiredKeys(ctx: SimContext): void {
  pmapForEach(ctx.base.projects, (project) => {
    if (project.idempotency.size === 0) return;
    let keys = project.idempotency;
    pmapForEach(project.idempotency, (record, key) => {
      if (isExpired(record, ctx.now)) keys = pmapRemove(keys, key);
    });
    if (keys !== project.idempotency) setIdempotency(ctx, project.id, keys.size === 0 ? emptyPMap() : keys);
  });
}
