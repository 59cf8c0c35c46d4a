/**
 * Constant-time secret checks for the webhook's shared secret and the API's bearer key. Both sides
 * are hashed with SHA-256 first, so `timingSafeEqual` always compares 32 bytes and the time taken
 * reveals neither the content nor the length of the secret.
 */
import * as crypto from 'node:crypto';

// One-shot `crypto.hash` (Node ≥ 20.12) is several times cheaper than a Hash object per request.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
const digest = (value: string): Buffer =>
  oneShot !== undefined ? oneShot('sha256', value, 'buffer') : crypto.createHash('sha256').update(value, 'utf8').digest();
const { timingSafeEqual } = crypto;

/** Checks received header values against one configured secret. */
export interface SecretMatcher {
  /** True when no secret is configured (development mode: every request passes). */
  readonly disabled: boolean;
  /** True when `received` equals the secret (always true when disabled). */
  matches(received: string | undefined): boolean;
}

/**
 * Given the expected value (or undefined/empty for "no check"), returns a matcher that compares
 * received values in constant time. The expected digest is computed once.
 *
 * @example
 * const webhookAuth = createSecretMatcher(process.env.BILLING_WEBHOOK_AUTH_KEY);
 * webhookAuth.matches(req.headers.authorization); // false when wrong or missing
 */
export function createSecretMatcher(expected: string | undefined): SecretMatcher {
  if (expected === undefined || expected === '') return { disabled: true, matches: () => true };
  const expectedDigest = digest(expected);
  return {
    disabled: false,
    matches(received) {
      // Hash even a missing header so a missing and a wrong one take the same time.
      const ok = timingSafeEqual(digest(received ?? ''), expectedDigest);
      return ok && received !== undefined;
    },
  };
}

/**
 * Given the API key (or undefined for "no check"), returns a matcher for `Authorization: Bearer <key>`
 * header values (scheme case-insensitive, as RFC 6750 allows).
 *
 * @example
 * createBearerMatcher('k1').matches('Bearer k1'); // true
 */
export function createBearerMatcher(apiKey: string | undefined): SecretMatcher {
  const inner = createSecretMatcher(apiKey);
  if (inner.disabled) return inner;
  return {
    disabled: false,
    matches(received) {
      const match = received === undefined ? null : /^bearer +(.*)$/i.exec(received);
      return inner.matches(match?.[1] ?? undefined) && match !== null;
    },
  };
}
