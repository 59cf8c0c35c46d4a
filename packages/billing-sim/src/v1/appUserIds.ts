/**
 * App user ids in API v1 paths and bodies: the SDKs' rules (not empty, no `/`, none of the ids an
 * app would send by mistake, such as `null` or `undefined`), the official length limit, and the
 * core's rule for ids its webhooks carry (storable unchanged: no U+0000, no lone surrogate).
 */
import { isStorableId } from '@tenure/core';
import { V1_CODES, v1Error } from './v1Errors.js';
import type { SimResponse } from '../http/httpTypes.js';

/** Ids the billing service refuses: what an app sends when it has no user (the SDKs refuse them too). */
const RESERVED = new Set(['no_user', 'null', 'none', 'nil', '(null)', 'nan', '\u0000', 'unidentified', 'undefined', 'unknown']);

/**
 * Given an app user id (percent-decoded) and the field it came in, returns null when it is valid, or
 * the 400 (code 7220) naming the field.
 *
 * @example
 * checkAppUserId('undefined', 'app_user_id')?.status; // 400
 */
export function checkAppUserId(id: unknown, field: string): SimResponse | null {
  const refuse = (why: string) => v1Error(400, V1_CODES.invalid_app_user_id, `${field}: ${why}`);
  if (typeof id !== 'string' || id.trim() === '') return refuse('an app user id is a non-empty string');
  if (id.length > 1500) return refuse('an app user id is at most 1500 characters');
  if (id.includes('/')) return refuse('an app user id cannot contain "/"');
  // Every event of the customer carries it: one a receiver cannot store unchanged is refused here.
  if (!isStorableId(id)) return refuse(`an app user id is well-formed Unicode without U+0000`);
  if (RESERVED.has(id.toLowerCase())) return refuse(`"${id}" is reserved: it is what an app sends when it has no user id`);
  return null;
}
