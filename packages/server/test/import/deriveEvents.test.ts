import { DEFAULT_CONFIG, foldEvents, parseWebhook, type HandledEvent, type Subscriber } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { EXPORT_V5_COLUMNS } from '../../src/import/exportColumns.js';
import { createExportDeriver, EVENT_ID_OVERHEAD, eventsOfLatestRow } from '../../src/import/deriveEvents.js';
import { parseExportRow, parseExportTime, type ExportRow } from '../../src/import/exportRow.js';
import { DAY, T0 } from '../helpers/fixtures.js';
import { exportTime, txRow, type ExportRowInput } from './exportCsv.js';

void DEFAULT_CONFIG;
const index = Object.fromEntries(EXPORT_V5_COLUMNS.map((c, i) => [c, i])) as Parameters<typeof parseExportRow>[1];
const row = (over: ExportRowInput = {}): ExportRow => {
  const full = txRow(over);
  const r = parseExportRow(EXPORT_V5_COLUMNS.map((c) => full[c]), index);
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
};

/** Rows → events → the core's fold: the subscriber an import builds. */
function subscriberOf(rows: ExportRow[], asOf: number): Subscriber {
  const deriver = createExportDeriver();
  const events = [...rows.flatMap((r) => deriver.add(r)), ...deriver.finish(asOf)];
  const handled = events.flatMap((event): HandledEvent[] => {
    const parsed = parseWebhook({ api_version: '1.0', event });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return parsed.value.handled ? [parsed.value.event] : [];
  });
  const subscriber = foldEvents(handled);
  if (subscriber === undefined) throw new Error('no subscriber');
  return subscriber;
}

describe('parseExportTime', () => {
  it('reads the export format as UTC', () => {
    expect(parseExportTime('2026-01-01 00:00:00')).toBe(Date.UTC(2026, 0, 1));
    expect(parseExportTime('2023-02-20 05:47:55')).toBe(Date.parse('2023-02-20T05:47:55Z'));
  });
  it('refuses a date that does not exist, another format, and years outside 2000..2099', () => {
    expect(parseExportTime('2026-02-30 00:00:00')).toBeNull();
    expect(parseExportTime('01/02/2026 00:00')).toBeNull();
    expect(parseExportTime('1999-12-31 23:59:59')).toBeNull();
    expect(parseExportTime('2026-01-01 24:00:00')).toBeNull();
  });
});

describe('parseExportRow', () => {
  it('names the column of a bad cell', () => {
    const full = txRow({ is_trial_period: 'maybe' });
    const r = parseExportRow(EXPORT_V5_COLUMNS.map((c) => full[c]), index);
    expect(r).toMatchObject({ ok: false, error: { field: 'is_trial_period' } });
  });
  it('refuses an empty customer id and a renewal number below 1', () => {
    for (const [over, field] of [
      [{ rc_original_app_user_id: '' }, 'rc_original_app_user_id'],
      [{ renewal_number: '0' }, 'renewal_number'],
      [{ start_time: '' }, 'start_time'],
      [{ end_time: '' }, 'end_time'],
    ] as const) {
      const full = txRow(over);
      expect(parseExportRow(EXPORT_V5_COLUMNS.map((c) => full[c]), index)).toMatchObject({ ok: false, error: { field } });
    }
  });
  it('refuses a transaction id whose derived event ids would pass 256 bytes, naming store_transaction_id', () => {
    const cells = (id: string) => {
      const full = txRow({ store_transaction_id: id });
      return EXPORT_V5_COLUMNS.map((c) => full[c]);
    };
    expect(parseExportRow(cells('t'.repeat(256 - EVENT_ID_OVERHEAD)), index).ok).toBe(true);
    expect(parseExportRow(cells('t'.repeat(257 - EVENT_ID_OVERHEAD)), index)).toMatchObject({ ok: false, error: { field: 'store_transaction_id' } });
    // The longest id a row derives fits exactly.
    const longest = row({ store_transaction_id: 't'.repeat(256 - EVENT_ID_OVERHEAD), refunded_at: exportTime(T0 + DAY) });
    const ids = [...createExportDeriver().add(longest), ...eventsOfLatestRow(longest, T0 + 100 * DAY)].map((e) => e.id);
    expect(Math.max(...ids.map((id) => Buffer.byteLength(id)))).toBe(256);
  });
  it('maps the export store name to the webhook one', () => {
    expect(row({ store: 'play_store' }).store).toBe('PLAY_STORE');
  });
});

describe('deriving a subscriber from export rows', () => {
  const asOf = T0 + 10 * DAY;

  it('a trial that converted and renewed is active with one renewal per paid period', () => {
    const s = subscriberOf(
      [
        row({ store_transaction_id: 'a1', is_trial_period: 'true', end_time: exportTime(T0 + 7 * DAY), effective_end_time: exportTime(T0 + 7 * DAY), price_in_usd: '0' }),
        row({ store_transaction_id: 'a2', start_time: exportTime(T0 + 7 * DAY), end_time: exportTime(T0 + 37 * DAY), renewal_number: '2', is_trial_conversion: 'true' }),
        row({ store_transaction_id: 'a3', start_time: exportTime(T0 + 37 * DAY), end_time: exportTime(T0 + 67 * DAY), renewal_number: '3' }),
      ],
      T0 + 40 * DAY,
    );
    expect(s).toMatchObject({ state: 'active', renewals: 2, trial_started_at: T0, trial_ends_at: T0 + 7 * DAY, trial_converted_at: T0 + 7 * DAY, period_ends_at: T0 + 67 * DAY });
  });

  it('a running trial is trialing', () => {
    const s = subscriberOf([row({ is_trial_period: 'true', end_time: exportTime(T0 + 14 * DAY), effective_end_time: exportTime(T0 + 14 * DAY) })], asOf);
    expect(s).toMatchObject({ state: 'trialing', trial_ends_at: T0 + 14 * DAY });
  });

  it('an opt-out before the period end will not renew (pending_cancel), then expires after it', () => {
    const cancelled = row({ unsubscribe_detected_at: exportTime(T0 + 5 * DAY) });
    expect(subscriberOf([cancelled], asOf).state).toBe('pending_cancel');
    expect(subscriberOf([cancelled], T0 + 30 * DAY).state).toBe('churned');
  });

  it('a billing failure in its grace period is a billing issue with one failure; a grace end before the export expires it', () => {
    const failing = row({
      billing_issues_detected_at: exportTime(T0 + 30 * DAY),
      grace_period_end_time: exportTime(T0 + 46 * DAY),
      effective_end_time: exportTime(T0 + 46 * DAY),
    });
    expect(subscriberOf([failing], T0 + 31 * DAY)).toMatchObject({ state: 'billing_issue', billing_failures: 1 });
    expect(subscriberOf([failing], T0 + 47 * DAY)).toMatchObject({ state: 'churned', billing_failures: 1 });
  });

  it('a recovered billing failure is active again and still counts the failure', () => {
    const s = subscriberOf(
      [
        row({ store_transaction_id: 'b1', billing_issues_detected_at: exportTime(T0 + 30 * DAY), grace_period_end_time: exportTime(T0 + 46 * DAY), effective_end_time: exportTime(T0 + 46 * DAY) }),
        row({ store_transaction_id: 'b2', start_time: exportTime(T0 + 33 * DAY), end_time: exportTime(T0 + 63 * DAY), renewal_number: '2' }),
      ],
      T0 + 50 * DAY,
    );
    expect(s).toMatchObject({ state: 'active', billing_failures: 1, renewals: 1 });
  });

  it('a refund of the latest period ends the subscription at the refund', () => {
    const refunded = row({ refunded_at: exportTime(T0 + 3 * DAY), effective_end_time: exportTime(T0 + 3 * DAY), price_in_usd: '0' });
    expect(subscriberOf([refunded], asOf).state).toBe('refunded');
  });

  it('a refund of an earlier period does not end a subscription that renewed since', () => {
    const s = subscriberOf(
      [
        row({ store_transaction_id: 'c1', refunded_at: exportTime(T0 + 35 * DAY), effective_end_time: exportTime(T0 + 30 * DAY) }),
        row({ store_transaction_id: 'c2', start_time: exportTime(T0 + 30 * DAY), end_time: exportTime(T0 + 60 * DAY), renewal_number: '2' }),
      ],
      T0 + 40 * DAY,
    );
    expect(s.state).toBe('active');
  });

  it('the order of the rows does not matter', () => {
    const rows = [
      row({ store_transaction_id: 'd1' }),
      row({ store_transaction_id: 'd2', start_time: exportTime(T0 + 30 * DAY), end_time: exportTime(T0 + 60 * DAY), renewal_number: '2', unsubscribe_detected_at: exportTime(T0 + 40 * DAY) }),
    ];
    const a = subscriberOf(rows, T0 + 50 * DAY);
    const b = subscriberOf([...rows].reverse(), T0 + 50 * DAY);
    expect(b).toEqual(a);
    expect(a).toMatchObject({ state: 'pending_cancel', renewals: 1, period_ends_at: T0 + 60 * DAY });
  });

  it('gives every event an id derived from its transaction, the same on every import', () => {
    const r = row({ store_transaction_id: 'e1', unsubscribe_detected_at: exportTime(T0 + DAY) });
    const ids = () => {
      const d = createExportDeriver();
      return [...d.add(r), ...d.finish(T0 + 40 * DAY)].map((e) => e.id);
    };
    expect(ids()).toEqual(['export:e1:INITIAL_PURCHASE', 'export:e1:CANCELLATION:UNSUBSCRIBE', 'export:e1:EXPIRATION']);
    expect(ids()).toEqual(ids());
  });
});
