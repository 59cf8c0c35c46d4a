/** The framework-free handler of `POST /api/dispatches/{id}/resend`: a person sends a webhook delivery again. */
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, type HandlerResult } from '../http/apiError.js';

/**
 * Given the runtime, a dispatch record's id and who asks, starts sending that record's webhook
 * delivery again (same body, same `webhook-id`, trigger `manual`) and returns 202 with the new
 * `pending` record; 404 for an unknown id, 400 for a record that is no webhook delivery (or has no
 * stored body), 409 while the delivery is still being sent or when its endpoint is gone.
 *
 * @example
 * await resendDispatch(runtime, 42, 'dashboard'); // { status: 202, body: { record: { outcome: 'pending', ... } } }
 */
export async function resendDispatch(rt: Pick<RetentionRuntime, 'dispatcher'>, id: number, actor: string): Promise<HandlerResult> {
  const result = await rt.dispatcher.resend(id, actor);
  switch (result.status) {
    case 'started':
      return { status: 202, body: { record: result.record } };
    case 'not_found':
      return apiError('not_found', result.message, 'id');
    case 'not_webhook':
    case 'no_body':
      return apiError('invalid_request', result.message, 'id');
    case 'in_flight':
    case 'no_endpoint':
      return apiError('conflict', result.message, 'id');
  }
}
