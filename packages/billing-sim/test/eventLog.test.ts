// The column-wise event log of a transition and the facade's history over such logs: a body read
// back is the body the event had when it was emitted, ids are drawn as the id makers draw them, and
// positions read right across chunks and logs.
import { describe, expect, it } from 'vitest';
import { prefixedHex, seededRandom, uuidFrom } from '../src/internal/random.js';
import { createEventHistory } from '../src/simulator/eventHistory.js';
import { createEventLog } from '../src/machine/eventLog.js';
import { createBillingSimulator, customerIn } from '../src/index.js';
import type { WebhookBody } from '../src/index.js';
import { toProduct } from '../src/machine/products.js';

/** A real customer, subscription and product, from a simulator. */
function owner() {
  const sim = createBillingSimulator({ seed: 'log' });
  const made = toProduct({ id: 'monthly', type: 'subscription', period: 'P1M', price: 9.99 });
  if (!made.ok) throw new Error(made.message);
  sim.dispatch({ type: 'put_product', product: made.product });
  const bought = sim.dispatch({ type: 'purchase', project_id: 'proj_sim', customer_id: 'u1', product_id: 'monthly', trial: false, presented_offering_id: null, country_code: null, environment: null, store: null });
  if (!bought.ok) throw new Error(bought.error.message);
  const customer = customerIn(sim.world(), 'proj_sim', 'u1')!;
  return { customer, sub: { ...customer.subscriptions[0]! }, product: sim.world().products.get('monthly')! };
}

const whole = (id: string, at: number): WebhookBody => ({
  api_version: '1.0',
  event: { type: 'TRANSFER', id, app_id: 'app_sim', event_timestamp_ms: at, environment: 'SANDBOX', store: 'TEST_STORE', transferred_from: ['a'], transferred_to: ['b'] },
});

describe('createEventLog', () => {
  it('draws each id, and a currency transaction id after it, as uuidFrom and prefixedHex draw them', () => {
    const { customer, product } = owner();
    const log = createEventLog('app_sim', seededRandom('ids'));
    log.currency(1, customer, [], product, 'SANDBOX', 'TEST_STORE', null);
    log.currency(2, customer, [], product, 'SANDBOX', 'TEST_STORE', null);
    const rnd = seededRandom('ids');
    for (const index of [0, 1]) {
      const id = uuidFrom(rnd);
      expect(log.id(index)).toBe(id);
      expect(log.body(index).event).toMatchObject({ id, virtual_currency_transaction_id: prefixedHex(rnd, 'vctx_', 16) });
    }
  });

  it('reads back each event as it was emitted, across chunks, though the subscription changed since', () => {
    const { customer, sub, product } = owner();
    const log = createEventLog('app_sim', seededRandom('chunks'));
    const expected: { type: string; at: number; renewal?: number; reason?: string; body?: WebhookBody }[] = [];
    for (let i = 0; i < 5000; i += 1) {
      const at = 1_000 + i;
      if (i % 3 === 0) {
        sub.renewal_number = i;
        sub.transaction_id = `tx_${i}`;
        log.lifecycle('RENEWAL', at, customer, sub, product, { is_trial_conversion: false });
        expected.push({ type: 'RENEWAL', at, renewal: i });
      } else if (i % 3 === 1) {
        log.lifecycle('CANCELLATION', at, customer, sub, product, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99, price_in_purchased_currency: -9.99 });
        expected.push({ type: 'CANCELLATION', at, reason: 'CUSTOMER_SUPPORT' });
      } else {
        const body = whole(`T${i}`, at);
        log.whole('proj_x', body);
        expected.push({ type: 'TRANSFER', at, body });
      }
    }
    expect(log.length).toBe(5000);
    expected.forEach((e, index) => {
      const body = log.body(index);
      expect([log.type(index), log.at(index), body.event.type, body.event.event_timestamp_ms]).toEqual([e.type, e.at, e.type, e.at]);
      expect(log.id(index)).toBe(body.event.id);
      if (e.body !== undefined) {
        expect(body).toBe(e.body);
        expect(log.project(index)).toBe('proj_x');
      } else expect(log.project(index)).toBe('proj_sim');
      if (e.renewal !== undefined) expect(body.event).toMatchObject({ renewal_number: e.renewal, transaction_id: `tx_${e.renewal}`, is_trial_conversion: false });
      if (e.reason !== undefined) {
        // Several fields of its own: the price overrides in place, the reason last.
        expect(body.event).toMatchObject({ cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99, price_in_purchased_currency: -9.99 });
        expect(Object.keys(body.event).at(-1)).toBe('cancel_reason');
      }
    });
  });
});

describe('createEventHistory', () => {
  it('reads events by position across logs, and since(n) as slice(n) would', () => {
    const history = createEventHistory();
    const bodies = [whole('A', 1), whole('B', 2), whole('C', 3)];
    const first = createEventLog('app_sim', seededRandom('h'));
    first.whole('p', bodies[0]!);
    const empty = createEventLog('app_sim', seededRandom('h'));
    const second = createEventLog('app_sim', seededRandom('h'));
    second.whole('p', bodies[1]!);
    second.whole('p', bodies[2]!);
    for (const log of [first, empty, second]) history.append(log);
    expect(history.length).toBe(3);
    expect([0, 1, 2].map((i) => history.id(i))).toEqual(['A', 'B', 'C']);
    expect(history.body(2)).toBe(bodies[2]);
    for (const from of [-5, -2, 0, 1, 3, 7]) expect(history.since(from)).toEqual(bodies.slice(from));
    expect(() => history.body(3)).toThrow(RangeError);
    history.clear();
    expect(history.since(0)).toEqual([]);
  });
});
