/**
 * API v1's errors: `{ code, message }` with the billing service's numeric codes, which the SDKs map
 * to their own errors (7225 → invalid credentials, 7259 → customer not found…). Every bad input gets
 * one, with the field it names at the start of the message; nothing changes on an error.
 */
import { STATUS_BY_ERROR_TYPE, type ApiError } from '../machine/apiError.js';
import type { SimResponse } from '../http/httpTypes.js';

/** The codes the simulator answers with (RevenueCat's backend codes). */
export const V1_CODES = {
  invalid_platform: 7000,
  receipt_in_use: 7102,
  internal: 7110,
  invalid_app_user_id: 7220,
  invalid_api_key: 7225,
  bad_request: 7226,
  secret_key_in_app: 7243,
  subscriber_not_found: 7259,
  invalid_attributes: 7263,
  product_already_purchased: 7772,
} as const;

/**
 * Given a status, a code and a message (and fields of its own, such as `attribute_errors`), returns the answer.
 *
 * @example
 * v1Error(401, V1_CODES.invalid_api_key, 'Invalid API key.').body; // { code: 7225, message: 'Invalid API key.' }
 */
export const v1Error = (status: number, code: number, message: string, extra: Record<string, unknown> = {}): SimResponse => ({
  status,
  body: { code, message, ...extra },
});

/** A 400 for a bad field: `field: message`, code 7226. */
export const badField = (field: string, message: string): SimResponse => v1Error(400, V1_CODES.bad_request, `${field}: ${message}`);

/**
 * Given an error of the machine, returns API v1's answer: the same status, the code the SDKs know
 * for it (an unknown customer 7259, a fetch token of another customer 7102, a live subscription to
 * the product 7772; otherwise 7226, or 7110 for a server error).
 *
 * @example
 * fromMachineError({ type: 'resource_missing', message: 'Customer u1 not found', param: 'customer_id' }).status; // 404
 */
export function fromMachineError(error: ApiError): SimResponse {
  const status = STATUS_BY_ERROR_TYPE[error.type];
  const message = error.param === null || error.message.startsWith(`${error.param}:`) ? error.message : `${error.param}: ${error.message}`;
  const code =
    error.type === 'resource_missing' && error.param === 'customer_id' ? V1_CODES.subscriber_not_found
    : error.type === 'resource_already_exists' && error.param === 'fetch_token' ? V1_CODES.receipt_in_use
    : error.type === 'resource_already_exists' && error.param === 'product_id' ? V1_CODES.product_already_purchased
    : status >= 500 ? V1_CODES.internal
    : V1_CODES.bad_request;
  return v1Error(status, code, message);
}
