import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handledEventArb } from '../testing/index.js';
import { parseExportLine, toExportLine } from './exportLine.js';
import type { StoredRecord } from './subscriberStore.js';

const AT = 1_762_000_000_000;

const roundTrip = (record: StoredRecord) => parseExportLine(JSON.parse(JSON.stringify(toExportLine(record))));

describe('export lines', () => {
  it('an event line parses back to the same event', () => {
    fc.assert(
      fc.property(handledEventArb, (event) => {
        expect(roundTrip({ kind: 'event', event })).toEqual({ ok: true, value: { record: { kind: 'event', event } } });
      }),
    );
  });

  it('an activity line parses back to the same activity', () => {
    expect(roundTrip({ kind: 'activity', customer_id: 'u1', at: AT })).toEqual({ ok: true, value: { record: { kind: 'activity', customer_id: 'u1', at: AT } } });
  });

  it('names the field of a bad line and never throws', () => {
    for (const at of [-1, 5, 2 ** 53 - 1]) {
      expect(parseExportLine({ activity: { customer_id: 'u1', at } })).toMatchObject({ ok: false, errors: [{ field: 'activity.at' }] });
    }
    expect(parseExportLine({ activity: { customer_id: 'u'.repeat(257), at: AT } })).toMatchObject({ ok: false, errors: [{ field: 'activity.customer_id' }] });
    expect(parseExportLine({ activity: 'x' })).toMatchObject({ ok: false, errors: [{ field: 'activity' }] });
    expect(parseExportLine({ event: { type: 'RENEWAL', id: 'e1', event_timestamp_ms: AT } })).toMatchObject({ ok: false, errors: [{ field: 'event.app_user_id' }] });
    expect(parseExportLine({ event: { type: 'TEST', id: 'e1' } })).toEqual({ ok: true, value: { record: null, ignored_type: 'TEST' } });
    fc.assert(fc.property(fc.jsonValue(), (value) => void parseExportLine(value)));
  });
});
