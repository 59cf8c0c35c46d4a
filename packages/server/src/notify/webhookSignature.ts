/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` followed by
 * base64 key bytes; the signature is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
 */
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Given a `whsec_`-prefixed secret, returns its key bytes, or `undefined` when it is not one
 * (missing prefix, not base64, or fewer than 16 key bytes).
 *
 * @example
 * parseWebhookSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'); // Buffer of 24 bytes
 */
export function parseWebhookSecret(secret: string): Buffer | undefined {
  if (!secret.startsWith(PREFIX)) return undefined;
  const encoded = secret.slice(PREFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 16 ? key : undefined;
}

/**
 * Given the key bytes, the message id, the timestamp (Unix seconds) and the exact body, returns the
 * value of the `webhook-signature` header (`v1,<base64>`). Pure.
 *
 * @example
 * signWebhook(key, 'msg_1', 1674087231, '{"type":"recommendation.dispatched"}'); // 'v1,K5oZ…'
 */
export function signWebhook(key: Buffer, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * Given one or more keys (a rotation: new and old), returns the signed headers of one message; the
 * signatures are space-separated as the specification allows.
 *
 * @example
 * webhookHeaders([key], 'msg_1', 1674087231, body)['webhook-signature'];
 */
export function webhookHeaders(keys: readonly Buffer[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': keys.map((key) => signWebhook(key, id, timestampSeconds, body)).join(' '),
  };
}
