/** How the contract suite gets stores: one empty store per test and per property run. */
import type { HandledEvent, SubscriberStore } from '@tenure/core';

/** A person as a database written before schema version 4 stored it: its events under one key, and its reported activity. */
export interface PersonStoredApart {
  /** Stored under the `app_user_id` of the first, in this order, whatever other ids they name. */
  events: readonly HandledEvent[];
  reported?: number;
}

/**
 * Opens empty stores for the suite. `open` is called once per test and once per run of a property
 * (a few hundred times in all), so it should be cheap: a temp file, a fresh schema. The suite
 * calls `store.close()` and then `cleanup(store)` (delete the file, drop the schema) after each.
 */
export interface StoreFactory<S extends SubscriberStore = SubscriberStore> {
  open(): Promise<S>;
  cleanup?(store: S): Promise<void>;
  /**
   * Optional: empties an open store back to the state of a freshly opened one (e.g. TRUNCATE every
   * table, forget the remembered config fingerprint). When given, each model-based property opens
   * one store and resets it before every run instead of opening a store per run, which is what
   * costs most on a database (a schema and its migrations per run).
   */
  reset?(store: S): Promise<void>;
  /**
   * Optional test seam of the durable stores: writes each person into the open store's database as
   * one written before schema version 4 and upgraded since left it (the migration tests' way):
   * its events under its key, its record (`foldEvents`, with its reported activity) and row, each
   * of its key and its events' other ids in `identities` unless another person has it already; no
   * merge; and the mark the version 7 upgrade of such a database sets (`relink_pending`), so the
   * next replay looks for them. With it, the suite checks that `replay` merges them (the memory
   * store never holds such persons: nothing of it outlives the process).
   */
  storeApart?(store: S, persons: readonly PersonStoredApart[]): Promise<void>;
}

/** Knobs of the suite; the defaults keep a database store's run of the whole suite well under 20 s. */
export interface StoreContractOptions {
  /** Runs of each model-based property (default 40). */
  numRuns?: number;
  /** Commands per model run at most (default 40). */
  maxCommands?: number;
  /** Timeout of each test, ms (default 60 000). */
  timeoutMs?: number;
}

/** The options with every default filled in. */
export type ResolvedContractOptions = Required<StoreContractOptions>;

/** Given the caller's options, returns them with defaults. */
export const resolveContractOptions = (options: StoreContractOptions = {}): ResolvedContractOptions => ({
  numRuns: options.numRuns ?? 40,
  maxCommands: options.maxCommands ?? 40,
  timeoutMs: options.timeoutMs ?? 60_000,
});

/**
 * fast-check's parameters for one of the suite's properties: `numRuns` runs, each run failed (and
 * then shrunk) when it takes a third of the test's timeout, and the whole property stopped at four
 * fifths of it with what it found. A run that never settles, or a shrink that outlasts the test,
 * then fails with fast-check's report (seed, path, the counterexample so far) instead of a bare
 * test timeout that tells nothing of the inputs (one PostgreSQL run timed out so in CI, 2026-12-02).
 */
export const propertyParameters = (options: ResolvedContractOptions, numRuns = options.numRuns) => ({
  numRuns,
  timeout: Math.round(options.timeoutMs / 3),
  interruptAfterTimeLimit: Math.round(options.timeoutMs * 0.8),
  markInterruptAsFailure: true,
});

/**
 * Given a factory and a body, opens a store, runs the body with it, then closes and cleans up,
 * also when the body throws.
 *
 * @example
 * await withStore(factory, async (store) => expect(await store.count()).toBe(0));
 */
export async function withStore<S extends SubscriberStore, R>(factory: StoreFactory<S>, body: (store: S) => Promise<R>): Promise<R> {
  const store = await factory.open();
  try {
    return await body(store);
  } finally {
    await store.close();
    await factory.cleanup?.(store);
  }
}
