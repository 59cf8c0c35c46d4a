/**
 * The JSON text of a lifecycle or currency event's webhook body, written straight from the event
 * log's fields: byte for byte `JSON.stringify(lifecycleBody(...))` (or `currencyBody`), without
 * building the body object first and walking it again. A month advance delivers 300 k bodies; built
 * then stringified, each cost ~3.7 µs on our machine, written here ~2.2 µs (`packages/bench`'s
 * README). Whatever this writer does not write itself (several extra fields, a field holding
 * `undefined`, an extra field named like a shared one) goes through `JSON.stringify` of the body.
 * What most bodies of a month repeat is written once: the JSON of a shared frozen adjustments list,
 * and of a product's fields (checked against the product at every use), kept in weak maps.
 */
import type { Product } from './world.js';
import {
  COMMISSION_PERCENTAGE,
  currencyBody,
  lifecycleBody,
  TAKEHOME_PERCENTAGE,
  TAX_PERCENTAGE,
  type EventSubscriptionFields,
  type LifecycleType,
  type VcAdjustment,
} from './webhookEvents.js';

/** Whether `text` goes into JSON as it is between quotes: printable ASCII without `"` and `\`. */
function isPlainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit > 0x7e || unit === 0x22 || unit === 0x5c) return false;
  }
  return true;
}

/** `JSON.stringify(value)` of a property's value (undefined: the property is left out). */
function json(value: unknown): string | undefined {
  if (typeof value === 'string') return isPlainText(value) ? `"${value}"` : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'null';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/** `JSON.stringify` of a list of strings (or null), as an array's items are written (undefined as null). */
function stringList(list: readonly (string | undefined)[] | null): string | undefined {
  if (list === null) return 'null';
  if (!Array.isArray(list)) return json(list);
  let out = '[';
  for (let i = 0; i < list.length; i++) out += (i === 0 ? '' : ',') + (json(list[i]) ?? 'null');
  return `${out}]`;
}

/** `stringList(aliases)`, given `userText`, the JSON of `userId`: a customer's usual aliases are its id alone. */
function aliasesText(aliases: readonly (string | undefined)[], userId: string, userText: string | undefined): string | undefined {
  return Array.isArray(aliases) && aliases.length === 1 && aliases[0] === userId && userText !== undefined ? `[${userText}]` : stringList(aliases);
}

/**
 * The JSON of a frozen list of currency adjustments, kept per list: the simulator shares one frozen
 * list per currency and amount (`singleAdjustment`), so a month's 200 k currency events write a
 * handful of lists, each serialized once. A frozen list may still hold unfrozen objects, at any
 * depth: only a list frozen all the way down is kept.
 */
const adjustmentTexts = new WeakMap<object, string>();

/** Whether `value` and every object it holds, at any depth, is frozen (its JSON can never change); false for a function. */
function isDeeplyFrozen(value: unknown): boolean {
  if (typeof value === 'function') return false;
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const key of Object.keys(value)) if (!isDeeplyFrozen((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** `JSON.stringify(adjustments)`, from the cache when the list is frozen. */
function adjustmentsText(adjustments: VcAdjustment[]): string {
  const kept = adjustmentTexts.get(adjustments);
  if (kept !== undefined) return kept;
  const written = JSON.stringify(adjustments);
  if (written !== undefined && isDeeplyFrozen(adjustments)) adjustmentTexts.set(adjustments, written);
  return written;
}

/**
 * The JSON of the product fields a body repeats (`entitlement_ids`, `currency`, `price`, and a
 * currency event's `product_id` and `product_display_name`), kept per product object with the values
 * they were written from: an entry is used only while the product still holds those very values
 * (the world never changes a product in place, but a stale entry must be impossible, not unlikely).
 */
interface ProductText {
  /** The entitlement ids as they were written (a copy: the list itself could change). */
  idsCopy: readonly string[] | null;
  idsText: string | undefined;
  currency: unknown;
  currencyText: string | undefined;
  price: unknown;
  priceText: string | undefined;
  id: unknown;
  idText: string | undefined;
  name: unknown;
  nameText: string | undefined;
}
const productTexts = new WeakMap<Product, ProductText>();

/** Whether `ids` holds exactly the items of `copy` (both lists, or both null). */
function sameIds(ids: readonly string[] | null, copy: readonly string[] | null): boolean {
  if (!Array.isArray(ids) || !Array.isArray(copy)) return ids === null && copy === null;
  if (ids.length !== copy.length) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== copy[i]) return false;
  return true;
}

/** The product's texts, written again when any field they came from changed. */
function productText(product: Product): ProductText {
  const kept = productTexts.get(product);
  const ids = product.entitlement_ids;
  if (
    kept !== undefined &&
    sameIds(ids, kept.idsCopy) &&
    kept.currency === product.currency &&
    Object.is(kept.price, product.price) &&
    kept.id === product.id &&
    kept.name === product.display_name
  )
    return kept;
  const written: ProductText = {
    idsCopy: Array.isArray(ids) ? [...ids] : ids,
    idsText: stringList(ids),
    currency: product.currency,
    currencyText: json(product.currency),
    price: product.price,
    priceText: json(product.price),
    id: product.id,
    idText: json(product.id),
    name: product.display_name,
    nameText: json(product.display_name),
  };
  // Kept only when every value is compared by what it is (no object that could change inside).
  if ((ids === null || (Array.isArray(ids) && ids.every(isPlain))) && isPlain(product.currency) && isPlain(product.price) && isPlain(product.id) && isPlain(product.display_name)) {
    productTexts.set(product, written);
  }
  return written;
}

/** A value `===` compares by content: not an object (null is one of these) nor a function. */
const isPlain = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');

/** Thrown (and caught below) when a value would need `JSON.stringify`'s rule for `undefined`. */
const LEAVE_OUT: unique symbol = Symbol('left out');

/** A value's JSON, never undefined (else the whole body is stringified instead). */
function must(text: string | undefined): string {
  if (text === undefined) throw LEAVE_OUT;
  return text;
}

/** The fields every lifecycle body shares, in `sharedFields`' order: the keys an extra field may not take here. */
const SHARED_KEYS: ReadonlySet<string> = new Set([
  'type', 'id', 'app_id', 'event_timestamp_ms', 'app_user_id', 'original_app_user_id', 'aliases', 'subscriber_attributes', 'experiments',
  'product_id', 'entitlement_ids', 'entitlement_id', 'period_type', 'purchased_at_ms', 'expiration_at_ms', 'environment', 'store',
  'presented_offering_id', 'transaction_id', 'original_transaction_id', 'price', 'currency', 'price_in_purchased_currency',
  'tax_percentage', 'commission_percentage', 'takehome_percentage', 'country_code', 'is_family_share', 'offer_code', 'renewal_number',
]);

/** `"tax_percentage":…,"commission_percentage":…,"takehome_percentage":…`, the same in every body. */
const PERCENTAGES = `"tax_percentage":${TAX_PERCENTAGE},"commission_percentage":${COMMISSION_PERCENTAGE},"takehome_percentage":${TAKEHOME_PERCENTAGE}`;

/**
 * Given `lifecycleBody`'s arguments, returns `JSON.stringify` of the body it returns. Pure.
 *
 * @example
 * lifecycleText('EXPIRATION', id, 'app_sim', now, 'u1', ['u1'], product, sub, 'expiration_reason', 'UNSUBSCRIBE', null) ===
 *   JSON.stringify(lifecycleBody('EXPIRATION', id, 'app_sim', now, 'u1', ['u1'], product, sub, 'expiration_reason', 'UNSUBSCRIBE', null)); // true
 */
export function lifecycleText(
  type: LifecycleType,
  id: string,
  appId: string,
  at: number,
  userId: string,
  aliases: string[],
  product: Product,
  sub: EventSubscriptionFields,
  extraKey: string | null,
  extraValue: unknown,
  extras: object | null,
): string {
  const stringified = () => JSON.stringify(lifecycleBody(type, id, appId, at, userId, aliases, product, sub, extraKey, extraValue, extras));
  if (extras !== null || (extraKey !== null && SHARED_KEYS.has(extraKey))) return stringified();
  try {
    const texts = productText(product);
    const price = must(sub.period_type === 'TRIAL' ? '0' : texts.priceText);
    const user = must(json(userId));
    let extra = '';
    if (extraKey !== null) {
      const value = json(extraValue);
      if (value !== undefined) extra = `,${must(json(extraKey))}:${value}`;
    }
    return (
      `{"api_version":"1.0","event":{"type":${must(json(type))},"id":${must(json(id))},"app_id":${must(json(appId))},` +
      `"event_timestamp_ms":${must(json(at))},"app_user_id":${user},"original_app_user_id":${user},` +
      `"aliases":${must(aliasesText(aliases, userId, user))},"subscriber_attributes":{},"experiments":[],"product_id":${must(json(sub.product_id))},` +
      `"entitlement_ids":${must(texts.idsText)},"entitlement_id":null,"period_type":${must(json(sub.period_type))},` +
      `"purchased_at_ms":${must(json(sub.period_start))},"expiration_at_ms":${must(json(sub.period_end))},` +
      `"environment":${must(json(sub.environment))},"store":${must(json(sub.store))},"presented_offering_id":${must(json(sub.presented_offering_id))},` +
      `"transaction_id":${must(json(sub.transaction_id))},"original_transaction_id":${must(json(sub.original_transaction_id))},` +
      `"price":${price},"currency":${must(texts.currencyText)},"price_in_purchased_currency":${price},${PERCENTAGES},` +
      `"country_code":${must(json(sub.country_code))},"is_family_share":false,"offer_code":null,"renewal_number":${must(json(sub.renewal_number))}${extra}}}`
    );
  } catch (error) {
    if (error !== LEAVE_OUT) throw error;
    return stringified();
  }
}

/**
 * Given `currencyBody`'s arguments, returns `JSON.stringify` of the body it returns. Pure.
 *
 * @example
 * currencyText(id, 'app_sim', now, 'u1', ['u1'], adjustments, product, 'PRODUCTION', 'APP_STORE', 'vctx_1', 'txn_1');
 */
export function currencyText(
  id: string,
  appId: string,
  at: number,
  userId: string,
  aliases: string[],
  adjustments: VcAdjustment[],
  product: Product | null,
  environment: string,
  store: string,
  vcTransactionId: string,
  transactionId: string | null,
): string {
  try {
    const user = must(json(userId));
    const texts = product === null ? null : productText(product);
    return (
      `{"api_version":"1.0","event":{"type":"VIRTUAL_CURRENCY_TRANSACTION","id":${must(json(id))},"app_id":${must(json(appId))},` +
      `"event_timestamp_ms":${must(json(at))},"app_user_id":${user},"original_app_user_id":${user},` +
      `"aliases":${must(aliasesText(aliases, userId, user))},"subscriber_attributes":{},"experiments":[],"adjustments":${must(adjustmentsText(adjustments))},` +
      `"product_id":${texts === null ? 'null' : must(texts.id == null ? 'null' : texts.idText)},"product_display_name":${texts === null ? 'null' : must(texts.name == null ? 'null' : texts.nameText)},` +
      `"purchase_environment":${must(json(environment))},"store":${must(json(store))},"source":"in_app_purchase",` +
      `"transaction_id":${must(json(transactionId))},"virtual_currency_transaction_id":${must(json(vcTransactionId))}}}`
    );
  } catch (error) {
    if (error !== LEAVE_OUT) throw error;
    return JSON.stringify(currencyBody(id, appId, at, userId, aliases, adjustments, product, environment, store, vcTransactionId, transactionId));
  }
}
