/** Email alerts over SMTP with nodemailer. */
import nodemailer from 'nodemailer';
import type { EmailNotifier } from './notifier.js';
import { NotifyError } from './notifier.js';

export interface SmtpNotifierOptions {
  /** e.g. `smtp://user:pass@mail.example.com:587` or `smtps://…:465` (a secret: never logged whole). */
  smtpUrl: string;
  from: string;
  /** One address or a comma-separated list. */
  to: string;
  /** Connection, greeting and socket timeouts; default 10 s. */
  timeoutMs?: number;
}

/** SMTP reply codes 4xx are transient (retry); 5xx are permanent (do not). */
function isTransient(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' ? code >= 400 && code < 500 : true; // no SMTP code: network error
}

/**
 * Given an SMTP URL and the sender and recipients, returns an email notifier that sends the core's
 * email (subject, text, html) through one pooled nodemailer transport. Network errors and transient
 * SMTP replies (4xx) reject with a retryable `NotifyError`; permanent replies (5xx) with a final one.
 *
 * @example
 * const email = createSmtpNotifier({ smtpUrl: 'smtp://localhost:2525', from: 'tenure@x.io', to: 'ops@x.io' });
 */
export function createSmtpNotifier(options: SmtpNotifierOptions): EmailNotifier {
  let url: URL;
  try {
    url = new URL(options.smtpUrl);
  } catch {
    throw new Error('SMTP_URL is not a valid URL');
  }
  const timeout = options.timeoutMs ?? 10_000;
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const user = decodeURIComponent(url.username);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    secure: url.protocol === 'smtps:',
    ...(user === '' ? {} : { auth: { user, pass: decodeURIComponent(url.password) } }),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    channel: 'email',
    description: `${url.protocol}//${url.hostname}${url.port === '' ? '' : `:${url.port}`} → ${options.to}`,
    async send(_alert, message) {
      try {
        await transport.sendMail({ from: options.from, to: options.to, subject: message.subject, text: message.text, html: message.html });
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new NotifyError(`email not sent: ${reason}`, { retryable: isTransient(cause), cause });
      }
    },
    close: async () => transport.close(),
  };
}
