/**
 * The memory store's identity index (docs/rules.md §2, aliases): every id a person's events name
 * (`identityIdsOf`) to the key of its record (the id the app uses now), and each key's ids, so a
 * record is found by any of its ids and a merge or a new key re-points exactly the ids it owns.
 */

/** Ids to the key of their person's record, and back. */
export class PersonIndex {
  private readonly keyOf = new Map<string, string>();
  private readonly idsOf = new Map<string, Set<string>>();

  /** The key of the record `id` belongs to, or undefined for an id no stored event names. */
  of(id: string): string | undefined {
    return this.keyOf.get(id);
  }

  /** The distinct keys of the records the given ids belong to, in the order first met. */
  keysOf(ids: readonly string[]): string[] {
    const keys: string[] = [];
    for (const id of ids) {
      const key = this.keyOf.get(id);
      if (key !== undefined && !keys.includes(key)) keys.push(key);
    }
    return keys;
  }

  /** Every id of the records under `from` and the given `ids` now belong to `key`. */
  assign(key: string, from: readonly string[], ids: readonly string[]): void {
    let owned = this.idsOf.get(key);
    if (owned === undefined) this.idsOf.set(key, (owned = new Set()));
    for (const old of from) {
      if (old === key) continue;
      for (const id of this.idsOf.get(old) ?? []) {
        this.keyOf.set(id, key);
        owned.add(id);
      }
      this.idsOf.delete(old);
    }
    for (const id of ids) {
      // Already the key's (every event of a person repeats its ids): `keyOf` and `idsOf` agree, so nothing to write.
      if (this.keyOf.get(id) === key) continue;
      this.keyOf.set(id, key);
      owned.add(id);
    }
  }

  /** Forgets the record `key` and its ids (a transfer's sender: its ids are free again). */
  release(key: string): void {
    for (const id of this.idsOf.get(key) ?? []) this.keyOf.delete(id);
    this.idsOf.delete(key);
  }
}
