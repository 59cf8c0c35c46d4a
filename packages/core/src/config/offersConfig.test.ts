import { describe, expect, it } from 'vitest';
import { validateConfigFile } from './configFile.js';
import { durationMs, OFFER_DEFAULTS, resolveOffers } from './offersConfig.js';

const DAY = 86_400_000;

describe('durationMs', () => {
  it('reads weeks, days, hours, minutes and seconds', () => {
    expect(durationMs('P7D')).toBe(7 * DAY);
    expect(durationMs('P1W')).toBe(7 * DAY);
    expect(durationMs('PT12H')).toBe(DAY / 2);
    expect(durationMs('P1DT6H30M15S')).toBe(DAY + 6 * 3_600_000 + 30 * 60_000 + 15_000);
  });

  it('refuses years and months (no fixed length), an empty duration and other text', () => {
    for (const text of ['P1M', 'P1Y', 'P', 'PT', 'P1DT', '7D', 'p7d', 'P-1D', 'P1.5D', '', 'P7D ']) expect(durationMs(text), text).toBeUndefined();
  });
});

describe('offers in the configuration file', () => {
  it('accepts offers per action and fills in the defaults: manual only, 20 a day, 30 days between grants to one person', () => {
    const file = validateConfigFile({ offers: { winback: { entitlement: 'pro', duration: 'P7D' }, loyalty_discount: { entitlement: 'pro', duration: 'P14D', auto: true, daily_cap: 5, cooldown: 'P60D' } } });
    expect(file.ok).toBe(true);
    if (!file.ok) return;
    expect(resolveOffers(file.value.offers)).toEqual([
      { action: 'winback', entitlement: 'pro', duration: 'P7D', duration_ms: 7 * DAY, auto: false, daily_cap: 20, cooldown: 'P30D', cooldown_ms: 30 * DAY },
      { action: 'loyalty_discount', entitlement: 'pro', duration: 'P14D', duration_ms: 14 * DAY, auto: true, daily_cap: 5, cooldown: 'P60D', cooldown_ms: 60 * DAY },
    ]);
    expect(OFFER_DEFAULTS).toEqual({ auto: false, daily_cap: 20, cooldown: 'P30D' });
    expect(resolveOffers(undefined)).toEqual([]);
  });

  it('names each bad field: an unknown action, a bad duration, a month, a negative cap, a missing entitlement, an unknown key', () => {
    const result = validateConfigFile({
      offers: {
        winbak: { entitlement: 'pro', duration: 'P7D' },
        winback: { entitlement: 'pro', duration: '7 days' },
        loyalty_discount: { entitlement: 'pro', duration: 'P1M' },
        trial_nudge: { entitlement: 'pro', duration: 'P1D', daily_cap: -1 },
        renewal_reminder: { duration: 'P1D' },
        pause_winback: { entitlement: 'pro', duration: 'P1D', cooldown: 'PT0S', colour: 'red' },
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byField = Object.fromEntries(result.errors.map((e) => [e.field, e.message]));
    expect(byField['offers.winbak']).toBe('unknown key');
    expect(byField['offers.winback.duration']).toMatch(/ISO-8601 duration.*"7 days"/);
    expect(byField['offers.loyalty_discount.duration']).toMatch(/years and months have no fixed length/);
    expect(byField['offers.trial_nudge.daily_cap']).toBeDefined();
    expect(byField['offers.renewal_reminder.entitlement']).toBeDefined();
    expect(byField['offers.pause_winback.cooldown']).toMatch(/longer than zero/);
    expect(byField['offers.pause_winback.colour']).toBe('unknown key');
  });

  it('refuses a duration over ten years', () => {
    const result = validateConfigFile({ offers: { winback: { entitlement: 'pro', duration: 'P3651D' } } });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['offers.winback.duration']);
  });
});
