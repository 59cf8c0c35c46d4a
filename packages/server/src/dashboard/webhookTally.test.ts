import { describe, expect, it } from 'vitest';
import { createWebhookTally } from './webhookTally.js';

const MINUTE = 60_000;

describe('createWebhookTally', () => {
  it('counts every answer as received and those of status 400 or more as rejected', () => {
    const tally = createWebhookTally(() => 0);
    for (const status of [200, 200, 400, 401, 413, 503]) tally.record(status);
    expect(tally.lastHour()).toEqual({ received: 6, rejected: 4 });
  });

  it('keeps the last 60 minutes only, the current one included', () => {
    let now = 10 * MINUTE;
    const tally = createWebhookTally(() => now);
    tally.record(200); // minute 10
    now = 40 * MINUTE;
    tally.record(500); // minute 40
    now = 69 * MINUTE + 59_999; // minute 69: minute 10 is 59 minutes old, still in
    expect(tally.lastHour()).toEqual({ received: 2, rejected: 1 });
    now = 70 * MINUTE; // minute 10 is out
    expect(tally.lastHour()).toEqual({ received: 1, rejected: 1 });
    tally.record(200); // minute 70 reuses minute 10's slot, starting from zero
    expect(tally.lastHour()).toEqual({ received: 2, rejected: 1 });
    now = 200 * MINUTE;
    expect(tally.lastHour()).toEqual({ received: 0, rejected: 0 });
  });
});
