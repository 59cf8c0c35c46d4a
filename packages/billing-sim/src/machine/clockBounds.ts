/** How far the virtual clock may go: forward only, and not past the year 2100. */

/**
 * The virtual clock's last instant, 2100-01-01T00:00:00Z: the end of the range of event timestamps
 * the retention service accepts, so every event the simulator emits stays acceptable.
 *
 * @example
 * sim.advanceTo(VIRTUAL_CLOCK_END + 1); // 400 parameter_error, param "to"
 */
export const VIRTUAL_CLOCK_END = Date.UTC(2100, 0, 1);

/**
 * Given the clock's current instant and the requested one, returns why the move is refused, or null.
 *
 * @example
 * refuseClock(10, 5); // 'The clock can only move forward'
 */
export function refuseClock(from: number, to: number): string | null {
  if (!Number.isSafeInteger(to) || to < from) return 'The clock can only move forward';
  if (to > from && to > VIRTUAL_CLOCK_END) return 'The virtual clock stops at 2100-01-01T00:00:00Z';
  return null;
}
