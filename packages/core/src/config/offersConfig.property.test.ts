import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationMs } from './offersConfig.js';

describe('durationMs', () => {
  it('reads any combination of weeks, days, hours, minutes and seconds as their sum, each part optional', () => {
    const part = fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined });
    fc.assert(
      fc.property(part, part, part, part, part, (w, d, h, m, s) => {
        const date = `${w === undefined ? '' : `${w}W`}${d === undefined ? '' : `${d}D`}`;
        const time = `${h === undefined ? '' : `${h}H`}${m === undefined ? '' : `${m}M`}${s === undefined ? '' : `${s}S`}`;
        const text = `P${date}${time === '' ? '' : `T${time}`}`;
        const expected = ((((w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (m ?? 0)) * 60_000 + (s ?? 0) * 1000;
        expect(durationMs(text)).toBe(text === 'P' ? undefined : expected);
      }),
    );
  });

  it('refuses the parts out of order (a duration is written largest unit first)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), (a, b) => {
        expect(durationMs(`P${a}D${b}W`)).toBeUndefined();
        expect(durationMs(`PT${a}M${b}H`)).toBeUndefined();
      }),
    );
  });
});
