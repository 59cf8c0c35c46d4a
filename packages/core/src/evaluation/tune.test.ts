import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import { DEFAULT_CONFIG } from '../config/defaultConfig.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { tune } from './tune.js';

const DAY = 86_400_000;
const MONTH = 30 * DAY;
const T0 = 1_767_225_600_000; // 2026-01-01

/**
 * Long-time subscribers who leave after 7–10 months, and newer ones who stay: here renewals
 * predict churn, against the default rule that each renewal lowers the risk.
 */
function veteransLeave(n: number, leave = true): StoredRecord[] {
  const records: StoredRecord[] = [];
  const add = (e: ReturnType<typeof ev>) => records.push({ kind: 'event', event: e });
  for (let i = 0; i < n; i += 1) {
    const app_user_id = `c${i}`;
    const veteran = i % 2 === 0;
    const start = T0 + (veteran ? 0 : 150 * DAY) + (i % 28) * DAY;
    const leaveAfter = veteran && leave ? 7 + (i % 4) : Infinity;
    add(ev('INITIAL_PURCHASE', start, { app_user_id, expiration_at_ms: start + MONTH }));
    for (let m = 1; start + m * MONTH < T0 + 360 * DAY; m += 1) {
      const at = start + m * MONTH;
      if (m === leaveAfter) {
        add(ev('CANCELLATION', at - 10 * DAY, { app_user_id, cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: at }));
        add(ev('EXPIRATION', at, { app_user_id, expiration_reason: 'UNSUBSCRIBE', expiration_at_ms: at }));
        break;
      }
      add(ev('RENEWAL', at, { app_user_id, expiration_at_ms: at + MONTH }));
    }
  }
  return records;
}

const options = { from: T0 + 180 * DAY, to: T0 + 320 * DAY, step_ms: 7 * DAY, horizon_ms: 30 * DAY, holdout: 0.3, seed: 7 };

describe('tune', () => {
  it('finds weights that rank better on the holdout when the defaults misread the history', () => {
    const result = tune(veteransLeave(200), options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { holdout, training, improved, config } = result.value;
    expect(improved).toBe(true);
    expect(holdout.tuned.roc_auc!).toBeGreaterThan(holdout.start.roc_auc!);
    expect(training.tuned.roc_auc!).toBeGreaterThan(training.start.roc_auc!);
    // The veterans have not bought anything for months: it learned to weigh inactivity more.
    expect(config.risk.inactivity_cap).toBeGreaterThan(DEFAULT_CONFIG.risk.inactivity_cap);
    expect(result.value.candidate).toBe(config);
  });

  it('splits by time: the horizon of every training cutoff ends before the first holdout cutoff', () => {
    const result = tune(veteransLeave(40), options);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const first = result.value.holdout.cutoffs[0]!;
    for (const at of result.value.training.cutoffs) expect(at + options.horizon_ms).toBeLessThanOrEqual(first);
  });

  it('is deterministic for a seed', () => {
    const records = veteransLeave(60);
    expect(tune(records, options)).toEqual(tune(records, options));
  });

  it('keeps the starting config, and says why, when nothing beats it on the holdout', () => {
    // Every subscriber renews: no churner, no AUC to improve.
    const result = tune(veteransLeave(40, false), options);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.improved).toBe(false);
    expect(result.value.config).toBe(DEFAULT_CONFIG);
    // Nothing improved the training ROC AUC: the best weights found are the starting ones.
    expect(result.value.candidate).toBe(DEFAULT_CONFIG);
    expect(result.value.reason).toMatch(/No weight change|holdout/);
  });

  it('refuses a holdout share outside 0..1 and a split with no training cutoff', () => {
    expect(tune(veteransLeave(4), { ...options, holdout: 1 })).toMatchObject({ ok: false, errors: [{ field: 'holdout' }] });
    expect(tune(veteransLeave(4), { ...options, from: T0 + 250 * DAY, to: T0 + 290 * DAY, holdout: 0.9 })).toMatchObject({ ok: false, errors: [{ field: 'holdout' }] });
  });

  it('feeds a progress callback, monotone up to its total, without changing the result', () => {
    const records = veteransLeave(40);
    const seen: [number, number][] = [];
    const tuned = tune(records, { ...options, onProgress: (done, total) => seen.push([done, total]) });
    expect(tuned).toEqual(tune(records, options));
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]![0]).toBeGreaterThanOrEqual(seen[i - 1]![0]);
    const [done, total] = seen.at(-1)!;
    expect(done).toBe(total);
  });
});
