/**
 * Progress of a long data command (replay, export, import) on stderr: a one-line bar redrawn in
 * place on a terminal, a plain line every few seconds otherwise (logs, CI), and a final summary.
 */

/** How to measure and where to draw. */
export interface ProgressOptions {
  /** Leads every line, e.g. "replay". */
  label: string;
  /** What is counted: `bytes` is shown in MB, anything else as a count followed by the unit. */
  unit: string;
  write: (text: string) => void;
  /** Redraw one line in place (a terminal) instead of printing plain lines. */
  tty: boolean;
  /** Monotonic milliseconds; default `performance.now`. */
  now?: () => number;
  /** Least time between two terminal redraws; default 100 ms (at most ~10 per second). */
  redrawMs?: number;
  /** Least time between two plain lines; default 5 s, 0 prints none (only the summary). */
  plainEveryMs?: number;
  /** Terminal width: a longer bar line is cut, since a wrapped line cannot be redrawn in place. */
  columns?: number | undefined;
}

/** A running progress display. `update` is cheap to call often: it draws only when due. */
export interface ProgressReporter {
  /** `total` null (or 0) when unknown, e.g. reading stdin. `detail` is appended, e.g. "1,000 lines". */
  update(done: number, total: number | null, detail?: string): void;
  /** Clears the bar and prints `summary` on its own line. */
  finish(summary: string): void;
  /** Milliseconds since the reporter was created. */
  elapsedMs(): number;
}

const BAR_WIDTH = 24;

/**
 * Given a number, returns it with thousands separators ("1,234,567"), the same in every locale. Pure.
 *
 * @example
 * formatCount(1234567); // "1,234,567"
 */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Given a duration in milliseconds, returns a short human form ("850ms", "12.3s", "4m05s"). Pure.
 *
 * @example
 * formatDuration(245_000); // "4m05s"
 */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)}s`;
  const s = Math.round(ms / 1_000);
  const h = Math.floor(s / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m${rest}s` : `${m}m${rest}s`;
}

/**
 * Given a count, a duration and optionally a unit, returns the rate per second ("12,345/s",
 * "12,345 events/s"), or "-" before any time has passed. Pure.
 *
 * @example
 * formatRate(5_000, 2_000); // "2,500/s"
 * formatRate(5_000, 2_000, 'events'); // "2,500 events/s"
 */
export function formatRate(done: number, ms: number, unit?: string): string {
  return ms <= 0 ? '-' : `${formatCount((done * 1_000) / ms)}${unit === undefined ? '' : ` ${unit}`}/s`;
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * Given where and how to draw, returns a progress reporter; it reads the clock only through
 * `options.now`, so it is tested with a fake clock and a string sink.
 *
 * @example
 * const progress = createProgressReporter({ label: 'replay', unit: 'subscribers', write: (t) => process.stderr.write(t), tty: process.stderr.isTTY === true });
 * progress.update(500, 1_000);
 * progress.finish('replay: 1,000 subscribers rebuilt in 1.2s');
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? (() => performance.now());
  const redrawMs = options.redrawMs ?? 100;
  const plainEveryMs = options.plainEveryMs ?? 5_000;
  const started = now();
  let lastDraw = started;
  let drawn = false;

  const amount = (n: number) => (options.unit === 'bytes' ? megabytes(n) : formatCount(n));
  const rate = (done: number, ms: number) =>
    options.unit === 'bytes' ? (ms <= 0 ? '-' : `${megabytes((done * 1_000) / ms)}/s`) : formatRate(done, ms);

  const describe = (done: number, total: number | null, detail: string | undefined, ms: number): string => {
    const known = total !== null && total > 0;
    const fraction = known ? Math.min(1, done / total) : 0;
    const unit = options.unit === 'bytes' ? '' : ` ${options.unit}`;
    const parts = [known ? `${amount(done)}/${amount(total)}${unit}` : `${amount(done)}${unit}`, rate(done, ms)];
    if (detail !== undefined) parts.push(detail);
    if (known && done > 0 && done < total) parts.push(`ETA ${formatDuration(((total - done) * ms) / done)}`);
    const percent = known ? `${String(Math.floor(fraction * 100)).padStart(3)}% ` : '';
    if (!options.tty) return `${options.label}: ${percent}${parts.join(', ')}`;
    const filled = Math.round(fraction * BAR_WIDTH);
    const bar = known ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ` : '';
    return `${options.label} ${bar}${percent}${parts.join('  ')}`;
  };

  return {
    update(done, total, detail) {
      const t = now();
      if (options.tty) {
        if (t - lastDraw < redrawMs && drawn) return;
        // \r back to the line start, \x1b[K clears what a longer previous line left behind.
        const line = describe(done, total, detail, t - started);
        // A terminal that reports no width (0, e.g. a pseudo-terminal without a size) is not cut to nothing.
        const width = options.columns !== undefined && options.columns > 0 ? options.columns : Number.POSITIVE_INFINITY;
        options.write(`\r${line.length < width ? line : line.slice(0, Math.max(0, width - 1))}\x1b[K`);
        drawn = true;
        lastDraw = t;
        return;
      }
      if (plainEveryMs <= 0 || t - lastDraw < plainEveryMs) return;
      options.write(`${describe(done, total, detail, t - started)}\n`);
      lastDraw = t;
    },
    finish(summary) {
      options.write(`${options.tty && drawn ? '\r\x1b[K' : ''}${summary}\n`);
      drawn = false;
    },
    elapsedMs: () => now() - started,
  };
}
