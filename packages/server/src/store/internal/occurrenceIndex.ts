/**
 * The memory store's transaction occurrences (`transactionOccurrenceOf`): each applied one, to the
 * log seq of the event holding it, so a duplicate can say who holds it without a scan.
 */
import { identityIdsOf, transactionOccurrenceOf, type HandledEvent, type OccurrenceHolder } from '@tenure/core';
import type { EventLog } from './eventLog.js';
import type { PersonIndex } from './personIndex.js';

/** Every applied occurrence key, to the seq of its event in the store's log. */
export class OccurrenceIndex {
  private readonly seqs = new Map<string, number>();
  /** The last event asked about and its key: `has` then `add` (or `holderOf`) of one event build the key string once. */
  private lastEvent: HandledEvent | undefined;
  private lastKey: string | undefined;

  private keyOf(event: HandledEvent): string | undefined {
    if (event !== this.lastEvent) {
      this.lastEvent = event;
      this.lastKey = transactionOccurrenceOf(event);
    }
    return this.lastKey;
  }

  /** Whether an event with the event's occurrence was applied (false for an event without one). */
  has(event: HandledEvent): boolean {
    const key = this.keyOf(event);
    return key !== undefined && this.seqs.has(key);
  }

  /** Records the event's occurrence, if it has one, as held by the event stored at `seq`. */
  add(event: HandledEvent, seq: number): void {
    const key = this.keyOf(event);
    if (key !== undefined) this.seqs.set(key, seq);
  }

  /**
   * Given an event whose occurrence is held, returns who holds it (the person of the stored event,
   * which a transfer may have re-keyed) when none of the event's ids names that person, else
   * undefined. Reads the stored event: for the duplicate path only.
   */
  holderOf(event: HandledEvent, log: EventLog<HandledEvent>, people: PersonIndex): OccurrenceHolder | undefined {
    const key = this.keyOf(event);
    const seq = key === undefined ? undefined : this.seqs.get(key);
    if (key === undefined || seq === undefined) return undefined;
    const stored = log.get(seq).app_user_id;
    const customer = people.of(stored) ?? stored;
    return identityIdsOf(event).some((id) => people.of(id) === customer) ? undefined : { key, customer };
  }
}
