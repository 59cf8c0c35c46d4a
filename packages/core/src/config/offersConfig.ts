/**
 * One-click offers in the configuration file (`offers`): per recommended action, the entitlement to
 * grant through RevenueCat and for how long, and whether it is granted automatically (with a daily
 * cap per offer and a cooldown per person). The schema names each bad field; `resolveOffers` fills
 * in the defaults and turns durations into milliseconds.
 */
import { z } from 'zod';
import { ACTIONS, type Action } from '../recommend/recommendation.js';

/** An offer's defaults: granted by hand only, at most 20 automatic grants a UTC day, 30 days between two grants to one person. */
export const OFFER_DEFAULTS = { auto: false, daily_cap: 20, cooldown: 'P30D' } as const;

const DAY_MS = 86_400_000;
/** Durations and cooldowns are at most ten years, so no instant overflows. */
const MAX_DURATION_MS = 3650 * DAY_MS;

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * Given an ISO-8601 duration of weeks, days, hours, minutes and seconds (`P7D`, `P1W`, `PT12H`,
 * `P1DT6H`), returns it in ms, or undefined when the text is not one (years and months have no fixed
 * length, so `P1M` is refused: write `P30D`). Pure.
 *
 * @example
 * durationMs('P7D'); // 604_800_000
 */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (m === null || text === 'P' || text.endsWith('T')) return undefined;
  const [w, d, h, min, s] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number];
  return (((w * 7 + d) * 24 + h) * 60 + min) * 60_000 + s * 1000;
}

const duration = (what: string) =>
  z.string().superRefine((text, ctx) => {
    const ms = durationMs(text);
    if (ms === undefined) ctx.addIssue({ code: 'custom', message: `${what} must be an ISO-8601 duration of weeks, days, hours, minutes or seconds (P7D, P1W, PT12H), got "${text}"${/^P.*[YM]/.test(text) && !text.includes('T') ? ' (years and months have no fixed length: use days)' : ''}` });
    else if (ms <= 0) ctx.addIssue({ code: 'custom', message: `${what} must be longer than zero, got "${text}"` });
    else if (ms > MAX_DURATION_MS) ctx.addIssue({ code: 'custom', message: `${what} must be at most ten years (P3650D), got "${text}"` });
  });

const offerSchema = z.strictObject({
  entitlement: z.string().min(1).max(255),
  duration: duration('duration'),
  auto: z.boolean().optional(),
  daily_cap: z.number().int().min(0).max(100_000).optional(),
  cooldown: duration('cooldown').optional(),
});

/**
 * The `offers` section: keys are recommended actions (`winback`, `loyalty_discount`, …), each an
 * offer; unknown actions and keys are refused.
 *
 * @example
 * offersSchema.safeParse({ winback: { entitlement: 'pro', duration: 'P7D' } }).success; // true
 */
export const offersSchema = z.strictObject(
  Object.fromEntries(ACTIONS.map((action) => [action, offerSchema.optional()])) as Record<Action, z.ZodOptional<typeof offerSchema>>,
);

/** The `offers` section as written in the file. */
export type OffersConfig = z.output<typeof offersSchema>;

/** One offer with every default filled in and its durations in ms. */
export interface Offer {
  action: Action;
  entitlement: string;
  /** As written (`P7D`), for answers and the dashboard. */
  duration: string;
  duration_ms: number;
  auto: boolean;
  daily_cap: number;
  cooldown: string;
  cooldown_ms: number;
}

/**
 * Given the file's `offers` section (validated by `offersSchema`), returns each offer with the
 * defaults (`OFFER_DEFAULTS`) filled in, in the order of `ACTIONS`. Pure.
 *
 * @example
 * resolveOffers({ winback: { entitlement: 'pro', duration: 'P7D' } })[0]; // { action: 'winback', duration_ms: 604_800_000, auto: false, daily_cap: 20, cooldown: 'P30D', … }
 */
export function resolveOffers(section: OffersConfig | undefined): Offer[] {
  return ACTIONS.flatMap((action): Offer[] => {
    const given = section?.[action];
    if (given === undefined) return [];
    const cooldown = given.cooldown ?? OFFER_DEFAULTS.cooldown;
    return [
      {
        action,
        entitlement: given.entitlement,
        duration: given.duration,
        duration_ms: durationMs(given.duration)!,
        auto: given.auto ?? OFFER_DEFAULTS.auto,
        daily_cap: given.daily_cap ?? OFFER_DEFAULTS.daily_cap,
        cooldown,
        cooldown_ms: durationMs(cooldown)!,
      },
    ];
  });
}
