// The event log's JSON text (what delivery sends) is byte for byte JSON.stringify of the body it
// builds, for any event the log holds: every lifecycle type with none, one or several fields of its
// own, currency transactions, whole bodies, and strings JSON must escape (quotes, backslashes,
// control characters, non-ASCII, lone surrogates), null and undefined values, odd numbers; and
// again after the products it wrote from change in place (the writer keeps a product's texts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/internal/random.js';
import { createEventLog } from '../src/machine/eventLog.js';
import type { CustomerState, Product, SubscriptionState } from '../src/machine/world.js';
import type { LifecycleType, VcAdjustment, WebhookBody } from '../src/machine/webhookEvents.js';

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('user_1', 'a"b', 'a\\b', 'tab\there', 'new\nline', '\u0000', 'é', '日本', '\uD800', 'x\uDC00', '\uD83D\uDE00', '\u007f', '\u2028') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constant(undefined) });
const num = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 9.99, 1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY));
const value: fc.Arbitrary<unknown> = fc.oneof(text, num, fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constantFrom({ a: 1 }, [1, 'x']));

const TYPES: LifecycleType[] = [
  'INITIAL_PURCHASE', 'RENEWAL', 'CANCELLATION', 'UNCANCELLATION', 'EXPIRATION', 'BILLING_ISSUE', 'PRODUCT_CHANGE',
  'SUBSCRIPTION_PAUSED', 'SUBSCRIPTION_EXTENDED', 'TEMPORARY_ENTITLEMENT_GRANT', 'REFUND_REVERSED',
];
/** Fields of its own: none, one (also one named like a shared field), or several. */
const extra = fc.oneof(
  fc.constant({}),
  fc.record({ is_trial_conversion: value }),
  fc.record({ cancel_reason: value }),
  fc.record({ [`expiration_reason`]: value }),
  fc.record({ price: value }),
  fc.record({ weird: value }),
  fc.record({ cancel_reason: value, price: value, price_in_purchased_currency: value }),
);

const customer = fc.record({ id: text, project_id: fc.constant('proj_sim'), aliases: fc.oneof(fc.constant(undefined), fc.array(maybe(text), { maxLength: 3 })) });
/** Now and then an object where the type says string or number: its JSON can change inside it. */
const inner = fc.record({ x: text });
const product = fc.record({
  id: fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: inner }),
  display_name: fc.oneof({ weight: 6, arbitrary: maybe(text) }, { weight: 1, arbitrary: inner }),
  price: fc.oneof({ weight: 6, arbitrary: num }, { weight: 1, arbitrary: inner }),
  currency: fc.oneof({ weight: 6, arbitrary: maybe(text) }, { weight: 1, arbitrary: inner }),
  entitlement_ids: fc.oneof(fc.constant(null), fc.array(fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: inner }), { maxLength: 3 })),
});
const sub = fc.record({
  product_id: maybe(text),
  period_type: fc.oneof(fc.constantFrom('NORMAL', 'TRIAL', 'INTRO'), maybe(text)),
  period_start: num,
  period_end: num,
  environment: maybe(text),
  store: maybe(text),
  presented_offering_id: maybe(text),
  transaction_id: maybe(text),
  original_transaction_id: maybe(text),
  country_code: maybe(text),
  renewal_number: num,
});
/** A list of adjustments, frozen through (as the simulator shares them) or not, or frozen only on top. */
const adjustments = fc
  .tuple(
    // A currency's name now and then an object (against the type): frozen around it, it still changes inside.
    fc.array(fc.record({ amount: num, currency: fc.record({ code: text, name: fc.oneof({ weight: 4, arbitrary: maybe(text) }, { weight: 1, arbitrary: inner }) }) }), { maxLength: 2 }),
    fc.constantFrom('deep', 'top', 'none'),
  )
  .map(([list, frozen]) => {
    if (frozen === 'deep') for (const a of list) Object.freeze(Object.freeze(a).currency);
    return frozen === 'none' ? list : Object.freeze(list);
  });

/** A deep copy of `value`, each object in it frozen where the original's was. */
function copyKeepingFrozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy = (Array.isArray(value) ? value.map(copyKeepingFrozen) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyKeepingFrozen(v)]))) as T;
  return Object.isFrozen(value) ? Object.freeze(copy) : copy;
}

/** Events name a product, a customer and an adjustment list by place in small pools, so several events share each one. */
const place = fc.nat({ max: 2 });
const event = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('lifecycle' as const), type: fc.constantFrom(...TYPES), at: num, customer: place, sub, product: place, extra }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('currency' as const), at: num, customer: place, adjustments: place, product: fc.oneof(fc.constant(null), place), environment: text, store: text, transaction: maybe(text) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), id: text, at: num }) },
);
const pools = fc.record({
  products: fc.array(product, { minLength: 3, maxLength: 3 }),
  customers: fc.array(customer, { minLength: 3, maxLength: 3 }),
  adjustments: fc.array(adjustments, { minLength: 3, maxLength: 3 }),
});
/** A change made in place to one field of a product after its events were read once. */
const change = fc.oneof(
  fc.record({ field: fc.constantFrom('price' as const), value: num }),
  fc.record({ field: fc.constantFrom('currency' as const, 'display_name' as const), value: maybe(text) }),
  fc.record({ field: fc.constantFrom('id' as const), value: text }),
  fc.record({ field: fc.constantFrom('entitlement_ids' as const), value: fc.oneof(fc.constant(null), fc.array(text, { maxLength: 2 })) }),
  fc.record({ field: fc.constantFrom('entitlement' as const), value: text }),
  fc.record({ field: fc.constantFrom('inside' as const), value: text }),
);

describe('the event log text', () => {
  it('is JSON.stringify of the body, for any event the log holds', () => {
    fc.assert(
      fc.property(pools, fc.array(event, { minLength: 1, maxLength: 8 }), fc.array(change, { minLength: 3, maxLength: 3 }), (generated, events, changes) => {
        // The run changes products and unfrozen adjustments in place: on copies, not on fast-check's values.
        const pool = {
          customers: generated.customers,
          products: generated.products.map((p) => structuredClone(p)),
          adjustments: generated.adjustments.map((list) => copyKeepingFrozen(list)),
        };
        const log = createEventLog('app_"sim"', seededRandom('text'));
        const productAt = (at: number | null) => (at === null ? null : (pool.products[at] as unknown as Product));
        for (const e of events) {
          const customer = pool.customers[e.kind === 'whole' ? 0 : e.customer] as unknown as CustomerState;
          if (e.kind === 'lifecycle') log.lifecycle(e.type, e.at, customer, e.sub as unknown as SubscriptionState, productAt(e.product)!, e.extra as never);
          else if (e.kind === 'currency')
            log.currency(e.at, customer, pool.adjustments[e.adjustments] as unknown as VcAdjustment[], productAt(e.product), e.environment, e.store, e.transaction as string | null);
          else log.whole('proj_x', { api_version: '1.0', event: { type: 'TRANSFER', id: e.id, event_timestamp_ms: e.at } } as unknown as WebhookBody);
        }
        for (let index = 0; index < log.length; index++) expect(log.text(index)).toBe(JSON.stringify(log.body(index)));
        pool.products.forEach((p, i) => {
          const c = changes[i]!;
          const fields = p as Record<string, unknown>;
          if (c.field === 'inside') {
            // Every object the product holds changes inside; the product itself keeps its fields.
            for (const value of [p.id, p.display_name, p.price, p.currency, ...(p.entitlement_ids ?? [])]) if (typeof value === 'object' && value !== null) (value as { x: unknown }).x = c.value;
          } else if (c.field !== 'entitlement') fields[c.field] = c.value;
          else if (p.entitlement_ids !== null) p.entitlement_ids.push(c.value);
        });
        // An adjustment not frozen changes too (a list frozen only on top still holds it).
        for (const list of pool.adjustments) {
          for (const a of list) {
            if (!Object.isFrozen(a)) (a as { amount: number }).amount += 1;
            const name: unknown = a.currency.name;
            if (typeof name === 'object' && name !== null && !Object.isFrozen(name)) (name as { x: string }).x += '!';
          }
        }
        for (let index = 0; index < log.length; index++) expect(log.text(index)).toBe(JSON.stringify(log.body(index)));
      }),
      { numRuns: 2000 },
    );
  });
});
