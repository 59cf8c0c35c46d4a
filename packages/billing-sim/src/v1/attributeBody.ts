/**
 * The body of API v1's attribute update: `{ attributes: { <key>: { value, updated_at_ms? } } }`.
 * Every key is checked before anything is saved; problems come back as the official 400 (code 7263)
 * with one `attribute_errors` entry per key, and nothing is saved.
 */
import type { AttributeInput } from '../machine/attributes.js';
import type { SimResponse } from '../http/httpTypes.js';
import { V1_CODES, v1Error } from './v1Errors.js';

/** The reserved attributes (`$`-prefixed) the billing service documents. */
export const RESERVED_ATTRIBUTES = new Set([
  '$email', '$displayName', '$phoneNumber', '$apnsTokens', '$fcmTokens', '$idfa', '$idfv', '$gpsAdId', '$ip', '$attConsentStatus',
  '$mediaSource', '$campaign', '$adGroup', '$ad', '$keyword', '$creative', '$amazonAdId', '$deviceVersion',
  '$adjustId', '$appsflyerId', '$fbAnonId', '$mparticleId', '$onesignalId', '$onesignalUserId', '$airshipChannelId', '$cleverTapId',
  '$kochavaDeviceId', '$mixpanelDistinctId', '$firebaseAppInstanceId', '$brazeAliasName', '$brazeAliasLabel',
  '$iterableUserId', '$iterableCampaignId', '$iterableTemplateId', '$customerioId', '$posthogUserId', '$tenjinId', '$amplitudeUserId', '$amplitudeDeviceId',
]);

const KEY = /^[A-Za-z0-9_.-]{1,40}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_VALUE = 500;

/** Why one key and value cannot be saved, or null. */
function problemOf(key: string, entry: unknown): string | null {
  if (key.startsWith('$') ? !RESERVED_ATTRIBUTES.has(key) : !KEY.test(key)) return 'Key name format is not valid.';
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return 'An attribute is an object { value, updated_at_ms }.';
  const { value, updated_at_ms: at } = entry as Record<string, unknown>;
  if (value !== null && typeof value !== 'string') return 'Value must be a string or null.';
  if (typeof value === 'string' && value.length > MAX_VALUE) return 'Value is too long.';
  if (key === '$email' && typeof value === 'string' && value !== '' && !EMAIL.test(value)) return 'Value is not a valid email address.';
  if (at !== undefined && !(Number.isSafeInteger(at) && (at as number) >= 0)) return 'updated_at_ms must be epoch milliseconds.';
  return null;
}

/**
 * Given the parsed body, returns the attributes to set (an empty string or null clears a value), or
 * the 400 answer naming every key that cannot be saved.
 *
 * @example
 * parseAttributes({ attributes: { $email: { value: 'a@b.co' } } }); // { ok: true, attributes: [{ name: '$email', value: 'a@b.co' }] }
 */
export function parseAttributes(body: unknown): { ok: true; attributes: AttributeInput[] } | { ok: false; answer: SimResponse } {
  const attributes = (body as Record<string, unknown> | null | undefined)?.['attributes'];
  if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
    return { ok: false, answer: v1Error(400, 7264, 'attributes: the body is { "attributes": { "<key>": { "value": "…" } } }') };
  }
  const errors: { key_name: string; message: string }[] = [];
  const out: AttributeInput[] = [];
  for (const [key, entry] of Object.entries(attributes)) {
    const problem = problemOf(key, entry);
    if (problem !== null) {
      errors.push({ key_name: key, message: problem });
      continue;
    }
    const { value, updated_at_ms: at } = entry as { value: string | null; updated_at_ms?: number };
    out.push({ name: key, value: value === '' ? null : value, updated_at: at });
  }
  if (errors.length > 0) {
    return { ok: false, answer: v1Error(400, V1_CODES.invalid_attributes, 'Some customer attribute keys were unable to be saved.', { attribute_errors: errors }) };
  }
  return { ok: true, attributes: out };
}
