import { afterEach, describe, expect, it } from 'vitest';
import type { RetentionOptions } from '../src/index.js';
import { DAY, fixture, T0 } from './helpers/fixtures.js';
import { seed } from './helpers/seed.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
afterEach(() => app.close());

/** Scores at T0: churned 100, billing 90, pending 60, trial 40, active 10. */
async function population(options: RetentionOptions = {}) {
  app = await startTestServer({ dispatch: { auto: false }, ...options });
  await seed(app, 'c2', 'churned');
  await seed(app, 'c1', 'churned');
  await seed(app, 'b1', 'billing');
  await seed(app, 'p1', 'pending');
  await seed(app, 't1', 'trial');
  await seed(app, 'a1', 'active');
}

const ids = (body: { items: { customer_id: string }[] }) => body.items.map((i) => i.customer_id);

describe('GET /api/at-risk', () => {
  it('lists risk_score >= 60 by default, highest first, ties by customer_id', async () => {
    await population();
    const res = await app.request('GET', '/api/at-risk');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['c1', 'c2', 'b1', 'p1']);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.items[0]).toEqual({
      customer_id: 'c1',
      state: 'churned',
      risk_score: 100,
      risk_band: 'critical',
      monthly_value_usd: 9.99,
      top_recommendation: { action: 'winback', urgency: 'immediate', reason: expect.any(String), priority: 1 },
    });
    expect(res.body.total).toEqual({ subscribers: 4, monthly_value_usd: 39.96 });
  });

  it('sorts by revenue at risk with sort=revenue, pages with its own cursor, and totals every page', async () => {
    await population();
    // A yearly plan at 240 (20/month) fails to renew; a weekly one at 1.99 (8.65/month) is cancelled.
    const yearly = { purchased_at_ms: T0, expiration_at_ms: T0 + 365 * DAY };
    await app.webhook(fixture('initial_purchase', { id: 'y-start', app_user_id: 'y1', event_timestamp_ms: T0, price: 240, ...yearly }));
    await app.webhook(fixture('billing_issue', { id: 'y-billing', app_user_id: 'y1', event_timestamp_ms: T0 + 1, price: 0 }));
    const weekly = { purchased_at_ms: T0, expiration_at_ms: T0 + 7 * DAY };
    await app.webhook(fixture('initial_purchase', { id: 'w-start', app_user_id: 'w1', event_timestamp_ms: T0, price: 1.99, ...weekly }));
    await app.webhook(fixture('cancellation', { id: 'w-cancel', app_user_id: 'w1', event_timestamp_ms: T0 + 1, price: 1.99, ...weekly }));
    const first = await app.request('GET', '/api/at-risk?sort=revenue&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: { customer_id: string; monthly_value_usd: number }) => [i.customer_id, i.monthly_value_usd])).toEqual([
      ['y1', 20],
      ['b1', 9.99],
    ]);
    const total = { subscribers: 6, monthly_value_usd: 20 + 4 * 9.99 + 8.65 };
    expect(first.body.total).toEqual({ subscribers: 6, monthly_value_usd: Math.round(total.monthly_value_usd * 100) / 100 });
    const second = await app.request('GET', `/api/at-risk?sort=revenue&limit=2&cursor=${first.body.next_cursor}`);
    expect(ids(second.body)).toEqual(['c1', 'c2']);
    expect(second.body.total).toEqual(first.body.total);
    const third = await app.request('GET', `/api/at-risk?sort=revenue&limit=2&cursor=${second.body.next_cursor}`);
    expect(ids(third.body)).toEqual(['p1', 'w1']);
    expect(third.body.next_cursor).toBeNull();
    // A cursor of one order is refused by the other.
    const wrong = await app.request('GET', `/api/at-risk?limit=2&cursor=${first.body.next_cursor}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
    expect((await app.request('GET', '/api/at-risk?sort=score')).body.total).toEqual(first.body.total);
  });

  it('takes the default minimum score from the configured bands.high, not a constant', async () => {
    await population({ config: { bands: { high: 40, medium: 20 } } });
    const res = await app.request('GET', '/api/at-risk');
    expect(ids(res.body)).toEqual(['c1', 'c2', 'b1', 'p1', 't1']);
    expect(res.body.items.find((i: { customer_id: string }) => i.customer_id === 't1')).toMatchObject({ risk_score: 40, risk_band: 'high' });
    const dispatch = await app.request('POST', '/api/dispatch', { dry_run: true });
    expect(new Set(dispatch.body.planned.map((p: { customer_id: string }) => p.customer_id))).toEqual(new Set(['c1', 'c2', 'b1', 'p1', 't1']));
  });

  it('shows a score that moved with time alone, without any new event or a background sweep', async () => {
    await population({ sweepIntervalMs: 0 });
    expect(ids((await app.request('GET', '/api/at-risk?min_score=70')).body)).toEqual(['c1', 'c2', 'b1']);
    // 40 days without activity: +15 (p1: 60 → 75; b1: 90 → 100, clamped).
    app.clock.set(T0 + 40 * DAY);
    const later = await app.request('GET', '/api/at-risk?min_score=70');
    expect(ids(later.body)).toEqual(['b1', 'c1', 'c2', 'p1']);
    expect(later.body.items.map((i: { risk_score: number }) => i.risk_score)).toEqual([100, 100, 100, 75]);
    expect(later.body.items[3]).toMatchObject({ customer_id: 'p1', state: 'pending_cancel', risk_band: 'high' });
    expect((await app.request('GET', '/api/subscribers/p1')).body).toMatchObject({ risk_score: 75, event_count: 2 });
  });

  it('filters by min_score, state and band', async () => {
    await population();
    expect(ids((await app.request('GET', '/api/at-risk?min_score=0')).body)).toEqual(['c1', 'c2', 'b1', 'p1', 't1', 'a1']);
    expect(ids((await app.request('GET', '/api/at-risk?min_score=95')).body)).toEqual(['c1', 'c2']);
    expect(ids((await app.request('GET', '/api/at-risk?state=billing_issue')).body)).toEqual(['b1']);
    expect(ids((await app.request('GET', '/api/at-risk?band=high')).body)).toEqual(['p1']);
    expect(ids((await app.request('GET', '/api/at-risk?min_score=0&band=medium')).body)).toEqual(['t1']);
  });

  it('pages with limit and an opaque cursor, without gaps or repeats', async () => {
    await population();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: { customer_id: string }[]; next_cursor: string | null } } = await app.request(
        'GET',
        `/api/at-risk?min_score=0&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res.body));
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(['c1', 'c2', 'b1', 'p1', 't1', 'a1']);
  });

  it.each([
    ['min_score=abc', 'min_score'],
    ['min_score=101', 'min_score'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['state=asleep', 'state'],
    ['band=red', 'band'],
    ['cursor=not-a-cursor', 'cursor'],
    ['sort=asc', 'sort'],
  ])('answers 400 naming the parameter for ?%s', async (query, field) => {
    app = await startTestServer();
    const res = await app.request('GET', `/api/at-risk?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
  });

  it('accepts limit=500', async () => {
    app = await startTestServer();
    expect((await app.request('GET', '/api/at-risk?limit=500')).status).toBe(200);
  });
});

describe('POST /api/dispatch', () => {
  it('sends the top recommendation per subscriber by urgency and summarises per channel and outcome', async () => {
    await population();
    const res = await app.request('POST', '/api/dispatch', {});
    expect(res.status).toBe(200);
    // c1, c2 winback and b1 billing_failure_alert: immediate → email + chat; p1 engagement_checkin: soon → email.
    expect(res.body).toMatchObject({
      dry_run: false,
      subscribers: 4,
      deliveries: 7,
      outcomes: { sent: 7, failed: 0, skipped_cooldown: 0 },
      channels: { email: { sent: 4 }, chat: { sent: 3 }, log: { logged: 0 } },
    });
    expect(app.email.sent.map((m) => m.alert.customer_id)).toEqual(expect.arrayContaining(['c1', 'c2', 'b1', 'p1']));
    expect(app.chat.sent.map((m) => `${m.alert.customer_id}:${m.alert.recommendation.action}`).sort()).toEqual(['b1:billing_failure_alert', 'c1:winback', 'c2:winback']);
  });

  it('logs monitor-only recommendations without sending', async () => {
    await population();
    const res = await app.request('POST', '/api/dispatch', { min_score: 0, state: 'active' });
    expect(res.body).toMatchObject({ deliveries: 1, channels: { log: { logged: 1 } }, outcomes: { logged: 1, sent: 0 } });
    expect(app.email.sent).toHaveLength(0);
  });

  it('does not alert the same subscriber and action twice within the cooldown', async () => {
    await population();
    await app.request('POST', '/api/dispatch', { state: 'churned' });
    const again = await app.request('POST', '/api/dispatch', { state: 'churned' });
    expect(again.body.outcomes).toMatchObject({ sent: 0, skipped_cooldown: 4 });
    expect(app.email.sent).toHaveLength(2);
  });

  it('takes the filters in the query string too, the body winning', async () => {
    await population();
    const res = await app.request('POST', '/api/dispatch?state=churned&dry_run=true', {});
    expect(res.body).toMatchObject({ dry_run: true, subscribers: 2 });
    const both = await app.request('POST', '/api/dispatch?state=churned&dry_run=true', { state: 'billing_issue' });
    expect(both.body.planned.map((p: { customer_id: string }) => p.customer_id)).toEqual(['b1', 'b1']);
    expect((await app.request('POST', '/api/dispatch?min_score=x', {})).body.error.field).toBe('min_score');
  });

  it('with dry_run, plans without sending or logging', async () => {
    await population();
    const res = await app.request('POST', '/api/dispatch', { dry_run: true, limit: 1 });
    expect(res.body).toMatchObject({ dry_run: true, subscribers: 1, deliveries: 2 });
    expect(res.body.planned).toEqual([
      { customer_id: 'c1', action: 'winback', urgency: 'immediate', channel: 'email', target: null, monthly_value_usd: 9.99, store: 'APP_STORE' },
      { customer_id: 'c1', action: 'winback', urgency: 'immediate', channel: 'chat', target: null, monthly_value_usd: 9.99, store: 'APP_STORE' },
    ]);
    expect(app.email.sent).toHaveLength(0);
    expect((await app.request('GET', '/api/dispatches')).body.items).toHaveLength(0);
  });

  it.each([
    [{ min_score: '60' }, 'min_score'],
    [{ limit: 0 }, 'limit'],
    [{ dry_run: 'yes' }, 'dry_run'],
    [{ band: 'red' }, 'band'],
    [{ cursor: 'x' }, 'cursor'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    app = await startTestServer();
    const res = await app.request('POST', '/api/dispatch', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
  });
});

describe('GET /api/dispatches', () => {
  it('lists every attempt newest first, paginated', async () => {
    await population();
    await app.request('POST', '/api/dispatch', { state: 'churned' });
    const first = await app.request('GET', '/api/dispatches?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.items[0]).toEqual({
      id: expect.any(Number),
      at: expect.any(Number),
      customer_id: expect.any(String),
      action: 'winback',
      urgency: 'immediate',
      risk_score: 100,
      channel: expect.stringMatching(/^(email|chat)$/),
      outcome: 'sent',
      attempt: 1,
      error: null,
      trigger: 'batch',
      delivery_id: first.body.items[0].id,
      target: null,
      detail: null,
      actor: null,
    });
    const second = await app.request('GET', `/api/dispatches?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    const allIds = [...first.body.items, ...second.body.items].map((i: { id: number }) => i.id);
    expect(allIds).toEqual([...allIds].sort((a, b) => b - a));
  });

  it('answers 400 for a bad cursor or limit', async () => {
    app = await startTestServer();
    expect((await app.request('GET', '/api/dispatches?cursor=abc')).body.error.field).toBe('cursor');
    expect((await app.request('GET', '/api/dispatches?limit=1000')).body.error.field).toBe('limit');
  });
});
