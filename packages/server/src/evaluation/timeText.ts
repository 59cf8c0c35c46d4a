/**
 * Durations (`30d`, `12h`, `2w`) and dates (`2026-03-01`, or an ISO time) as the evaluation
 * commands take and print them. Pure.
 */
import { DAY_MS, isEpochMs } from '@tenure/core';

const UNIT_MS = { h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS } as const;
const DURATION = /^(\d{1,6})(h|d|w)$/;

/**
 * Given a duration text (a whole number and a unit: h, d or w), returns it in milliseconds, or null
 * when it is not one or is zero. Pure.
 *
 * @example
 * parseDurationText('30d'); // 2_592_000_000
 * parseDurationText('1.5d'); // null
 */
export function parseDurationText(text: string): number | null {
  const match = DURATION.exec(text);
  if (match === null) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : null;
}

/**
 * Given milliseconds, returns the shortest duration text that reads back to them (`30d`, `2w`,
 * `36h`), or `N ms` when no unit fits. Pure.
 *
 * @example
 * formatDurationText(7 * 86_400_000); // '7d'
 */
export function formatDurationText(ms: number): string {
  if (ms % DAY_MS === 0) return `${ms / DAY_MS}d`;
  if (ms % UNIT_MS.h === 0) return `${ms / UNIT_MS.h}h`;
  return `${ms} ms`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Given a date (`YYYY-MM-DD`, midnight UTC) or an ISO time with its zone (`…T12:00:00Z`), returns
 * the instant in epoch ms, or null when it is neither or lies outside 2000–2099. Pure.
 *
 * @example
 * parseDateText('2026-03-01'); // 1_772_323_200_000
 * parseDateText('03/01/2026'); // null
 */
export function parseDateText(text: string): number | null {
  if (!DATE.test(text) && !TIME.test(text)) return null;
  const at = Date.parse(DATE.test(text) ? `${text}T00:00:00Z` : text);
  // Date.parse rolls 2026-02-30 over to March: a date must read back as written.
  if (DATE.test(text) && !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) !== text) return null;
  return Number.isNaN(at) || !isEpochMs(at) ? null : at;
}

/**
 * Given an instant, returns its date (`2026-03-01`) when it is midnight UTC, else its full ISO
 * time; either reads back through `parseDateText`. Pure.
 *
 * @example
 * formatInstant(Date.UTC(2026, 2, 1)); // '2026-03-01'
 */
export function formatInstant(at: number): string {
  const iso = new Date(at).toISOString();
  return at % DAY_MS === 0 ? iso.slice(0, 10) : iso;
}
