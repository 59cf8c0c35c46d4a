// The `alert_webhooks` section of the configuration file: named endpoints with a secret and the
// urgencies they receive; every problem names its field, and no message repeats a secret.
import { describe, expect, it } from 'vitest';
import { isWebhookSecret, validateConfigFile } from './configFile.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('alert_webhooks in the configuration file', () => {
  it('accepts named endpoints with their urgencies, the urgencies optional', () => {
    const file = { alert_webhooks: [{ name: 'crm', url: 'https://crm.example.com/hooks/tenure', secret: SECRET, urgencies: ['immediate'] }, { name: 'support-queue_2', url: 'http://127.0.0.1:9000/in', secret: `${SECRET} ${SECRET}` }] };
    expect(validateConfigFile(file)).toEqual({ ok: true, value: file });
  });

  it('names each bad field: name, url, secret, urgencies, unknown keys and a name given twice', () => {
    const result = validateConfigFile({
      alert_webhooks: [
        { name: 'CRM', url: 'ftp://x', secret: 'whsec_short', urgencies: ['later'] },
        { name: 'a', url: 'https://a.example', secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', extra: 1 },
        { name: 'b', url: 'https://b.example', secret: SECRET, urgencies: [] },
      ],
    });
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'alert_webhooks.0.name', 'alert_webhooks.0.url', 'alert_webhooks.0.secret', 'alert_webhooks.0.urgencies.0',
        'alert_webhooks.1.secret', 'alert_webhooks.1.extra', 'alert_webhooks.2.urgencies',
      ]),
    );
    const twice = validateConfigFile({ alert_webhooks: [{ name: 'a', url: 'https://a.example', secret: SECRET }, { name: 'a', url: 'https://b.example', secret: SECRET }] });
    expect(twice).toEqual({ ok: false, errors: [{ field: 'alert_webhooks.1.name', message: '"a" is named twice' }] });
    expect(JSON.stringify(result)).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  });

  it('takes a secret only as whsec_ and base64 of 16 bytes or more', () => {
    expect(isWebhookSecret(SECRET)).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(16, 7).toString('base64')}`)).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(15, 7).toString('base64')}`)).toBe(false);
    expect(isWebhookSecret('whsec_not base64!')).toBe(false);
    expect(isWebhookSecret('')).toBe(false);
    expect(isWebhookSecret(SECRET.slice(6))).toBe(false);
  });
});
