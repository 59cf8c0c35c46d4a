/**
 * A TRANSFER webhook: the subscription moves from `transferred_from` to `transferred_to`
 * (docs/rules.md §2), applied through the store of its environment and answered like any event:
 * 200 `applied` or `duplicate` after the commit, 503 when the store fails (so the billing service
 * retries), 400 naming the field for a malformed transfer.
 */
import { transferEventSchema, type UnhandledEvent } from '@tenure/core';
import { apiError } from '../http/apiError.js';
import { storeContext } from '../store/storeContext.js';
import { ACKS, isSandboxEvent, type WebhookDeps, type WebhookResult } from './handleWebhook.js';

/**
 * Given a parsed TRANSFER (still untyped beyond its identity) and the handler's dependencies,
 * validates it, applies it with `store.applyTransfer` and returns the answer. A transfer neither
 * alerts anyone nor schedules work after the answer; a production one moves the event clock.
 *
 * @example
 * await applyTransferWebhook(parsed.value.event, deps); // { status: 200, body: { ok: true, result: 'applied' } }
 */
export async function applyTransferWebhook(raw: UnhandledEvent, deps: WebhookDeps): Promise<WebhookResult> {
  const metrics = deps.metrics;
  const parsed = transferEventSchema.safeParse(raw);
  if (!parsed.success) {
    metrics?.webhookReceived('TRANSFER', 'rejected_invalid');
    const issue = parsed.error.issues[0];
    const field = ['event', ...(issue?.path ?? []).map(String)].join('.');
    return apiError('invalid_request', `${field}: ${issue?.message ?? 'invalid TRANSFER'}`, field);
  }
  const event = parsed.data;
  const sandbox = isSandboxEvent(event);
  const store = sandbox ? deps.sandboxStore : deps.store;
  if (store === undefined) {
    metrics?.webhookReceived('TRANSFER', 'ignored');
    return { status: 200, body: ACKS.ignored };
  }
  const start = performance.now();
  let outcome;
  try {
    outcome = await store.applyTransfer(event, storeContext(deps));
  } catch {
    metrics?.storeOperation('apply', (performance.now() - start) / 1000);
    metrics?.webhookReceived('TRANSFER', 'unavailable');
    return apiError('unavailable', 'The subscriber store is unavailable; retry later');
  }
  metrics?.storeOperation('apply', (performance.now() - start) / 1000);
  metrics?.webhookReceived('TRANSFER', outcome.status);
  if (outcome.status === 'duplicate') return { status: 200, body: ACKS.duplicate };
  if (!sandbox) deps.clock.observe?.(event.event_timestamp_ms);
  return { status: 200, body: ACKS.applied };
}
