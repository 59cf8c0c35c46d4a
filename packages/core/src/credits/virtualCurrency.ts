/**
 * Virtual currencies and their product grants: the types, the limits of the billing service, and the
 * zod schemas that validate API input and apply the grant defaults (`expire_at_cycle_end` false,
 * `trial_amount` 0).
 */
import { z } from 'zod';

/**
 * The largest balance a customer may hold of one currency (the billing service's documented cap).
 *
 * @example
 * if (balance + amount > BALANCE_MAX) return 'balance_limit';
 */
export const BALANCE_MAX = 2_000_000_000;
/**
 * The most virtual currencies one project may define.
 *
 * @example
 * if (project.currencies.size >= MAX_CURRENCIES_PER_PROJECT) return 422;
 */
export const MAX_CURRENCIES_PER_PROJECT = 100;
/**
 * The character rule of a currency code, exactly as the billing service's API v2 reference states it
 * (`^[a-zA-Z0-9_]+$`); the length rule is `CURRENCY_CODE_MAX_LENGTH`.
 *
 * @example
 * CURRENCY_CODE_PATTERN.test('CRD'); // true
 */
export const CURRENCY_CODE_PATTERN = /^[a-zA-Z0-9_]+$/;
/**
 * The longest currency code (the reference's `maxLength: 10`; `minLength` is 1).
 *
 * @example
 * 'ABCDEFGHIJK'.length > CURRENCY_CODE_MAX_LENGTH; // true: refused
 */
export const CURRENCY_CODE_MAX_LENGTH = 10;

/**
 * Given any value, returns whether it is a valid currency code: 1–10 characters of `[a-zA-Z0-9_]`.
 * `__proto__` and `constructor` are valid codes, so code-keyed data must live in Maps or
 * null-prototype objects. Pure.
 *
 * @example
 * isCurrencyCode('__proto__'); // true
 * isCurrencyCode('A-B'); // false
 */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= CURRENCY_CODE_MAX_LENGTH && CURRENCY_CODE_PATTERN.test(value);
}

/**
 * The message given when a grant uses the published reference's singular `product_id`.
 *
 * @example
 * issues.some((i) => i.message === SINGULAR_PRODUCT_ID_MESSAGE);
 */
export const SINGULAR_PRODUCT_ID_MESSAGE =
  'product_id is not accepted: use the product_ids array, e.g. "product_ids": ["monthly"]';

/**
 * A currency code, e.g. `CRD`.
 *
 * @example
 * currencyCodeSchema.safeParse('A-B').success; // false
 */
export const currencyCodeSchema = z
  .string()
  .min(1, 'code must be 1–10 characters of A-Z, a-z, 0-9 or _')
  .max(CURRENCY_CODE_MAX_LENGTH, 'code must be 1–10 characters of A-Z, a-z, 0-9 or _')
  .regex(CURRENCY_CODE_PATTERN, 'code must be 1–10 characters of A-Z, a-z, 0-9 or _');

/**
 * One product grant as the API accepts it; defaults (`expire_at_cycle_end` false, `trial_amount` 0)
 * are applied on output, and a singular `product_id` is rejected.
 *
 * @example
 * productGrantInputSchema.parse({ product_ids: ['monthly'], amount: 100 }).trial_amount; // 0
 */
export const productGrantInputSchema = z
  .strictObject({
    product_ids: z.array(z.string().min(1).max(255)).min(1, 'product_ids must list at least one product'),
    amount: z.number().int().min(1).max(BALANCE_MAX),
    expire_at_cycle_end: z.boolean().nullable().optional(),
    trial_amount: z.number().int().min(0).max(BALANCE_MAX).nullable().optional(),
    // The published reference shows a singular product_id; the live API rejects it.
    product_id: z.never({ error: SINGULAR_PRODUCT_ID_MESSAGE }).optional(),
  })
  .transform(
    (g): ProductGrant => ({
      product_ids: g.product_ids,
      amount: g.amount,
      expire_at_cycle_end: g.expire_at_cycle_end ?? false,
      trial_amount: g.trial_amount ?? 0,
    }),
  );

const nameSchema = z.string().min(1).max(50);
const descriptionSchema = z.string().min(1).max(1500).nullable().optional();
const grantsSchema = z.array(productGrantInputSchema).nullable().optional();

/**
 * The body of a create request: `code`, `name`, optional `description` and `product_grants`.
 *
 * @example
 * virtualCurrencyCreateSchema.safeParse({ code: 'CRD', name: 'Credits' }).success; // true
 */
export const virtualCurrencyCreateSchema = z.strictObject({
  code: currencyCodeSchema,
  name: nameSchema,
  description: descriptionSchema,
  product_grants: grantsSchema,
});

/**
 * The body of an update request: any of `name`, `description`, `product_grants` (the code is fixed).
 *
 * @example
 * virtualCurrencyUpdateSchema.safeParse({ code: 'X' }).success; // false
 */
export const virtualCurrencyUpdateSchema = z.strictObject({
  name: nameSchema.optional(),
  description: descriptionSchema,
  product_grants: grantsSchema,
});

/** A product grant with its defaults applied. */
export interface ProductGrant {
  /** Products that each grant `amount`; never empty. */
  product_ids: string[];
  /** Credits granted per purchase or renewal of a listed product (≥ 1). */
  amount: number;
  /** true: credits from a subscription cycle expire when that cycle ends. */
  expire_at_cycle_end: boolean;
  /** Credits granted at the start of a free trial; 0 grants nothing. */
  trial_amount: number;
}

/** The states a currency can be in; only `active` is documented. */
export type VirtualCurrencyState = 'active';

/** A virtual currency of a project. */
export interface VirtualCurrency {
  code: string;
  name: string;
  description: string | null;
  state: VirtualCurrencyState;
  product_grants: ProductGrant[];
}

export type VirtualCurrencyCreateInput = z.input<typeof virtualCurrencyCreateSchema>;
export type VirtualCurrencyUpdateInput = z.input<typeof virtualCurrencyUpdateSchema>;
export type ProductGrantInput = z.input<typeof productGrantInputSchema>;

/**
 * Given a validated create body, returns the new currency: state `active`, grants with defaults, an
 * empty grant list when none are given. Pure.
 *
 * @example
 * const body = virtualCurrencyCreateSchema.parse({ code: 'CRD', name: 'Credits' });
 * createVirtualCurrency(body).product_grants; // []
 */
export function createVirtualCurrency(body: z.output<typeof virtualCurrencyCreateSchema>): VirtualCurrency {
  return {
    code: body.code,
    name: body.name,
    description: body.description ?? null,
    state: 'active',
    product_grants: body.product_grants ?? [],
  };
}

/**
 * Given a currency and a validated update body, returns the updated currency. A given
 * `product_grants` replaces the whole list; an omitted one keeps it; `null` empties it. Pure.
 *
 * @example
 * const next = updateVirtualCurrency(crd, virtualCurrencyUpdateSchema.parse({
 *   product_grants: [{ product_ids: ['monthly'], amount: 100 }] }));
 * next.product_grants[0]?.trial_amount; // 0
 */
export function updateVirtualCurrency(
  currency: VirtualCurrency,
  body: z.output<typeof virtualCurrencyUpdateSchema>,
): VirtualCurrency {
  return {
    ...currency,
    name: body.name ?? currency.name,
    description: body.description === undefined ? currency.description : body.description,
    product_grants: body.product_grants === undefined ? currency.product_grants : (body.product_grants ?? []),
  };
}
