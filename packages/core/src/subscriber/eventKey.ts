/** Ordering of events within one subscriber's history, and what makes two deliveries one occurrence. */
import type { HandledEvent, HandledEventType } from '../events/webhookSchema.js';
import type { EventKey } from './subscriber.js';

/**
 * Lifecycle precedence for events with the same `event_timestamp_ms`: the later stage wins.
 * BILLING_ISSUE, CANCELLATION and EXPIRATION are sent at the same moment when a charge fails with no
 * grace period; EXPIRATION must win. An uncancellation or a recovery renewal follows the cancellation
 * or billing issue it undoes.
 */
export const EVENT_PRECEDENCE = {
  NON_RENEWING_PURCHASE: 0,
  INITIAL_PURCHASE: 1,
  PRODUCT_CHANGE: 2,
  CANCELLATION: 3,
  BILLING_ISSUE: 4,
  UNCANCELLATION: 5,
  RENEWAL: 6,
  EXPIRATION: 7,
  // Added with the types they rank; the numbers above are stored in records' keys and never change.
  // A reversal follows the refund (a CANCELLATION and an EXPIRATION) it undoes; an extension set at
  // the same moment as a renewal or expiration gives the later period end.
  REFUND_REVERSED: 9,
  SUBSCRIPTION_PAUSED: 3,
  SUBSCRIPTION_EXTENDED: 8,
  TEMPORARY_ENTITLEMENT_GRANT: 0,
} as const satisfies Record<HandledEventType, number>;

/** Given two keys, returns true when `a` comes after `b` (a null `b` is before everything). Pure. */
export function isLaterKey(a: EventKey, b: EventKey | null): boolean {
  if (b === null) return true;
  if (a.at !== b.at) return a.at > b.at;
  if (a.rank !== b.rank) return a.rank > b.rank;
  return a.id > b.id;
}

/**
 * Whether a key's rank is a charge's (INITIAL_PURCHASE, RENEWAL: the rank names the type in a stored
 * key). Two comparisons, not a Set: it runs for every priced event a fold applies.
 */
const isChargeRank = (rank: number): boolean => rank === EVENT_PRECEDENCE.INITIAL_PURCHASE || rank === EVENT_PRECEDENCE.RENEWAL;

/**
 * Given the key of an event with a price and the key of the kept revenue, returns true when the
 * event's revenue replaces it: a charge (a purchase or renewal) beats any other lifecycle event,
 * then the later key wins. So the period paid for comes from the charge, not from a later
 * cancellation or billing issue that names an end an extension moved (their price is the same
 * transaction's); with no charge known (history that starts mid-period) the latest other one
 * counts. A total order: order-independent. Pure.
 *
 * @example
 * isLaterRevenueKey({ at: 2, rank: EVENT_PRECEDENCE.CANCELLATION, id: 'c' }, { at: 1, rank: EVENT_PRECEDENCE.RENEWAL, id: 'r' }); // false
 */
export function isLaterRevenueKey(a: EventKey, b: EventKey | null): boolean {
  if (b === null) return true;
  const charge = isChargeRank(a.rank);
  if (charge !== isChargeRank(b.rank)) return charge;
  return isLaterKey(a, b);
}

/**
 * Given an event type, returns a number of its own when its events are counted per transaction
 * (INITIAL_PURCHASE 1, RENEWAL 2, NON_RENEWING_PURCHASE 3, BILLING_ISSUE 4), else 0. Those types each
 * add to a sum (renewals, billing failures, revenue), and one transaction of the billing service is
 * one of them however many deliveries (webhook ids, the data export's derived ids) carry it. The
 * number stands for the type in the deduplication's occurrence hash (`distinctOccurrences`). Pure.
 */
export function countedTypeCode(type: HandledEventType): number {
  // A switch, not a Set: the deduplication runs this for every delivery of a log, and the type is
  // one of a few names (interned by JSON.parse), which a switch compares by reference.
  switch (type) {
    case 'INITIAL_PURCHASE':
      return 1;
    case 'RENEWAL':
      return 2;
    case 'NON_RENEWING_PURCHASE':
      return 3;
    case 'BILLING_ISSUE':
      return 4;
    default:
      return 0;
  }
}

/** Given an event type, returns whether its events are counted per transaction (see `transactionOccurrenceOf`). Pure. */
export function isCountedPerTransaction(type: HandledEventType): boolean {
  return countedTypeCode(type) !== 0;
}

/**
 * Given an event, returns the store segment of its occurrence key: `store` as the billing service
 * sends it (`APP_STORE`, `PLAY_STORE`, ...), the empty string when it has none, with `%` and `:`
 * escaped (`%25`, `%3A`; no RevenueCat store name has either) so the key stays unambiguous. Pure.
 *
 * @example
 * occurrenceStoreOf({ store: 'APP_STORE' }); // 'APP_STORE'
 * occurrenceStoreOf({}); // ''
 */
export function occurrenceStoreOf(event: Pick<HandledEvent, 'store'>): string {
  const store = event.store;
  if (typeof store !== 'string') return '';
  return store.includes(':') || store.includes('%') ? store.replaceAll('%', '%25').replaceAll(':', '%3A') : store;
}

/**
 * Given an event, returns its `transaction_id` when the event is counted per transaction (a
 * purchase, renewal, one-time purchase or billing failure with a non-empty one), else undefined:
 * the last part of `transactionOccurrenceOf`, for indexes that key by type, store and transaction
 * apart instead of building the key string. Pure.
 *
 * @example
 * countedTransactionOf({ ...renewal, transaction_id: 'al2' }); // 'al2'
 * countedTransactionOf(cancellation); // undefined
 */
export function countedTransactionOf(event: Pick<HandledEvent, 'type' | 'transaction_id'>): string | undefined {
  const txn = event.transaction_id;
  return isCountedPerTransaction(event.type) && typeof txn === 'string' && txn !== '' ? txn : undefined;
}

/**
 * Given an event, returns `<type>:<store>:<transaction_id>` when it is a purchase, renewal,
 * one-time purchase or billing failure carrying a (non-empty) `transaction_id`, else undefined.
 * Transaction ids are unique within one store only (an App Store and a Play Store transaction may
 * share one), so the store is part of the key (`occurrenceStoreOf`: an event without a store is
 * keyed with an empty one, `RENEWAL::al2`, one store of its own). A `BILLING_ISSUE` names the
 * period whose renewal charge failed, and the billing service sends one per failure sequence
 * (repeated retries do not re-fire it until a renewal succeeds, which is a new transaction), so the
 * key is one failure. Pure.
 *
 * @example
 * transactionOccurrenceOf({ ...renewal, store: 'APP_STORE', transaction_id: 'al2' }); // 'RENEWAL:APP_STORE:al2'
 * transactionOccurrenceOf(cancellation); // undefined
 */
export function transactionOccurrenceOf(event: Pick<HandledEvent, 'type' | 'transaction_id' | 'store'>): string | undefined {
  const txn = countedTransactionOf(event);
  return txn === undefined ? undefined : `${event.type}:${occurrenceStoreOf(event)}:${txn}`;
}

/**
 * Given an event, returns what identifies the occurrence it reports: `transactionOccurrenceOf`
 * when there is one, else the event's id. Two deliveries of one occurrence (a retry keeps its id;
 * a webhook and the data import of one period have different ids but one transaction) count once:
 * the stores and `foldEvents` keep the first (stores) or smallest-id (fold) of them. Pure.
 *
 * @example
 * occurrenceKeyOf({ ...renewal, id: 'rc-1', transaction_id: 'al2' }) === occurrenceKeyOf({ ...renewal, id: 'export:al2:RENEWAL', transaction_id: 'al2' }); // true
 */
export function occurrenceKeyOf(event: Pick<HandledEvent, 'id' | 'type' | 'transaction_id' | 'store'>): string {
  return transactionOccurrenceOf(event) ?? event.id;
}
