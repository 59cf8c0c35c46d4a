/** The `planned` list of a dispatch answer (`POST /api/dispatch`, `POST /api/subscribers/{id}/dispatch`). */
import type { Delivery } from '@tenure/core';

/**
 * Given the deliveries `planDispatch` planned, returns what a dispatch answer lists of each: the
 * customer, action, urgency, channel, `target` (the webhook endpoint's name, null on other
 * channels, as in the dispatch log's records) and the revenue at risk the alert shows. Pure.
 *
 * @example
 * plannedDeliveries(planDispatch([assessment], routing)); // [{ customer_id: 'u1', action: 'winback', channel: 'webhook', target: 'crm', ... }]
 */
export function plannedDeliveries(deliveries: readonly Delivery[]) {
  return deliveries.map(({ channel, alert, target }) => ({
    customer_id: alert.customer_id,
    action: alert.recommendation.action,
    urgency: alert.recommendation.urgency,
    channel,
    target: channel === 'webhook' ? (target ?? 'default') : null,
    monthly_value_usd: alert.monthly_value_usd ?? null,
    store: alert.store ?? null,
  }));
}
