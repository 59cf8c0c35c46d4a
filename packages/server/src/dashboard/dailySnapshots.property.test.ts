import fc from 'fast-check';
import { DAY_MS, DEFAULT_CONFIG, RISK_BANDS, groupByIdentity, materializeAtRisk, snapshotsFromEvents, utcDayOf, type HandledEvent } from '@tenure/core';
import { eventOf, eventSpecArb, T0 } from '@tenure/store-contract';
import { describe, expect, it } from 'vitest';
import { createMemorySubscriberStore } from '../store/memorySubscriberStore.js';
import { takeDailySnapshot } from './dailySnapshots.js';

/** Events spread over a week, each built at its own day (offsets are relative to that day). */
const historyArb = fc.array(fc.tuple(eventSpecArb, fc.integer({ min: 0, max: 6 })), { maxLength: 30 });

describe('takeDailySnapshot', () => {
  it('equals a full scan of every subscriber assessed at that instant (per band and at risk)', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, fc.integer({ min: 0, max: 10 * DAY_MS }), async (history, later) => {
        const store = createMemorySubscriberStore();
        const now = T0 + 7 * DAY_MS + later;
        await store.applyEvents(history.map(([spec, day]) => eventOf(spec, T0 + day * DAY_MS)), { now: T0 + 7 * DAY_MS, config: DEFAULT_CONFIG });
        const snapshot = await takeDailySnapshot(store, { now, config: DEFAULT_CONFIG });
        const cents = Object.fromEntries(RISK_BANDS.map((b) => [b, { subscribers: 0, cents: 0 }]));
        const atRisk = { subscribers: 0, cents: 0 };
        for await (const subscriber of store.list()) {
          const { row } = materializeAtRisk(subscriber, now, DEFAULT_CONFIG);
          const value = Math.round(row.monthly_value_usd * 100);
          cents[row.band]!.subscribers += 1;
          cents[row.band]!.cents += value;
          if (row.score >= DEFAULT_CONFIG.bands.high) {
            atRisk.subscribers += 1;
            atRisk.cents += value;
          }
        }
        expect(snapshot.day).toBe(utcDayOf(now));
        for (const band of RISK_BANDS) expect(snapshot.by_band[band]).toEqual({ subscribers: cents[band]!.subscribers, monthly_value_usd: cents[band]!.cents / 100 });
        expect(snapshot.at_risk).toEqual({ min_score: 60, subscribers: atRisk.subscribers, monthly_value_usd: atRisk.cents / 100 });
      }),
      { numRuns: 60 },
    );
  });

  it("equals the backfill of that day from the stored events, taken at the day's last millisecond", async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, fc.integer({ min: 0, max: 8 }), async (history, dayIndex) => {
        const all = createMemorySubscriberStore();
        await all.applyEvents(history.map(([spec, day]) => eventOf(spec, T0 + day * DAY_MS)), { now: T0 + 7 * DAY_MS, config: DEFAULT_CONFIG });
        const stored: HandledEvent[] = [];
        for await (const record of all.records()) if (record.kind === 'event') stored.push(record.event);
        const day = utcDayOf(T0 + dayIndex * DAY_MS);
        const end = T0 - (T0 % DAY_MS) + (dayIndex + 1) * DAY_MS - 1;
        // What the sweep would have recorded at the day's end: a store that had received exactly the events up to then.
        const then = createMemorySubscriberStore();
        await then.applyEvents(stored.filter((e) => e.event_timestamp_ms <= end), { now: end, config: DEFAULT_CONFIG });
        const recorded = await takeDailySnapshot(then, { now: end, config: DEFAULT_CONFIG });
        // One history per person of that day (ids linked only later were two subscribers then).
        const people = groupByIdentity(stored.filter((e) => e.event_timestamp_ms <= end));
        const [folded] = snapshotsFromEvents(people.values(), [day], DEFAULT_CONFIG);
        expect({ ...folded!, source: 'sweep' }).toEqual(recorded);
      }),
      { numRuns: 60 },
    );
  });
});
