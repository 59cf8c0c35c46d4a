/**
 * Deterministic histories for the evaluation commands' tests: a population of monthly subscribers
 * in the billing service's real webhook format (the shared fixtures) with app activity, some of
 * whom drift away (activity stops, then they cancel), hit billing failures, lapse without an
 * event, or try and drop a trial; and the same kind of population as a RevenueCat data export.
 * Seeded, so a failure replays with the same history.
 */
import { seededRandom, toExportLine, type StoredRecord } from '@tenure/core';
import { DAY, T0, handledEvent } from '../helpers/fixtures.js';
import { exportTime, toCsv, txRow } from '../import/exportCsv.js';

const MONTH = 30 * DAY;
/** Every story ends by then: the history spans about 300 days. */
export const HISTORY_END = T0 + 300 * DAY;

export type Kind = 'loyal' | 'drifter' | 'billing' | 'lapser' | 'trial';
const KINDS: readonly Kind[] = ['loyal', 'loyal', 'loyal', 'loyal', 'drifter', 'drifter', 'billing', 'lapser', 'trial', 'trial'];

/**
 * Given a number of customers, a seed and the kinds of customer to draw from, returns their
 * records (events and activity), in time order per customer. With every kind, about 4 in 10
 * customers churn before the end; loyal customers never do.
 */
export function generateHistory(customers: number, seed: number, kinds: readonly Kind[] = KINDS): StoredRecord[] {
  const random = seededRandom(seed);
  const records: StoredRecord[] = [];
  for (let c = 0; c < customers; c += 1) {
    const id = `cus_${seed}_${c}`;
    const kind = kinds[Math.floor(random() * kinds.length)]!;
    const start = T0 + Math.floor(random() * 200 * DAY);
    let n = 0;
    const add = (name: string, at: number, extra: Record<string, unknown> = {}) => {
      if (at >= HISTORY_END) return false;
      n += 1;
      records.push({
        kind: 'event',
        event: handledEvent(name, { id: `${id}-${n}`, app_user_id: id, event_timestamp_ms: at, purchased_at_ms: at, original_transaction_id: `otx-${id}`, ...extra }),
      });
      return true;
    };
    const active = (from: number, to: number) => {
      for (let at = from + DAY; at < Math.min(to, HISTORY_END); at += (2 + Math.floor(random() * 4)) * DAY) records.push({ kind: 'activity', customer_id: id, at });
    };
    // The month (from 1) at which the story turns: a drifter stops using the app, a billing customer's card fails.
    const turn = 1 + Math.floor(random() * 6);
    const trial = kind === 'trial';
    add(trial ? 'initial_purchase_trial' : 'initial_purchase', start, { expiration_at_ms: start + (trial ? 14 * DAY : MONTH) });
    if (trial) {
      active(start, start + (random() < 0.5 ? 14 * DAY : 5 * DAY));
      if (random() < 0.5) {
        add('expiration', start + 14 * DAY, { expiration_at_ms: start + 14 * DAY, expiration_reason: 'UNSUBSCRIBE', period_type: 'TRIAL' });
        continue;
      }
      add('renewal_trial_conversion', start + 14 * DAY, { expiration_at_ms: start + 14 * DAY + MONTH });
      active(start + 14 * DAY, HISTORY_END);
      for (let m = 1; add('renewal', start + 14 * DAY + m * MONTH, { expiration_at_ms: start + 14 * DAY + (m + 1) * MONTH }); m += 1);
      continue;
    }
    const end = start + turn * MONTH;
    active(start, kind === 'drifter' ? end - 40 * DAY : kind === 'lapser' ? end : HISTORY_END);
    for (let m = 1; m < (kind === 'loyal' ? 99 : turn); m += 1) if (!add('renewal', start + m * MONTH, { expiration_at_ms: start + (m + 1) * MONTH })) break;
    if (kind === 'drifter') {
      add('cancellation', end - 12 * DAY, { expiration_at_ms: end, cancel_reason: 'UNSUBSCRIBE' });
      add('expiration', end, { expiration_at_ms: end, expiration_reason: 'UNSUBSCRIBE' });
    } else if (kind === 'billing') {
      if (!add('billing_issue', end, { expiration_at_ms: end })) continue;
      if (random() < 0.4) {
        for (let m = 0; add('renewal', end + 3 * DAY + m * MONTH, { expiration_at_ms: end + 3 * DAY + (m + 1) * MONTH }); m += 1);
      } else add('expiration', end + 10 * DAY, { expiration_at_ms: end + 10 * DAY, expiration_reason: 'BILLING_ERROR' });
    }
    // A lapser's last period ends with no event at all: the backtest counts it lapsed.
  }
  return records;
}

/** The records as `tenure export` writes them: one JSON line each. */
export const toNdjson = (records: readonly StoredRecord[]): string => records.map((r) => `${JSON.stringify(toExportLine(r))}\n`).join('');

/**
 * Given a number of customers and a seed, returns a RevenueCat data export (CSV version 5) of
 * monthly subscribers: each renews until its last month; a third unsubscribe 10 days before their
 * last period ends, a tenth hit a billing issue in their last period.
 */
export function generateExportCsv(customers: number, seed: number): string {
  const random = seededRandom(seed);
  const rows: ReturnType<typeof txRow>[] = [];
  for (let c = 0; c < customers; c += 1) {
    const id = `rc_${seed}_${c}`;
    const start = T0 + Math.floor(random() * 150 * DAY);
    const quits = random() < 0.45;
    const months = quits ? 1 + Math.floor(random() * 8) : 99;
    const failing = quits && random() < 0.25;
    for (let m = 0; m < months; m += 1) {
      const from = start + m * MONTH;
      if (from >= HISTORY_END) break;
      const last = m === months - 1;
      rows.push(
        txRow({
          rc_original_app_user_id: id,
          rc_last_seen_app_user_id_alias: id,
          start_time: exportTime(from),
          end_time: exportTime(from + MONTH),
          store_transaction_id: `tx-${id}-${m}`,
          original_store_transaction_id: `otx-${id}`,
          renewal_number: String(m + 1),
          unsubscribe_detected_at: last && !failing ? exportTime(from + MONTH - 10 * DAY) : '',
          billing_issues_detected_at: last && failing ? exportTime(from + MONTH - DAY) : '',
          updated_at: exportTime(Math.min(HISTORY_END, last ? from + MONTH : from)),
          first_seen_time: exportTime(start - DAY),
        }),
      );
    }
  }
  return toCsv(rows);
}
