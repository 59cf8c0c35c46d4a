// The at-risk page and the due range must be index walks: no table scan, no sort (temp B-tree); a
// customer's events are found through an index (their order by seq is a sort of that customer's rows).
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';
import { atRiskPageSql, revenueCellSql } from '../src/internal/atRiskPage.js';
import { DUE_SQL, EVENTS_OF_RANGE_SQL } from '../src/internal/statements.js';
import { EVENT_BODIES_OF_SQL } from '../src/internal/sqlitePeople.js';
import { eventIndexesOf, tempDbPath } from './helpers.js';

const planOf = (db: Database.Database, sql: string, params: unknown[]): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');

describe('query plans', () => {
  const shapes = [
    { sameScore: false, state: false, band: false, index: 'subscribers_at_risk' },
    { sameScore: false, state: false, band: true, index: 'subscribers_at_risk' },
    { sameScore: false, state: true, band: false, index: 'subscribers_state_at_risk' },
    { sameScore: false, state: true, band: true, index: 'subscribers_state_at_risk' },
    { sameScore: true, state: false, band: false, index: 'subscribers_at_risk' },
    { sameScore: true, state: true, band: true, index: 'subscribers_state_at_risk' },
  ];

  it.each(shapes)('reads the page %o from its index in order', async ({ sameScore, state, band, index }) => {
    const path = tempDbPath();
    await (await openSqliteStore({ path })).close();
    const db = new Database(path, { readonly: true });
    const params: unknown[] = sameScore ? [60, 'u1'] : [60, Infinity];
    if (state) params.push('billing_issue');
    if (band) params.push('high');
    params.push(51);
    const plan = planOf(db, atRiskPageSql(sameScore, state, band), params);
    db.close();
    expect(plan).toMatch(new RegExp(`SEARCH subscribers USING INDEX ${index} \\(`));
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN subscribers/);
  });

  it.each(['all', 'below', 'sameValue'] as const)('reads revenue rows of one (state, score) cell (%s) from its index in order, without sorting', async (position) => {
    const path = tempDbPath();
    await (await openSqliteStore({ path })).close();
    const db = new Database(path, { readonly: true });
    const params: unknown[] = ['billing_issue', 90, ...(position === 'sameValue' ? [999, 'u1'] : position === 'below' ? [999] : []), 51];
    const plan = planOf(db, revenueCellSql(position), params);
    db.close();
    expect(plan).toMatch(/SEARCH subscribers USING INDEX subscribers_cell_revenue \(state=\? AND score=\?/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN subscribers/);
  });

  it('finds due rows through the partial index on rescore_at', async () => {
    const path = tempDbPath();
    await (await openSqliteStore({ path })).close();
    const db = new Database(path, { readonly: true });
    const plan = planOf(db, DUE_SQL, [0, 10]);
    db.close();
    expect(plan).toMatch(/SEARCH subscribers USING INDEX subscribers_rescore \(rescore_at<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it.each([
    { name: "a person's events (a re-fold)", sql: EVENT_BODIES_OF_SQL, params: ['u1'], search: /SEARCH events USING INDEX events_timeline \(customer_id=\?\)/ },
    { name: "a range of customers' events (a replay batch)", sql: EVENTS_OF_RANGE_SQL, params: ['a', 'b'], search: /SEARCH events USING INDEX events_timeline \(customer_id>\? AND customer_id<\?\)/ },
  ])('finds $name through the timeline index, with no scan of the events', async ({ sql, params, search }) => {
    const path = tempDbPath();
    await (await openSqliteStore({ path })).close();
    const db = new Database(path, { readonly: true });
    const plan = planOf(db, sql, params);
    db.close();
    expect(plan).toMatch(search);
    expect(plan).not.toMatch(/SCAN events/);
    // The (customer_id, seq) index is gone (schema version 10): one B-tree less written per event.
    expect(eventIndexesOf(path)).toEqual(['events_occurrence', 'events_timeline']);
  });
});
