/**
 * The outbox's queue of deliveries to attempt, kept as three parallel deques (record, target, kind)
 * instead of one object per queued delivery: a month advance queues 300 k deliveries at once, and an
 * object each would survive every garbage collection until its delivery. The object a caller sees is
 * made when it leaves the queue, and dies young.
 */
import { createDeque } from '../internal/deque.js';
import type { Deque } from '../internal/deque.js';

/** One queued delivery: the record, its target and the kind of attempt. */
export interface QueuedDelivery<R, T, K> {
  record: R;
  target: T;
  kind: K;
}

/**
 * Returns an empty queue of deliveries, with the `Deque` operations the outbox uses. Not pure (a
 * mutable queue).
 *
 * @example
 * const q = createItemQueue<Rec, Target, 'initial'>(); q.push({ record, target, kind: 'initial' }); q.shift();
 */
export function createItemQueue<R, T, K>(): Deque<QueuedDelivery<R, T, K>> {
  const records = createDeque<R>();
  const targets = createDeque<T>();
  const kinds = createDeque<K>();
  const itemAt = (index: number): QueuedDelivery<R, T, K> | undefined => {
    const record = records.at(index);
    return record === undefined ? undefined : { record, target: targets.at(index)!, kind: kinds.at(index)! };
  };
  return {
    get length() {
      return records.length;
    },
    push(item) {
      records.push(item.record);
      targets.push(item.target);
      kinds.push(item.kind);
    },
    shift() {
      const record = records.shift();
      if (record === undefined) return undefined;
      return { record, target: targets.shift()!, kind: kinds.shift()! };
    },
    unshift(item) {
      records.unshift(item.record);
      targets.unshift(item.target);
      kinds.unshift(item.kind);
    },
    at: itemAt,
    set(index, item) {
      records.set(index, item.record);
      targets.set(index, item.target);
      kinds.set(index, item.kind);
    },
  };
}
