import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBillingSimulator, createRequestHandler, type SimResponse } from '../src/index.js';

/** The simple model: one number per currency, never below 0. */
interface Model {
  balances: Record<string, number>;
}

interface Real {
  call(method: string, path: string, body?: unknown): SimResponse;
}

const CODES = ['GLD', 'SLV'] as const;
const BASE = '/v2/projects/proj_sim/customers/u1/virtual_currencies';

const realBalances = (r: Real): Record<string, number> => {
  const res = r.call('GET', `${BASE}?include_empty_balances=true`);
  if (res.status === 404) return {};
  const items = (res.body as { items: { currency_code: string; balance: number }[] }).items;
  return Object.fromEntries(items.map((b) => [b.currency_code, b.balance]));
};
const check = (m: Model, r: Real) => {
  const real = realBalances(r);
  for (const c of CODES) expect(real[c] ?? 0).toBe(m.balances[c] ?? 0);
};

class TopUp implements fc.Command<Model, Real> {
  check = () => true;
  run(m: Model, r: Real) {
    expect(r.call('POST', '/sim/purchases', { project_id: 'proj_sim', customer_id: 'u1', product_id: 'pack' }).status).toBe(201);
    m.balances['GLD'] = (m.balances['GLD'] ?? 0) + 50;
    check(m, r);
  }
  toString = () => 'TopUp';
}

class Transaction implements fc.Command<Model, Real> {
  constructor(readonly adjustments: Record<string, number>) {}
  check = () => true;
  run(m: Model, r: Real) {
    const res = r.call('POST', `${BASE}/transactions`, { adjustments: this.adjustments });
    const ok = Object.entries(this.adjustments).every(([c, d]) => (m.balances[c] ?? 0) + d >= 0);
    expect(res.status).toBe(ok ? 200 : 422);
    if (ok) for (const [c, d] of Object.entries(this.adjustments)) m.balances[c] = (m.balances[c] ?? 0) + d;
    check(m, r);
  }
  toString = () => `Transaction(${JSON.stringify(this.adjustments)})`;
}

class Advance implements fc.Command<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  run(m: Model, r: Real) {
    expect(r.call('POST', '/sim/clock/advance', { by: `P${this.days}D` }).status).toBe(200);
    check(m, r);
  }
  toString = () => `Advance(${this.days}d)`;
}

const commands = [
  fc.constant(new TopUp()),
  fc.dictionary(fc.constantFrom(...CODES), fc.integer({ min: -120, max: 120 }), { minKeys: 1 }).map((a) => new Transaction(a)),
  fc.integer({ min: 1, max: 60 }).map((d) => new Advance(d)),
];

describe('customer ledger against a one-number-per-currency model', () => {
  it('agrees with the model on every balance after every command', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        const sim = createBillingSimulator({ seed: 'model', products: [{ id: 'pack', type: 'consumable' }] });
        const handle = createRequestHandler(sim);
        const real: Real = {
          call: (method, path, body) => {
            const [p = '', qs = ''] = path.split('?');
            return handle({ method, path: p, query: Object.fromEntries(new URLSearchParams(qs)), headers: { 'content-type': 'application/json' }, rawBody: body === undefined ? '' : JSON.stringify(body) });
          },
        };
        for (const code of CODES) real.call('POST', '/v2/projects/proj_sim/virtual_currencies', { code, name: code, product_grants: code === 'GLD' ? [{ product_ids: ['pack'], amount: 50 }] : [] });
        fc.modelRun(() => ({ model: { balances: {} }, real }), cmds);
      }),
      { numRuns: 60 },
    );
  });
});
