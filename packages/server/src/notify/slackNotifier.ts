/** Chat alerts through a Slack incoming webhook: one JSON POST per message. */
import type { ChatNotifier } from './notifier.js';
import { NotifyError } from './notifier.js';

export interface SlackNotifierOptions {
  /** The incoming-webhook URL (a secret: it is never logged). */
  webhookUrl: string;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
  /** Injectable for tests; default the global fetch. */
  fetch?: typeof fetch;
}

/**
 * Given a Slack incoming-webhook URL, returns a chat notifier that POSTs the core's Block Kit
 * message to it. A non-2xx answer rejects with a `NotifyError`, retryable for 5xx and 429; network
 * errors and timeouts are retryable too.
 *
 * @example
 * const chat = createSlackNotifier({ webhookUrl: process.env.SLACK_WEBHOOK_URL! });
 */
export function createSlackNotifier(options: SlackNotifierOptions): ChatNotifier {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let host = 'invalid-url';
  try {
    host = new URL(options.webhookUrl).host;
  } catch {
    throw new Error('SLACK_WEBHOOK_URL is not a valid URL');
  }
  return {
    channel: 'chat',
    description: `slack webhook (${host})`,
    async send(_alert, message) {
      let response: Response;
      try {
        response = await doFetch(options.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new NotifyError(`chat webhook unreachable: ${reason}`, { retryable: true, cause });
      }
      // Drain the body so the connection can be reused; Slack answers "ok" or an error word.
      const text = await response.text().catch(() => '');
      if (!response.ok) {
        const retryable = response.status >= 500 || response.status === 429;
        throw new NotifyError(`chat webhook answered HTTP ${response.status}: ${text.slice(0, 200)}`, { retryable });
      }
    },
  };
}
