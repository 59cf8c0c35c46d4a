/**
 * The memory store's transaction occurrences (`transactionOccurrenceOf`): each applied one, to the
 * log seq of the event holding it, so a duplicate can say who holds it without a scan. Kept by type,
 * then store segment (`occurrenceStoreOf`), then transaction id, so checking and adding an event
 * builds no key string: the concatenated key, a new string per webhook, had to be flattened and
 * hashed in full at every lookup (~5 % of a webhook's store work). The key is built for a duplicate's
 * `holderOf` only.
 */
import { countedTransactionOf, identityIdsOf, occurrenceStoreOf, transactionOccurrenceOf, type HandledEvent, type OccurrenceHolder } from '@tenure/core';
import type { EventLog } from './eventLog.js';
import type { PersonIndex } from './personIndex.js';

/** Every applied occurrence: type, then store segment, then transaction id, to the seq of its event in the store's log. */
export class OccurrenceIndex {
  private readonly byType = new Map<string, Map<string, Map<string, number>>>();

  /** The seq of the event holding the event's occurrence, or undefined (also for an event without one). */
  private seqOf(event: HandledEvent): number | undefined {
    const txn = countedTransactionOf(event);
    return txn === undefined ? undefined : this.byType.get(event.type)?.get(occurrenceStoreOf(event))?.get(txn);
  }

  /** Whether an event with the event's occurrence was applied (false for an event without one). */
  has(event: HandledEvent): boolean {
    return this.seqOf(event) !== undefined;
  }

  /** Records the event's occurrence, if it has one, as held by the event stored at `seq`. */
  add(event: HandledEvent, seq: number): void {
    const txn = countedTransactionOf(event);
    if (txn === undefined) return;
    let stores = this.byType.get(event.type);
    if (stores === undefined) this.byType.set(event.type, (stores = new Map()));
    const store = occurrenceStoreOf(event);
    let transactions = stores.get(store);
    if (transactions === undefined) stores.set(store, (transactions = new Map()));
    transactions.set(txn, seq);
  }

  /**
   * Given an event whose occurrence is held, returns who holds it (the person of the stored event,
   * which a transfer may have re-keyed) when none of the event's ids names that person, else
   * undefined. Reads the stored event: for the duplicate path only.
   */
  holderOf(event: HandledEvent, log: EventLog<HandledEvent>, people: PersonIndex): OccurrenceHolder | undefined {
    const seq = this.seqOf(event);
    if (seq === undefined) return undefined;
    const stored = log.get(seq).app_user_id;
    const customer = people.of(stored) ?? stored;
    return identityIdsOf(event).some((id) => people.of(id) === customer) ? undefined : { key: transactionOccurrenceOf(event)!, customer };
  }
}
