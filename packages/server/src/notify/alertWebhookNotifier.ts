/**
 * Alerts as signed outbound webhooks (Standard Webhooks): one JSON POST per dispatched
 * recommendation, signed so the receiver verifies it with the `standardwebhooks` or `svix` packages.
 */
import { churnProbability, DEFAULT_WEBHOOK_URGENCIES, type Alert, type Calibration, type Urgency } from '@tenure/core';
import { NotifyError } from './notifier.js';
import { parseWebhookSecret, webhookHeaders } from './webhookSignature.js';

/** The event type of every alert webhook. */
export const RECOMMENDATION_DISPATCHED = 'recommendation.dispatched';

export { DEFAULT_WEBHOOK_URGENCIES };

/** The longest excerpt of a refusing receiver's answer kept in the dispatch log. */
export const ANSWER_EXCERPT_CHARS = 200;

export interface AlertWebhookOptions {
  /** The endpoint's name in routing and the dispatch log; default `default`. */
  name?: string;
  url: string;
  /** `whsec_`-prefixed base64 secret (or several, space-separated, during a rotation). Never logged. */
  secret: string;
  /** The urgencies this endpoint receives; default immediate and soon. */
  urgencies?: readonly Urgency[];
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
  /** Wall-clock milliseconds for `webhook-timestamp` (never the simulated clock); default `Date.now`. */
  wallClock?: () => number;
}

/** What identifies one delivery: the dispatch id and the stable message id derived from it. */
export interface WebhookDelivery {
  /** The delivery's id in the body (`data.dispatch_id`); the `webhook-id` is derived from it, so retries and restarts keep it. */
  dispatchId: string;
  /** The simulated (service) clock's time of the dispatch, ISO-8601, for the payload's `timestamp`. */
  at: string;
  calibration?: Calibration | undefined;
}

/** The JSON body of one alert webhook. */
export interface RecommendationDispatchedEvent {
  type: typeof RECOMMENDATION_DISPATCHED;
  timestamp: string;
  data: {
    dispatch_id: string;
    customer_id: string;
    original_app_user_id: string | null;
    state: Alert['state'];
    product_id: string | null;
    store: string | null;
    score: number;
    band: Alert['risk']['band'];
    breakdown: Alert['risk']['breakdown'];
    churn_probability: number | null;
    recommendation: Alert['recommendation'];
    monthly_value_at_risk_usd: number | null;
  };
}

/**
 * Given an alert and its delivery, returns the event POSTed for it. Pure.
 *
 * @example
 * recommendationEvent(alert, { dispatchId: 'd_42', at: '2026-01-01T00:00:00.000Z' }).data.score;
 */
export function recommendationEvent(alert: Alert, delivery: WebhookDelivery): RecommendationDispatchedEvent {
  return {
    type: RECOMMENDATION_DISPATCHED,
    timestamp: delivery.at,
    data: {
      dispatch_id: delivery.dispatchId,
      customer_id: alert.customer_id,
      original_app_user_id: alert.person_id ?? null,
      state: alert.state,
      product_id: alert.product_id,
      store: alert.store ?? null,
      score: alert.risk.score,
      band: alert.risk.band,
      breakdown: alert.risk.breakdown,
      churn_probability: delivery.calibration === undefined ? null : churnProbability(delivery.calibration, alert.risk.score),
      recommendation: alert.recommendation,
      monthly_value_at_risk_usd: alert.monthly_value_usd ?? null,
    },
  };
}

/**
 * Given a dispatch id, returns the `webhook-id` of its deliveries: the same on every attempt and
 * after a restart, so receivers deduplicate. Pure.
 *
 * @example
 * webhookMessageId('42'); // 'msg_tenure_42'
 */
export function webhookMessageId(dispatchId: string): string {
  return `msg_tenure_${dispatchId}`;
}

/**
 * Given a `Retry-After` header value (seconds or an HTTP date) and the wall clock, returns the wait in ms.
 *
 * @example
 * parseRetryAfter('3', Date.now()); // 3000
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** One configured webhook endpoint. */
export interface AlertWebhookNotifier {
  readonly channel: 'webhook';
  /** The endpoint's name (routing, the dispatch log's `target`). */
  readonly name: string;
  /** The URL's origin (`https://crm.example.com`): shown by `GET /api/config`; a path or query may hold a token. */
  readonly origin: string;
  /** For the startup log, without the secret: "webhook (host)". */
  readonly description: string;
  readonly urgencies: readonly Urgency[];
  /** POSTs one event; rejects with a `NotifyError` (retryable on 5xx, 408, 429, network errors and timeouts). */
  send(alert: Alert, delivery: WebhookDelivery): Promise<void>;
  /**
   * POSTs `body` exactly as given under message id `webhookId`, signed at the wall clock's time;
   * rejects as `send` does, a refusal's `NotifyError` carrying the receiver's `answer`.
   */
  post(webhookId: string, body: string): Promise<void>;
}

/**
 * Given an endpoint's URL and secret, returns a notifier that POSTs signed `recommendation.dispatched`
 * events. Throws when the URL or secret is invalid (the CLI names the setting).
 *
 * @example
 * const hook = createAlertWebhookNotifier({ url: 'https://crm.example.com/hooks/tenure', secret: 'whsec_…' });
 * await hook.send(alert, { dispatchId: '42', at: new Date().toISOString() });
 */
export function createAlertWebhookNotifier(options: AlertWebhookOptions): AlertWebhookNotifier {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new Error('ALERT_WEBHOOK_URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('ALERT_WEBHOOK_URL must be an http or https URL');
  const keys = options.secret.split(' ').filter((s) => s !== '').map(parseWebhookSecret);
  if (keys.length === 0 || keys.some((k) => k === undefined)) {
    throw new Error('ALERT_WEBHOOK_SECRET must be a whsec_-prefixed base64 secret of at least 16 bytes');
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const wallClock = options.wallClock ?? Date.now;
  const name = options.name ?? 'default';
  const post = async (webhookId: string, body: string): Promise<void> => {
    const headers = webhookHeaders(keys as Buffer[], webhookId, Math.floor(wallClock() / 1000), body);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'tenure-webhooks', ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      const reason = cause instanceof Error && cause.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : cause instanceof Error ? cause.message : String(cause);
      throw new NotifyError(`alert webhook unreachable: ${reason}`, { retryable: true, cause });
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return;
    const status = response.status;
    const retryable = status >= 500 || status === 408 || status === 429;
    const excerpt = text.slice(0, ANSWER_EXCERPT_CHARS);
    throw new NotifyError(`alert webhook answered HTTP ${status}: ${excerpt}`, {
      retryable,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), wallClock()),
      answer: { status, body: excerpt },
    });
  };
  return {
    channel: 'webhook',
    name,
    origin: url.origin,
    description: `webhook ${name} (${url.host})`,
    urgencies: options.urgencies ?? DEFAULT_WEBHOOK_URGENCIES,
    post,
    async send(alert, delivery) {
      await post(webhookMessageId(delivery.dispatchId), JSON.stringify(recommendationEvent(alert, delivery)));
    },
  };
}
