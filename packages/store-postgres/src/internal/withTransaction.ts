/** Running a unit of work in one transaction on one pooled connection. */
import type pg from 'pg';

/** SQLSTATEs after which the whole transaction may simply run again: deadlock, serialization failure. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

/**
 * How a transaction commits. `derived` is for writes that only recompute what the stored events
 * and records already determine (re-materialized at-risk rows): the commit does not wait for the
 * WAL flush, since a crash can lose only work that is done again (the rows are still due). Any
 * later durable commit flushes it anyway: WAL is written in order.
 */
export type Durability = 'durable' | 'derived';

const BEGIN: Record<Durability, string> = {
  durable: 'BEGIN',
  derived: 'BEGIN; SET LOCAL synchronous_commit = off',
};

/**
 * Runs `work` between BEGIN and COMMIT on a connection of `pool` and resolves with its result once
 * committed; rolls back and rethrows on failure. A deadlock (which PostgreSQL breaks by failing
 * one side) runs the work again, so `work` must not have effects outside the transaction.
 */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, durability: Durability = 'durable'): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(BEGIN[durability]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A failed ROLLBACK means the connection itself is gone: drop it rather than reuse it.
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      const code = (error as { code?: unknown }).code;
      if (attempt < MAX_ATTEMPTS && typeof code === 'string' && RETRYABLE.has(code)) continue;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
