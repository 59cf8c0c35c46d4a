// The contract's `storeApart` seam for PostgreSQL: persons written straight into the schema as a
// version 3 schema upgraded to version 4 left them (events under their key, a record and row each,
// ids mapped like the upgrade does), on a connection of its own, with no merge.
import pg from 'pg';
import { DEFAULT_CONFIG, foldEvents, identityIdsOf, materializeAtRisk, recordActivity, transactionOccurrenceOf } from '@tenure/core';
import { T0, type PersonStoredApart } from '@tenure/store-contract';
import { databaseUrl } from './testDatabase.js';

/** Writes each person into `schema` under the `app_user_id` of its first event. */
export async function storeApart(schema: string, persons: readonly PersonStoredApart[]): Promise<void> {
  const s = `"${schema.replaceAll('"', '""')}"`;
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const { events, reported } of persons) {
      const key = events[0]!.app_user_id;
      for (const e of events) {
        await client.query(`INSERT INTO ${s}.events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES ($1, $2, $3, $4, $5, $6)`, [
          e.id, transactionOccurrenceOf(e) ?? null, key, e.type, e.event_timestamp_ms, JSON.stringify(e),
        ]);
      }
      const folded = foldEvents(events)!;
      const record = reported === undefined ? folded : recordActivity(folded, reported);
      const { row } = materializeAtRisk(record, T0, DEFAULT_CONFIG);
      await client.query(
        `INSERT INTO ${s}.subscribers (customer_id, record, reported_activity_at, state, score, band, monthly_value_cents, assessed_at, rescore_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [key, JSON.stringify(record), reported ?? null, row.state, row.score, row.band, Math.round(row.monthly_value_usd * 100), row.assessed_at, row.rescore_at],
      );
      await client.query(`INSERT INTO ${s}.identities (id, customer_id) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [key]);
    }
    for (const { events } of persons) {
      for (const id of events.flatMap(identityIdsOf)) await client.query(`INSERT INTO ${s}.identities (id, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, events[0]!.app_user_id]);
    }
    // As the version 7 upgrade of a schema holding events marks it: the next replay looks for persons stored apart.
    await client.query(`INSERT INTO ${s}.meta (key, value) VALUES ('relink_pending', '1') ON CONFLICT (key) DO NOTHING`);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
