/**
 * The PostgreSQL store's bulk import (`SubscriberStore.beginImport`, schema version 6): `append`
 * stores a batch as `applyEvents` does, under the same locks, in transactions of at most 500
 * events (an event whose id is stored already answered `duplicate` before any), but reads and
 * writes no record; each person touched goes to `import_pending` in the
 * transaction of its events. `finish`
 * folds the pending persons a page at a time (their locks taken as every writer takes them, so a
 * webhook of one of them arriving meanwhile is folded in or applied after, never lost) and removes
 * their marks with their new rows. Marks left by a session that never finished are folded by the
 * next session's `finish`.
 */
import type { ApplyOutcome, ImportSession, StoreContext } from '@tenure/core';
import type pg from 'pg';
import { lockPeople, refoldPeople } from './pgPeople.js';
import type { Tables } from './tables.js';
import { withTransaction } from './withTransaction.js';
import { appendEvents, type WriteEventsSql } from './writeEvents.js';

/** Persons folded per `finish` transaction: a few thousand events, a few milliseconds of locks. */
const PAGE = 500;
/**
 * Events per `append` transaction at most: each takes the advisory locks of the ids it names, and
 * PostgreSQL's lock table holds about 64 per connection (`max_locks_per_transaction`), shared: a
 * batch of 10,000 events of as many customers ran out of it ("out of shared memory").
 */
const APPEND_CHUNK = 500;

/** Given the pool, the tables, the statements of `writeEvents` and the store's config check, returns `beginImport`. */
export function createPgImport(
  pool: pg.Pool,
  t: Tables,
  sql: WriteEventsSql,
  ensureConfig: (ctx: StoreContext) => Promise<void>,
): (ctx: StoreContext) => ImportSession {
  return (begun) => ({
    async append(events, onHeldElsewhere) {
      const statuses: ApplyOutcome['status'][] = [];
      for (let from = 0; from < events.length; from += APPEND_CHUNK) {
        const chunk = events.slice(from, from + APPEND_CHUNK);
        // An id stored already is a duplicate (events are never deleted), answered without locks or
        // writes: a re-import of the next day's full export finds nearly every one.
        const { rows } = await pool.query<{ id: string }>(`SELECT id FROM ${t.events} WHERE id = ANY($1::text[])`, [chunk.map((event) => event.id)]);
        const stored = new Set(rows.map((row) => row.id));
        const fresh = chunk.filter((event) => !stored.has(event.id)).map((event) => ({ event, now: begun.now }));
        const written = fresh.length === 0 ? [] : await withTransaction(pool, (client) => appendEvents(client, sql, fresh, begun.config, onHeldElsewhere !== undefined));
        let next = 0;
        for (const event of chunk) {
          if (stored.has(event.id)) {
            statuses.push('duplicate');
            continue;
          }
          const outcome = written[next++]!;
          statuses.push(outcome.status);
          // After the chunk's commit; its position in the whole batch.
          if (outcome.heldBy !== undefined) onHeldElsewhere?.(statuses.length - 1, outcome.heldBy);
        }
      }
      return statuses;
    },
    async finish(ctx, onProgress) {
      await ensureConfig(ctx);
      const total = Number((await pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${t.importPending}`)).rows[0]?.n ?? 0);
      let after = '';
      let done = 0;
      let folded = 0;
      for (;;) {
        const { rows } = await pool.query<{ customer_id: string }>(`SELECT customer_id FROM ${t.importPending} WHERE customer_id > $1 ORDER BY customer_id LIMIT $2`, [after, PAGE]);
        const keys = rows.map((r) => r.customer_id);
        if (keys.length === 0) break;
        folded += await withTransaction(pool, async (client) => {
          await lockPeople(client, t, keys);
          // A mark with no event under it: its person was merged into another since (marked too).
          const records = await refoldPeople(client, t, keys, ctx.now, ctx.config);
          await client.query(`DELETE FROM ${t.importPending} WHERE customer_id = ANY($1::text[])`, [keys]);
          return records.filter((r) => r !== undefined).length;
        });
        done += keys.length;
        after = keys[keys.length - 1]!;
        onProgress?.(done, Math.max(total, done));
        if (keys.length < PAGE) break;
      }
      return folded;
    },
  });
}
