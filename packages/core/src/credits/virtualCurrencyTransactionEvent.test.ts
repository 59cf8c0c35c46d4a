import { describe, expect, it } from 'vitest';
import { virtualCurrencyTransactionEventSchema } from './virtualCurrencyTransactionEvent.js';

const event = {
  type: 'VIRTUAL_CURRENCY_TRANSACTION',
  id: '12F1C8C3-7B0E-4F7A-9A62-0D3C2B1E7F10',
  app_id: 'app1',
  event_timestamp_ms: 1_767_225_600_000,
  app_user_id: 'user_1',
  adjustments: [{ amount: 100, currency: { code: 'CRD', name: 'Credits', description: null } }],
  product_id: 'monthly',
  product_display_name: 'Monthly',
  purchase_environment: 'SANDBOX',
  source: 'in_app_purchase',
  transaction_id: '2000000000000001',
  virtual_currency_transaction_id: 'vctx_0123456789abcdef',
};

describe('virtualCurrencyTransactionEventSchema', () => {
  it('accepts the billing service documented fields and keeps unknown ones', () => {
    const out = virtualCurrencyTransactionEventSchema.safeParse({ ...event, new_field: 1 });
    expect(out.success && out.data.new_field).toBe(1);
  });
  it('accepts an expiry (negative amount) with no product', () => {
    const expiry = { ...event, adjustments: [{ amount: -40, currency: { code: '__proto__', name: 'P', description: 'd' } }], product_id: null, transaction_id: null };
    expect(virtualCurrencyTransactionEventSchema.safeParse(expiry).success).toBe(true);
  });
  it('refuses an event without adjustments, with a bad currency code or a fractional amount', () => {
    expect(virtualCurrencyTransactionEventSchema.safeParse({ ...event, adjustments: [] }).success).toBe(false);
    expect(virtualCurrencyTransactionEventSchema.safeParse({ ...event, adjustments: [{ amount: 1, currency: { code: 'A-B', name: 'x', description: null } }] }).success).toBe(false);
    expect(virtualCurrencyTransactionEventSchema.safeParse({ ...event, adjustments: [{ amount: 1.5, currency: { code: 'CRD', name: 'x', description: null } }] }).success).toBe(false);
  });
});
