/** The framework-free handler of `GET /api/config`. */
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { configView } from '../config/serviceConfig.js';
import type { HandlerResult } from '../http/apiError.js';

/**
 * Given the runtime, returns 200 with the effective configuration, its source, its hash and the
 * calibration's provenance (`configView`).
 *
 * @example
 * getConfig(runtime); // { status: 200, body: { source: 'default', hash: 'sha256:…', config: {...}, calibration: null } }
 */
export function getConfig(rt: Pick<RetentionRuntime, 'serviceConfig' | 'alertWebhooks'>): HandlerResult {
  // The webhook endpoints without their secrets, and only the URL's origin (a path may hold a token).
  return { status: 200, body: { ...configView(rt.serviceConfig), alert_webhooks: rt.alertWebhooks } };
}
