/** Structured JSON logs with pino; secrets are redacted even if one slips into a log call. */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Log paths that could hold a secret; their values are replaced by "[redacted]". */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.authorization',
  'api_key',
  'webhook_auth_key',
  'smtp_url',
  'slack_webhook_url',
  '*.api_key',
  '*.webhook_auth_key',
  '*.smtp_url',
  '*.slack_webhook_url',
];

/**
 * Given a level and a service name, returns a pino logger writing JSON lines to stdout, with the
 * service name on every line and secret-bearing paths redacted.
 *
 * @example
 * const logger = createLogger({ level: 'info', service: 'tenure' });
 */
export function createLogger(options: { level?: string; service?: string; destination?: DestinationStream } = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    base: { service: options.service ?? 'tenure' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}
