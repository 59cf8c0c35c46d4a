import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import { DAY, T0 } from '@tenure/testkit';
import { applyEvent } from './applyEvent.js';
import { recordActivity } from './recordActivity.js';

describe('recordActivity', () => {
  const renewed = applyEvent(undefined, ev('RENEWAL', T0));

  it('moves last_activity_at forward to the reported time', () => {
    expect(recordActivity(renewed, T0 + DAY).last_activity_at).toBe(T0 + DAY);
  });
  it('ignores a report older than the latest activity', () => {
    const active = recordActivity(renewed, T0 + 2 * DAY);
    expect(recordActivity(active, T0 + DAY)).toBe(active);
  });
  it('changes nothing but last_activity_at', () => {
    const next = recordActivity(renewed, T0 + DAY);
    expect({ ...next, last_activity_at: renewed.last_activity_at }).toEqual(renewed);
  });
});
