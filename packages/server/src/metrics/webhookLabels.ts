/**
 * The labels of `tenure_webhooks_received_total`: the event types RevenueCat documents (anything
 * else, or a body whose type was never read, is `other`, so a sender cannot create series) and what
 * the service did with the webhook.
 */
import { HANDLED_EVENT_SCHEMAS } from '@tenure/core';

/**
 * Documented types tenure accepts and ignores (the core's `DOCUMENTED_UNHANDLED_EVENT_TYPES`, which
 * its public entry does not export; docs/rules.md §1).
 */
const DOCUMENTED_UNHANDLED = ['TEST', 'TRANSFER', 'INVOICE_ISSUANCE', 'VIRTUAL_CURRENCY_TRANSACTION', 'EXPERIMENT_ENROLLMENT', 'SUBSCRIBER_ALIAS'];

/** Every value the `type` label can take: the documented types, then `other`. */
export const WEBHOOK_TYPE_LABELS: readonly string[] = [...new Set([...Object.keys(HANDLED_EVENT_SCHEMAS), ...DOCUMENTED_UNHANDLED]), 'other'];

/** What happened to a webhook: the `outcome` label. */
export const WEBHOOK_OUTCOMES = [
  /** Stored and applied to its subscriber. */
  'applied',
  /** Its event id was stored before: nothing changed. */
  'duplicate',
  /** A valid event tenure does not apply (a documented or an unknown type): accepted and ignored. */
  'unhandled',
  /** A sandbox event with no sandbox store: accepted and ignored. */
  'ignored',
  /** 401: missing or wrong Authorization header. */
  'rejected_auth',
  /** 400: not UTF-8, not JSON, or a missing or invalid field. */
  'rejected_invalid',
  /** 413: a body over 1 MB (counted on the standalone server's fast path). */
  'rejected_too_large',
  /** 503: the store failed; the billing service retries. */
  'unavailable',
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

const TYPE_INDEX = new Map(WEBHOOK_TYPE_LABELS.map((type, i) => [type, i]));
const OTHER = WEBHOOK_TYPE_LABELS.length - 1;
const OUTCOME_INDEX = new Map<string, number>(WEBHOOK_OUTCOMES.map((outcome, i) => [outcome, i]));

/**
 * Given an event type as received (or undefined when the body's type was not read), returns its
 * position in `WEBHOOK_TYPE_LABELS` (`other` when it is not a documented type). Pure.
 *
 * @example
 * WEBHOOK_TYPE_LABELS[webhookTypeIndex('RENEWAL')]; // 'RENEWAL'
 * WEBHOOK_TYPE_LABELS[webhookTypeIndex('MADE_UP')]; // 'other'
 */
export function webhookTypeIndex(type: string | undefined): number {
  return type === undefined ? OTHER : (TYPE_INDEX.get(type) ?? OTHER);
}

/**
 * Given an outcome, returns its position in `WEBHOOK_OUTCOMES`. Pure.
 *
 * @example
 * webhookOutcomeIndex('duplicate'); // 1
 */
export function webhookOutcomeIndex(outcome: WebhookOutcome): number {
  return OUTCOME_INDEX.get(outcome)!;
}
