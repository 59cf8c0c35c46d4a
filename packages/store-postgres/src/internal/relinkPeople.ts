/**
 * The first pass of `tenure replay` on PostgreSQL (docs/storage.md, replay): persons stored apart
 * that the identity rule makes one (docs/rules.md §2, aliases) are merged, so a replay equals
 * delivering every stored event fresh. Live writes keep one invariant: every id a stored event names
 * (`identityIdsOf`) finds, in `identities`, the person the event is stored under. Records stored
 * before schema version 4 break it (the upgrade merged nothing). So the scan reads every event's
 * ids (not its body) a page at a time, keeping the ids of the events that break it (memory: those
 * ids only); then each of those events is linked again as a webhook naming its ids would be: under
 * the locks of its ids and persons, the persons it finds are folded into one (`regroupPeople`) and
 * ids no person has join it.
 */
import { identityIdsOf, type HandledEvent, type TenureConfig } from '@tenure/core';
import type pg from 'pg';
import { addIdentities, lockPeople, regroupPeople } from './pgPeople.js';
import type { Tables } from './tables.js';
import { withTransaction } from './withTransaction.js';

/** Events read per page of the scan. */
const SCAN_PAGE = 10_000;
/** Events linked again per transaction (each takes the locks of its ids and persons). */
const RELINK_PAGE = 100;
/** Rounds of "lock, read again" before giving up on one event (each means a writer moved it meanwhile). */
const MAX_ROUNDS = 8;

/** Resolves with the ids of the stored events whose ids find another person than theirs. */
async function scanLinking(pool: pg.Pool, t: Tables): Promise<string[]> {
  const linking: string[] = [];
  for (let after = 0; ; ) {
    const { rows } = await pool.query<{ seq: number; id: string; customer_id: string; app_user_id: string; original_app_user_id: string | null; aliases: string[] | null }>(
      `SELECT seq, id, customer_id, body ->> 'app_user_id' AS app_user_id, body ->> 'original_app_user_id' AS original_app_user_id,
         CASE WHEN json_typeof(body -> 'aliases') = 'array' THEN body -> 'aliases' END AS aliases
       FROM ${t.events} WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [after, SCAN_PAGE],
    );
    if (rows.length === 0) return linking;
    const idsOf = rows.map((row) => identityIdsOf(row));
    const keys = await pool.query<{ id: string; customer_id: string }>(`SELECT id, customer_id FROM ${t.identities} WHERE id = ANY($1::text[])`, [
      [...new Set(idsOf.flat())],
    ]);
    const keyOf = new Map(keys.rows.map((r) => [r.id, r.customer_id]));
    rows.forEach((row, i) => {
      if (idsOf[i]!.some((id) => keyOf.get(id) !== row.customer_id)) linking.push(row.id);
    });
    if (rows.length < SCAN_PAGE) return linking;
    after = rows[rows.length - 1]!.seq;
  }
}

/** Inside an open transaction: links one stored event again; resolves with how many persons were merged away. */
async function relinkEvent(client: pg.ClientBase, t: Tables, id: string, now: number, config: TenureConfig): Promise<number> {
  const read = async () => (await client.query<{ customer_id: string; body: HandledEvent }>(`SELECT customer_id, body FROM ${t.events} WHERE id = $1`, [id])).rows[0];
  let stored = await read();
  for (let round = 0; stored !== undefined; round++) {
    const ids = identityIdsOf(stored.body);
    const personOf = await lockPeople(client, t, [stored.customer_id, ...ids]);
    const again = await read();
    if (again?.customer_id !== stored.customer_id) {
      if (round >= MAX_ROUNDS) throw Object.assign(new Error('a stored event kept moving while taking its locks'), { code: '40001' });
      stored = again;
      continue;
    }
    const key = stored.customer_id;
    const others = [...new Set(ids.flatMap((i) => personOf.get(i) ?? []))].filter((k) => k !== key);
    const unknown = ids.filter((i) => !personOf.has(i));
    const target = others.length > 0 ? (await regroupPeople(client, t, [key, ...others], null, now, config)).customer_id : key;
    await addIdentities(client, t, unknown, unknown.map(() => target));
    return others.length;
  }
  return 0;
}

/** The mark of a schema whose next replay looks for persons stored apart (set by the version 7 upgrade when it held events). */
export const RELINK_PENDING = 'relink_pending';

/**
 * Merges the persons stored apart that one of their events links (see the module comment), while
 * the store stays in use; resolves with how many persons were merged away.
 */
export async function relinkPeople(pool: pg.Pool, t: Tables, now: number, config: TenureConfig): Promise<number> {
  // Only a schema that held events before version 7 may hold persons stored apart: its upgrade
  // set the mark, removed once the merge is done (a replay that stops before leaves it for the next).
  const pending = await pool.query(`SELECT 1 FROM ${t.meta} WHERE key = $1`, [RELINK_PENDING]);
  if (pending.rowCount === 0) return 0;
  const linking = await scanLinking(pool, t);
  let merged = 0;
  for (let from = 0; from < linking.length; from += RELINK_PAGE) {
    const page = linking.slice(from, from + RELINK_PAGE);
    merged += await withTransaction(pool, async (client) => {
      let count = 0;
      for (const id of page) count += await relinkEvent(client, t, id, now, config);
      return count;
    });
  }
  await pool.query(`DELETE FROM ${t.meta} WHERE key = $1`, [RELINK_PENDING]);
  return merged;
}
