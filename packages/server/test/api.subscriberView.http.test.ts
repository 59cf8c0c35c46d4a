// GET /api/subscribers/:id shows what the core keeps beyond the seed's fields: the grace period as
// it applies now, the pause's resume time, the cancel reason, temporary access, the customer's
// original id and aliases, and the environment read. Real webhook fixtures through real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { subscriberResponseSchema } from '../src/api/schemas.js';
import { DAY, T0, fixture, type WebhookBody } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
afterEach(() => app.close());

const ANONYMOUS = '$RCAnonymousID:8069238d6049ce87cc529853916d624c';

async function send(...bodies: WebhookBody[]): Promise<void> {
  for (const body of bodies) expect((await app.webhook(body)).body).toEqual({ ok: true, result: 'applied' });
}

/** The view of `id`, checked against the documented response schema (every field present, none extra). */
async function view(id: string, query = ''): Promise<Record<string, unknown>> {
  const res = await app.request('GET', `/api/subscribers/${encodeURIComponent(id)}${query}`);
  expect(res.status).toBe(200);
  expect(() => subscriberResponseSchema.strict().parse(res.body)).not.toThrow();
  return res.body;
}

/** The fixture's purchase a day before `at`, for the same customer, so later events have a subscription to act on. */
const purchaseBefore = (at: number, overrides: Record<string, unknown> = {}) =>
  fixture('initial_purchase', { id: `start-${at}`, event_timestamp_ms: at - DAY, purchased_at_ms: at - DAY, expiration_at_ms: at + 29 * DAY, ...overrides });

describe('GET /api/subscribers/:id: the fields beyond the seed', () => {
  it('shows the grace period of a billing issue, and null once a renewal recovers it', async () => {
    app = await startTestServer();
    const issue = fixture('billing_issue_grace');
    const at = issue.event.event_timestamp_ms as number;
    await send(purchaseBefore(at), issue);
    expect(await view('user_1234')).toMatchObject({ state: 'billing_issue', grace_ends_at: issue.event.grace_period_expiration_at_ms, cancel_reason: null });

    await send(fixture('renewal', { id: 'recovered', event_timestamp_ms: at + DAY, purchased_at_ms: at + DAY, expiration_at_ms: at + 31 * DAY }));
    expect(await view('user_1234')).toMatchObject({ state: 'active', grace_ends_at: null });
  });

  it('shows null for a billing issue without a grace period', async () => {
    app = await startTestServer();
    const issue = fixture('billing_issue');
    await send(purchaseBefore(issue.event.event_timestamp_ms as number), issue);
    expect(await view('user_1234')).toMatchObject({ state: 'billing_issue', grace_ends_at: null });
  });

  it('shows when a paused subscription resumes, once paused at the period end', async () => {
    app = await startTestServer();
    const pause = fixture('subscription_paused');
    const periodEnd = pause.event.expiration_at_ms as number;
    const expiry = fixture('expiration', { id: 'paused-end', event_timestamp_ms: periodEnd, expiration_at_ms: periodEnd, expiration_reason: 'SUBSCRIPTION_PAUSED' });
    await send(purchaseBefore(pause.event.event_timestamp_ms as number, { store: 'PLAY_STORE' }), pause, expiry);
    expect(await view('user_1234')).toMatchObject({ state: 'paused', auto_resume_at: pause.event.auto_resume_at_ms, temporary_access_until: null });
  });

  it('shows the end of a temporary entitlement grant', async () => {
    app = await startTestServer();
    const grant = fixture('temporary_entitlement_grant');
    await send(grant);
    expect(await view('user_1234')).toMatchObject({ temporary_access_until: grant.event.expiration_at_ms, auto_resume_at: null, grace_ends_at: null });
  });

  it('shows the cancel reason, the original app user id and the aliases of a cancellation', async () => {
    app = await startTestServer();
    const cancel = fixture('cancellation');
    await send(purchaseBefore(cancel.event.event_timestamp_ms as number), cancel);
    expect(await view('user_1234')).toMatchObject({
      state: 'pending_cancel',
      cancel_reason: 'UNSUBSCRIBE',
      original_app_user_id: ANONYMOUS,
      aliases: [ANONYMOUS, 'user_1234'],
      environment: 'production',
    });
  });

  it('shows a price-increase cancellation reason as sent', async () => {
    app = await startTestServer();
    const cancel = fixture('cancellation', { cancel_reason: 'PRICE_INCREASE' });
    await send(purchaseBefore(cancel.event.event_timestamp_ms as number), cancel);
    expect(await view('user_1234')).toMatchObject({ state: 'pending_cancel', cancel_reason: 'PRICE_INCREASE' });
  });

  it('answers null and an empty list when the events carry no identity fields', async () => {
    app = await startTestServer();
    const body = fixture('initial_purchase', { app_user_id: 'plain' });
    delete body.event['aliases'];
    delete body.event['original_app_user_id'];
    await send(body);
    expect(await view('plain')).toMatchObject({
      original_app_user_id: null,
      aliases: [],
      cancel_reason: null,
      grace_ends_at: null,
      auto_resume_at: null,
      temporary_access_until: null,
    });
  });

  it('answers for any id of one person, named by the id the app uses now, and lists the ids it knows', async () => {
    app = await startTestServer();
    const renewal = fixture('renewal'); // user_1234, original ANONYMOUS, aliases [ANONYMOUS, user_1234]
    const at = renewal.event.event_timestamp_ms as number;
    // Bought anonymously before the login; the renewal after it names both ids.
    await send(purchaseBefore(at, { app_user_id: ANONYMOUS }), renewal);
    const byAnonymous = await view(ANONYMOUS);
    expect(byAnonymous).toMatchObject({ customer_id: 'user_1234', ids: [ANONYMOUS, 'user_1234'], renewals: 1, event_count: 2 });
    expect(await view('user_1234')).toEqual(byAnonymous);
    const atRisk = await app.request('GET', '/api/at-risk?min_score=0');
    expect(atRisk.body.items.map((i: { customer_id: string }) => i.customer_id)).toEqual(['user_1234']);
  });

  it('names the environment read: sandbox with ?environment=sandbox', async () => {
    app = await startTestServer();
    await send(fixture('cancellation', { environment: 'SANDBOX' }));
    expect(await view('user_1234', '?environment=sandbox')).toMatchObject({ environment: 'sandbox', cancel_reason: 'UNSUBSCRIBE' });
    expect((await app.request('GET', '/api/subscribers/user_1234')).status).toBe(404);
  });
});

describe('a granted entitlement (RevenueCat promotional grant) over a churned subscriber', () => {
  it('is assessed as a pending cancellation until the grant ends, not a refund when revoked, and churned again after', async () => {
    app = await startTestServer();
    const at = T0 - 40 * DAY;
    const expired = fixture('expiration', { id: 'expired', event_timestamp_ms: at + 30 * DAY, expiration_at_ms: at + 30 * DAY, expiration_reason: 'UNSUBSCRIBE' });
    await send(purchaseBefore(at + DAY), expired);
    const churned = await view('user_1234');
    expect(churned).toMatchObject({ state: 'churned', promotional_access_until: null });

    // What RevenueCat (and the billing simulator) sends for "grant pro for P7D": a one-time purchase in the PROMOTIONAL store.
    const grantEnd = T0 + 7 * DAY;
    const promo = { store: 'PROMOTIONAL', period_type: 'PROMOTIONAL', product_id: 'rc_promo_pro_weekly', price: 0, transaction_id: 'promo_1', original_transaction_id: 'promo_1' };
    await send(fixture('non_renewing_purchase', { id: 'grant', event_timestamp_ms: T0 - DAY, purchased_at_ms: T0 - DAY, expiration_at_ms: grantEnd, ...promo }));
    const granted = await view('user_1234');
    expect(granted).toMatchObject({ state: 'pending_cancel', period_ends_at: grantEnd, promotional_access_until: grantEnd, last_activity_at: churned.last_activity_at });
    expect(granted.risk_score as number).toBeLessThan(churned.risk_score as number);
    const atRisk = await app.request('GET', '/api/at-risk?min_score=0&limit=10');
    expect(atRisk.body.items).toEqual([expect.objectContaining({ customer_id: 'user_1234', state: 'pending_cancel' })]);

    // The grant's end comes due on its own: the row is churned again from then, without an event.
    app.clock.set(grantEnd);
    expect(await view('user_1234')).toMatchObject({ state: 'churned', risk_score: churned.risk_score });
    expect((await app.request('GET', '/api/at-risk?min_score=0&limit=10')).body.items).toEqual([expect.objectContaining({ state: 'churned' })]);

    // Revoked (RevenueCat: its CANCELLATION in the PROMOTIONAL store): access ends, nothing is refunded.
    app.clock.set(T0);
    await send(fixture('cancellation', { id: 'revoke', event_timestamp_ms: T0, expiration_at_ms: T0, cancel_reason: 'CUSTOMER_SUPPORT', ...promo }));
    expect(await view('user_1234')).toMatchObject({ state: 'churned', promotional_access_until: T0 });
  });
});
