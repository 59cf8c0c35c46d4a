/**
 * A deterministic stream of real-format webhook bodies (the fixtures with their ids, customers and
 * times replaced) for many customers: purchases and trials, renewals and trial conversions, billing
 * issues, cancellations, uncancellations, product changes, top-ups, expirations, and a few event
 * types tenure ignores. Seeded, so a failure replays with the same stream.
 */
import { parseWebhook, type HandledEvent } from '@tenure/core';
import { seededRandom } from '@tenure/core';
import { DAY, fixture, T0, type WebhookBody } from '../helpers/fixtures.js';

/** The core's seeded PRNG (mulberry32): the same seed gives the same stream on every run. */
export { seededRandom };

/** Fisher-Yates with the given PRNG; returns a new array. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface StreamOptions {
  customers: number;
  seed: number;
  /** Customer ids are `${prefix}${n}`; a few get non-ASCII suffixes (code point order, URL encoding) unless `asciiIds`. */
  prefix?: string;
  asciiIds?: boolean;
  /** Share of customers whose story ends in a billing issue (an immediate alert). Default 0.2. */
  billingShare?: number;
  /** Share of customers whose story ends in an expiration (an immediate win-back alert). Default 0.1. */
  churnShare?: number;
}

export interface CustomerStory {
  customer_id: string;
  /** In the order they happened (the fold does not depend on it). */
  bodies: WebhookBody[];
  /** The event that makes this customer's final recommendation immediate, if any. */
  immediate: WebhookBody | undefined;
}

const SUFFIXES = ['', '', '', '', '', '', '', 'é', 'ß', '日本', '🐙'];

/**
 * Given the options, returns one story per customer: 1 to ~17 webhook bodies each (about 7 on average), every one a valid
 * RevenueCat-format body with a unique `event.id`. All times lie between T0 and T0 + ~340 days.
 */
export function generateStories(options: StreamOptions): CustomerStory[] {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const billingShare = options.billingShare ?? 0.2;
  const churnShare = options.churnShare ?? 0.1;
  const stories: CustomerStory[] = [];
  for (let n = 0; n < options.customers; n++) {
    const suffix = pick(SUFFIXES);
    const customer = `${options.prefix ?? 'cus_'}${n}${options.asciiIds === true ? '' : suffix}`;
    const start = T0 + Math.floor(random() * 20 * DAY);
    let seq = 0;
    const bodies: WebhookBody[] = [];
    const add = (name: Parameters<typeof fixture>[0], at: number, overrides: Record<string, unknown> = {}) => {
      const body = fixture(name, {
        id: `${customer}-${seq++}-${Math.floor(random() * 1e9).toString(36)}`,
        app_user_id: customer,
        event_timestamp_ms: at,
        ...(name === 'test' || name === 'transfer' ? {} : { purchased_at_ms: at }),
        ...overrides,
      });
      bodies.push(body);
      return body;
    };
    const trial = random() < 0.3;
    add(trial ? 'initial_purchase_trial' : 'initial_purchase', start, { expiration_at_ms: start + (trial ? 14 : 30) * DAY });
    let t = start + (trial ? 14 : 30) * DAY;
    const renewals = Math.floor(random() * 11);
    for (let r = 0; r < renewals; r++) {
      add('renewal', t, { expiration_at_ms: t + 30 * DAY, is_trial_conversion: trial && r === 0, period_type: 'NORMAL' });
      t += 30 * DAY;
    }
    if (random() < 0.15) add('product_change', t - 3 * DAY, { expiration_at_ms: t, new_product_id: pick(['pro_yearly', 'pro_monthly', 'team_monthly']) });
    if (random() < 0.15) add('non_renewing_purchase', t - 5 * DAY, { expiration_at_ms: null });
    // A TRANSFER is applied through the store (moving histories; its own tests cover it): the stream keeps to events and ignored types.
    if (random() < 0.05) add('test', t - 2 * DAY - 1);
    if (random() < 0.05) add('test', t - 2 * DAY);
    let immediate: WebhookBody | undefined;
    const ending = random();
    if (ending < billingShare) {
      if (random() < 0.5) add('billing_issue', t - 10 * DAY, { expiration_at_ms: t });
      // A grace period ending within grace_urgent_days (3): the immediate actions (a longer one gets a soon reminder).
      immediate = add('billing_issue', t + DAY, { expiration_at_ms: t + 30 * DAY, grace_period_expiration_at_ms: t + 2 * DAY });
    } else if (ending < billingShare + churnShare) {
      add('cancellation', t - 4 * DAY, { expiration_at_ms: t });
      immediate = add('expiration', t + 1, { expiration_at_ms: t });
    } else if (ending < billingShare + churnShare + 0.2) {
      add('cancellation', t - 4 * DAY, { expiration_at_ms: t });
      if (random() < 0.4) add('uncancellation', t - 2 * DAY, { expiration_at_ms: t });
    }
    stories.push({ customer_id: customer, bodies, immediate });
  }
  return stories;
}

/** Given a body, returns its handled event, or undefined for a type tenure ignores (TEST). Throws on an invalid body. */
export function handledEvent(body: WebhookBody): HandledEvent | undefined {
  const parsed = parseWebhook(body);
  if (!parsed.ok) throw new Error(`generated an invalid webhook: ${JSON.stringify(parsed.errors)}`);
  return parsed.value.handled ? parsed.value.event : undefined;
}

/** The `event.id` of a body. */
export const eventId = (body: WebhookBody): string => body.event['id'] as string;
