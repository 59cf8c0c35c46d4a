/**
 * API v1's routes and their dispatcher: each route says which keys may call it (`any`; `secret`:
 * server operations; `app`: what only apps call, refused to the secret key with 7243, as the billing
 * service refuses a secret key in an app), and gets the caller with the request.
 */
import type { SecretMatcher } from '@tenure/http-edge';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import type { RouteInput, SimRequest, SimResponse } from '../http/httpTypes.js';
import { compilePattern } from '../http/route.js';
import { resolveCaller, type V1Caller } from './apiKeys.js';
import { corsHeaders, preflight } from './cors.js';
import { V1_CODES, v1Error } from './v1Errors.js';

export interface V1Route {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: string;
  access: 'any' | 'secret' | 'app';
  summary: string;
  handler: (sim: BillingSimulator, input: RouteInput, caller: V1Caller) => SimResponse;
}

/**
 * Given a path, says whether API v1's dispatcher answers it: `/v1/…` and the web SDK's `/rcbilling/v1/…`.
 *
 * @example
 * isV1Path('/v1/subscribers/u1'); // true
 */
export const isV1Path = (path: string): boolean => path.startsWith('/v1/') || path.startsWith('/rcbilling/v1/');

const SECRET_ONLY = 'This operation needs a secret API key: public keys may call what the SDKs call';

/**
 * Given the routes and the secret key's matcher (undefined: development mode), returns the function
 * answering one API v1 request, CORS headers included on every answer.
 */
export function createV1Dispatcher(routes: readonly V1Route[], secret: SecretMatcher | undefined) {
  const compiled = routes.map((route) => ({ route, match: compilePattern(route.pattern) }));
  const answer = (sim: BillingSimulator, req: SimRequest, method: string): SimResponse => {
    const caller = resolveCaller(sim.world(), req.headers['authorization'] ?? '', secret);
    if (caller === null) return v1Error(401, V1_CODES.invalid_api_key, 'Invalid API key.');
    let body: unknown;
    if (req.rawBody.trim() !== '') {
      try {
        body = JSON.parse(req.rawBody);
      } catch {
        return v1Error(400, V1_CODES.bad_request, 'body: the request body is not valid JSON');
      }
    }
    for (const { route, match } of compiled) {
      if (route.method !== method) continue;
      const params = match(req.path);
      if (params === null) continue;
      if (route.access === 'secret' && caller.kind !== 'secret') return v1Error(403, V1_CODES.invalid_api_key, SECRET_ONLY);
      if (route.access === 'app' && caller.kind === 'secret') return v1Error(403, V1_CODES.secret_key_in_app, 'Secret API keys should not be used in your app.');
      try {
        return route.handler(sim, { ...req, method, params, body }, caller);
      } catch (err) {
        return v1Error(500, V1_CODES.internal, err instanceof Error ? err.message : 'Internal error');
      }
    }
    return v1Error(404, V1_CODES.bad_request, `path: no API v1 operation ${method} ${req.path}`);
  };
  return (sim: BillingSimulator, req: SimRequest): SimResponse => {
    const method = req.method.toUpperCase();
    if (method === 'OPTIONS') return preflight(req);
    const out = answer(sim, req, method);
    const cors = corsHeaders(req);
    return { status: out.status, body: out.body, headers: out.headers === undefined ? cors : { ...out.headers, ...cors } };
  };
}
