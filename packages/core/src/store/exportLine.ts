/**
 * The NDJSON line format of `tenure export` / `tenure import`: an event line is a webhook body as
 * the billing service sends it (`{ api_version, event }`, so a line can also be POSTed to
 * /webhook), an activity line is `{ activity: { customer_id, at } }`.
 */
import { parseWebhook, type FieldError } from '../events/parseWebhook.js';
import { EPOCH_MS_MESSAGE, isEpochMs } from '../events/epochMs.js';
import { identifierProblem } from '../events/identifier.js';
import type { StoredRecord } from './subscriberStore.js';

/** The webhook API version written on exported event lines. */
export const EXPORT_API_VERSION = '1.0';

/** What one import line is: a record to store, a well-formed event tenure does not apply, or an error. */
export type ParsedExportLine =
  | { ok: true; record: StoredRecord }
  | { ok: true; record: null; ignored_type: string }
  | { ok: false; error: FieldError };

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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Given a parsed JSON line, returns the record it holds, or the first error naming the field. Never
 * throws. Pure.
 *
 * @example
 * parseExportLine({ activity: { customer_id: 'u1', at: 1 } }); // { ok: true, record: { kind: 'activity', ... } }
 */
export function parseExportLine(value: unknown): ParsedExportLine {
  if (isObject(value) && 'activity' in value) {
    const a = value['activity'];
    if (!isObject(a)) return { ok: false, error: { field: 'activity', message: 'Expected an object' } };
    const id = a['customer_id'];
    const at = a['at'];
    if (typeof id !== 'string') return { ok: false, error: { field: 'activity.customer_id', message: 'Expected a string' } };
    const problem = identifierProblem(id);
    if (problem !== null) return { ok: false, error: { field: 'activity.customer_id', message: problem } };
    if (!isEpochMs(at)) return { ok: false, error: { field: 'activity.at', message: EPOCH_MS_MESSAGE } };
    return { ok: true, record: { kind: 'activity', customer_id: id, at } };
  }
  const parsed = parseWebhook(value);
  if (!parsed.ok) return { ok: false, error: parsed.errors[0] ?? { field: 'body', message: 'Invalid line' } };
  if (!parsed.handled) return { ok: true, record: null, ignored_type: parsed.event.type };
  return { ok: true, record: { kind: 'event', event: parsed.event } };
}
