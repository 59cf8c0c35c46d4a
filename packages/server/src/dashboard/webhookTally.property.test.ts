import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWebhookTally } from './webhookTally.js';

const MINUTE = 60_000;

describe('createWebhookTally (property)', () => {
  it('always equals a plain list of answers filtered to the last 60 minutes', () => {
    const step = fc.record({ advance: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 90 * MINUTE })), status: fc.constantFrom(200, 400, 401, 413, 503) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.array(step, { maxLength: 200 }), (start, steps) => {
        let now = start;
        const tally = createWebhookTally(() => now);
        const answers: { minute: number; status: number }[] = [];
        for (const { advance, status } of steps) {
          now += advance;
          tally.record(status);
          answers.push({ minute: Math.floor(now / MINUTE), status });
          const current = Math.floor(now / MINUTE);
          const recent = answers.filter((a) => current - a.minute < 60);
          expect(tally.lastHour()).toEqual({ received: recent.length, rejected: recent.filter((a) => a.status >= 400).length });
        }
      }),
    );
  });
});
