/**
 * A double-ended queue over an array with a moving head: O(1) push and shift, where `Array#shift`
 * is O(n) on large arrays (300,000 queued webhooks made the delivery loop quadratic).
 */
export interface Deque<T> {
  readonly length: number;
  push(item: T): void;
  /** Removes and returns the first item. */
  shift(): T | undefined;
  /** Puts an item in front. */
  unshift(item: T): void;
  /** The item at position `index` from the front. */
  at(index: number): T | undefined;
  /** Replaces the item at position `index` from the front. */
  set(index: number, item: T): void;
}

/**
 * Returns an empty deque.
 *
 * @example
 * const q = createDeque<number>(); q.push(1); q.push(2); q.shift(); // 1
 */
export function createDeque<T>(): Deque<T> {
  let items: (T | undefined)[] = [];
  let head = 0;
  return {
    get length() {
      return items.length - head;
    },
    push(item) {
      items.push(item);
    },
    shift() {
      if (head === items.length) return undefined;
      const item = items[head];
      items[head] = undefined;
      head += 1;
      if (head === items.length) {
        items = [];
        head = 0;
      } else if (head >= 1024 && head * 2 >= items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    unshift(item) {
      if (head > 0) items[--head] = item;
      else items.unshift(item);
    },
    at(index) {
      return index < 0 || index >= items.length - head ? undefined : items[head + index];
    },
    set(index, item) {
      if (index >= 0 && index < items.length - head) items[head + index] = item;
    },
  };
}
