/**
 * Appending events with their projections in one transaction: the path of every webhook (batched
 * by `WriteBatcher`) and of import. Duplicates are caught by the events table's unique id and
 * unique transaction occurrence (`transactionOccurrenceOf`), also when two replicas insert the same
 * one at once (the second waits for the first to commit, then sees the conflict).
 */
import { applyEvent, compareIds, identityIdsOf, materializeAtRisk, transactionOccurrenceOf, type ApplyOutcome, type HandledEvent, type OccurrenceHolder, type Subscriber, type TenureConfig } from '@tenure/core';
import type pg from 'pg';
import { lockRouted } from './pgMovedSubscriptions.js';
import { addIdentities, regroupPeople } from './pgPeople.js';
import { RowColumns, upsertRowsSql } from './subscriberRows.js';
import { prepared } from './prepared.js';
import { sqlLiteral } from './quoteIdent.js';
import type { Tables } from './tables.js';

/** One event to apply and the instant its subscriber's at-risk row is materialized at. */
export interface EventWrite {
  event: HandledEvent;
  now: number;
}

/** The SQL of one batch, built once per schema. */
export interface WriteEventsSql {
  tables: Tables;
  insertAndLock: string;
  readSubscribers: string;
  upsertSubscribers: string;
  /** Marks persons an import session touched (schema version 6), for its `finish`. */
  markPending: string;
  /** The holders of the occurrences of a batch's duplicates (`holdersOf`). */
  holders: string;
}

/** Given the tables, returns the statements of `writeEvents`. Pure. */
export function writeEventsSql(t: Tables): WriteEventsSql {
  return {
    tables: t,
    // Rows are inserted in id order and customers locked in id order, so every transaction takes
    // its locks in the same order: two batches sharing events or customers wait for each other
    // instead of deadlocking. Sequence numbers are drawn first, in arrival order, so storage order
    // stays the order events came in. The customer locks serialize the writers of one subscriber
    // (events, activity, replay): concurrent events of one customer never lose an update.
    // Every write of the batch gets its sequence number (given again, `$7`, when a write held back
    // is tried later, so storage order stays arrival order); those flagged in `$8` are inserted.
    // Answers, per write, its number and whether it was stored.
    insertAndLock: `
      WITH numbered AS MATERIALIZED (
        SELECT coalesce(u.given, nextval(${sqlLiteral(`${t.events}_seq_seq`)}::regclass)) AS seq, u.*
        FROM unnest($1::text[], $6::text[], $2::text[], $3::text[], $4::bigint[], $5::json[], $7::bigint[], $8::bool[])
          WITH ORDINALITY AS u(id, occurrence, customer_id, type, at, body, given, send, arrival)
        ORDER BY arrival
      ), ins AS (
        INSERT INTO ${t.events} (seq, id, occurrence, customer_id, type, event_timestamp_ms, body)
        SELECT seq, id, occurrence, customer_id, type, at, body
        FROM numbered WHERE send
        ORDER BY id COLLATE "C"
        ON CONFLICT DO NOTHING
        RETURNING id, customer_id
      ), locks AS (
        SELECT ${t.customerLock('customer_id')}
        FROM (SELECT DISTINCT customer_id FROM ins ORDER BY customer_id) AS c
      )
      SELECT n.arrival::int AS arrival, n.seq::text AS seq, ins.id IS NOT NULL AS stored, (SELECT count(*) FROM locks) AS locked
      FROM numbered n LEFT JOIN ins ON n.send AND ins.id = n.id`,
    // Locks the rows too, in customer id order (the order every multi-row writer locks rows in).
    readSubscribers: `SELECT customer_id, record FROM ${t.subscribers} WHERE customer_id = ANY($1::text[]) ORDER BY customer_id FOR UPDATE`,
    upsertSubscribers: upsertRowsSql(t.subscribers),
    markPending: `INSERT INTO ${t.importPending} (customer_id) SELECT DISTINCT k FROM unnest($1::text[]) AS k ORDER BY k ON CONFLICT DO NOTHING`,
    // Per duplicate (its position, occurrence, id and the ids it names as a JSON array) unless its
    // id is stored (a redelivery): the person's key of the stored event holding the occurrence, and
    // whether one of the names is that person's. Probes of the unique indexes only.
    holders: `
      SELECT u.pos, u.occurrence, held.customer, EXISTS (
          SELECT 1 FROM ${t.identities} i WHERE i.id IN (SELECT json_array_elements_text(u.names)) AND i.customer_id = held.customer
        ) AS named
      FROM unnest($1::int[], $2::text[], $3::text[], $4::json[]) AS u(pos, occurrence, id, names)
      CROSS JOIN LATERAL (
        SELECT coalesce((SELECT p.customer_id FROM ${t.identities} p WHERE p.id = e.customer_id), e.customer_id) AS customer
        FROM ${t.events} e WHERE e.occurrence = u.occurrence
      ) AS held
      WHERE NOT EXISTS (SELECT 1 FROM ${t.events} x WHERE x.id = u.id)`,
  };
}

/**
 * Inside an open transaction on `client`: stores the events not seen before, applies them in
 * order to their subscribers (read after taking the customers' locks, so the read is current),
 * materializes each changed subscriber's at-risk row at the latest `now` of its events, and writes
 * them. Resolves with one outcome per write, in order; a repeated id or transaction occurrence
 * inside the batch is a duplicate of its first write.
 */
export function writeEvents(client: pg.ClientBase, sql: WriteEventsSql, writes: readonly EventWrite[], config: TenureConfig): Promise<ApplyOutcome[]> {
  // Without `mark`, every applied outcome carries its subscriber.
  return storeEvents(client, sql, writes, config, false) as Promise<ApplyOutcome[]>;
}

/**
 * An import session's append: inside an open transaction on `client`, stores the events and their
 * identities as `writeEvents` does but reads and writes no record: each person touched is added to
 * `import_pending` for the session's `finish` (a merge of two persons is still folded at once).
 * Resolves with one outcome per write, in order (with `holders`, a duplicate's `heldBy` is sought
 * as `writeEvents` seeks it; otherwise not).
 */
export async function appendEvents(client: pg.ClientBase, sql: WriteEventsSql, writes: readonly EventWrite[], config: TenureConfig, holders = false): Promise<StoredOutcome[]> {
  return storeEvents(client, sql, writes, config, true, holders);
}

/** An outcome of `storeEvents`: with `mark`, an applied event's subscriber is not read (and a duplicate's holder not sought). */
export type StoredOutcome = { status: ApplyOutcome['status']; subscriber: Subscriber | undefined; heldBy?: OccurrenceHolder };

/**
 * Inside the batch's transaction, after its writes: sets `heldBy` on each duplicate outcome whose
 * occurrence a stored event of a person none of its ids names holds (`ApplyOutcome`). Sends the
 * one query only when the batch has duplicates carrying an occurrence.
 */
async function findHolders(client: pg.ClientBase, sql: WriteEventsSql, events: readonly HandledEvent[], outcomes: StoredOutcome[]): Promise<void> {
  const positions: number[] = [];
  const keys: string[] = [];
  const ids: string[] = [];
  const names: string[] = [];
  outcomes.forEach((outcome, i) => {
    const key = outcome.status === 'duplicate' ? transactionOccurrenceOf(events[i]!) : undefined;
    if (key === undefined) return;
    positions.push(i);
    keys.push(key);
    ids.push(events[i]!.id);
    names.push(JSON.stringify(identityIdsOf(events[i]!)));
  });
  if (positions.length === 0) return;
  const { rows } = await client.query<{ pos: number; occurrence: string; customer: string; named: boolean }>(prepared(sql.holders, [positions, keys, ids, names]));
  for (const row of rows) if (!row.named) outcomes[row.pos]!.heldBy = { key: row.occurrence, customer: row.customer };
}

async function storeEvents(client: pg.ClientBase, sql: WriteEventsSql, delivered: readonly EventWrite[], config: TenureConfig, mark: boolean, holders = !mark): Promise<StoredOutcome[]> {
  // The first write of each id and of each transaction occurrence in the batch; the rest are duplicates.
  const firstOf = new Set<string>();
  const firstOccurrence = new Set<string>();
  const sent = new Set<number>();
  delivered.forEach(({ event }, i) => {
    if (firstOf.has(event.id)) return;
    firstOf.add(event.id);
    const occurrence = transactionOccurrenceOf(event);
    if (occurrence !== undefined) {
      if (firstOccurrence.has(occurrence)) return;
      firstOccurrence.add(occurrence);
    }
    sent.add(i);
  });

  // An event of a transferred subscription is stored re-keyed to its receiver (pgMovedSubscriptions.ts);
  // one person under several ids (pgPeople.ts): the ids of the batch's events and their records' locks first.
  const t = sql.tables;
  const { events: routed, personOf } = await lockRouted(client, t, delivered.map((w) => w.event), (events) => [...new Set(events.flatMap(identityIdsOf))]);
  const writes = delivered.map((w, i) => ({ event: routed[i]!, now: w.now }));
  const customers: string[] = [];
  // Stored first under their own app_user_id; `placed` moves those whose person has another key.
  const inserted = new Set<number>();
  /** Writes the database refused: their id or occurrence was stored before the batch. */
  const refused = new Set<number>();
  const seqOf = new Map<number, string>();
  /**
   * Inserts the writes at `send` (distinct ids and occurrences), numbering every write of `positions`
   * (the whole batch, first; then the writes tried again, with their numbers); resolves with how
   * many the database refused.
   */
  const insert = async (positions: readonly number[], send: ReadonlySet<number>) => {
    const columns = { ids: [] as string[], occurrences: [] as (string | null)[], owners: [] as string[], types: [] as string[], ats: [] as number[], bodies: [] as string[] };
    const given: (string | null)[] = [];
    const flags: boolean[] = [];
    for (const i of positions) {
      const { event } = writes[i]!;
      columns.ids.push(event.id);
      columns.occurrences.push(transactionOccurrenceOf(event) ?? null);
      columns.owners.push(event.app_user_id);
      columns.types.push(event.type);
      columns.ats.push(event.event_timestamp_ms);
      columns.bodies.push(send.has(i) ? JSON.stringify(event) : 'null');
      given.push(seqOf.get(i) ?? null);
      flags.push(send.has(i));
      if (send.has(i)) customers.push(event.app_user_id);
    }
    const { ids, occurrences, owners, types, ats, bodies } = columns;
    const { rows } = await client.query<{ arrival: number; seq: string; stored: boolean }>(prepared(sql.insertAndLock, [ids, owners, types, ats, bodies, occurrences, given, flags]));
    let count = 0;
    for (const row of rows) {
      const i = positions[row.arrival - 1]!;
      seqOf.set(i, row.seq);
      if (!send.has(i)) continue;
      if (row.stored) inserted.add(i);
      else {
        refused.add(i);
        count++;
      }
    }
    return count;
  };
  // The batch in one statement: the first write of each id and occurrence. A first write the
  // database refused claimed its id or occurrence for nothing: then the writes are chosen again as
  // one delivery after another would be, knowing the refusals (a write chosen before that is no
  // longer chosen is removed again), and the new ones tried, under the numbers drawn for them, until
  // the database refuses none. Rare (an id reused for another transaction): no query otherwise.
  let more = (await insert([...writes.keys()], sent)) > 0;
  while (more) {
    const chosen = new Set<number>();
    const ids = new Set<string>();
    const occurrences = new Set<string>();
    writes.forEach(({ event }, i) => {
      const occurrence = transactionOccurrenceOf(event);
      if (refused.has(i) || ids.has(event.id) || (occurrence !== undefined && occurrences.has(occurrence))) return;
      ids.add(event.id);
      if (occurrence !== undefined) occurrences.add(occurrence);
      chosen.add(i);
    });
    const dropped = [...inserted].filter((i) => !chosen.has(i));
    const added = [...chosen].filter((i) => !inserted.has(i));
    if (added.length === 0) break;
    if (dropped.length > 0) {
      await client.query(`DELETE FROM ${t.events} WHERE id = ANY($1::text[])`, [dropped.map((i) => writes[i]!.event.id)]);
      for (const i of dropped) inserted.delete(i);
    }
    more = (await insert(added, new Set(added))) > 0;
  }

  const current = new Map<string, Subscriber | undefined>();
  if (!mark) {
    const read = await client.query<{ customer_id: string; record: Subscriber }>(sql.readSubscribers, [[...new Set([...customers, ...personOf.values()])]]);
    for (const row of read.rows) current.set(row.customer_id, row.record);
  }
  const recordOf = (id: string) => current.get(personOf.get(id) ?? id);

  const changedAt = new Map<string, number>();
  const placed: { id: string; key: string }[] = [];
  const newIds: string[] = [];
  const newKeys: string[] = [];
  const marked: string[] = [];
  /** Writes what the batch changed so far: events moved to their person, new ids, changed rows, marks. */
  const flush = async () => {
    if (placed.length > 0) {
      await client.query(`UPDATE ${t.events} AS e SET customer_id = u.key FROM unnest($1::text[], $2::text[]) AS u(id, key) WHERE e.id = u.id AND e.customer_id <> u.key`, [
        placed.map((p) => p.id),
        placed.map((p) => p.key),
      ]);
      placed.length = 0;
    }
    await addIdentities(client, t, newIds, newKeys);
    newIds.length = 0;
    newKeys.length = 0;
    if (marked.length > 0) await client.query(prepared(sql.markPending, [marked]));
    marked.length = 0;
    if (changedAt.size > 0) {
      const columns = new RowColumns();
      for (const customer of [...changedAt.keys()].sort(compareIds)) {
        const subscriber = current.get(customer)!;
        columns.push(subscriber, materializeAtRisk(subscriber, changedAt.get(customer)!, config).row);
      }
      await client.query(prepared(sql.upsertSubscribers, columns.params()));
      changedAt.clear();
    }
  };

  const outcomes: StoredOutcome[] = [];
  for (const [i, { event, now }] of writes.entries()) {
    if (!inserted.has(i)) {
      outcomes.push({ status: 'duplicate', subscriber: recordOf(event.app_user_id) });
      continue;
    }
    const named = identityIdsOf(event);
    const keys = [...new Set(named.flatMap((id) => personOf.get(id) ?? []))];
    const key = keys[0] ?? event.app_user_id;
    for (const id of named) {
      if (personOf.has(id)) continue;
      personOf.set(id, key);
      newIds.push(id);
      newKeys.push(key);
    }
    if (key !== event.app_user_id) placed.push({ id: event.id, key });
    if (mark && keys.length <= 1) {
      marked.push(key);
      outcomes.push({ status: 'applied', subscriber: undefined });
      continue;
    }
    if (keys.length <= 1) {
      const subscriber = applyEvent(current.get(key), event);
      if (subscriber.customer_id === key) {
        current.set(key, subscriber);
        changedAt.set(key, Math.max(now, changedAt.get(key) ?? now));
        outcomes.push({ status: 'applied', subscriber });
        continue;
      }
    }
    // Several records, or a person now named by another id: fold the union again, in the database.
    await flush();
    const later = mark ? [] : writes.flatMap((w, j) => (j > i && inserted.has(j) ? [w.event.id] : []));
    const subscriber = await regroupPeople(client, t, keys, null, now, config, later);
    if (mark) marked.push(subscriber.customer_id);
    for (const k of keys) current.delete(k);
    current.set(subscriber.customer_id, subscriber);
    for (const [id, k] of personOf) if (keys.includes(k)) personOf.set(id, subscriber.customer_id);
    outcomes.push({ status: 'applied', subscriber });
  }
  await flush();
  if (holders) await findHolders(client, sql, writes.map((w) => w.event), outcomes);
  return outcomes;
}
