import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { DEFAULT_CONFIG } from '../config/defaultConfig.js';
import { backtest } from './backtest.js';
import { tune } from './tune.js';

const DAY = 86_400_000;
const MONTH = 30 * DAY;
const T0 = 1_767_225_600_000; // 2026-01-01
const END = T0 + 240 * DAY;

/** Customers with a start day, a month they leave in (or never), and whether they report activity. */
const populationArb: fc.Arbitrary<StoredRecord[]> = fc
  .array(fc.record({ startDay: fc.integer({ min: 0, max: 150 }), leave: fc.option(fc.integer({ min: 1, max: 7 }), { nil: null }), active: fc.boolean(), failures: fc.nat(2) }), {
    minLength: 10,
    maxLength: 40,
  })
  .map((customers) => {
    const records: StoredRecord[] = [];
    const add = (e: ReturnType<typeof ev>) => records.push({ kind: 'event', event: e });
    customers.forEach(({ startDay, leave, active, failures }, i) => {
      const app_user_id = `c${i}`;
      const start = T0 + startDay * DAY;
      add(ev('INITIAL_PURCHASE', start, { app_user_id, expiration_at_ms: start + MONTH }));
      for (let m = 1; start + m * MONTH < END; m += 1) {
        const at = start + m * MONTH;
        if (m === leave) {
          if (failures > 0) add(ev('BILLING_ISSUE', at, { app_user_id, expiration_at_ms: at }));
          add(ev('EXPIRATION', at + DAY, { app_user_id, expiration_reason: failures > 0 ? 'BILLING_ERROR' : 'UNSUBSCRIBE', expiration_at_ms: at }));
          break;
        }
        add(ev('RENEWAL', at, { app_user_id, expiration_at_ms: at + MONTH }));
        if (active) records.push({ kind: 'activity', customer_id: app_user_id, at: at - 3 * DAY });
      }
    });
    records.push({ kind: 'event', event: ev('NON_RENEWING_PURCHASE', END, { app_user_id: 'last' }) });
    return records;
  });

const options = { from: T0 + 60 * DAY, to: T0 + 200 * DAY, step_ms: 10 * DAY, horizon_ms: 30 * DAY, holdout: 0.3, rounds: 2 };

describe('tune', () => {
  it('never returns a config that does worse on the holdout than the starting one', () => {
    fc.assert(
      fc.property(populationArb, fc.integer({ min: 1, max: 1000 }), (records, seed) => {
        const result = tune(records, { ...options, seed });
        if (!result.ok) throw new Error(JSON.stringify(result.errors));
        const { holdout, improved, config } = result.value;
        // Judge the returned config on the holdout cutoffs by an independent backtest.
        const judge = (c: typeof config) => {
          const report = backtest(records, { cutoffs: holdout.cutoffs, horizon_ms: options.horizon_ms, config: c });
          if (!report.ok) throw new Error(JSON.stringify(report.errors));
          return report.value.pooled.roc_auc;
        };
        if (improved) {
          expect(holdout.tuned.roc_auc!).toBeGreaterThan(holdout.start.roc_auc!);
          expect(judge(config)).toBeCloseTo(holdout.tuned.roc_auc!, 12);
          expect(judge(DEFAULT_CONFIG)).toBeCloseTo(holdout.start.roc_auc!, 12);
        } else {
          expect(config).toBe(DEFAULT_CONFIG);
          expect(result.value.reason).not.toBeNull();
        }
      }),
      { numRuns: 25 },
    );
  });
});
