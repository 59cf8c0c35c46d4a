import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handledEventArb } from '../testing/index.js';
import { parseExportLine, toExportLine, toMovedSubscriptionLine } from './exportLine.js';
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

  describe('moved-subscription lines', () => {
    const line = (original_transaction_id: unknown, receiver: unknown) => parseExportLine({ moved_subscription: { original_transaction_id, receiver } });

    it('a route parses back to the same route, and is written in the documented shape', () => {
      const route = { original_transaction_id: '1000000123456789', receiver: 'user_42' };
      expect(JSON.stringify(toMovedSubscriptionLine(route))).toBe('{"moved_subscription":{"original_transaction_id":"1000000123456789","receiver":"user_42"}}');
      expect(parseExportLine(JSON.parse(JSON.stringify(toMovedSubscriptionLine(route))))).toEqual({ ok: true, value: { record: null, moved_subscription: route } });
      // Any non-empty string is a subscription a transfer can move: no length limit on it.
      const long = { original_transaction_id: 'x'.repeat(1000), receiver: '$RCAnonymousID:ab' };
      expect(parseExportLine(toMovedSubscriptionLine(long))).toEqual({ ok: true, value: { record: null, moved_subscription: long } });
      // Members the format does not have are left out, as on the other lines.
      expect(parseExportLine({ moved_subscription: { ...route, at: 1 } })).toEqual({ ok: true, value: { record: null, moved_subscription: route } });
    });

    it('names the field of a bad route line', () => {
      const field = (value: unknown) => {
        const parsed = parseExportLine(value);
        return parsed.ok ? null : parsed.errors[0]?.field;
      };
      for (const bad of ['x', null, [], 5]) expect(field({ moved_subscription: bad })).toBe('moved_subscription');
      for (const bad of [undefined, null, 7, '', 'a\u0000b', '\uD800']) expect(field({ moved_subscription: { original_transaction_id: bad, receiver: 'u1' } })).toBe('moved_subscription.original_transaction_id');
      for (const bad of [undefined, null, 7, '', 'u'.repeat(257), 'a\u0000b']) expect(field({ moved_subscription: { original_transaction_id: 'otx_1', receiver: bad } })).toBe('moved_subscription.receiver');
      expect(line('', '')).toEqual({ ok: false, errors: [{ field: 'moved_subscription.original_transaction_id', message: 'Must not be empty' }] });
      expect(line('otx_1', 'u'.repeat(257))).toEqual({ ok: false, errors: [{ field: 'moved_subscription.receiver', message: 'Must be at most 256 bytes of UTF-8' }] });
    });
  });
});
