/**
 * CORS for pages on another origin calling API v1 and the web SDK's routes (the official web SDK
 * sends `Authorization` and its own headers, so every call is preflighted). Preflights name the
 * allowed headers explicitly (the Fetch standard leaves `Authorization` out of `*`), and every
 * answer, errors included, carries `Access-Control-Allow-Origin` (else the browser turns a 401 into
 * a network error).
 */
import type { SimRequest, SimResponse } from '../http/httpTypes.js';

/** The headers the RevenueCat SDKs send. */
const SDK_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'x-platform',
  'x-platform-version',
  'x-platform-flavor',
  'x-platform-flavor-version',
  'x-version',
  'x-client-version',
  'x-client-build-version',
  'x-client-bundle-id',
  'x-is-sandbox',
  'x-observer-mode-enabled',
  'x-preferred-locales',
  'x-storefront',
  'x-rc-subscriber-token',
  'x-nonce',
];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The headers every answer carries. */
export const corsHeaders = (req: SimRequest): Record<string, string> => ({ 'access-control-allow-origin': req.headers['origin'] ?? '*', vary: 'Origin' });

/**
 * Given a preflight (`OPTIONS`), returns its 204: the SDKs' headers and any others the page asks
 * for (well-formed header names only), the methods API v1 serves, cached for ten minutes.
 *
 * @example
 * preflight({ method: 'OPTIONS', path: '/v1/subscribers/u1', query: {}, headers: {}, rawBody: '' }).status; // 204
 */
export function preflight(req: SimRequest): SimResponse {
  const asked = (req.headers['access-control-request-headers'] ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => TOKEN.test(h));
  return {
    status: 204,
    body: undefined,
    headers: {
      ...corsHeaders(req),
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': [...new Set([...SDK_HEADERS, ...asked])].join(', '),
      'access-control-max-age': '600',
    },
  };
}
