/**
 * The dashboard's trends, on the store's `snapshots`: today's figures taken from the store's
 * per-(state, score) sums (what the sweep records every few minutes, so a past day keeps the
 * figures of shortly before its end), and days with no record filled once from the stored events
 * (the core's `snapshotsFromEvents`), only while the store is small enough to fold in a request.
 */
import {
  DAY_MS,
  RISK_BANDS,
  dailySnapshotOf,
  dayStartOf,
  groupByIdentity,
  lastDays,
  mergeSnapshots,
  snapshotsFromEvents,
  utcDayOf,
  type DailySnapshot,
  type HandledEvent,
  type RiskBand,
  type SnapshotTotal,
  type StoreContext,
  type SubscriberStore,
} from '@tenure/core';

/** How often (service clock) the sweep records the current day's figures: a past day's record is at most this old at its end. */
export const SNAPSHOT_EVERY_MS = 5 * 60_000;

/**
 * The most stored events a backfill folds (one pass over them, grouped per customer in memory,
 * then one score per customer and missing day). Measured at this size (25k customers, 4 events
 * each, 29 days): see docs/dashboard.md. A larger store shows the days since the sweep began
 * recording, and says why earlier days are missing.
 */
export const BACKFILL_MAX_EVENTS = 100_000;
/** Customers folded between two yields to the event loop, so webhooks keep being answered during a backfill. */
const BACKFILL_CHUNK = 500;

/**
 * Given a store and the context, resolves with the figures at `ctx.now` as a record of its UTC day
 * (`source: 'sweep'`): per band and the at-risk total (`bands.high` and above), each one at-risk
 * total of the store (read from its per-(state, score) sums, no scan). The figures are those
 * `GET /api/at-risk` would total at that instant. Impure (reads the store).
 *
 * @example
 * await store.snapshots.put(await takeDailySnapshot(store, storeContext(runtime)));
 */
export async function takeDailySnapshot(store: SubscriberStore, ctx: StoreContext): Promise<DailySnapshot> {
  const byBand: Partial<Record<RiskBand, SnapshotTotal>> = {};
  for (const band of RISK_BANDS) byBand[band] = (await store.atRisk({ band, min_score: 0, limit: 1 }, ctx)).total;
  const atRisk = (await store.atRisk({ limit: 1 }, ctx)).total;
  return dailySnapshotOf(utcDayOf(ctx.now), ctx.now, 'sweep', byBand, { min_score: ctx.config.bands.high, ...atRisk });
}

/** What a backfill did: how many days it stored, and why it stored none when it could not run. */
export interface BackfillOutcome {
  filled: number;
  /** Null when every missing day was filled (or none was missing). */
  skipped: string | null;
}

const running = new WeakMap<SubscriberStore, Promise<BackfillOutcome>>();

/**
 * Given a store, the past days that have no record and the context, computes those days from the
 * stored events and stores them (`source: 'events'`), unless the store holds more than
 * `BACKFILL_MAX_EVENTS` events. One backfill per store at a time (a second caller shares it); a
 * stored day is never computed again. Impure (reads and writes the store).
 *
 * @example
 * await backfillSnapshots(store, ['2026-11-01', '2026-11-02'], ctx); // { filled: 2, skipped: null }
 */
export function backfillSnapshots(store: SubscriberStore, days: readonly string[], ctx: StoreContext): Promise<BackfillOutcome> {
  if (days.length === 0) return Promise.resolve({ filled: 0, skipped: null });
  const pending = running.get(store);
  if (pending !== undefined) return pending;
  const work = (async (): Promise<BackfillOutcome> => {
    const events = await store.eventCount();
    if (events > BACKFILL_MAX_EVENTS) {
      return { filled: 0, skipped: `the store holds ${events} events, more than the ${BACKFILL_MAX_EVENTS} a backfill folds; days are recorded by the sweep from now on` };
    }
    const stored: HandledEvent[] = [];
    let read = 0;
    for await (const record of store.records()) {
      // A store's records() may never wait on I/O (memory): yield now and then so requests get in.
      if (++read % BACKFILL_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
      if (record.kind === 'event') stored.push(record.event);
    }
    // One history per person as the store grouped them that day (docs/rules.md §2, aliases): ids
    // linked by a later event were two subscribers before it, so each day groups its own prefix.
    const snapshots = [];
    for (const day of days) {
      const end = dayStartOf(day) + DAY_MS - 1;
      const histories = [...groupByIdentity(stored.filter((e) => e.event_timestamp_ms <= end)).values()];
      let snapshot = snapshotsFromEvents([], [day], ctx.config)[0]!;
      for (let i = 0; i < histories.length; i += BACKFILL_CHUNK) {
        snapshot = mergeSnapshots(snapshot, snapshotsFromEvents(histories.slice(i, i + BACKFILL_CHUNK), [day], ctx.config)[0]!);
        await new Promise((resolve) => setImmediate(resolve));
      }
      snapshots.push(snapshot);
    }
    for (const snapshot of snapshots) await store.snapshots.put(snapshot);
    return { filled: snapshots.length, skipped: null };
  })().finally(() => running.delete(store));
  running.set(store, work);
  return work;
}

/** One day of the trends answer: its record, today's live figures, or nothing. */
export type TrendDay = (Omit<DailySnapshot, 'source'> & { source: DailySnapshot['source'] | 'live' }) | { day: string; source: 'none'; at: null; by_band: null; at_risk: null };

/**
 * Given a store, a number of days and the context, resolves with the last `days` UTC days ending
 * today, oldest first: stored records, missing past days backfilled from the events when the store
 * is small enough (else `source: 'none'`), and today as live figures at `ctx.now`. Impure.
 *
 * @example
 * const { days } = await readTrends(store, 30, ctx); // days[29].source === 'live'
 */
export async function readTrends(store: SubscriberStore, days: number, ctx: StoreContext): Promise<{ days: TrendDay[]; backfill: BackfillOutcome }> {
  const wanted = lastDays(ctx.now, days);
  const today = wanted[wanted.length - 1]!;
  const stored = new Map((await store.snapshots.range(wanted[0]!, today)).map((s) => [s.day, s]));
  const missing = wanted.slice(0, -1).filter((day) => !stored.has(day));
  const backfill = await backfillSnapshots(store, missing, ctx);
  if (backfill.filled > 0) for (const s of await store.snapshots.range(wanted[0]!, today)) stored.set(s.day, s);
  const live: TrendDay = { ...(await takeDailySnapshot(store, ctx)), source: 'live' };
  return {
    days: wanted.map((day): TrendDay => (day === today ? live : (stored.get(day) ?? { day, source: 'none', at: null, by_band: null, at_risk: null }))),
    backfill,
  };
}

/** Given the last recording instant and now, whether the sweep should record again (a new day, or `SNAPSHOT_EVERY_MS` passed). Pure. */
export const snapshotDue = (last: number | null, now: number): boolean =>
  last === null || now - last >= SNAPSHOT_EVERY_MS || Math.floor(now / DAY_MS) !== Math.floor(last / DAY_MS) || now < last;
