import { describe, expect, it } from 'vitest';
import { NOW, makeSubscriber } from '../../test/subscribers.js';
import { DAY } from '@tenure/testkit';
import { inactiveDays } from './inactiveDays.js';

describe('inactiveDays', () => {
  it('counts full days since the last activity', () => {
    expect(inactiveDays(makeSubscriber({ last_activity_at: NOW - 14 * DAY }), NOW)).toBe(14);
    expect(inactiveDays(makeSubscriber({ last_activity_at: NOW - 14 * DAY + 1 }), NOW)).toBe(13);
  });

  it('falls back to the first event when no activity was recorded', () => {
    expect(inactiveDays(makeSubscriber({ last_activity_at: null, first_event_at: NOW - 3 * DAY }), NOW)).toBe(3);
  });

  it('is 0 when now is before the reference time', () => {
    expect(inactiveDays(makeSubscriber({ last_activity_at: NOW + DAY }), NOW)).toBe(0);
  });
});
