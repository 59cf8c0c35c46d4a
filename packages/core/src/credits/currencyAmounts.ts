/**
 * Request maps keyed by currency code (`{ "CRD": -5, "GEM": 3 }`), parsed into null-prototype records.
 * Every valid code is an ordinary key: `__proto__`, `constructor` or `toString` read and write like
 * `CRD`, where a plain `{}` would drop or misread them (zod's own records strip `__proto__`).
 */
import { z } from 'zod';
import { currencyCodeSchema } from './virtualCurrency.js';

/** Values by currency code, with no prototype. */
export type CurrencyRecord<V> = Record<string, V>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Given entries, returns them as a null-prototype record (later entries win). Pure.
 *
 * @example
 * const r = toCurrencyRecord([['__proto__', 5]]);
 * Object.keys(r); // ['__proto__']
 */
export function toCurrencyRecord<V>(entries: Iterable<readonly [string, V]>): CurrencyRecord<V> {
  const out = Object.create(null) as CurrencyRecord<V>;
  for (const [code, value] of entries) out[code] = value;
  return out;
}

const valueJsonSchema = (value: z.ZodType): Record<string, unknown> => {
  const { $schema: _, ...schema } = z.toJSONSchema(value, { io: 'input', unrepresentable: 'any' });
  return schema;
};

/**
 * Given the schema of one value, returns the schema of an object keyed by currency code: each key
 * must be a valid code (1–10 of `[a-zA-Z0-9_]`) and each value must pass `value`; issues name the
 * key (`CRD`, then the caller's prefix). The output is a null-prototype record holding every key of
 * the input, `__proto__` included.
 *
 * @example
 * const amounts = currencyAmountsSchema(z.number().int());
 * amounts.parse(JSON.parse('{"__proto__": 5}'))['__proto__']; // 5
 */
export function currencyAmountsSchema<V extends z.ZodType>(value: V) {
  return z
    .preprocess((input, ctx) => {
      if (!isPlainObject(input)) {
        ctx.addIssue({ code: 'custom', message: 'Expected an object keyed by currency code', input });
        return z.NEVER;
      }
      // Object.entries lists an own "__proto__" key (JSON.parse creates one), unlike assignment.
      return new Map(Object.entries(input));
    }, z.map(currencyCodeSchema, value))
    .transform((map) => toCurrencyRecord<z.output<V>>(map))
    .meta({
      type: 'object',
      propertyNames: { type: 'string', minLength: 1, maxLength: 10, pattern: '^[a-zA-Z0-9_]+$' },
      additionalProperties: valueJsonSchema(value),
    });
}
