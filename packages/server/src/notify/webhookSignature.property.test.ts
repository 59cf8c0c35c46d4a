import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { parseWebhookSecret, webhookHeaders } from './webhookSignature.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing', () => {
  it('any payload and secret round-trips through our signing and the standardwebhooks verification', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.string({ unit: 'grapheme' }), fc.stringMatching(/^[A-Za-z0-9_]{1,40}$/), (bytes, payload, id) => {
        const secret = `whsec_${Buffer.from(bytes).toString('base64')}`;
        const key = parseWebhookSecret(secret)!;
        expect(key.equals(Buffer.from(bytes))).toBe(true);
        const body = JSON.stringify({ payload });
        const headers = webhookHeaders([key], id, nowSeconds(), body);
        expect(new Webhook(secret).verify(body, headers)).toEqual({ payload });
      }),
    );
  });

  it('a changed byte of the body, id or timestamp fails verification', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.string({ minLength: 1 }), fc.nat(), fc.constantFrom('body', 'id', 'timestamp'), (bytes, text, at, part) => {
        const secret = `whsec_${Buffer.from(bytes).toString('base64')}`;
        const body = JSON.stringify({ text });
        const ts = nowSeconds();
        const headers = webhookHeaders([parseWebhookSecret(secret)!], 'msg_1', ts, body);
        const flip = (s: string) => {
          const i = at % s.length;
          return s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ 1) + s.slice(i + 1);
        };
        const tampered =
          part === 'body'
            ? { body: flip(body), headers }
            : part === 'id'
              ? { body, headers: { ...headers, 'webhook-id': flip('msg_1') } }
              : { body, headers: { ...headers, 'webhook-timestamp': String(ts - 1) } };
        expect(() => new Webhook(secret).verify(tampered.body, tampered.headers)).toThrow();
      }),
    );
  });
});
