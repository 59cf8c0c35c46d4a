// The configuration file's alert_webhooks through `loadServeSettings`: endpoints read as written,
// every bad field named, no secret in any message; a webhook takes the file's default cooldown.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServeSettings } from './serveSettings.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const fileWith = (value: unknown) => {
  const path = join(mkdtempSync(join(tmpdir(), 'tenure-hooks-')), 'tenure.config.json');
  writeFileSync(path, JSON.stringify(value));
  return path;
};

describe('alert_webhooks in tenure serve --config', () => {
  it('reads the endpoints, and gives webhooks the file\'s default cooldown', async () => {
    const endpoints = [{ name: 'crm', url: 'https://crm.example.com/hooks', secret: SECRET, urgencies: ['immediate'] }, { name: 'queue', url: 'http://127.0.0.1:9000/in', secret: SECRET }];
    const settings = await loadServeSettings({ configFile: fileWith({ alert_webhooks: endpoints, dispatch: { cooldown_hours: { default: 6 } } }), cooldownMs: undefined });
    expect(settings).toMatchObject({ ok: true, alertWebhooks: endpoints, dispatch: { cooldownMs: 6 * 3_600_000 } });
    expect(await loadServeSettings({ configFile: undefined, cooldownMs: undefined })).toMatchObject({ ok: true, alertWebhooks: [] });
  });

  it('lists every bad field and never repeats a secret', async () => {
    const path = fileWith({ alert_webhooks: [{ name: 'crm', url: 'ftp://crm.example.com', secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, { name: 'crm', url: 'https://x.example', secret: SECRET, urgencies: ['now'] }] });
    const settings = await loadServeSettings({ configFile: path, cooldownMs: undefined });
    expect(settings.ok).toBe(false);
    const message = settings.ok ? '' : settings.message;
    expect(message).toContain('alert_webhooks.0.url: must be an http(s) URL');
    expect(message).toContain('alert_webhooks.0.secret: must be a whsec_-prefixed base64 secret');
    expect(message).toContain('alert_webhooks.1.urgencies.0');
    expect(message).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  });
});
