/**
 * The VIRTUAL_CURRENCY_TRANSACTION webhook event: credits granted, expired or taken back, per
 * currency. `parseWebhook` accepts it as an unhandled type (it moves no subscriber state); this schema
 * is for producers and consumers of credit events (the billing simulator builds its events with it).
 */
import { z } from 'zod';
import { currencyCodeSchema } from './virtualCurrency.js';

/**
 * One currency's change in the event: a signed amount and the currency as the project defines it.
 *
 * @example
 * vcAdjustmentSchema.parse({ amount: -40, currency: { code: 'CRD', name: 'Credits', description: null } });
 */
export const vcAdjustmentSchema = z.looseObject({
  amount: z.number().int(),
  currency: z.looseObject({
    code: currencyCodeSchema,
    name: z.string(),
    description: z.string().nullable(),
  }),
});

/**
 * The event as the billing service sends it (`purchase_environment` replaces `environment`; unknown
 * fields pass through).
 *
 * @example
 * virtualCurrencyTransactionEventSchema.safeParse(body.event).success;
 */
export const virtualCurrencyTransactionEventSchema = z.looseObject({
  type: z.literal('VIRTUAL_CURRENCY_TRANSACTION'),
  id: z.string().min(1),
  app_id: z.string().nullable().optional(),
  event_timestamp_ms: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  app_user_id: z.string().min(1),
  original_app_user_id: z.string().nullable().optional(),
  aliases: z.array(z.string()).nullable().optional(),
  subscriber_attributes: z.record(z.string(), z.unknown()).nullable().optional(),
  adjustments: z.array(vcAdjustmentSchema).min(1),
  product_id: z.string().nullable().optional(),
  product_display_name: z.string().nullable().optional(),
  purchase_environment: z.string().nullable().optional(),
  store: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  transaction_id: z.string().nullable().optional(),
  virtual_currency_transaction_id: z.string().min(1),
});

export type VcAdjustment = z.infer<typeof vcAdjustmentSchema>;
export type VirtualCurrencyTransactionEvent = z.infer<typeof virtualCurrencyTransactionEventSchema>;
