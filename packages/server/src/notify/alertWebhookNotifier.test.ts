import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type ReceiverAnswer, type ReceivedRequest } from '../../test/helpers/webhookReceiver.js';
import { Webhook } from 'standardwebhooks';
import type { Alert } from '@tenure/core';
import { createAlertWebhookNotifier, parseRetryAfter, recommendationEvent, webhookMessageId } from './alertWebhookNotifier.js';
import { NotifyError } from './notifier.js';

const SECRET = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;

const alert: Alert = {
  customer_id: 'app_user_9',
  person_id: '$RCAnonymousID:abc',
  state: 'billing_issue' as Alert['state'],
  product_id: 'pro_monthly',
  monthly_value_usd: 9.99,
  store: 'APP_STORE',
  risk: { score: 82, band: 'high', breakdown: {} as Alert['risk']['breakdown'] },
  recommendation: { action: 'fix_payment' as Alert['recommendation']['action'], urgency: 'immediate', reason: 'card declined', priority: 1 },
};

type Received = ReceivedRequest;

/** A real receiver on 127.0.0.1 answering the given statuses in turn (then 200). */
async function startReceiver(answers: ReceiverAnswer[] = []) {
  const receiver = await startWebhookReceiver(answers, '/hooks/tenure');
  close = receiver.close;
  return receiver;
}

let close: () => Promise<void> = async () => {};
afterEach(() => close());

const verify = (r: Received, secret = SECRET) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as unknown;

describe('createAlertWebhookNotifier', () => {
  it('POSTs a recommendation.dispatched event that standardwebhooks verifies', async () => {
    const receiver = await startReceiver();
    await createAlertWebhookNotifier({ url: receiver.url, secret: SECRET }).send(alert, { dispatchId: '42', at: '2030-01-01T00:00:00.000Z' });
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(webhookMessageId('42'));
    expect(verify(got)).toEqual({
      type: 'recommendation.dispatched',
      timestamp: '2030-01-01T00:00:00.000Z',
      data: {
        dispatch_id: '42',
        customer_id: 'app_user_9',
        original_app_user_id: '$RCAnonymousID:abc',
        state: 'billing_issue',
        product_id: 'pro_monthly',
        store: 'APP_STORE',
        score: 82,
        band: 'high',
        breakdown: {},
        churn_probability: null,
        recommendation: { action: 'fix_payment', urgency: 'immediate', reason: 'card declined', priority: 1 },
        monthly_value_at_risk_usd: 9.99,
      },
    });
    expect(() => verify(got, `whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`)).toThrow();
  });

  it('stamps webhook-timestamp from the wall clock, whatever the payload timestamp says', async () => {
    const receiver = await startReceiver();
    const before = Math.floor(Date.now() / 1000);
    // A simulated clock years ahead only shows in the payload's timestamp.
    await createAlertWebhookNotifier({ url: receiver.url, secret: SECRET }).send(alert, { dispatchId: '7', at: '2040-06-01T00:00:00.000Z' });
    const stamp = Number(receiver.received[0]!.headers['webhook-timestamp']);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(() => verify(receiver.received[0]!)).not.toThrow();
  });

  it('keeps the webhook-id across attempts of one delivery', async () => {
    const receiver = await startReceiver([{ status: 503 }]);
    const hook = createAlertWebhookNotifier({ url: receiver.url, secret: SECRET });
    await expect(hook.send(alert, { dispatchId: '9', at: '2030-01-01T00:00:00.000Z' })).rejects.toBeInstanceOf(NotifyError);
    await hook.send(alert, { dispatchId: '9', at: '2030-01-01T00:00:00.000Z' });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(['msg_tenure_9', 'msg_tenure_9']);
  });

  it.each([
    [500, true],
    [503, true],
    [408, true],
    [429, true],
    [400, false],
    [404, false],
    [410, false],
  ])('rejects HTTP %i with a NotifyError, retryable: %s, quoting the answer', async (status, retryable) => {
    const receiver = await startReceiver([{ status, body: `nope ${'x'.repeat(500)}` }]);
    const error = await createAlertWebhookNotifier({ url: receiver.url, secret: SECRET })
      .send(alert, { dispatchId: '1', at: '2030-01-01T00:00:00.000Z' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotifyError);
    expect((error as NotifyError).retryable).toBe(retryable);
    expect((error as NotifyError).message).toMatch(new RegExp(`^alert webhook answered HTTP ${status}: nope x+$`));
    expect((error as NotifyError).message.length).toBeLessThan(260);
  });

  it("carries a 429's Retry-After to the dispatcher", async () => {
    const receiver = await startReceiver([{ status: 429, headers: { 'retry-after': '3' } }]);
    const error = await createAlertWebhookNotifier({ url: receiver.url, secret: SECRET })
      .send(alert, { dispatchId: '1', at: '2030-01-01T00:00:00.000Z' })
      .catch((e: unknown) => e);
    expect((error as NotifyError).retryAfterMs).toBe(3000);
  });

  it('rejects retryably when the receiver does not answer in time', async () => {
    const receiver = await startReceiver([{ status: 200, delayMs: 2000 }]);
    const error = await createAlertWebhookNotifier({ url: receiver.url, secret: SECRET, timeoutMs: 100 })
      .send(alert, { dispatchId: '1', at: '2030-01-01T00:00:00.000Z' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotifyError);
    expect((error as NotifyError).retryable).toBe(true);
    expect((error as NotifyError).message).toBe('alert webhook unreachable: no answer within 100 ms');
  });

  it.each([
    ['not a url', SECRET, /ALERT_WEBHOOK_URL/],
    ['ftp://example.com/x', SECRET, /ALERT_WEBHOOK_URL/],
    ['https://example.com/x', 'plain-secret', /ALERT_WEBHOOK_SECRET/],
    ['https://example.com/x', 'whsec_!!!notbase64', /ALERT_WEBHOOK_SECRET/],
    ['https://example.com/x', 'whsec_c2hvcnQ=', /ALERT_WEBHOOK_SECRET/],
  ])('refuses url %s / secret %s', (url, secret, message) => {
    expect(() => createAlertWebhookNotifier({ url, secret })).toThrow(message);
  });

  it('signs with every secret of a rotation; either verifies', async () => {
    const old = `whsec_${Buffer.from('the previous secret, 32 bytes!!!').toString('base64')}`;
    const receiver = await startReceiver();
    await createAlertWebhookNotifier({ url: receiver.url, secret: `${SECRET} ${old}` }).send(alert, { dispatchId: '3', at: '2030-01-01T00:00:00.000Z' });
    const got = receiver.received[0]!;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verify(got, SECRET)).not.toThrow();
    expect(() => verify(got, old)).not.toThrow();
  });
});

describe('recommendationEvent', () => {
  it('says the churn probability when calibrated', () => {
    const probabilities = Array.from({ length: 101 }, (_, score) => score / 200);
    const calibration = { horizon_ms: 1, samples: 100, positives: 10, probabilities };
    expect(recommendationEvent(alert, { dispatchId: '1', at: 'x', calibration }).data.churn_probability).toBe(0.41);
    expect(recommendationEvent(alert, { dispatchId: '1', at: 'x' }).data.churn_probability).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});
