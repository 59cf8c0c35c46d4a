/**
 * The webhook event's fast path: a hand-written check of an event object against the zod schemas of
 * `webhookSchema.ts`, field by field, without zod's machinery (an issue list, a payload object per
 * field, a closure per check). It answers only for an event the schemas accept, with an object equal
 * to zod's output (the same keys and values, unknown keys passed through; for a JSON object the
 * event itself, see `readShape`); for anything else it answers `undefined` and the caller asks zod,
 * which names the offending fields. So the errors are zod's, by construction, and the property test
 * (`readValidEvent.property.test.ts`) holds the two to accepting exactly the same events.
 */
import { isEpochMs } from './epochMs.js';
import { identifierProblem } from './identifier.js';
import { HANDLED_EVENT_SCHEMAS, unhandledEventSchema, type HandledEvent, type HandledEventType, type UnhandledEvent } from './webhookSchema.js';

/** What a field of the event schemas holds (each optional one may also be null or absent). */
type FieldKind = 'id' | 'ids' | 'ms' | 'string' | 'strings' | 'number' | 'int' | 'bool' | 'attributes' | 'type';

/** The kind of every field the event schemas name; a field missing here fails at load (below). */
const FIELD_KINDS: Readonly<Record<string, FieldKind>> = {
  type: 'type',
  id: 'id',
  app_user_id: 'id',
  original_app_user_id: 'id',
  aliases: 'ids',
  transferred_from: 'ids',
  transferred_to: 'ids',
  event_timestamp_ms: 'ms',
  purchased_at_ms: 'ms',
  expiration_at_ms: 'ms',
  grace_period_expiration_at_ms: 'ms',
  auto_resume_at_ms: 'ms',
  experiment_enrolled_at_ms: 'ms',
  app_id: 'string',
  environment: 'string',
  store: 'string',
  product_id: 'string',
  entitlement_id: 'string',
  period_type: 'string',
  presented_offering_id: 'string',
  currency: 'string',
  transaction_id: 'string',
  original_transaction_id: 'string',
  country_code: 'string',
  offer_code: 'string',
  cancel_reason: 'string',
  expiration_reason: 'string',
  new_product_id: 'string',
  entitlement_ids: 'strings',
  price: 'number',
  price_in_purchased_currency: 'number',
  tax_percentage: 'number',
  commission_percentage: 'number',
  takehome_percentage: 'number',
  renewal_number: 'int',
  is_family_share: 'bool',
  is_trial_conversion: 'bool',
  subscriber_attributes: 'attributes',
};

/** Fields every handled event requires (present and not null). */
const REQUIRED_OF_HANDLED: ReadonlySet<string> = new Set(['id', 'app_user_id', 'event_timestamp_ms']);

/** One schema's fields in its shape's order (the order zod writes them), with their kinds. */
interface EventShape {
  keys: readonly string[];
  kinds: readonly FieldKind[];
  required: readonly boolean[];
  keySet: ReadonlySet<string>;
  /** Each field's position in `keys`, by name (what `readShape` looks an event's own key up in). */
  indexOf: ReadonlyMap<string, number>;
  /** How many fields are required. */
  requiredCount: number;
}

function shapeOf(shape: Readonly<Record<string, unknown>>, required: ReadonlySet<string>): EventShape {
  const keys = Object.keys(shape);
  const kinds = keys.map((key) => {
    const kind = FIELD_KINDS[key];
    if (kind === undefined) throw new Error(`readValidEvent: no kind for the schema field "${key}"`);
    return kind;
  });
  const isRequired = keys.map((key) => required.has(key));
  return {
    keys,
    kinds,
    required: isRequired,
    keySet: new Set(keys),
    indexOf: new Map(keys.map((key, i) => [key, i])),
    requiredCount: isRequired.filter(Boolean).length,
  };
}

const HANDLED_SHAPES = new Map<string, EventShape>(
  Object.entries(HANDLED_EVENT_SCHEMAS).map(([type, schema]) => [type, shapeOf(schema.shape, REQUIRED_OF_HANDLED)]),
);
const UNHANDLED_SHAPE = shapeOf(unhandledEventSchema.shape, new Set());

const isId = (value: unknown): boolean => typeof value === 'string' && identifierProblem(value) === null;

/** zod's `isPlainObject` (a record's input test), to the letter. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto: unknown = ctor.prototype;
  if (typeof proto !== 'object' || proto === null || Array.isArray(proto)) return false;
  return Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}

/** A copy of an array whose every item passes `check`, or undefined. */
function checkedCopy(value: unknown, check: (item: unknown) => boolean): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const copy = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!check(item)) return undefined;
    copy[i] = item;
  }
  return copy;
}

const isString = (item: unknown): boolean => typeof item === 'string';

/** `z.record(z.string(), z.unknown())`'s output for a plain object of string keys, or undefined (not one, or symbol keys: zod decides). */
function attributesCopy(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainRecord(value) || Object.getOwnPropertySymbols(value).length !== 0) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (key !== '__proto__') copy[key] = value[key];
  return copy;
}

/** Marks a value that fails its field (never a field's output). */
const INVALID = Symbol('invalid');

/** The output of a present, non-null field of `kind`, or INVALID. */
function fieldValue(kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'id':
      return isId(value) ? value : INVALID;
    case 'ms':
      return isEpochMs(value) ? value : INVALID;
    case 'string':
    case 'type':
      return typeof value === 'string' ? value : INVALID;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : INVALID;
    case 'int':
      return Number.isSafeInteger(value) ? value : INVALID;
    case 'bool':
      return typeof value === 'boolean' ? value : INVALID;
    case 'ids':
      return checkedCopy(value, isId) ?? INVALID;
    case 'strings':
      return checkedCopy(value, isString) ?? INVALID;
    case 'attributes':
      return attributesCopy(value) ?? INVALID;
  }
}

/** The output the schema builds, key by key, in its shape's order: the path for events that are not JSON objects. */
function buildShape(event: Record<string, unknown>, shape: EventShape): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const { keys, kinds, required } = shape;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    // `in`, as zod asks: a key present with the value undefined is written (as undefined).
    if (!(key in event)) {
      if (required[i]) return undefined;
      continue;
    }
    const value = event[key];
    if (value === undefined || value === null) {
      if (required[i]) return undefined;
      out[key] = value;
      continue;
    }
    const read = fieldValue(kinds[i]!, value);
    if (read === INVALID) return undefined;
    out[key] = read;
  }
  // The loose object's other keys, as zod's catchall walks them (`for…in`), never `__proto__`.
  const known = shape.keySet;
  for (const key in event) if (!known.has(key) && key !== '__proto__') out[key] = event[key];
  // Built key by key, `out` is past V8's limit for fast properties (a dictionary): every later read
  // of the event (the fold, the stores) would pay a hash lookup. A spread copy is a fast object.
  return { ...out };
}

/**
 * Whether `value` is what `JSON.parse` makes of an object: a plain object (prototype
 * `Object.prototype`, as zod's copy has) without symbol keys or an own `__proto__`, so its own enumerable keys
 * are every key zod's `in` and `for…in` see, and zod's output holds exactly its keys and values.
 */
function isJsonObject(value: Record<string, unknown>): boolean {
  return Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, '__proto__') && Object.getOwnPropertySymbols(value).length === 0;
}

/** Whether every item of an array passes `check`. */
function everyItem(value: unknown, check: (item: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}

/** Whether a present, non-null value of `kind` is valid and zod's output of it equals it (no key it would drop). */
function isValidAsIs(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'ids':
      return everyItem(value, isId);
    case 'strings':
      return everyItem(value, isString);
    case 'attributes':
      return isPlainRecord(value) && isJsonObject(value);
    default:
      return fieldValue(kind, value) !== INVALID;
  }
}

/**
 * The schema's output for an event, as a value: for a JSON object (what a webhook body holds) the
 * event itself once every field is checked in place, since zod's output would hold the same keys
 * and values (copying an event of 30 keys cost as much as checking it: ~0.7 µs on our machine); its
 * keys keep the body's order where zod writes the schema's fields first, and its arrays and
 * attributes record are the body's own, not copies. Anything else (a class instance, inherited or
 * symbol keys, an own `__proto__`) is built as zod builds it (`buildShape`).
 */
function readShape(event: Record<string, unknown>, shape: EventShape): Record<string, unknown> | undefined {
  if (!isJsonObject(event)) return buildShape(event, shape);
  const { kinds, required, indexOf } = shape;
  // The event's own keys, not the shape's: `for…in` reads a fast object's values through its enum
  // cache, where reading each of the shape's ~40 names (present or not) from events of several
  // shapes was a megamorphic lookup each, 60 % of this function (perf, 2026-11-28). A JSON object's
  // prototype is `Object.prototype`, so the keys are its own. Absent and null fields pass unless
  // required: every required one must be seen present and not null.
  let requiredSeen = 0;
  for (const key in event) {
    const i = indexOf.get(key);
    if (i === undefined) continue; // passed through, as zod's catchall does
    const value = event[key];
    // Present as null (or undefined): zod writes it as it is.
    if (value === undefined || value === null) continue;
    if (!isValidAsIs(kinds[i]!, value)) {
      // A record zod would change (an own `__proto__` or symbol keys) is built; anything else is invalid.
      return kinds[i] === 'attributes' && isPlainRecord(value) ? buildShape(event, shape) : undefined;
    }
    if (required[i]) requiredSeen++;
  }
  return requiredSeen === shape.requiredCount ? event : undefined;
}

/**
 * Given the `event` object of a webhook body and its `type` (a string matching
 * `EVENT_TYPE_PATTERN`, checked by the caller), returns the parsed event exactly as the zod schema
 * of that type (`HANDLED_EVENT_SCHEMAS[type]`, else `unhandledEventSchema`) returns it when it
 * accepts the event, or undefined when the schema would reject it (or the value is too exotic to
 * decide here: a symbol-keyed record); ask zod then. Pure; never throws.
 *
 * @example
 * readValidEvent({ type: 'RENEWAL', id: 'e1', app_user_id: 'u1', event_timestamp_ms: 1_762_000_000_000 }, 'RENEWAL');
 * // { handled: true, event: { type: 'RENEWAL', id: 'e1', app_user_id: 'u1', event_timestamp_ms: 1762000000000 } } (the object given)
 * readValidEvent({ type: 'RENEWAL', id: '' }, 'RENEWAL'); // undefined
 */
export function readValidEvent(
  event: Record<string, unknown>,
  type: string,
): { handled: true; event: HandledEvent } | { handled: false; event: UnhandledEvent } | undefined {
  const handled = HANDLED_SHAPES.get(type);
  if (handled !== undefined) {
    const out = readShape(event, handled);
    return out === undefined ? undefined : { handled: true, event: out as HandledEvent & { type: HandledEventType } };
  }
  const out = readShape(event, UNHANDLED_SHAPE);
  return out === undefined ? undefined : { handled: false, event: out as UnhandledEvent };
}
