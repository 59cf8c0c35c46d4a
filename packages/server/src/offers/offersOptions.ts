/** The `offers` option of the retention service, resolved into its offer grants. */
import type { Offer } from '@tenure/core';
import { createApiV2Client } from '../backfill/apiV2Client.js';
import { DEFAULT_API_BASE_URL } from '../backfill/backfillArgs.js';
import { createOfferGrants, type OfferGrants, type OfferGrantsDeps } from './offerGrants.js';

/** Offers and how to reach RevenueCat's API v2 to grant them. */
export interface OffersOptions {
  /** `resolveOffers(file.offers)` of `@tenure/core`. */
  offers: readonly Offer[];
  /** The secret API v2 key (`REVENUECAT_API_KEY`). */
  apiKey: string;
  /** The project id (`--revenuecat-project`). */
  project: string;
  /** Default `https://api.revenuecat.com/v2`. */
  baseUrl?: string | undefined;
  /** Per grant request; default 10 000 ms (a person waits for it). */
  timeoutMs?: number;
}

/**
 * Given the option (or undefined) and the service's log, clock and logger, returns the offer grants,
 * or undefined without offers. A person waits for a grant's answer, so the client retries a 5xx or a
 * network failure once and waits out one 429.
 *
 * @example
 * const offers = offerGrantsOf(options.offers, { log: store.dispatchLog, clock, logger });
 */
export function offerGrantsOf(option: OffersOptions | undefined, deps: Pick<OfferGrantsDeps, 'log' | 'clock' | 'logger' | 'onOutcome'>): OfferGrants | undefined {
  if (option === undefined || option.offers.length === 0) return undefined;
  const api = createApiV2Client({ baseUrl: option.baseUrl ?? DEFAULT_API_BASE_URL, apiKey: option.apiKey, timeoutMs: option.timeoutMs ?? 10_000, maxRetries: 1, maxRateLimitWaits: 1 });
  return createOfferGrants({ offers: option.offers, api, project: option.project, ...deps });
}
