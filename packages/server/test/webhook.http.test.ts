import { afterEach, describe, expect, it } from 'vitest';
import { fixture, T0 } from './helpers/fixtures.js';
import { startTestServer, type Mode, type TestServer } from './helpers/testServer.js';

describe.each<Mode>(['listener', 'express'])('POST /webhook (%s)', (mode) => {
  let app: TestServer;
  afterEach(() => app.close());
  const start = async (options = {}) => (app = await startTestServer(options, mode));

  it('answers 200 { ok: true, result: "applied" } and stores the subscriber', async () => {
    await start();
    const res = await app.webhook(fixture('initial_purchase', { app_user_id: 'user_1' }));
    expect(res).toMatchObject({ status: 200, body: { ok: true, result: 'applied' } });
    expect((await app.store.get('user_1'))?.state).toBe('active');
  });

  it('answers 200 "duplicate" for a repeated event id and changes nothing', async () => {
    await start();
    await app.webhook(fixture('renewal', { app_user_id: 'user_1' }));
    const res = await app.webhook(fixture('renewal', { app_user_id: 'user_1' }));
    expect(res).toMatchObject({ status: 200, body: { ok: true, result: 'duplicate' } });
    expect((await app.store.get('user_1'))?.renewals).toBe(1);
  });

  it('answers 200 "ignored" for an unhandled or unknown type and stores nothing', async () => {
    await start();
    expect((await app.webhook(fixture('test'))).body).toEqual({ ok: true, result: 'ignored' });
    expect((await app.webhook({ event: { type: 'SOMETHING_NEW', whatever: [1] } })).body).toEqual({ ok: true, result: 'ignored' });
    expect(await app.store.count()).toBe(0);
  });

  it('applies a TRANSFER through the store: the sender history moves to the receiver, a repeat is a duplicate', async () => {
    await start();
    await app.webhook(fixture('initial_purchase', { id: 'buy-1', app_user_id: 'user_1234' }));
    await app.webhook(fixture('renewal', { id: 'renew-1', app_user_id: 'user_1234' }));
    expect((await app.webhook(fixture('transfer'))).body).toEqual({ ok: true, result: 'applied' });
    expect(await app.store.get('user_1234')).toBeUndefined();
    expect(await app.store.get('user_5678')).toMatchObject({ customer_id: 'user_5678', renewals: 1, event_count: 2 });
    expect((await app.webhook(fixture('transfer'))).body).toEqual({ ok: true, result: 'duplicate' });
    const bad = fixture('transfer', { id: 'tr-bad' });
    delete bad.event['transferred_to'];
    const res = await app.webhook(bad);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'event.transferred_to' });
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    await start();
    const res = await app.webhook('{"event": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'invalid_json', message: expect.any(String), field: 'body' } });
  });

  it('answers 400 naming event.type for a body without it, and event for a body without event', async () => {
    await start();
    expect((await app.webhook({ event: { id: 'x' } })).body.error).toMatchObject({ code: 'invalid_request', field: 'event.type' });
    expect((await app.webhook({ api_version: '1.0' })).body.error).toMatchObject({ code: 'invalid_request', field: 'event' });
    expect((await app.webhook([1, 2])).body.error).toMatchObject({ field: 'body' });
  });

  it('answers 400 naming the missing required field of a handled type, storing nothing', async () => {
    await start();
    const body = fixture('initial_purchase');
    delete body.event['app_user_id'];
    const res = await app.webhook(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'event.app_user_id' });
    const noTime = fixture('renewal', { event_timestamp_ms: 'yesterday' });
    expect((await app.webhook(noTime)).body.error.field).toBe('event.event_timestamp_ms');
    expect(await app.store.count()).toBe(0);
  });

  it('answers 413 for a body over 1 MB', async () => {
    await start();
    const big = JSON.stringify({ event: { type: 'TEST', pad: 'x'.repeat(1024 * 1024) } });
    const res = await app.webhook(big);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('accepts a body just under 1 MB', async () => {
    await start();
    const pad = 'x'.repeat(1024 * 1024 - 200);
    const res = await app.webhook(JSON.stringify({ event: { type: 'TEST', pad } }));
    expect(res.status).toBe(200);
  });

  describe('with BILLING_WEBHOOK_AUTH_KEY set', () => {
    const key = 'Bearer rc-secret-123';

    it('accepts the exact Authorization value', async () => {
      await start({ webhookAuthKey: key });
      expect((await app.webhook(fixture('initial_purchase'), { authorization: key })).status).toBe(200);
    });

    it.each([
      ['missing', undefined],
      ['wrong', 'Bearer rc-secret-124'],
      ['a prefix', 'Bearer rc-secret'],
      ['longer', `${key}x`],
      ['empty', ''],
    ])('answers 401 for a %s header and stores nothing', async (_name, value) => {
      await start({ webhookAuthKey: key });
      const res = await app.webhook(fixture('initial_purchase'), value === undefined ? {} : { authorization: value });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(await app.store.count()).toBe(0);
    });
  });

  it('skips the check when no key is set', async () => {
    await start();
    expect((await app.webhook(fixture('initial_purchase'), { authorization: 'anything' })).status).toBe(200);
  });

  it('answers 405 in the error shape for other methods', async () => {
    await start();
    const res = await app.request('GET', '/webhook');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('sets an x-request-id, reusing a sane incoming one', async () => {
    await start();
    const res = await app.request('POST', '/webhook', fixture('initial_purchase'), { 'x-request-id': 'abc-123' });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('answers 503 when the store fails, so the billing service retries', async () => {
    const { createMemorySubscriberStore } = await import('../src/index.js');
    const failing = { ...createMemorySubscriberStore(), applyEvent: () => Promise.reject(new Error('disk full')) };
    await start({ store: failing });
    const res = await app.webhook(fixture('initial_purchase'));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
  });

  it('observes event time (for TENURE_CLOCK=event)', async () => {
    const { eventClock } = await import('../src/index.js');
    const clock = eventClock(() => 0);
    await start({ clock });
    await app.webhook(fixture('initial_purchase', { event_timestamp_ms: T0 + 5 }));
    expect(clock.now()).toBe(T0 + 5);
  });
});
