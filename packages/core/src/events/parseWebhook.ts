/**
 * Validation of a webhook body at the edge: turns any JSON value into a typed event or a list of
 * errors that name the offending field.
 */
import type { z } from 'zod';
import { err, ok, type FieldError, type Result } from '../result.js';
import { readValidEvent } from './readValidEvent.js';
import {
  EVENT_TYPE_MESSAGE,
  EVENT_TYPE_PATTERN,
  HANDLED_EVENT_SCHEMAS,
  unhandledEventSchema,
  type HandledEvent,
  type HandledEventType,
  type UnhandledEvent,
} from './webhookSchema.js';

/** A parsed event: one tenure applies (`handled`), or one it accepts and ignores. */
export type ParsedEvent = { handled: true; event: HandledEvent } | { handled: false; event: UnhandledEvent };

/** The outcome of parsing a webhook body: the event, or one error per offending field. */
export type ParsedWebhook = Result<ParsedEvent, FieldError>;

const isHandledType = (type: string): type is HandledEventType => Object.hasOwn(HANDLED_EVENT_SCHEMAS, type);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Given a path prefix and a zod error, returns one error per field (the first issue zod reports for
 * it), in the order zod found them; `field` is the dotted path under the prefix (`event.app_user_id`),
 * and `root` (default the prefix) for the value itself. Pure.
 *
 * @example
 * toFieldErrors('event', result.error); // [{ field: 'event.id', message: '...' }]
 */
export function toFieldErrors(prefix: string, error: z.ZodError, root = prefix): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    const field = path.length === 0 ? root : prefix === '' ? path.join('.') : [prefix, ...path].join('.');
    if (!byField.has(field)) byField.set(field, { field, message: issue.message });
  }
  return [...byField.values()];
}

const fail = (field: string, message: string): ParsedWebhook => err({ field, message });

/**
 * Given any JSON value received as a webhook body, returns the typed event (handled or not) as
 * `value`, or the list of field errors. Pure; never throws.
 *
 * @example
 * const parsed = parseWebhook(JSON.parse(body));
 * if (!parsed.ok) return { status: 400, body: parsed.errors };
 * if (parsed.value.handled) subscriber = applyEvent(subscriber, parsed.value.event);
 */
export function parseWebhook(body: unknown): ParsedWebhook {
  if (!isPlainObject(body)) return fail('body', 'Expected a JSON object with an "event" object');
  const event = body['event'];
  if (!isPlainObject(event)) return fail('event', 'Expected "event" to be an object');
  const type = event['type'];
  if (typeof type !== 'string') return fail('event.type', 'Expected "event.type" to be a string');
  // Checked first and alone: a type of megabytes is refused after at most 65 characters.
  if (!EVENT_TYPE_PATTERN.test(type)) return fail('event.type', EVENT_TYPE_MESSAGE);
  // The hand-written check answers every event the schemas accept, with their very output; zod
  // runs only for the rest, to name the offending fields (readValidEvent.ts).
  const valid = readValidEvent(event, type);
  if (valid !== undefined) return ok(valid);
  return parseWithSchemas(event, type);
}

/**
 * `parseWebhook`'s answer from the zod schemas alone, for an event object whose `type` matches
 * `EVENT_TYPE_PATTERN`: the reference `readValidEvent` is held to, and the source of every field
 * error. Pure; never throws.
 *
 * @example
 * parseWithSchemas({ type: 'RENEWAL', id: '' }, 'RENEWAL'); // { ok: false, errors: [{ field: 'event.id', ... }, ...] }
 */
export function parseWithSchemas(event: Record<string, unknown>, type: string): ParsedWebhook {
  if (isHandledType(type)) {
    const result = HANDLED_EVENT_SCHEMAS[type].safeParse(event);
    return result.success
      ? ok({ handled: true, event: result.data as HandledEvent })
      : { ok: false, errors: toFieldErrors('event', result.error) };
  }
  const result = unhandledEventSchema.safeParse(event);
  return result.success
    ? ok({ handled: false, event: result.data })
    : { ok: false, errors: toFieldErrors('event', result.error) };
}
