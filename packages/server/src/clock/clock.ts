/**
 * The clock port: where "now" comes from. The core never reads the time itself; the service passes
 * `clock.now()` to it. Three implementations: wall time, a fixed instant, and an event-driven clock
 * for simulations on a virtual clock.
 */

/** A source of the current time in epoch milliseconds. `observe` lets event-driven clocks advance. */
export interface Clock {
  now(): number;
  /** Called with every applied event's `event_timestamp_ms` and every reported activity time. */
  observe?(at: number): void;
}

/**
 * Returns the wall clock (`Date.now()`).
 *
 * @example
 * createRetentionApp({ clock: wallClock() });
 */
export function wallClock(): Clock {
  return { now: () => Date.now() };
}

/**
 * Given an instant (epoch ms), returns a clock stopped at it; `set` moves it (tests, replays).
 *
 * @example
 * const clock = fixedClock(Date.parse('2026-01-12T00:00:00Z'));
 * clock.set(clock.now() + 86_400_000);
 */
export function fixedClock(at: number): Clock & { set(at: number): void } {
  let current = at;
  return {
    now: () => current,
    set: (next: number) => {
      current = next;
    },
  };
}

/**
 * Returns a clock whose time is the latest event time observed (TENURE_CLOCK=event), falling back to
 * `fallback` (wall time by default) before any event; for simulations that run on a virtual clock.
 *
 * @example
 * const clock = eventClock();
 * clock.observe?.(1_700_000_000_000);
 * clock.now(); // 1_700_000_000_000
 */
export function eventClock(fallback: () => number = () => Date.now()): Clock {
  let latest: number | null = null;
  return {
    now: () => latest ?? fallback(),
    observe: (at: number) => {
      if (latest === null || at > latest) latest = at;
    },
  };
}

/** The clock modes accepted by `TENURE_CLOCK`. */
export type ClockSpec = { kind: 'wall' } | { kind: 'event' } | { kind: 'fixed'; at: number };

/**
 * Given a TENURE_CLOCK value (`wall`, `event` or an ISO time), returns its spec, or undefined when
 * the value is none of those. Pure.
 *
 * @example
 * parseClockSpec('2026-01-01T00:00:00Z'); // { kind: 'fixed', at: 1767225600000 }
 */
export function parseClockSpec(value: string): ClockSpec | undefined {
  if (value === 'wall') return { kind: 'wall' };
  if (value === 'event') return { kind: 'event' };
  // An ISO date or date-time; Date.parse alone accepts too many informal formats.
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : { kind: 'fixed', at };
}

/**
 * Given a clock spec, returns the clock it describes.
 *
 * @example
 * clockFromSpec({ kind: 'event' }).now(); // wall time until the first event
 */
export function clockFromSpec(spec: ClockSpec): Clock {
  switch (spec.kind) {
    case 'wall':
      return wallClock();
    case 'event':
      return eventClock();
    case 'fixed':
      return fixedClock(spec.at);
  }
}
