// The dashboard's history routes over HTTP: trends (recorded, backfilled from events, today live),
// one subscriber's timeline with its cursor, the sweep recording the day, and strict parameters.
import { DAY_MS, lastDays, utcDayOf } from '@tenure/core';
import { SNAPSHOT_EVERY_MS } from '../../src/dashboard/dailySnapshots.js';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, T0 } from '../helpers/fixtures.js';
import { seed } from '../helpers/seed.js';
import { eventually, startTestServer, type TestServer } from '../helpers/testServer.js';

let app: TestServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** T0 is 12:26 UTC: the window's first day is T0's. */
const NOW = T0 + 3 * DAY_MS;

describe('GET /api/dashboard/trends', () => {
  it('answers the last days oldest first: missing past days folded once from the events, today live as the summary counts it', async () => {
    app = await startTestServer({ sweepIntervalMs: 0 });
    await seed(app, 'active-1', 'active', -DAY_MS); // before the window
    await seed(app, 'billing-1', 'billing', DAY_MS + 1); // from day 1
    await seed(app, 'trial-1', 'trial', 2 * DAY_MS);
    app.clock.set(NOW);
    const res = await app.request('GET', '/api/dashboard/trends?days=4');
    expect(res.status).toBe(200);
    const days = res.body.days as any[];
    expect(days.map((d) => d.day)).toEqual(lastDays(NOW, 4));
    expect(days.map((d) => d.source)).toEqual(['events', 'events', 'events', 'live']);
    const total = (d: any) => Object.values(d.by_band as Record<string, { subscribers: number }>).reduce((n, b) => n + b.subscribers, 0);
    expect(days.map(total)).toEqual([1, 2, 3, 3]);
    expect(days[1].at_risk).toMatchObject({ min_score: 60, subscribers: 1 }); // the billing issue
    expect(res.body.backfill).toEqual({ filled: 3, skipped: null });
    const summary = (await app.request('GET', '/api/dashboard/summary')).body;
    expect(days[3].at_risk).toEqual(summary.at_risk);
    expect(Object.fromEntries(Object.entries(days[3].by_band).map(([band, t]: [string, any]) => [band, t.subscribers]))).toEqual(summary.by_band);
    // Stored: a second request computes nothing.
    expect((await app.store.snapshots.range(utcDayOf(T0), utcDayOf(NOW))).map((s) => s.day)).toEqual(lastDays(NOW, 4).slice(0, 3));
    expect((await app.request('GET', '/api/dashboard/trends?days=4')).body.backfill).toEqual({ filled: 0, skipped: null });
  });

  it('shows a day the sweep recorded as recorded, and defaults to 30 days', async () => {
    app = await startTestServer({ sweepIntervalMs: 5 });
    await eventually(async () => expect(await app!.store.snapshots.range(utcDayOf(T0), utcDayOf(T0))).toHaveLength(1)); // at start: empty
    await seed(app, 'billing-1', 'billing');
    app.clock.set(T0 + SNAPSHOT_EVERY_MS); // the next record is due
    await eventually(async () => expect((await app!.store.snapshots.range(utcDayOf(T0), utcDayOf(T0)))[0]?.at).toBe(T0 + SNAPSHOT_EVERY_MS));
    const [recorded] = await app.store.snapshots.range(utcDayOf(T0), utcDayOf(T0));
    expect(recorded).toMatchObject({ day: utcDayOf(T0), source: 'sweep', at_risk: { subscribers: 1 } });
    app.clock.set(T0 + DAY_MS);
    const res = await app.request('GET', '/api/dashboard/trends');
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days[28]).toEqual(recorded);
    expect(res.body.days[29].source).toBe('live');
  });

  it('refuses bad parameters with 400 naming the field', async () => {
    app = await startTestServer();
    for (const [q, field] of [
      ['days=0', 'days'],
      ['days=91', 'days'],
      ['days=3.5', 'days'],
      ['environment=staging', 'environment'],
      ['since=1', 'since'],
    ]) {
      const res = await app.request('GET', `/api/dashboard/trends?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.field, q).toBe(field);
    }
  });
});

describe('GET /api/subscribers/:customer_id/events', () => {
  it('pages the stored events newest first with next_cursor, in each environment', async () => {
    app = await startTestServer();
    const at = (i: number) => T0 + i * DAY_MS;
    const bodies = [
      fixture('initial_purchase', { id: 'e1', app_user_id: 'émile', event_timestamp_ms: at(0), purchased_at_ms: at(0), expiration_at_ms: at(30) }),
      fixture('renewal', { id: 'e2', app_user_id: 'émile', event_timestamp_ms: at(30), purchased_at_ms: at(30), expiration_at_ms: at(60) }),
      fixture('cancellation', { id: 'e3', app_user_id: 'émile', event_timestamp_ms: at(40), expiration_at_ms: at(60) }),
      fixture('initial_purchase', { id: 'other', app_user_id: 'bob', event_timestamp_ms: at(1), purchased_at_ms: at(1), expiration_at_ms: at(31) }),
    ];
    for (const body of bodies) expect((await app.webhook(body)).status).toBe(200);
    const path = `/api/subscribers/${encodeURIComponent('émile')}/events`;
    const first = await app.request('GET', `${path}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.customer_id).toBe('émile');
    expect(first.body.items.map((e: any) => e.id)).toEqual(['e3', 'e2']);
    expect(first.body.items[0]).toMatchObject({ type: 'CANCELLATION', event_timestamp_ms: at(40) });
    const second = await app.request('GET', `${path}?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toEqual({ customer_id: 'émile', items: [expect.objectContaining({ id: 'e1' })], next_cursor: null });
    expect((await app.request('GET', path)).body.items).toHaveLength(3);
    expect((await app.request('GET', `${path}?environment=sandbox`)).status).toBe(404); // not in the sandbox
  });

  it('answers 404 for an unknown customer and 400 naming a bad parameter', async () => {
    app = await startTestServer();
    await seed(app, 'alice', 'active');
    expect((await app.request('GET', '/api/subscribers/nobody/events')).status).toBe(404);
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('[1]').toString('base64url')}`, 'cursor'],
      ['before=1', 'before'],
      ['environment=x', 'environment'],
    ]) {
      const res = await app.request('GET', `/api/subscribers/alice/events?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.field, q).toBe(field);
    }
  });
});
