// Invariants of the export import: times round-trip, the header check names exactly what is
// missing, the derived subscribers do not depend on row order, and importing twice stores nothing new.
import { Readable } from 'node:stream';
import { DEFAULT_CONFIG, foldEventsByCustomer, parseWebhook, type HandledEvent } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/clock/clock.js';
import { createExportDeriver, type DerivedEvent } from '../../src/import/deriveEvents.js';
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
