/**
 * A persistent (immutable) string-keyed map: a hash array mapped trie with path copying. `set` and
 * `remove` return a new map sharing every untouched branch with the old one, so a world changes one
 * entry of a 100k-entry map in O(log32 n) instead of copying a Map. Keys are ordinary strings
 * (`__proto__` included); iteration order is hash order, not insertion order.
 */

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
/** Below this depth the 32-bit hash is used up: equal hashes share one bucket. */
const MAX_DEPTH = 7;

interface Bucket<V> {
  hash: number;
  keys: string[];
  values: V[];
}
type Slot<V> = Branch<V> | Bucket<V> | undefined;
type Branch<V> = Slot<V>[];

/** An immutable map from string keys to values. */
export interface PMap<V> {
  readonly size: number;
  /** @internal */
  readonly root: Branch<V>;
}

const hashOf = (key: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

const isBranch = <V>(slot: Slot<V>): slot is Branch<V> => Array.isArray(slot);
const indexAt = (hash: number, depth: number) => (hash >>> (depth * BITS)) & MASK;

const EMPTY: PMap<never> = { size: 0, root: new Array<Slot<never>>(WIDTH).fill(undefined) };

/**
 * Returns the empty map.
 *
 * @example
 * const m = pmapSet(emptyPMap<number>(), 'a', 1);
 */
export const emptyPMap = <V>(): PMap<V> => EMPTY as PMap<V>;

/**
 * Given a map and a key, returns the value or undefined.
 *
 * @example
 * pmapGet(m, 'a'); // 1
 */
export function pmapGet<V>(map: PMap<V>, key: string): V | undefined {
  const hash = hashOf(key);
  let node: Slot<V> = map.root;
  for (let depth = 0; node !== undefined; depth++) {
    if (isBranch(node)) {
      node = node[indexAt(hash, depth)];
      continue;
    }
    if (node.hash !== hash) return undefined;
    const i = node.keys.indexOf(key);
    return i < 0 ? undefined : node.values[i];
  }
  return undefined;
}

/** Puts two buckets of different hashes under a new branch at `depth`. */
function split<V>(a: Bucket<V>, b: Bucket<V>, depth: number): Branch<V> {
  const branch: Branch<V> = new Array<Slot<V>>(WIDTH).fill(undefined);
  const ia = indexAt(a.hash, depth);
  const ib = indexAt(b.hash, depth);
  if (ia === ib) branch[ia] = split(a, b, depth + 1);
  else {
    branch[ia] = a;
    branch[ib] = b;
  }
  return branch;
}

/**
 * Sets one key under `node`, copying the path to it. Nodes in `owned` were created by the same batch
 * (`pmapSetAll`) and are not shared with any map yet, so they are changed in place instead.
 */
function setIn<V>(node: Branch<V>, hash: number, key: string, value: V, depth: number, added: { n: number }, owned: Set<Branch<V>> | null): Branch<V> {
  const i = indexAt(hash, depth);
  const slot = node[i];
  let copy = node;
  if (owned === null || !owned.has(node)) {
    copy = node.slice();
    owned?.add(copy);
  }
  if (slot === undefined) {
    copy[i] = { hash, keys: [key], values: [value] };
    added.n = 1;
  } else if (isBranch(slot)) {
    copy[i] = setIn(slot, hash, key, value, depth + 1, added, owned);
  } else if (slot.hash === hash || depth >= MAX_DEPTH) {
    const at = slot.keys.indexOf(key);
    const values = slot.values.slice();
    // Replacing a value leaves the keys as they were: the bucket shares them (a month advance
    // replaces every customer).
    let keys = slot.keys;
    if (at < 0) {
      keys = keys.slice();
      keys.push(key);
      values.push(value);
      added.n = 1;
    } else values[at] = value;
    copy[i] = { hash: slot.hash, keys, values };
  } else {
    copy[i] = split(slot, { hash, keys: [key], values: [value] }, depth + 1);
    added.n = 1;
  }
  return copy;
}

/**
 * Given a map, a key and a value, returns a new map with the key set; the old map is unchanged.
 *
 * @example
 * const next = pmapSet(m, 'b', 2); // m still has no 'b'
 */
export function pmapSet<V>(map: PMap<V>, key: string, value: V): PMap<V> {
  const added = { n: 0 };
  const root = setIn(map.root, hashOf(key), key, value, 0, added, null);
  return { size: map.size + added.n, root };
}

/**
 * Given a map and entries, returns a new map with every entry set (later entries win); the old map
 * is unchanged. Faster than `pmapSet` in a loop: nodes this batch created are reused, not copied.
 *
 * @example
 * const next = pmapSetAll(m, [['a', 1], ['b', 2]]);
 */
export function pmapSetAll<V>(map: PMap<V>, entries: Iterable<readonly [string, V]> | ReadonlyMap<string, V>): PMap<V> {
  const owned = new Set<Branch<V>>();
  let root = map.root;
  let size = map.size;
  const set = (value: V, key: string) => {
    const added = { n: 0 };
    root = setIn(root, hashOf(key), key, value, 0, added, owned);
    size += added.n;
  };
  // A map's own forEach: its iterator makes an entry array per key (100 k in a month advance's commit).
  if (entries instanceof Map) (entries as ReadonlyMap<string, V>).forEach(set);
  else for (const [key, value] of entries as Iterable<readonly [string, V]>) set(value, key);
  return root === map.root ? map : { size, root };
}

function removeIn<V>(node: Branch<V>, hash: number, key: string, depth: number): Branch<V> | null {
  const i = indexAt(hash, depth);
  const slot = node[i];
  if (slot === undefined) return null;
  let next: Slot<V>;
  if (isBranch(slot)) {
    const inner = removeIn(slot, hash, key, depth + 1);
    if (inner === null) return null;
    next = inner.every((s) => s === undefined) ? undefined : inner;
  } else {
    const at = slot.hash === hash ? slot.keys.indexOf(key) : -1;
    if (at < 0) return null;
    next = slot.keys.length === 1
      ? undefined
      : { hash: slot.hash, keys: slot.keys.filter((_, j) => j !== at), values: slot.values.filter((_, j) => j !== at) };
  }
  const copy = node.slice();
  copy[i] = next;
  return copy;
}

/**
 * Given a map and a key, returns a new map without the key (the same map when it was absent).
 *
 * @example
 * pmapRemove(m, 'a').size; // m.size - 1
 */
export function pmapRemove<V>(map: PMap<V>, key: string): PMap<V> {
  const root = removeIn(map.root, hashOf(key), key, 0);
  return root === null ? map : { size: map.size - 1, root };
}

function eachIn<V>(node: Branch<V>, fn: (value: V, key: string) => void): void {
  // An indexed loop: a month advance walks every customer, and the array iterator showed in profiles.
  for (let i = 0; i < node.length; i++) {
    const slot = node[i];
    if (slot === undefined) continue;
    if (isBranch(slot)) eachIn(slot, fn);
    else for (let j = 0; j < slot.keys.length; j++) fn(slot.values[j] as V, slot.keys[j] as string);
  }
}

/**
 * Calls `fn` with every value and key, in hash order.
 *
 * @example
 * pmapForEach(m, (v, k) => console.log(k, v));
 */
export function pmapForEach<V>(map: PMap<V>, fn: (value: V, key: string) => void): void {
  eachIn(map.root, fn);
}

/**
 * Returns every value, in hash order.
 *
 * @example
 * pmapValues(m); // [1, 2]
 */
export function pmapValues<V>(map: PMap<V>): V[] {
  const out: V[] = [];
  eachIn(map.root, (v) => out.push(v));
  return out;
}
