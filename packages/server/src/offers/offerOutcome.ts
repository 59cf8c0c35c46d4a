/** What became of one offer grant or revoke: the `outcome` label of `tenure_offers_total`. */

/**
 * What became of one offer, as `tenure_offers_total` counts it: a grant `granted` or `failed`
 * (RevenueCat refused or was unreachable), not tried within the person's cooldown
 * (`skipped_cooldown`) or past the day's cap (`skipped_cap`, automatic only), or lost to a failing
 * dispatch log (`error`); a revoke `revoked` or `revoke_failed`.
 */
export const OFFER_OUTCOMES = ['granted', 'failed', 'skipped_cooldown', 'skipped_cap', 'error', 'revoked', 'revoke_failed'] as const;
export type OfferOutcome = (typeof OFFER_OUTCOMES)[number];
