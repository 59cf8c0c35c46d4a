import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpReceiver } from '@tenure/testkit';
import { createSmtpNotifier } from './smtpNotifier.js';
import { NotifyError } from './notifier.js';
import type { Alert } from '@tenure/core';

const alert = { customer_id: 'u1' } as Alert;
const message = { subject: '[tenure] critical risk (90): Win back for u1', text: 'plain body', html: '<p>html body</p>' };
let close: () => Promise<void> = async () => {};
afterEach(() => close());

describe('createSmtpNotifier', () => {
  it('delivers subject, text and html from the sender to the recipients', async () => {
    const smtp = await startSmtpReceiver();
    close = smtp.close;
    const notifier = createSmtpNotifier({ smtpUrl: smtp.url, from: 'tenure@acme.test', to: 'ops@acme.test, cto@acme.test' });
    await notifier.send(alert, message);
    await notifier.close?.();
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail).toMatchObject({ from: 'tenure@acme.test', to: ['ops@acme.test', 'cto@acme.test'], subject: message.subject });
    expect(mail.decoded).toContain('plain body');
    expect(mail.decoded).toContain('<p>html body</p>');
  });

  it.each([
    [550, false],
    [451, true],
  ])('rejects an SMTP %i reply with a NotifyError, retryable: %s', async (code, retryable) => {
    const smtp = await startSmtpReceiver({ failWith: code });
    close = smtp.close;
    const error = await createSmtpNotifier({ smtpUrl: smtp.url, from: 'a@x.test', to: 'b@x.test' }).send(alert, message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotifyError);
    expect((error as NotifyError).retryable).toBe(retryable);
  });

  it('rejects an unreachable server as retryable', async () => {
    const smtp = await startSmtpReceiver();
    await smtp.close();
    const error = (await createSmtpNotifier({ smtpUrl: smtp.url, from: 'a@x.test', to: 'b@x.test', timeoutMs: 1000 })
      .send(alert, message)
      .catch((e: unknown) => e)) as NotifyError;
    expect(error.retryable).toBe(true);
  });

  it('describes itself without credentials and rejects other schemes', () => {
    const notifier = createSmtpNotifier({ smtpUrl: 'smtps://user:hunter2@mail.acme.test:465', from: 'a@x.test', to: 'ops@acme.test' });
    expect(notifier.description).toBe('smtps://mail.acme.test:465 → ops@acme.test');
    expect(() => createSmtpNotifier({ smtpUrl: 'http://x', from: 'a', to: 'b' })).toThrow(/smtp/);
  });
});
