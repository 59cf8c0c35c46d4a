/**
 * The parts of a durable webhook delivery the dispatcher keeps in the dispatch log: the body,
 * written once before the first attempt (`pending`, in `detail`) and resent byte for byte by every
 * retry, restart and resend; the `webhook-id` read back from it; a refusal's answer.
 */
import type { Alert, Calibration } from '@tenure/core';
import { NotifyError } from '../notify/notifier.js';
import { recommendationEvent, webhookMessageId } from '../notify/alertWebhookNotifier.js';

/**
 * Given an alert, the service clock's time, the calibration and a fresh unique id, returns the
 * JSON text POSTed for it (`recommendation.dispatched`, `data.dispatch_id` = `id`). Pure.
 *
 * @example
 * webhookBody(alert, clock.now(), undefined, randomUUID()); // '{"type":"recommendation.dispatched",...}'
 */
export function webhookBody(alert: Alert, at: number, calibration: Calibration | undefined, id: string): string {
  return JSON.stringify(recommendationEvent(alert, { dispatchId: id, at: new Date(at).toISOString(), calibration }));
}

/**
 * Given a body as stored, returns its `webhook-id` (`msg_tenure_<data.dispatch_id>`): the same for
 * every attempt, restart and resend of the delivery, and unique across databases. Undefined when
 * the text is not such a body. Pure.
 *
 * @example
 * webhookIdOfBody(webhookBody(alert, now, undefined, 'a1')); // 'msg_tenure_a1'
 */
export function webhookIdOfBody(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { data?: { dispatch_id?: unknown } }).data?.dispatch_id;
    return typeof id === 'string' && id !== '' ? webhookMessageId(id) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Given a body as stored, returns the id its delivery's cooldown was claimed under: the person's
 * first app user id (`data.original_app_user_id`, the alert's `person_id`), else `data.customer_id`;
 * undefined when the text is not such a body. Pure.
 *
 * @example
 * personIdOfBody(webhookBody({ ...alert, person_id: 'anon1' }, now, undefined, 'a1')); // 'anon1'
 */
export function personIdOfBody(body: string): string | undefined {
  try {
    const data = (JSON.parse(body) as { data?: { original_app_user_id?: unknown; customer_id?: unknown } }).data;
    const id = data?.original_app_user_id ?? data?.customer_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Given a failed attempt's error, returns the `detail` recorded with a final failure: the receiver's
 * answer as JSON (`{"status":404,"body":"..."}`), or null when it did not answer. Pure.
 *
 * @example
 * answerDetail(new NotifyError('HTTP 410', { retryable: false, answer: { status: 410, body: 'gone' } })); // '{"status":410,"body":"gone"}'
 */
export function answerDetail(error: unknown): string | null {
  return error instanceof NotifyError && error.answer !== undefined ? JSON.stringify(error.answer) : null;
}
