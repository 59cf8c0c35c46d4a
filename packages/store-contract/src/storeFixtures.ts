/**
 * Building blocks of the contract suite: webhook events in the billing service's real format (built
 * as a webhook body and passed through the core's `parseWebhook`, so a store sees exactly what the
 * service would hand it), customer ids that exercise code point order, and small async helpers.
 */
import { HOUR, T0 } from '@tenure/testkit';
import { DAY_MS, compareIds, parseWebhook, type HandledEvent, type HandledEventType, type Subscriber, type SubscriberStore } from '@tenure/core';

/**
 * The suite's epoch (2025-11-01, epoch ms) and an hour in ms; `DAY_MS` is the core's.
 *
 * @example
 * const ctx = { now: T0 + 30 * DAY_MS, config: DEFAULT_CONFIG };
 */
export { T0 };
export const HOUR_MS = HOUR;
export { DAY_MS };

/**
 * Customer ids whose UTF-16 order differs from their code point order (U+E000..U+FFFF against
 * astral characters), plus accents, CJK and Slack control characters. Well-formed, without NUL
 * (PostgreSQL rejects NUL in text).
 *
 * @example
 * for (const id of CUSTOMER_IDS) await store.applyEvent(ev('INITIAL_PURCHASE', id, T0), ctx);
 */
export const CUSTOMER_IDS = [
  'alice',
  'Bob',
  'émile',
  '日本',
  '\uFFFD',
  '\u{1F600}',
  'a\uE000',
  'a\u{10000}',
  '<!channel>',
  'zz',
] as const;

/** Fields of a handled event beyond its identity, as the billing service may send them. */
export type EventFields = Record<string, unknown>;

/**
 * Given a type, an id, a customer, a time and extra fields, returns the handled event that
 * `parseWebhook` makes of that webhook body; throws if the body is not a handled event (a bug in
 * the suite, not in a store).
 *
 * @example
 * const purchase = buildEvent('INITIAL_PURCHASE', 'evt_1', 'alice', T0, { period_type: 'TRIAL' });
 */
export function buildEvent(type: HandledEventType, id: string, customer: string, at: number, fields: EventFields = {}): HandledEvent {
  const body = {
    api_version: '1.0',
    event: {
      type,
      id,
      app_id: 'app1a2b3c4d5e',
      app_user_id: customer,
      original_app_user_id: customer,
      event_timestamp_ms: at,
      environment: 'PRODUCTION',
      store: 'APP_STORE',
      product_id: 'pro_monthly',
      ...fields,
    },
  };
  const parsed = parseWebhook(body);
  if (!parsed.ok || !parsed.value.handled) throw new Error(`store contract: not a handled event: ${JSON.stringify(body)}`);
  return parsed.value.event;
}

/**
 * Returns an event builder whose ids are unique within one suite run (`<prefix>_1`, `<prefix>_2`, ...).
 *
 * @example
 * const ev = eventFactory('evt');
 * ev('RENEWAL', 'alice', T0 + DAY_MS);
 */
export function eventFactory(prefix: string) {
  let n = 0;
  return (type: HandledEventType, customer: string, at: number, fields: EventFields = {}): HandledEvent =>
    buildEvent(type, `${prefix}_${++n}`, customer, at, fields);
}

/**
 * Given an async iterable, resolves with its items in order.
 *
 * @example
 * const records = await collect(store.records());
 */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Given subscribers, returns them sorted by customer id in code point order (the order of `list()`). Pure.
 *
 * @example
 * expect(await listAll(store)).toEqual(byCustomerId(foldEventsByCustomer(events).values()));
 */
export const byCustomerId = (subscribers: Iterable<Subscriber>): Subscriber[] =>
  [...subscribers].sort((a, b) => compareIds(a.customer_id, b.customer_id));

/**
 * Given a store, resolves with every subscriber it lists, in its order.
 *
 * @example
 * const subscribers = await listAll(store);
 */
export const listAll = (store: SubscriberStore): Promise<Subscriber[]> => collect(store.list());
