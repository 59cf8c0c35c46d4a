/**
 * Streaming the stored data a page at a time (keyset pagination), so listing or exporting a million
 * subscribers holds one page in memory, never the whole table.
 */
import type { HandledEvent, MovedSubscription, StoredRecord, Subscriber } from '@tenure/core';
import type pg from 'pg';
import type { Tables } from './tables.js';

const PAGE = 1000;

/** Every subscriber in customer id order (code point order: the column's "C" collation). */
export async function* streamSubscribers(pool: pg.Pool, t: Tables): AsyncIterable<Subscriber> {
  let after = '';
  for (;;) {
    const { rows } = await pool.query<{ customer_id: string; record: Subscriber }>(
      `SELECT customer_id, record FROM ${t.subscribers} WHERE customer_id > $1 ORDER BY customer_id LIMIT ${PAGE}`,
      [after],
    );
    for (const row of rows) yield row.record;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    after = last.customer_id;
  }
}

/** Every moved subscription's route in `original_transaction_id` order (code point order: the column's "C" collation). */
export async function* streamMovedSubscriptions(pool: pg.Pool, t: Tables): AsyncIterable<MovedSubscription> {
  let after = '';
  for (;;) {
    const { rows } = await pool.query<MovedSubscription>(
      `SELECT original_transaction_id, receiver FROM ${t.movedSubscriptions} WHERE original_transaction_id > $1 ORDER BY original_transaction_id LIMIT ${PAGE}`,
      [after],
    );
    yield* rows;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < PAGE) return;
    after = last.original_transaction_id;
  }
}

/**
 * Every stored event in storage order, then each customer's reported activity, read in one
 * REPEATABLE READ snapshot: an event committed during the export (with a lower sequence number
 * than one already read) cannot slip between pages, and activity matches the events read.
 */
export async function* streamRecords(pool: pg.Pool, t: Tables): AsyncIterable<StoredRecord> {
  const client = await pool.connect();
  let open = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    for (let after = 0; ; ) {
      const { rows } = await client.query<{ seq: number; body: HandledEvent }>(`SELECT seq, body FROM ${t.events} WHERE seq > $1 ORDER BY seq LIMIT ${PAGE}`, [after]);
      for (const row of rows) yield { kind: 'event', event: row.body };
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < PAGE) break;
      after = last.seq;
    }
    for (let after = ''; ; ) {
      const { rows } = await client.query<{ customer_id: string; at: number }>(
        `SELECT customer_id, reported_activity_at AS at FROM ${t.subscribers}
         WHERE customer_id > $1 AND reported_activity_at IS NOT NULL ORDER BY customer_id LIMIT ${PAGE}`,
        [after],
      );
      for (const row of rows) yield { kind: 'activity', customer_id: row.customer_id, at: row.at };
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < PAGE) break;
      after = last.customer_id;
    }
    await client.query('COMMIT');
    open = false;
  } finally {
    // Also reached when the consumer stops early: end the snapshot before the connection goes back.
    if (open) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
