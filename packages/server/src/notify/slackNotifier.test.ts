import { afterEach, describe, expect, it } from 'vitest';
import { startChatReceiver } from '@tenure/testkit';
import { createSlackNotifier } from './slackNotifier.js';
import { NotifyError } from './notifier.js';
import type { Alert, ChatMessage } from '@tenure/core';

const alert = { customer_id: 'u1' } as Alert;
const message: ChatMessage = { text: 'hello', blocks: [], attachments: [] };
let close: () => Promise<void> = async () => {};
afterEach(() => close());

describe('createSlackNotifier', () => {
  it('POSTs the message as JSON to the webhook URL', async () => {
    const receiver = await startChatReceiver();
    close = receiver.close;
    await createSlackNotifier({ webhookUrl: receiver.url }).send(alert, message);
    expect(receiver.posts).toEqual([{ path: '/services/T000/B000/XXXX', contentType: 'application/json', body: message }]);
  });

  it.each([
    [500, true],
    [503, true],
    [429, true],
    [400, false],
    [404, false],
  ])('rejects HTTP %i with a NotifyError, retryable: %s', async (status, retryable) => {
    const receiver = await startChatReceiver([status]);
    close = receiver.close;
    const error = await createSlackNotifier({ webhookUrl: receiver.url }).send(alert, message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotifyError);
    expect((error as NotifyError).retryable).toBe(retryable);
    expect((error as NotifyError).message).toContain(String(status));
  });

  it('rejects a network error as retryable, without the URL (a secret) in the message', async () => {
    const receiver = await startChatReceiver();
    await receiver.close();
    const error = (await createSlackNotifier({ webhookUrl: receiver.url }).send(alert, message).catch((e: unknown) => e)) as NotifyError;
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain('XXXX');
  });

  it('describes itself by host only', () => {
    expect(createSlackNotifier({ webhookUrl: 'https://hooks.slack.com/services/T/B/secret' }).description).toBe('slack webhook (hooks.slack.com)');
  });
});
