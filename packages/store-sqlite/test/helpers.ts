// Temp files, event builders and generators shared by the SQLite store tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { foldEvents, HANDLED_EVENT_TYPES, type HandledEvent, type HandledEventType } from '@tenure/core';
import { DAY, T0 } from '@tenure/testkit';
import { afterEach } from 'vitest';
import { MIGRATIONS } from '../src/internal/migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory for this test (removed after it), and a database path inside it. */
export function tempDbPath(name = 'tenure.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'tenure-sqlite-'));
  dirs.push(dir);
  return join(dir, name);
}

/**
 * Writes customers into a file at an older schema version (4 or later) as that version stored them:
 * each event under its occurrence key then (`occurrenceOf`; none by default), the record folded from
 * the customer's events as an active row, and the customer's own id as its identity.
 */
export function storeCustomersAt(
  db: Database.Database,
  customers: Iterable<readonly [customer: string, events: readonly HandledEvent[]]>,
  occurrenceOf: (event: HandledEvent) => string | null = () => null,
): void {
  const insert = db.prepare('INSERT INTO events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?, ?)');
  const subscriber = db.prepare(`INSERT INTO subscribers (customer_id, record, state, score, band, assessed_at, rescore_at) VALUES (?, ?, 'active', 10, 'low', ?, NULL)`);
  const identity = db.prepare('INSERT INTO identities (id, customer_id) VALUES (?, ?)');
  for (const [customer, events] of customers) {
    for (const e of events) insert.run(e.id, occurrenceOf(e), customer, e.type, e.event_timestamp_ms, JSON.stringify(e));
    subscriber.run(customer, JSON.stringify(foldEvents(events)), T0);
    identity.run(customer, customer);
  }
}

/** Opens a new database file at `path` as an older schema version wrote it: its first `version` migrations only. */
export function databaseAtVersion(path: string, version: number): Database.Database {
  const db = new Database(path);
  for (const step of MIGRATIONS.slice(0, version)) db.exec(step);
  db.pragma(`user_version = ${version}`);
  return db;
}

/** The names of the indexes declared on the events table of the file at `path` (unique constraints' own left out), in name order. */
export function eventIndexesOf(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL ORDER BY name").pluck().all();
  } finally {
    db.close();
  }
}

export { DAY, T0 };

/** One handled event in the billing service's format. */
export function event(type: HandledEventType, id: string, customer: string, at: number, extra: Record<string, unknown> = {}): HandledEvent {
  return {
    type,
    id,
    app_user_id: customer,
    event_timestamp_ms: at,
    purchased_at_ms: at,
    product_id: 'pro_monthly',
    ...extra,
  } as HandledEvent;
}

/**
 * Customer ids from a small pool, so customers get several events; the pool includes ids whose
 * UTF-16 order differs from code point order (U+FFFD, U+E000 against an astral character).
 */
export const customerArb = fc.constantFrom('u1', 'u2', 'u10', 'B', 'a b', '\uFFFD', '\uE000x', '\u{1F600}', 'é', 'z<&>');

/** Times on a coarse grid over 20 days from T0 (ties are common). */
const timeArb = fc.integer({ min: 0, max: 40 }).map((n) => T0 + n * (DAY / 2));

/** A handled event of any customer of the pool; ids from a pool, so redeliveries happen. */
export const eventArb: fc.Arbitrary<HandledEvent> = fc
  .record({
    type: fc.constantFrom(...HANDLED_EVENT_TYPES),
    id: fc.integer({ min: 0, max: 400 }).map((n) => `evt_${n}`),
    customer: customerArb,
    at: timeArb,
    period_type: fc.constantFrom('TRIAL', 'NORMAL', null),
    cancel_reason: fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR', null),
    is_trial_conversion: fc.boolean(),
    new_product_id: fc.constantFrom('pro_annual', null),
    expires_in: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  })
  .map(({ type, id, customer, at, expires_in, ...rest }) =>
    event(type, id, customer, at, { expiration_at_ms: expires_in === null ? null : at + expires_in * DAY, ...rest }),
  );
