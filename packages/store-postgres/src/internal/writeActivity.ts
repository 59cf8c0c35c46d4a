/**
 * App-reported activity: kept as the customer's latest reported time (so replay and export keep it)
 * and folded into the subscriber, under the same customer lock as events.
 */
import { materializeAtRisk, recordActivity, type StoreContext, type Subscriber } from '@tenure/core';
import type pg from 'pg';
import { lockPeople } from './pgPeople.js';
import { RowColumns, SET_ROW_FROM_U, UNNEST_ROWS } from './subscriberRows.js';
import type { Tables } from './tables.js';

/**
 * Inside an open transaction on `client`: records activity of the person `id` names at `at` and
 * re-materializes its row at `ctx.now`; resolves with the subscriber, or undefined for an unknown
 * customer (nothing is created).
 */
export async function writeActivity(client: pg.ClientBase, t: Tables, id: string, at: number, ctx: StoreContext): Promise<Subscriber | undefined> {
  // Any id of the person finds its record (docs/rules.md §2, aliases).
  const customerId = (await lockPeople(client, t, [id])).get(id);
  if (customerId === undefined) return undefined;
  const { rows } = await client.query<{ record: Subscriber }>(`SELECT record FROM ${t.subscribers} WHERE customer_id = $1 FOR UPDATE`, [customerId]);
  const current = rows[0]?.record;
  if (current === undefined) return undefined;
  const next = recordActivity(current, at);
  const columns = new RowColumns();
  columns.push(next, materializeAtRisk(next, ctx.now, ctx.config).row);
  // GREATEST ignores NULL: the first report is kept as is.
  await client.query(
    `UPDATE ${t.subscribers} AS s SET record = u.record, ${SET_ROW_FROM_U}, reported_activity_at = GREATEST(s.reported_activity_at, $13::bigint)
     FROM ${UNNEST_ROWS} WHERE s.customer_id = u.customer_id`,
    [...columns.params(), at],
  );
  return next;
}
