/**
 * Every webhook body of the sim bench's month, pinned byte for byte: the simulator builds bodies
 * from its column-wise event log when it delivers them, and any faster way of building or
 * serializing them (issue #21) must send exactly the same bytes. The month is the bench's
 * (`packages/bench/src/sim.ts`, `runMonth`) at 2,000 subscriptions: purchases with a cycle credit
 * grant, one `advanceBy('P1M')` (renewals, grants, cycle-end expiries), every event delivered to an
 * in-process sink with the default concurrency.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBillingSimulator, createRequestHandler, type Transport } from '../src/index.js';

/** The month's delivered bodies, each as the transport received it, keyed by event id. */
async function monthBodies(subscriptions: number): Promise<{ sent: Map<string, string>; history: string[]; events: number }> {
  const sent = new Map<string, string>();
  const transport: Transport = async ({ body }) => {
    const id = (JSON.parse(body) as { event: { id: string } }).event.id;
    if (sent.has(id)) throw new Error(`${id} delivered twice`);
    sent.set(id, body);
    return { status: 200 };
  };
  const sim = createBillingSimulator({ seed: 'bench', webhook: { url: 'http://sink.local/webhook', retry_schedule: 'fast' }, transport });
  const handle = createRequestHandler(sim);
  const post = (path: string, body: unknown) => {
    const res = handle({ method: 'POST', path, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${path}: ${res.status}`);
  };
  post('/sim/products', { id: 'pro_monthly', type: 'subscription', period: 'P1M', price: 9.99 });
  post('/v2/projects/proj_sim/virtual_currencies', { code: 'CRD', name: 'Credits', product_grants: [{ product_ids: ['pro_monthly'], amount: 100, expire_at_cycle_end: true }] });
  for (let i = 0; i < subscriptions; i += 1) post('/sim/purchases', { customer_id: `user_${i}`, product_id: 'pro_monthly' });
  await sim.outbox.idle();
  if (!sim.advanceBy('P1M').ok) throw new Error('advance failed');
  await sim.outbox.idle();
  const history = sim.eventsSince(0).map((body) => JSON.stringify(body));
  sim.close();
  return { sent, history, events: history.length };
}

const sha256 = (parts: Iterable<string>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\n');
  return hash.digest('hex');
};

describe("the sim bench's month of bodies", () => {
  it('delivers every event once, each body the serialization of its history body, all bytes pinned', async () => {
    const { sent, history, events } = await monthBodies(2_000);
    expect(events).toBe(10_000);
    expect(sent.size).toBe(events);
    const inHistoryOrder = history.map((body) => sent.get((JSON.parse(body) as { event: { id: string } }).event.id));
    expect(inHistoryOrder).toEqual(history);
    // Pinned from the code at a32b46f (before the delivery work of issue #21); a change here is a change of behaviour.
    expect(sha256(history)).toBe('1bf00b17f6599acf1c5b05c2f3d67d67062e1450174e2b067a5e927b96cc2bb9');
  }, 60_000);
});
