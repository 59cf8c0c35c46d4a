/**
 * The notifier port: one outgoing alert channel. The dispatcher builds the message with the core
 * (`buildEmail`, `buildChatMessage`) and hands it over; a notifier only delivers it.
 */
import type { Alert, ChatMessage, EmailMessage } from '@tenure/core';

/** Delivers email alerts. */
export interface EmailNotifier {
  readonly channel: 'email';
  /** Short description for the startup log, without secrets (e.g. "smtp://mail.example.com:587"). */
  readonly description?: string;
  send(alert: Alert, message: EmailMessage): Promise<void>;
  close?(): Promise<void>;
}

/** Delivers chat alerts. */
export interface ChatNotifier {
  readonly channel: 'chat';
  readonly description?: string;
  send(alert: Alert, message: ChatMessage): Promise<void>;
  close?(): Promise<void>;
}

/** One alert channel. Rejects with a `NotifyError` (or any error, treated as retryable) on failure. */
export type Notifier = EmailNotifier | ChatNotifier;

/**
 * A failed delivery; `retryable` says whether another attempt may succeed (5xx, network errors).
 * Notifiers reject with it so the dispatcher knows whether to retry.
 *
 * @example
 * throw new NotifyError(`chat webhook answered HTTP ${status}`, { retryable: status >= 500 });
 */
export class NotifyError extends Error {
  readonly retryable: boolean;
  /** The wait the receiver asked for (a 429's or 503's `Retry-After`), in ms; the next attempt waits at least this. */
  readonly retryAfterMs: number | undefined;
  /** The receiver's answer when it answered (HTTP status and an excerpt of its body); undefined when it did not. */
  readonly answer: { status: number; body: string } | undefined;
  constructor(message: string, options: { retryable: boolean; cause?: unknown; retryAfterMs?: number | undefined; answer?: { status: number; body: string } | undefined }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NotifyError';
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.answer = options.answer;
  }
}

/**
 * Given any error thrown by a notifier, returns the wait the receiver asked for before a retry (ms), if any.
 *
 * @example
 * retryAfterOf(new NotifyError('HTTP 429', { retryable: true, retryAfterMs: 2000 })); // 2000
 */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof NotifyError ? error.retryAfterMs : undefined;
}

/**
 * Given any error thrown by a notifier, returns whether to retry: a `NotifyError` says so itself;
 * anything else (a bug, a network failure surfaced raw) is retried.
 *
 * @example
 * isRetryable(new NotifyError('HTTP 400', { retryable: false })); // false
 */
export function isRetryable(error: unknown): boolean {
  return error instanceof NotifyError ? error.retryable : true;
}

/** What a recording notifier received. */
export interface SentMessage<M> {
  alert: Alert;
  message: M;
}

/**
 * Returns an in-memory email notifier that records what it is asked to send (tests, dry runs).
 *
 * @example
 * const email = createMemoryEmailNotifier();
 * createRetentionApp({ notifiers: [email] }); // later: email.sent[0].message.subject
 */
export function createMemoryEmailNotifier(): EmailNotifier & { sent: SentMessage<EmailMessage>[] } {
  const sent: SentMessage<EmailMessage>[] = [];
  return { channel: 'email', description: 'memory', sent, send: async (alert, message) => void sent.push({ alert, message }) };
}

/**
 * Returns an in-memory chat notifier that records what it is asked to send (tests, dry runs).
 *
 * @example
 * const chat = createMemoryChatNotifier();
 * createRetentionApp({ notifiers: [chat] }); // later: chat.sent[0].message.blocks
 */
export function createMemoryChatNotifier(): ChatNotifier & { sent: SentMessage<ChatMessage>[] } {
  const sent: SentMessage<ChatMessage>[] = [];
  return { channel: 'chat', description: 'memory', sent, send: async (alert, message) => void sent.push({ alert, message }) };
}
