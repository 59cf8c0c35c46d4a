/**
 * The NDJSON line format of `tenure export` / `tenure import`: an event line is a webhook body as
 * the billing service sends it (`{ api_version, event }`, so a line can also be POSTed to
 * /webhook), an activity line is `{ activity: { customer_id, at } }`, a moved-subscription line
 * (where a transfer sent a subscription's later events, written after the records) is
 * `{ moved_subscription: { original_transaction_id, receiver } }`.
 */
import { parseWebhook } from '../events/parseWebhook.js';
import { err, ok, type FieldError, type Result } from '../result.js';
import { EPOCH_MS_MESSAGE, isEpochMs } from '../events/epochMs.js';
import { identifierProblem, isStorableId, UNSTORABLE_ID_MESSAGE } from '../events/identifier.js';
import type { MovedSubscription, StoredRecord } from './subscriberStore.js';

/** The webhook API version written on exported event lines. */
export const EXPORT_API_VERSION = '1.0';

/**
 * What a valid import line holds: a record to store, or (`record: null`) a moved subscription's
 * route to restore, or a well-formed event tenure does not apply.
 */
export type ExportLineValue = { record: StoredRecord } | { record: null; moved_subscription: MovedSubscription } | { record: null; ignored_type: string };

/** What one import line is: its value, or the error naming the first offending field. */
export type ParsedExportLine = Result<ExportLineValue, FieldError>;

/**
 * Given a stored record, returns its export line as a JSON value. Pure.
 *
 * @example
 * JSON.stringify(toExportLine({ kind: 'activity', customer_id: 'u1', at: 1 })); // '{"activity":{"customer_id":"u1","at":1}}'
 */
export function toExportLine(record: StoredRecord): unknown {
  return record.kind === 'event'
    ? { api_version: EXPORT_API_VERSION, event: record.event }
    : { activity: { customer_id: record.customer_id, at: record.at } };
}

/**
 * Given a moved subscription's route, returns its export line as a JSON value. Pure.
 *
 * @example
 * JSON.stringify(toMovedSubscriptionLine({ original_transaction_id: 'otx_1', receiver: 'u2' })); // '{"moved_subscription":{"original_transaction_id":"otx_1","receiver":"u2"}}'
 */
export function toMovedSubscriptionLine(route: MovedSubscription): unknown {
  return { moved_subscription: { original_transaction_id: route.original_transaction_id, receiver: route.receiver } };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Given a parsed JSON line, returns the record it holds, or the first error naming the field (one
 * error per line). Never throws. Pure.
 *
 * @example
 * parseExportLine({ activity: { customer_id: 'u1', at: 1_762_000_000_000 } }); // { ok: true, value: { record: { kind: 'activity', ... } } }
 */
export function parseExportLine(value: unknown): ParsedExportLine {
  if (isObject(value) && 'activity' in value) {
    const a = value['activity'];
    if (!isObject(a)) return err({ field: 'activity', message: 'Expected an object' });
    const id = a['customer_id'];
    const at = a['at'];
    if (typeof id !== 'string') return err({ field: 'activity.customer_id', message: 'Expected a string' });
    const problem = identifierProblem(id);
    if (problem !== null) return err({ field: 'activity.customer_id', message: problem });
    if (!isEpochMs(at)) return err({ field: 'activity.at', message: EPOCH_MS_MESSAGE });
    return ok({ record: { kind: 'activity', customer_id: id, at } });
  }
  if (isObject(value) && 'moved_subscription' in value) return parseMovedSubscription(value['moved_subscription']);
  const parsed = parseWebhook(value);
  if (!parsed.ok) return err(parsed.errors[0] ?? { field: 'body', message: 'Invalid line' });
  if (!parsed.value.handled) return ok({ record: null, ignored_type: parsed.value.event.type });
  return ok({ record: { kind: 'event', event: parsed.value.event } });
}

/**
 * The `moved_subscription` member of a line. `receiver` is an id (`identifierProblem`);
 * `original_transaction_id` is what `movedSubscriptionOf` routes by, a non-empty string, storable
 * unchanged (`isStorableId`) but of any length: the webhook puts no limit on it, so a route a store
 * holds is never refused on the way back.
 */
function parseMovedSubscription(m: unknown): ParsedExportLine {
  if (!isObject(m)) return err({ field: 'moved_subscription', message: 'Expected an object' });
  const subscription = m['original_transaction_id'];
  const receiver = m['receiver'];
  if (typeof subscription !== 'string') return err({ field: 'moved_subscription.original_transaction_id', message: 'Expected a string' });
  if (subscription === '') return err({ field: 'moved_subscription.original_transaction_id', message: 'Must not be empty' });
  if (!isStorableId(subscription)) return err({ field: 'moved_subscription.original_transaction_id', message: UNSTORABLE_ID_MESSAGE });
  if (typeof receiver !== 'string') return err({ field: 'moved_subscription.receiver', message: 'Expected a string' });
  const problem = identifierProblem(receiver);
  if (problem !== null) return err({ field: 'moved_subscription.receiver', message: problem });
  return ok({ record: null, moved_subscription: { original_transaction_id: subscription, receiver } });
}
