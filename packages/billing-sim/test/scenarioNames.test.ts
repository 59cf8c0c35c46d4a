// Scenario variables and balance checks keyed by names a plain object would misread.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/index.js';

describe('scenario names', () => {
  it('saves and reads a variable named __proto__, and checks the balance of a currency coded __proto__', () => {
    // Written as JSON, as scenario files are: `__proto__` is an own key there, not the prototype.
    const run = runScenario(JSON.parse(JSON.stringify({
      name: 'proto names',
      seed: 'proto',
      steps: [
        { request: { method: 'POST', path: '/v2/projects/${project_id}/virtual_currencies', body: { code: '__proto__', name: 'Proto' } }, expect: { status: 201 }, save: { PROTO_KEY: 'code' } },
        { request: { method: 'POST', path: '/v2/projects/${project_id}/customers/u1/virtual_currencies/transactions', body: { adjustments: { CRD: 0 } } }, expect: { status: 404 } },
        { request: { method: 'GET', path: '/v2/projects/${project_id}/virtual_currencies/${__proto__}' }, expect: { status: 200, body: { code: '__proto__' } } },
        { expect_balances: { customer_id: 'nobody', balances: { PROTO_KEY: 0 } } },
      ],
    }).replaceAll('PROTO_KEY', '__proto__')));
    expect(run.steps.map((s) => s.message)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });
});
