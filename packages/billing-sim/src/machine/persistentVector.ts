/**
 * A persistent (immutable) vector of values by small non-negative integer index: a 32-way trie with
 * path copying, deep enough for the largest index set so far. Setting values returns a new vector
 * sharing every untouched node with the old one. The world keeps its customers in one, by `seq`
 * (creation order): a month advance replaces every customer in one pass down the trie, copying
 * each node once, with no key hashed, and the clock walks them in creation order.
 */

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** A node: its 32 children (nodes above the last level, values at the last), `undefined` where none. */
type Node = unknown[];

/** An immutable vector from indices to values; `undefined` at indices never set (or cleared). */
export interface PVec<V> {
  /** Bits of the index below the root's children: the vector holds indices below `2 ** (shift + 5)`. */
  readonly shift: number;
  /** @internal */
  readonly root: Node;
  /** @internal (only for the type) */
  readonly __values?: V;
}

const emptyNode = (): Node => new Array<unknown>(WIDTH).fill(undefined);
const EMPTY: PVec<never> = { shift: 0, root: emptyNode() };

/**
 * Returns the empty vector.
 *
 * @example
 * const v = pvecSetAll(emptyPVec<string>(), [3], ['c']);
 */
export const emptyPVec = <V>(): PVec<V> => EMPTY as PVec<V>;

/**
 * A copy of a node as an array literal: a literal's allocation site learns that the nodes a batch
 * copies outlive the young generation, and V8 then allocates them in the old generation directly.
 */
const copyNode = (n: Node): Node => [
  n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[9], n[10], n[11], n[12], n[13], n[14], n[15], n[16], n[17], n[18], n[19], n[20], n[21], n[22], n[23], n[24], n[25], n[26], n[27], n[28], n[29], n[30], n[31],
];

/**
 * Given a vector and an index, returns the value there, or undefined.
 *
 * @example
 * pvecGet(v, 3); // 'c'
 */
export function pvecGet<V>(vec: PVec<V>, index: number): V | undefined {
  if (!(index >= 0) || index >= 2 ** (vec.shift + BITS)) return undefined;
  let node: Node | undefined = vec.root;
  for (let shift = vec.shift; shift > 0; shift -= BITS) {
    node = node[(index >>> shift) & MASK] as Node | undefined;
    if (node === undefined) return undefined;
  }
  return node[index & MASK] as V | undefined;
}

/** Sets the entries `from`..`to` (sorted by index, all under this node) under a copy of the node. */
function setRange(node: Node | undefined, shift: number, indices: ArrayLike<number>, values: ArrayLike<unknown>, from: number, to: number): Node {
  const copy = node === undefined ? emptyNode() : copyNode(node);
  if (shift === 0) {
    // Later entries of one index win.
    for (let k = from; k < to; k++) copy[indices[k]! & MASK] = values[k];
    return copy;
  }
  let k = from;
  while (k < to) {
    const child = (indices[k]! >>> shift) & MASK;
    let end = k + 1;
    while (end < to && ((indices[end]! >>> shift) & MASK) === child) end++;
    copy[child] = setRange(copy[child] as Node | undefined, shift - BITS, indices, values, k, end);
    k = end;
  }
  return copy;
}

/**
 * The positions of `indices` in index order, the last of each index only (the one that wins): a
 * placement by index, linear, for indices dense enough (a batch of the world's customers by seq).
 */
function placeByIndex(indices: readonly number[], max: number): number[] {
  const last = new Int32Array(max + 1).fill(-1);
  for (let k = 0; k < indices.length; k++) last[indices[k]!] = k;
  const positions: number[] = [];
  for (let index = 0; index <= max; index++) if (last[index]! >= 0) positions.push(last[index]!);
  return positions;
}

/**
 * Given a vector, indices (integers from 0 to 2^31 − 1) and the value for each (undefined clears),
 * returns a new vector with every value set (a later entry of the same index wins); the old vector
 * is unchanged. Every node on the way is copied once, however many values go under it.
 *
 * @example
 * const next = pvecSetAll(v, [1, 2], ['a', 'b']); // v unchanged
 */
export function pvecSetAll<V>(vec: PVec<V>, indices: readonly number[], values: readonly (V | undefined)[]): PVec<V> {
  const n = indices.length;
  if (n === 0) return vec;
  let sorted = true;
  let max = 0;
  for (let k = 0; k < n; k++) {
    const index = indices[k]!;
    if (!Number.isInteger(index) || index < 0 || index > 0x7fffffff) throw new RangeError(`pvecSetAll: index ${index} is not an integer from 0 to 2^31 - 1`);
    if (index > max) max = index;
    if (k > 0 && index < indices[k - 1]!) sorted = false;
  }
  let order = indices;
  let ordered = values;
  if (!sorted) {
    const positions = n * 8 >= max ? placeByIndex(indices, max) : Array.from({ length: n }, (_, k) => k).sort((a, b) => indices[a]! - indices[b]! || a - b);
    order = positions.map((k) => indices[k]!);
    ordered = positions.map((k) => values[k]);
  }
  let { shift, root } = vec;
  while (max >= 2 ** (shift + BITS)) {
    const grown = emptyNode();
    grown[0] = root;
    root = grown;
    shift += BITS;
  }
  return { shift, root: setRange(root, shift, order, ordered, 0, order.length) };
}

function eachIn<V>(node: Node, shift: number, base: number, fn: (value: V, index: number) => void): void {
  for (let i = 0; i < WIDTH; i++) {
    const child = node[i];
    if (child === undefined) continue;
    if (shift === 0) fn(child as V, base + i);
    else eachIn(child as Node, shift - BITS, base + i * 2 ** shift, fn);
  }
}

/**
 * Calls `fn` with every value that is not undefined and its index, in index order.
 *
 * @example
 * pvecForEach(v, (value, index) => console.log(index, value));
 */
export function pvecForEach<V>(vec: PVec<V>, fn: (value: V, index: number) => void): void {
  eachIn(vec.root, vec.shift, 0, fn);
}
