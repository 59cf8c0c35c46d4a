/**
 * Constant-time secret checks for the webhook's shared secret and the API's bearer key. The
 * implementation is the shared HTTP edge's (bundled into this package's build); this module keeps
 * the server's import path and public exports stable.
 */
export { createSecretMatcher, createBearerMatcher, headerValue } from '@tenure/http-edge';
export type { SecretMatcher } from '@tenure/http-edge';
