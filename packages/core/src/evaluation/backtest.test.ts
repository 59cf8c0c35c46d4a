import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import { backtest, MIN_POSITIVES } from './backtest.js';

const DAY = 86_400_000;
const T0 = 1_767_225_600_000; // 2026-01-01

/** `n` customers bought at day 0; the odd ones opt out on day 40 (expiring day 60), the even ones renew. */
function population(n: number): StoredRecord[] {
  const records: StoredRecord[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = { app_user_id: `c${i}` };
    records.push({ kind: 'event', event: ev('INITIAL_PURCHASE', T0, { ...id, expiration_at_ms: T0 + 30 * DAY }) });
    records.push({ kind: 'event', event: ev('RENEWAL', T0 + 30 * DAY, { ...id, expiration_at_ms: T0 + 60 * DAY }) });
    if (i % 2 === 1) {
      records.push({ kind: 'event', event: ev('CANCELLATION', T0 + 40 * DAY, { ...id, cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 60 * DAY }) });
      records.push({ kind: 'event', event: ev('EXPIRATION', T0 + 60 * DAY, { ...id, expiration_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 60 * DAY }) });
    } else {
      records.push({ kind: 'event', event: ev('RENEWAL', T0 + 60 * DAY, { ...id, expiration_at_ms: T0 + 90 * DAY }) });
      records.push({ kind: 'event', event: ev('RENEWAL', T0 + 90 * DAY, { ...id, expiration_at_ms: T0 + 120 * DAY }) });
    }
  }
  return records;
}

describe('backtest', () => {
  it('ranks the opted-out subscribers above the renewing ones: ROC AUC 1 at a cutoff after the opt-outs', () => {
    const report = backtest(population(80), { cutoffs: [T0 + 45 * DAY] });
    expect(report.ok).toBe(true);
    if (!report.ok) return;
    const { pooled } = report.value;
    expect(pooled.subscribers).toBe(80);
    expect(pooled.churned).toBe(40);
    expect(pooled.base_rate).toBe(0.5);
    expect(pooled.roc_auc).toBe(1);
    expect(pooled.pr_auc).toBe(1);
    expect(pooled.too_few_positives).toBe(false);
    // The calibration separates them exactly: probability 1 for the pending cancellations' score.
    expect(pooled.brier).toBe(0);
  });

  it('before the opt-outs the score cannot tell them apart: ROC AUC 0.5', () => {
    const report = backtest(population(80), { cutoffs: [T0 + 35 * DAY] });
    expect(report.ok && report.value.pooled.roc_auc).toBe(0.5);
  });

  it('reports per cutoff and pooled, and warns when there are too few churners', () => {
    const report = backtest(population(16), { from: T0 + 35 * DAY, to: T0 + 45 * DAY, step_ms: 5 * DAY });
    expect(report.ok).toBe(true);
    if (!report.ok) return;
    expect(report.value.cutoffs.map((c) => c.at)).toEqual([T0 + 35 * DAY, T0 + 40 * DAY, T0 + 45 * DAY]);
    expect(report.value.pooled.subscribers).toBe(report.value.cutoffs.reduce((sum, c) => sum + c.metrics.subscribers, 0));
    expect(report.value.pooled.churned).toBeLessThan(MIN_POSITIVES);
    expect(report.value.pooled.too_few_positives).toBe(true);
    expect(report.value.warnings.some((w) => w.includes('under 30'))).toBe(true);
  });

  it('says which signals had no data', () => {
    const report = backtest(population(10), { cutoffs: [T0 + 45 * DAY] });
    expect(report.ok && report.value.signals.billing_failures.nonzero).toBe(0);
    expect(report.ok && report.value.signals.renewals.nonzero).toBe(10);
    expect(report.ok && report.value.warnings.some((w) => w.includes('billing_failures signal was 0'))).toBe(true);
  });

  it('refuses a horizon longer than the history, an empty window, and a cutoff whose outcome is not known yet', () => {
    const records = population(4);
    expect(backtest(records, { horizon_ms: 200 * DAY })).toMatchObject({ ok: false, errors: [{ field: 'horizon_ms' }] });
    expect(backtest(records, { from: T0 + 50 * DAY, to: T0 + 40 * DAY })).toMatchObject({ ok: false, errors: [{ field: 'from' }] });
    expect(backtest(records, { cutoffs: [T0 + 80 * DAY] })).toMatchObject({ ok: false, errors: [{ field: 'cutoffs' }] });
    expect(backtest([], {})).toMatchObject({ ok: false, errors: [{ field: 'history' }] });
    expect(backtest(records, { cutoffs: [T0 + 40 * DAY], step_ms: DAY })).toMatchObject({ ok: false, errors: [{ field: 'cutoffs' }] });
    expect(backtest(records, { horizon_ms: -1 })).toMatchObject({ ok: false, errors: [{ field: 'horizon_ms' }] });
  });

  it('by default places weekly cutoffs from one horizon into the history to one horizon before its end', () => {
    const report = backtest(population(4));
    expect(report.ok).toBe(true);
    if (!report.ok) return;
    const ats = report.value.cutoffs.map((c) => c.at);
    expect(ats[0]).toBe(T0 + 30 * DAY);
    expect(ats.at(-1)! + 30 * DAY).toBeLessThanOrEqual(T0 + 90 * DAY);
    expect(ats[1]! - ats[0]!).toBe(7 * DAY);
  });

  it('feeds a progress callback, monotone up to its total, without changing a figure', () => {
    const records = population(20);
    const options = { from: T0 + 35 * DAY, to: T0 + 45 * DAY, step_ms: 5 * DAY };
    const seen: [number, number][] = [];
    const report = backtest(records, { ...options, onProgress: (done, total) => seen.push([done, total]) });
    expect(report).toEqual(backtest(records, options));
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]![0]).toBeGreaterThanOrEqual(seen[i - 1]![0]);
    // By customers walked: every customer of the history, once.
    const customers = report.ok ? report.value.history.customers : NaN;
    expect(seen.at(-1)).toEqual([customers, customers]);
  });
});
