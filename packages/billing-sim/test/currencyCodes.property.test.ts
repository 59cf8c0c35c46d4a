// One currency code rule everywhere: any code the create route accepts can be adjusted, set, read and
// deleted, including codes named like Object.prototype members; a code it refuses is refused everywhere.
import { CURRENCY_CODE_PATTERN } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBillingSimulator, createRequestHandler, type SimResponse } from '../src/index.js';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__proto'];
const validCode = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES.filter((c) => c.length <= 10)), fc.stringMatching(/^[a-zA-Z0-9_]{1,10}$/));
const invalidCode = fc.oneof(
  fc.constantFrom('', 'A-B', 'a.b', 'ÄBC', 'CRD ', 'ABCDEFGHIJK', '__defineGetter__'),
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !(s.length <= 10 && CURRENCY_CODE_PATTERN.test(s)) && !s.includes('/')),
);

function client() {
  const sim = createBillingSimulator({ seed: 'codes' });
  const handle = createRequestHandler(sim);
  const call = (method: string, path: string, rawBody = '', query: Record<string, string> = {}): SimResponse =>
    handle({ method, path, query, headers: rawBody === '' ? {} : { 'content-type': 'application/json' }, rawBody });
  return { sim, call };
}
const V = '/v2/projects/proj_sim/virtual_currencies';
const C = '/v2/projects/proj_sim/customers/u1/virtual_currencies';
const balanceOf = (res: SimResponse, code: string) =>
  (res.body as { items: { currency_code: string; balance: number }[] }).items.find((b) => b.currency_code === code)?.balance;

describe('currency codes', () => {
  it('any code accepted at create can be adjusted, set, read and deleted', () => {
    fc.assert(
      fc.property(validCode, (code) => {
        const { call } = client();
        const key = JSON.stringify(code);
        expect(call('POST', V, JSON.stringify({ code, name: 'Coins' })).status).toBe(201);
        const deposit = call('POST', `${C}/transactions`, `{"adjustments":{${key}:5}}`);
        expect(deposit.status).toBe(200);
        expect(balanceOf(deposit, code)).toBe(5);
        const spend = call('POST', `${C}/update_balance`, `{"adjustments":{${key}:-2}}`);
        expect(balanceOf(spend, code)).toBe(3);
        expect(call('POST', `${C}/transactions`, `{"adjustments":{${key}:-4}}`).status).toBe(422);
        const set = call('POST', '/sim/customers/u1/balances', `{"project_id":"proj_sim","balances":{${key}:7}}`);
        expect(balanceOf(set, code)).toBe(7);
        expect(balanceOf(call('GET', C), code)).toBe(7);
        expect(call('GET', `${V}/${encodeURIComponent(code)}`).body).toMatchObject({ code });
        expect(call('POST', `${V}/${encodeURIComponent(code)}`, JSON.stringify({ name: 'Renamed' })).body).toMatchObject({ code, name: 'Renamed' });
        expect(call('DELETE', `${V}/${encodeURIComponent(code)}`).status).toBe(200);
        expect(call('GET', `${V}/${encodeURIComponent(code)}`).status).toBe(404);
        expect(balanceOf(call('GET', C, '', { include_empty_balances: 'true' }), code)).toBeUndefined();
        expect(call('POST', `${C}/transactions`, `{"adjustments":{${key}:1}}`).status).toBe(404);
      }),
      { numRuns: 150 },
    );
  });

  it('a code refused at create is refused with 400 by every route that takes a code', () => {
    fc.assert(
      fc.property(invalidCode, (code) => {
        const { call } = client();
        const key = JSON.stringify(code);
        expect(call('POST', V, JSON.stringify({ code, name: 'Coins' })).status).toBe(400);
        expect(call('POST', `${C}/transactions`, `{"adjustments":{${key}:5}}`).status).toBe(400);
        expect(call('POST', '/sim/customers/u1/balances', `{"balances":{${key}:7}}`).status).toBe(400);
        if (code !== '') {
          const path = `${V}/${encodeURIComponent(code)}`;
          for (const method of ['GET', 'DELETE']) {
            const res = call(method, path);
            expect(res.status).toBe(400);
            expect(res.body).toMatchObject({ type: 'parameter_error', param: 'virtual_currency_code' });
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
