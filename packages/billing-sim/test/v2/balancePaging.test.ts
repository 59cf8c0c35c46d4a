import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp;
beforeEach(async () => {
  app = await startApp();
  for (const code of ['A', 'B', 'C', 'D']) await app.call('POST', `${P}/virtual_currencies`, { code, name: code, ...(code === 'A' ? { description: 'first' } : {}) });
  await app.call('POST', `${P}/customers/u1/virtual_currencies/transactions`, { adjustments: { A: 1, D: 4 } });
});
afterEach(async () => {
  await app.close();
});

describe('balances paging', () => {
  it('keeps include_empty_balances when following next_page, so the pages list the same set', async () => {
    const codes: string[] = [];
    let next: string | null = `${P}/customers/u1/virtual_currencies?include_empty_balances=true&limit=1`;
    while (next !== null) {
      const page: { body: { items: { currency_code: string }[]; next_page: string | null } } = await app.call('GET', next);
      codes.push(...page.body.items.map((b) => b.currency_code));
      next = page.body.next_page;
    }
    expect(codes).toEqual(['A', 'B', 'C', 'D']);
  });

  it('leaves description out of a balance whose currency has none (never null)', async () => {
    const items = (await app.call('GET', `${P}/customers/u1/virtual_currencies`)).body.items;
    expect(items).toEqual([
      { object: 'virtual_currency_balance', currency_code: 'A', balance: 1, name: 'A', description: 'first' },
      { object: 'virtual_currency_balance', currency_code: 'D', balance: 4, name: 'D' },
    ]);
  });
});
