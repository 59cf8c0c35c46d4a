// Invariants of the export import: times round-trip, the header check names exactly what is
// missing, the derived subscribers do not depend on row order, and importing twice stores nothing new.
import { Readable } from 'node:stream';
import { DEFAULT_CONFIG, foldEventsByCustomer, parseWebhook, type HandledEvent } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/clock/clock.js';
import { createExportDeriver, eventsOfLatestRow, eventsOfRow, type DerivedEvent } from '../../src/import/deriveEvents.js';
import { EXPORT_V5_COLUMNS, REQUIRED_COLUMNS, checkExportHeader, type ColumnIndex } from '../../src/import/exportColumns.js';
import { parseExportRow, parseExportTime } from '../../src/import/exportRow.js';
import { importExport } from '../../src/import/importExport.js';
import { openExportReader } from '../../src/import/readExport.js';
import { createMemorySubscriberStore } from '../../src/store/memorySubscriberStore.js';
import { DAY, T0 } from '../helpers/fixtures.js';
import { exportTime, toCsv, txRow } from './exportCsv.js';

const HOUR = 3_600_000;

/** Rows of up to three customers' subscriptions: consecutive periods, with random marks. */
const rowsArb = fc
  .array(
    fc.record({
      customer: fc.constantFrom('a', 'b', 'c'),
      start: fc.integer({ min: 0, max: 200 * 24 }),
      periods: fc.array(
        fc.record({
          trial: fc.boolean(),
          optOut: fc.option(fc.integer({ min: 0, max: 29 * 24 }), { nil: null }),
          billing: fc.option(fc.integer({ min: 0, max: 20 * 24 }), { nil: null }),
          refund: fc.option(fc.integer({ min: 0, max: 29 * 24 }), { nil: null }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    }),
    { maxLength: 5 },
  )
  .map((subs) =>
    subs.flatMap((sub, s) =>
      sub.periods.map((p, i) => {
        const begins = T0 + sub.start * HOUR + i * 30 * DAY;
        const ends = begins + (p.trial && i === 0 ? 7 * DAY : 30 * DAY);
        const grace = p.billing === null ? null : ends + p.billing * HOUR;
        const refunded = p.refund === null ? null : begins + p.refund * HOUR;
        return txRow({
          rc_original_app_user_id: sub.customer,
          rc_last_seen_app_user_id_alias: sub.customer,
          store_transaction_id: `s${s}-${i}`,
          original_store_transaction_id: `s${s}-0`,
          start_time: exportTime(begins),
          end_time: exportTime(ends),
          is_trial_period: p.trial && i === 0 ? 'true' : 'false',
          is_trial_conversion: i === 1 && sub.periods[0]?.trial === true ? 'true' : 'false',
          renewal_number: String(i + 1),
          unsubscribe_detected_at: p.optOut === null ? '' : exportTime(begins + p.optOut * HOUR),
          billing_issues_detected_at: p.billing === null ? '' : exportTime(ends),
          grace_period_end_time: grace === null ? '' : exportTime(grace),
          refunded_at: refunded === null ? '' : exportTime(refunded),
          effective_end_time: exportTime(refunded ?? grace ?? ends),
          updated_at: exportTime(refunded ?? grace ?? ends),
        });
      }),
    ),
  );

/** Text of up to `max` characters, any Unicode (lone surrogates and U+0000 included), or a long id near the byte limits. */
const oddTextArb = (max: number) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: max }),
    fc.integer({ min: 200, max: 260 }).map((n) => 'x'.repeat(n)),
    fc.integer({ min: 60, max: 90 }).map((n) => '\u{1F600}'.repeat(n)),
  );
const oddTimeArb = fc.oneof(
  fc.integer({ min: 946_684_800, max: 4_102_444_799 }).map((s) => exportTime(s * 1000)),
  fc.constantFrom('', '2026-02-30 00:00:00', '1999-12-31 23:59:59', '2026-01-01T00:00:00.123456Z', 'soon'),
);
const oddNumberArb = fc.oneof(
  fc.double().map(String),
  fc.constantFrom('', '0', '-0', '1e308', '1e309', 'NaN', ' 1', '0x10', '9.99'),
);

/** Rows with arbitrary cells where the check has something to check: ids, times, numbers, flags, stores. */
const oddRowArb = fc
  .record({
    rc_original_app_user_id: oddTextArb(40),
    rc_last_seen_app_user_id_alias: oddTextArb(40),
    product_identifier: oddTextArb(20),
    product_duration: fc.oneof(fc.constantFrom('P1M', 'P1Y', 'P1W', 'P3M', 'P7D', 'PT1H', ''), oddTextArb(10)),
    store_transaction_id: oddTextArb(40),
    original_store_transaction_id: oddTextArb(20),
    store: fc.oneof(fc.constantFrom('app_store', 'PLAY_STORE', 'stripe'), oddTextArb(10)),
    purchased_currency: oddTextArb(5),
    presented_offering: oddTextArb(10),
    country: oddTextArb(4),
    start_time: oddTimeArb,
    end_time: oddTimeArb,
    effective_end_time: oddTimeArb,
    grace_period_end_time: oddTimeArb,
    refunded_at: oddTimeArb,
    unsubscribe_detected_at: oddTimeArb,
    billing_issues_detected_at: oddTimeArb,
    updated_at: oddTimeArb,
    auto_resume_time: oddTimeArb,
    price_in_usd: oddNumberArb,
    purchase_price_in_usd: oddNumberArb,
    price_in_purchased_currency: oddNumberArb,
    purchase_price_in_purchased_currency: oddNumberArb,
    takehome_percentage: oddNumberArb,
    tax_percentage: oddNumberArb,
    commission_percentage: oddNumberArb,
    renewal_number: fc.oneof(fc.integer({ min: 1, max: 999_999_999 }).map(String), fc.constantFrom('0', '1.5', '')),
    is_auto_renewable: fc.constantFrom('true', 'false', 'T', 'f', 'yes'),
    is_trial_period: fc.constantFrom('true', 'false'),
    is_in_intro_offer_period: fc.constantFrom('true', 'false'),
    is_sandbox: fc.constantFrom('true', 'false'),
    is_trial_conversion: fc.constantFrom('true', 'false'),
  })
  // A few odd cells per row, the others valid, so rows get past the check often enough to matter.
  .chain((odd) =>
    fc.subarray(Object.keys(odd) as (keyof typeof odd)[], { maxLength: 4 }).map((keys) => txRow(Object.fromEntries(keys.map((k) => [k, odd[k]])))),
  );

const asOfArb = fc.integer({ min: 0, max: 400 * 24 }).map((h) => T0 + h * HOUR);

async function importInto(store: ReturnType<typeof createMemorySubscriberStore>, csv: string, asOf: number) {
  const opened = await openExportReader(Readable.from([Buffer.from(csv)]));
  if (!opened.ok) throw new Error(opened.error.message);
  return importExport(store, opened.value, { clock: fixedClock(asOf), config: DEFAULT_CONFIG, asOf });
}

describe('export import invariants', () => {
  it('an export time read back is the same instant (whole seconds, 2000..2099)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 946_684_800, max: 4_102_444_799 }), (seconds) => {
        expect(parseExportTime(exportTime(seconds * 1000))).toBe(seconds * 1000);
      }),
    );
  });

  it('reads any YYYY-MM-DD HH:MM:SS text as Date does, refusing what does not exist or is out of range', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const partsArb = fc.tuple(fc.integer({ min: 1990, max: 2110 }), fc.nat(13), fc.nat(32), fc.nat(25), fc.nat(61), fc.nat(61), fc.constantFrom(' ', 'T'));
    fc.assert(
      fc.property(partsArb, ([y, mo, d, h, mi, sec, sep]) => {
        const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${sep}${pad(h, 2)}:${pad(mi, 2)}:${pad(sec, 2)}`;
        const t = Date.UTC(y, mo - 1, d, h, mi, sec);
        const back = new Date(t);
        const exists = back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && h <= 23 && mi <= 59 && sec <= 59;
        expect(parseExportTime(text)).toBe(exists && y >= 2000 && y <= 2099 ? t : null);
      }),
    );
  });

  it('the header check accepts the required columns in any order, and names exactly the missing ones', () => {
    const headerArb = fc
      .tuple(fc.shuffledSubarray([...REQUIRED_COLUMNS]), fc.uniqueArray(fc.string().map((e) => `x_${e}`)))
      .chain(([present, extra]) =>
        fc.shuffledSubarray([...present, ...extra], { minLength: present.length + extra.length }).map((header) => ({ present, header })),
      );
    fc.assert(
      fc.property(headerArb, ({ present, header }) => {
        const checked = checkExportHeader(header);
        const missing = REQUIRED_COLUMNS.filter((c) => !present.includes(c));
        if (missing.length === 0) expect(checked.ok).toBe(true);
        else expect(checked).toMatchObject({ ok: false, error: { missing } });
      }),
    );
  });

  it('every event derived from a row the check accepts is what parseWebhook returns for it (so the import does not parse it again)', () => {
    fc.assert(
      fc.property(oddRowArb, asOfArb, (cells, asOf) => {
        const parsed = parseExportRow(EXPORT_V5_COLUMNS.map((c) => cells[c] ?? ''), INDEX);
        if (!parsed.ok) return;
        for (const event of [...eventsOfRow(parsed.value), ...eventsOfLatestRow(parsed.value, asOf)]) {
          const checked = parseWebhook({ api_version: '1.0', event });
          expect(checked).toMatchObject({ ok: true, value: { handled: true } });
          if (checked.ok) expect(checked.value.event).toStrictEqual(event);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the subscribers derived from rows do not depend on the order of the rows', () => {
    const withOrder = rowsArb.chain((rows) => fc.shuffledSubarray(rows, { minLength: rows.length }).map((shuffled) => ({ rows, shuffled })));
    fc.assert(
      fc.property(withOrder, asOfArb, ({ rows, shuffled }, asOf) => {
        expect(subscribersOf(shuffled, asOf)).toEqual(subscribersOf(rows, asOf));
      }),
    );
  });

  it('importing the same file twice stores nothing new and changes no subscriber', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, asOfArb, async (rows, asOf) => {
        const store = createMemorySubscriberStore();
        const csv = toCsv(rows);
        const first = await importInto(store, csv, asOf);
        const before = [];
        for await (const s of store.list()) before.push(s);
        const second = await importInto(store, csv, asOf);
        const after = [];
        for await (const s of store.list()) after.push(s);
        expect(first.rejected).toBe(0);
        expect(second).toMatchObject({ new: 0, duplicate: first.new, rejected: 0 });
        expect(after).toEqual(before);
      }),
      { numRuns: 50 },
    );
  });
});

const INDEX = Object.fromEntries(EXPORT_V5_COLUMNS.map((c, i) => [c, i])) as unknown as ColumnIndex;

/** Rows → checked rows → derived events → the core's fold, per customer. */
function subscribersOf(rows: readonly Record<string, string>[], asOf: number) {
  const deriver = createExportDeriver();
  const events: HandledEvent[] = [];
  for (const r of rows) {
    const parsed = parseExportRow(EXPORT_V5_COLUMNS.map((c) => r[c] ?? ''), INDEX);
    if (!parsed.ok) throw new Error(`${parsed.error.field}: ${parsed.error.message}`);
    events.push(...deriver.add(parsed.value).map(handled));
  }
  events.push(...deriver.finish(asOf).map(handled));
  return foldEventsByCustomer(events);
}

function handled(event: DerivedEvent): HandledEvent {
  const parsed = parseWebhook({ api_version: '1.0', event });
  if (!parsed.ok || !parsed.value.handled) throw new Error(`not handled: ${event.type}`);
  return parsed.value.event;
}
