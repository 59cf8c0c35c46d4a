/**
 * The simulator CLI's log levels: the same names, order and validation as `tenure serve`'s
 * `--log-level` / `LOG_LEVEL` (pino's), applied to the simulator's plain text lines.
 */

/** The levels, most severe first; `silent` prints nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Given the text of `--log-level` or `LOG_LEVEL`, returns the level, or undefined when it is not
 * one. Pure.
 *
 * @example
 * parseLogLevel('debug'); // 'debug'
 * parseLogLevel('loud'); // undefined
 */
export function parseLogLevel(text: string): LogLevel | undefined {
  return (LOG_LEVELS as readonly string[]).includes(text) ? (text as LogLevel) : undefined;
}

/**
 * Given the configured level, returns whether a line at `level` is printed: `warn` prints fatal,
 * error and warn lines; `silent` prints none. Pure.
 *
 * @example
 * isLevelEnabled('info', 'debug'); // false
 */
export function isLevelEnabled(configured: LogLevel, level: Exclude<LogLevel, 'silent'>): boolean {
  return configured !== 'silent' && LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf(configured);
}
