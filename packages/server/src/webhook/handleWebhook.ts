/**
 * The framework-free webhook handler: authenticate → parse → store → answer. Both the node:http fast
 * path and the Express route call it, so they answer identically. It does no scoring before
 * answering; work after an applied event (auto-dispatch) is scheduled for after the response.
 */
import { parseWebhook, type HandledEvent, type OccurrenceHolder, type Subscriber, type SubscriberStore, type TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import { decodeUtf8, edgeProblem, parseJsonText } from '@tenure/http-edge';
import { apiError, edgeError, type ApiErrorBody, type HandlerResult } from '../http/apiError.js';
import { headerValue, type SecretMatcher } from '../http/secretMatcher.js';
import { storeContext } from '../store/storeContext.js';
import type { WebhookOutcome } from '../metrics/webhookLabels.js';
import { applyTransferWebhook } from './applyTransferWebhook.js';

export interface WebhookDeps {
  /** Where PRODUCTION events go (and events without `environment`). */
  store: SubscriberStore;
  /**
   * Where SANDBOX events go: kept apart, so they never reach production scores, lists or alerts.
   * Without one, sandbox events are acknowledged as ignored.
   */
  sandboxStore?: SubscriberStore | undefined;
  clock: Clock;
  /**
   * The rules the store materializes at-risk rows with. Required, not defaulted: a store whose rows
   * were built under another configuration re-materializes every row when it sees a different one.
   */
  config: TenureConfig;
  /** Checks the Authorization header against BILLING_WEBHOOK_AUTH_KEY (disabled when unset). */
  webhookAuth: SecretMatcher;
  /** Runs after the response for every newly applied production event (auto-dispatch); errors are its own. */
  afterApplied?: ((subscriber: Subscriber) => void) | undefined;
  /**
   * Told what became of each webhook (`tenure_webhooks_received_total`; `type` undefined when not
   * read) and how long the store took to apply it (seconds).
   */
  metrics?:
    | {
        webhookReceived(type: string | undefined, outcome: WebhookOutcome): void;
        storeOperation(operation: 'apply', seconds: number): void;
        /** Counts a duplicate whose transaction another customer holds (`tenure_duplicate_transactions_other_customer_total`). */
        occurrenceElsewhere?(environment: 'production' | 'sandbox'): void;
      }
    | undefined;
  /** Told at warn of each event answered duplicate because another customer holds its transaction. */
  logger?: { warn(fields: object, message: string): void } | undefined;
}

/** The 200 answer: `result` says what happened to the event. */
export interface WebhookAck {
  ok: true;
  result: 'applied' | 'duplicate' | 'ignored';
}

export type WebhookResult = HandlerResult<WebhookAck | ApiErrorBody>;

/** The three acknowledgements, allocated once; `ACK_JSON` holds their serialized form. */
export const ACKS = {
  applied: Object.freeze({ ok: true, result: 'applied' }),
  duplicate: Object.freeze({ ok: true, result: 'duplicate' }),
  ignored: Object.freeze({ ok: true, result: 'ignored' }),
} as const satisfies Record<WebhookAck['result'], WebhookAck>;
export const ACK_JSON = new Map<unknown, string>(Object.values(ACKS).map((ack) => [ack, JSON.stringify(ack)]));

/** The only header the handler reads. */
export interface WebhookHeaders {
  authorization?: string | string[] | undefined;
}

/**
 * Given the raw request body (the received bytes, or text already decoded), the request headers and
 * the deps, returns the response to send. 401 on a wrong or missing Authorization header when a key
 * is set; 400 naming `body` for bytes that are not valid UTF-8 (never decoded with replacement
 * characters, which would merge two different ids into one subscriber) or malformed JSON; 400
 * naming the field for a missing/invalid field (nothing is stored); 200 otherwise, only once the
 * store has committed the event. Never throws; a failing store gives 503 so the billing service
 * retries.
 *
 * @example
 * const { status, body } = await handleWebhook(rawBody, req.headers, { store, clock, config, webhookAuth });
 */
export async function handleWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, deps: WebhookDeps): Promise<WebhookResult> {
  if (!deps.webhookAuth.matches(headerValue(headers.authorization))) {
    deps.metrics?.webhookReceived(undefined, 'rejected_auth');
    return apiError('unauthorized', 'Missing or wrong Authorization header');
  }
  let text = rawBody;
  if (typeof text !== 'string') {
    const decoded = decodeUtf8(text);
    if (!decoded.ok) {
      deps.metrics?.webhookReceived(undefined, 'rejected_invalid');
      return edgeError(edgeProblem('invalid_utf8'));
    }
    text = decoded.text;
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    deps.metrics?.webhookReceived(undefined, 'rejected_invalid');
    return edgeError(edgeProblem('invalid_json'));
  }
  return applyWebhookValue(parsed.value, deps);
}

/**
 * Like `handleWebhook`, for a body some middleware already parsed (an Express app that runs
 * `express.json()` before mounting tenure).
 *
 * @example
 * await handleParsedWebhook(req.body, req.headers, deps);
 */
export async function handleParsedWebhook(value: unknown, headers: WebhookHeaders, deps: WebhookDeps): Promise<WebhookResult> {
  if (!deps.webhookAuth.matches(headerValue(headers.authorization))) {
    deps.metrics?.webhookReceived(undefined, 'rejected_auth');
    return apiError('unauthorized', 'Missing or wrong Authorization header');
  }
  return applyWebhookValue(value, deps);
}

/**
 * Given a handled event, returns whether it belongs to the sandbox: `environment` is `SANDBOX` (any
 * case). Events without `environment` are production. Pure.
 *
 * @example
 * isSandboxEvent({ ...event, environment: 'SANDBOX' }); // true
 */
export function isSandboxEvent(event: { environment?: string | null | undefined }): boolean {
  return typeof event.environment === 'string' && event.environment.toUpperCase() === 'SANDBOX';
}

/**
 * Makes a duplicate visible whose transaction occurrence another customer holds: still answered
 * `duplicate` (one store's transaction is one occurrence, docs/rules.md §1), but logged at warn with
 * both customer ids, the event id and the key, and counted.
 */
function reportElsewhere(event: HandledEvent, heldBy: OccurrenceHolder, sandbox: boolean, deps: WebhookDeps): void {
  const environment = sandbox ? 'sandbox' : 'production';
  deps.metrics?.occurrenceElsewhere?.(environment);
  deps.logger?.warn(
    { event_id: event.id, occurrence: heldBy.key, customer_id: event.app_user_id, held_by: heldBy.customer, environment },
    'duplicate transaction under another customer: answered duplicate, the stored event is kept',
  );
}

/** The `event.type` of a body that failed validation, when it is a string (for the metrics label). */
const typeOf = (value: unknown): string | undefined => {
  const type = (value as { event?: { type?: unknown } } | null)?.event?.type;
  return typeof type === 'string' ? type : undefined;
};

// Each return counts its outcome where it is known: no wrapper (an extra await per webhook) and no
// lookup of the answer afterwards.
async function applyWebhookValue(value: unknown, deps: WebhookDeps): Promise<WebhookResult> {
  const metrics = deps.metrics;
  let parsed;
  try {
    parsed = parseWebhook(value);
  } catch {
    metrics?.webhookReceived(typeOf(value), 'rejected_invalid');
    return apiError('invalid_request', 'The webhook body could not be validated', 'body');
  }
  if (!parsed.ok) {
    metrics?.webhookReceived(typeOf(value), 'rejected_invalid');
    const first = parsed.errors[0];
    return apiError('invalid_request', first?.message ?? 'Invalid webhook body', first?.field ?? 'body');
  }
  if (!parsed.value.handled) {
    if (parsed.value.event.type === 'TRANSFER') return applyTransferWebhook(parsed.value.event, deps);
    metrics?.webhookReceived(parsed.value.event.type, 'unhandled');
    return { status: 200, body: ACKS.ignored };
  }

  const event = parsed.value.event;
  const sandbox = isSandboxEvent(event);
  const store = sandbox ? deps.sandboxStore : deps.store;
  if (store === undefined) {
    metrics?.webhookReceived(event.type, 'ignored');
    return { status: 200, body: ACKS.ignored };
  }
  let outcome;
  const start = performance.now();
  try {
    outcome = await store.applyEvent(event, storeContext(deps));
  } catch {
    metrics?.storeOperation('apply', (performance.now() - start) / 1000);
    metrics?.webhookReceived(event.type, 'unavailable');
    return apiError('unavailable', 'The subscriber store is unavailable; retry later');
  }
  if (metrics !== undefined) {
    metrics.storeOperation('apply', (performance.now() - start) / 1000);
    metrics.webhookReceived(event.type, outcome.status);
  }
  if (outcome.status === 'duplicate') {
    if (outcome.heldBy !== undefined) reportElsewhere(event, outcome.heldBy, sandbox, deps);
    return { status: 200, body: ACKS.duplicate };
  }
  // Sandbox events neither move the event clock nor alert anyone.
  if (sandbox) return { status: 200, body: ACKS.applied };
  deps.clock.observe?.(event.event_timestamp_ms);
  const after = deps.afterApplied;
  if (after !== undefined) {
    const subscriber = outcome.subscriber;
    setImmediate(after, subscriber); // after the caller has written the response
  }
  return { status: 200, body: ACKS.applied };
}
