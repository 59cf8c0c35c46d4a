// Extensions in the export (issue #10 §3): the export has no SUBSCRIPTION_EXTENDED, only a later
// end_time; product_duration, the standard period, tells the two apart, so an imported subscriber
// has the period it paid for and the end it was extended to, as its webhooks would give.
import { foldEvents, type HandledEvent } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { eventsOfRow } from '../../src/import/deriveEvents.js';
import { EXPORT_V5_COLUMNS } from '../../src/import/exportColumns.js';
import { parseExportRow, type ExportRow } from '../../src/import/exportRow.js';
import { extendedFrom } from '../../src/import/rowExtension.js';
import { exportTime, txRow, type ExportRowInput } from './exportCsv.js';

const DAY = 86_400_000;
const at = (y: number, m: number, d: number, h = 9) => Date.UTC(y, m - 1, d, h);
const index = Object.fromEntries(EXPORT_V5_COLUMNS.map((c, i) => [c, i])) as Parameters<typeof parseExportRow>[1];

/** A monthly row from `start` to `end`, last changed at `updated` (default: its start). */
function row(start: number, end: number, over: ExportRowInput = {}, updated = start): ExportRow {
  const full = txRow({ start_time: exportTime(start), end_time: exportTime(end), effective_end_time: exportTime(end), updated_at: exportTime(updated), ...over });
  const r = parseExportRow(EXPORT_V5_COLUMNS.map((c) => full[c]), index);
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

const byType = (events: readonly HandledEvent[], type: string) => events.filter((e) => e.type === type);

describe('extendedFrom', () => {
  it('returns the standard end of a period that ends more than a day after it', () => {
    expect(extendedFrom(row(at(2026, 1, 10), at(2026, 2, 20)))).toBe(at(2026, 2, 10));
    expect(extendedFrom(row(at(2026, 1, 10), at(2027, 2, 1), { product_duration: 'P1Y' }))).toBe(at(2027, 1, 10));
    expect(extendedFrom(row(at(2026, 1, 10), at(2026, 1, 20), { product_duration: 'P1W' }))).toBe(at(2026, 1, 17));
  });

  it('reads no extension in a standard period, nor in one a day longer (a renewal charged a day early)', () => {
    expect(extendedFrom(row(at(2026, 1, 10), at(2026, 2, 10)))).toBeNull();
    expect(extendedFrom(row(at(2026, 1, 10), at(2026, 2, 11)))).toBeNull();
    expect(extendedFrom(row(at(2026, 1, 10), at(2026, 2, 11) + 1000))).toBe(at(2026, 2, 10));
  });

  it('reads none in a period from a short month\u2019s last day to the anchor day (Feb 28 to Mar 31 of a subscription bought on the 31st)', () => {
    expect(extendedFrom(row(at(2026, 2, 28), at(2026, 3, 31)))).toBeNull();
    expect(extendedFrom(row(at(2026, 4, 30), at(2026, 5, 31)))).toBeNull();
    // Past the month's last day by more than a day, it is one; from a day that is not the month's last, no room.
    expect(extendedFrom(row(at(2026, 2, 28), at(2026, 4, 2)))).toBe(at(2026, 3, 28));
    expect(extendedFrom(row(at(2026, 2, 27), at(2026, 3, 31)))).toBe(at(2026, 3, 27));
  });

  it('cannot tell for a trial, an introductory period, a one-time purchase or a row without a duration', () => {
    const long = (over: ExportRowInput) => extendedFrom(row(at(2026, 1, 10), at(2026, 3, 1), over));
    expect(long({ is_trial_period: 'true' })).toBeNull();
    expect(long({ is_in_intro_offer_period: 'true' })).toBeNull();
    expect(long({ product_duration: '' })).toBeNull();
    expect(long({ product_duration: 'monthly' })).toBeNull();
    expect(extendedFrom(row(at(2026, 1, 10), at(2026, 3, 1), { is_auto_renewable: 'false', end_time: '', effective_end_time: '' }))).toBeNull();
  });
});

describe('the events of an extended row', () => {
  it('buy the standard period, then SUBSCRIPTION_EXTENDED moves its end, just before the row\u2019s last change', () => {
    const r = row(at(2026, 1, 10), at(2026, 2, 20), {}, at(2026, 1, 15));
    const events = eventsOfRow(r);
    expect(events.map((e) => e.type)).toEqual(['INITIAL_PURCHASE', 'SUBSCRIPTION_EXTENDED']);
    expect(events[0]).toMatchObject({ expiration_at_ms: at(2026, 2, 10), purchased_at_ms: at(2026, 1, 10) });
    expect(events[1]).toMatchObject({ id: `export:${r.store_transaction_id}:SUBSCRIPTION_EXTENDED`, event_timestamp_ms: at(2026, 1, 15) - 1, expiration_at_ms: at(2026, 2, 20) });
    const s = foldEvents(events)!;
    expect(s).toMatchObject({ state: 'active', period_ends_at: at(2026, 2, 20) });
    expect(s.revenue?.period_ms).toBe(31 * DAY); // the month paid for, not the 41 days of access
  });

  it('an opt-out before the extension names the standard end; one after it, the extended end', () => {
    // Opted out on Jan 12, extended on Jan 15 (the row's last change): the opt-out came first.
    const before = eventsOfRow(row(at(2026, 1, 10), at(2026, 2, 20), { unsubscribe_detected_at: exportTime(at(2026, 1, 12)) }, at(2026, 1, 15)));
    expect(byType(before, 'CANCELLATION')[0]).toMatchObject({ expiration_at_ms: at(2026, 2, 10) });
    // Opted out on Jan 18, the row's last change: the extension came before it.
    const after = eventsOfRow(row(at(2026, 1, 10), at(2026, 2, 20), { unsubscribe_detected_at: exportTime(at(2026, 1, 18)) }, at(2026, 1, 18)));
    expect(byType(after, 'CANCELLATION')[0]).toMatchObject({ expiration_at_ms: at(2026, 2, 20) });
    expect(byType(after, 'SUBSCRIPTION_EXTENDED')[0]?.event_timestamp_ms).toBe(at(2026, 1, 18) - 1);
    for (const events of [before, after]) {
      expect(foldEvents(events)).toMatchObject({ state: 'pending_cancel', period_ends_at: at(2026, 2, 20) });
      expect(foldEvents(events)?.revenue?.period_ms).toBe(31 * DAY); // the charge's period (docs/rules.md, revenue)
    }
  });

  it('leave an unextended row as before: one purchase to its end', () => {
    expect(eventsOfRow(row(at(2026, 1, 10), at(2026, 2, 10)))).toEqual([expect.objectContaining({ type: 'INITIAL_PURCHASE', expiration_at_ms: at(2026, 2, 10) })]);
  });
});
