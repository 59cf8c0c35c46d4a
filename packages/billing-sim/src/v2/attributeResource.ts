/** Customer attributes in API v2: the names it accepts, the set body, the `CustomerAttribute` and `CustomerAlias` objects. */
import { z } from 'zod';
import type { CustomerAttributes, CustomerState } from '../machine/world.js';

/** The reserved attribute names (`CustomerAttributeReservedName`). */
export const RESERVED_ATTRIBUTE_NAMES: readonly string[] = [
  '$ad', '$adGroup', '$adjustId', '$airbridgeDeviceId', '$airshipChannelId', '$amazonAdId', '$amplitudeDeviceId',
  '$amplitudeUserId', '$appleRefundHandlingPreference', '$appleAdsAdGroupId', '$appleAdsCampaignId',
  '$appleAdsKeywordId', '$apnsTokens', '$appsflyerId', '$appsflyerSharingFilter', '$attConsentStatus', '$branchId',
  '$brazeAliasLabel', '$brazeAliasName', '$campaign', '$clevertapId', '$creative', '$customerioId', '$displayName',
  '$email', '$fbAnonId', '$fcmTokens', '$firebaseAppInstanceId', '$gpsAdId', '$idfa', '$idfv', '$ip',
  '$iterableCampaignId', '$iterableTemplateId', '$iterableUserId', '$keyword', '$kochavaDeviceId', '$mediaSource',
  '$mixpanelDistinctId', '$mparticleId', '$onesignalId', '$onesignalUserId', '$phoneNumber', '$posthogUserId',
  '$telemetryDeckUserId', '$telemetryDeckAppId', '$segmentId', '$solarEngineDistinctId', '$solarEngineAccountId',
  '$solarEngineVisitorId', '$tenjinId', '$deviceVersion',
];
const RESERVED = new Set(RESERVED_ATTRIBUTE_NAMES);

/** A name: reserved (`$email`…), or custom (a letter, then letters, digits, `_` or `-`), 1–40 characters. */
export const attributeNameSchema = z
  .string()
  .min(1)
  .max(40)
  .refine((n) => RESERVED.has(n) || /^[a-zA-Z][a-zA-Z0-9_-]*$/.test(n), 'not a reserved name and not a custom name (a letter, then letters, digits, _ or -)');

/** The body of `POST /customers/{customer_id}/attributes`: 1–50 attributes. */
export const setAttributesBodySchema = z.strictObject({
  attributes: z.array(z.strictObject({ name: attributeNameSchema, value: z.string().max(500).nullable() })).min(1).max(50),
});

/**
 * Given a customer's attributes, returns them as `customer.attribute` objects, in the order first set.
 *
 * @example
 * toAttributeResources(attrs)[0]; // { object: 'customer.attribute', name: '$email', value: 'a@b.c', updated_at: 0 }
 */
export const toAttributeResources = (attributes: CustomerAttributes) =>
  [...attributes].map(([name, a]) => ({ object: 'customer.attribute' as const, name, value: a.value, updated_at: a.updated_at }));

/**
 * Given a customer, returns its aliases: its own id since it was first seen (the simulator has no SDK
 * log-ins that would merge others into it).
 *
 * @example
 * toAliasResources(customer); // [{ object: 'customer.alias', id: 'u1', created_at: … }]
 */
export const toAliasResources = (customer: CustomerState) => [{ object: 'customer.alias' as const, id: customer.id, created_at: customer.first_seen_at }];
