/** A binary min-heap: push and pop in O(log n). */

export interface MinHeap<T> {
  push(item: T): void;
  pop(): T | undefined;
  /** The smallest item, left in place. */
  peek(): T | undefined;
  readonly size: number;
}

/**
 * Given a comparison (negative when `a` comes first) and optionally items already sorted by it,
 * returns a heap of them (empty by default).
 *
 * @example
 * const heap = createMinHeap<number>((a, b) => a - b);
 * heap.push(3); heap.push(1); heap.pop(); // 1
 */
export function createMinHeap<T>(compare: (a: T, b: T) => number, sorted: T[] = []): MinHeap<T> {
  // A sorted array is already a valid heap, so the initial jobs need no pushes.
  const items: T[] = sorted;
  const swap = (i: number, j: number) => {
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  };
  return {
    get size() {
      return items.length;
    },
    peek: () => items[0],
    push(item) {
      items.push(item);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (compare(items[i]!, items[parent]!) >= 0) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      if (items.length === 0) return undefined;
      const top = items[0];
      const last = items.pop()!;
      if (items.length > 0) {
        items[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < items.length && compare(items[l]!, items[m]!) < 0) m = l;
          if (r < items.length && compare(items[r]!, items[m]!) < 0) m = r;
          if (m === i) break;
          swap(i, m);
          i = m;
        }
      }
      return top;
    },
  };
}

/**
 * Given a comparator and items already sorted by it, returns a queue that hands out the sorted items
 * by index and keeps only items pushed later in a heap: popping a sorted run costs one comparison,
 * not a sift-down through the whole heap (a month advance pops 200 k initial jobs and pushes few).
 *
 * @example
 * const q = createSortedRunQueue((a: number, b: number) => a - b, [1, 3, 5]);
 * q.push(2); [q.pop(), q.pop()]; // [1, 2]
 */
export function createSortedRunQueue<T>(compare: (a: T, b: T) => number, sorted: ArrayLike<T>): MinHeap<T> {
  const later = createMinHeap(compare);
  let next = 0;
  return {
    get size() {
      return sorted.length - next + later.size;
    },
    push: (item) => later.push(item),
    pop() {
      const head = sorted[next];
      if (head === undefined) return later.pop();
      const top = later.peek();
      if (top !== undefined && compare(top, head) < 0) return later.pop();
      next += 1;
      return head;
    },
    peek() {
      const head = sorted[next];
      const top = later.peek();
      if (head === undefined) return top;
      return top !== undefined && compare(top, head) < 0 ? top : head;
    },
  };
}
