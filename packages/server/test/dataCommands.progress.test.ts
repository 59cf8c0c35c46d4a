import { describe, expect, it } from 'vitest';
import { createProgressReporter, formatCount, formatDuration, formatRate } from '../src/cli/storeData/progressReporter.js';
import { formatImportReport } from '../src/cli/storeData/formatImportReport.js';
import type { ImportReport } from '../src/cli/storeData/importRecords.js';

function sink(tty: boolean, options: { redrawMs?: number; plainEveryMs?: number } = {}) {
  let t = 0;
  const out: string[] = [];
  const progress = createProgressReporter({ label: 'replay', unit: 'subscribers', write: (s) => void out.push(s), tty, now: () => t, ...options });
  return { out, progress, advance: (ms: number) => void (t += ms) };
}

describe('progress formatting', () => {
  it('writes counts with thousands separators whatever the locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });

  it('writes durations as ms, seconds, then minutes and hours', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(12_345)).toBe('12.3s');
    expect(formatDuration(245_000)).toBe('4m05s');
    expect(formatDuration(3_725_000)).toBe('1h02m05s');
  });

  it('writes a rate per second, or "-" before any time has passed', () => {
    expect(formatRate(5_000, 2_000)).toBe('2,500/s');
    expect(formatRate(5_000, 2_000, 'events')).toBe('2,500 events/s');
    expect(formatRate(5, 0)).toBe('-');
  });
});

describe('createProgressReporter', () => {
  it('on a terminal, redraws one line in place at most once per 100 ms, with done/total, rate and ETA', () => {
    const s = sink(true);
    s.progress.update(0, 1_000);
    s.advance(50);
    s.progress.update(100, 1_000); // too soon: not drawn
    s.advance(950);
    s.progress.update(250, 1_000);
    expect(s.out).toHaveLength(2);
    expect(s.out[1]).toBe('\rreplay [######------------------]  25% 250/1,000 subscribers  250/s  ETA 3.0s\x1b[K');
    s.progress.finish('replay: done');
    expect(s.out[2]).toBe('\r\x1b[Kreplay: done\n');
  });

  it('without a terminal, prints a plain line every 5 s and the summary, never a carriage return', () => {
    const s = sink(false);
    for (let i = 1; i <= 120; i += 1) {
      s.advance(100);
      s.progress.update(i * 10, 1_200);
    }
    s.progress.finish('replay: 1,200 subscribers rebuilt');
    expect(s.out).toEqual(['replay:  41% 500/1,200 subscribers, 100/s, ETA 7.0s\n', 'replay:  83% 1,000/1,200 subscribers, 100/s, ETA 2.0s\n', 'replay: 1,200 subscribers rebuilt\n']);
    expect(s.out.join('')).not.toContain('\r');
  });

  it('cuts a bar line to the terminal width, since a wrapped line cannot be redrawn in place', () => {
    const out: string[] = [];
    const progress = createProgressReporter({ label: 'replay', unit: 'subscribers', write: (s) => void out.push(s), tty: true, now: () => 1_000, columns: 40 });
    progress.update(500, 1_000);
    expect(out[0]).toBe('\rreplay [############------------]  50% \x1b[K');
  });

  it('does not cut the line to nothing on a terminal that reports no width (0 columns)', () => {
    const out: string[] = [];
    const progress = createProgressReporter({ label: 'replay', unit: 'subscribers', write: (s) => void out.push(s), tty: true, now: () => 1_000, columns: 0 });
    progress.update(500, 1_000);
    expect(out[0]).toMatch(/^\rreplay \[#{12}-{12}\]  50% 500\/1,000 subscribers/);
  });

  it('prints only the summary when plain lines are off', () => {
    const s = sink(false, { plainEveryMs: 0 });
    s.advance(60_000);
    s.progress.update(10, 20);
    s.progress.finish('done');
    expect(s.out).toEqual(['done\n']);
  });

  it('shows bytes in MB and an unknown total without a bar or ETA', () => {
    let t = 0;
    const out: string[] = [];
    const bytes = createProgressReporter({ label: 'import', unit: 'bytes', write: (s) => void out.push(s), tty: true, now: () => t });
    t = 2_000;
    bytes.update(3 * 1_048_576, 6 * 1_048_576, '10 lines');
    expect(out[0]).toBe('\rimport [############------------]  50% 3.0 MB/6.0 MB  1.5 MB/s  10 lines  ETA 2.0s\x1b[K');
    const lines = createProgressReporter({ label: 'import', unit: 'lines', write: (s) => void out.push(s), tty: true, now: () => t });
    t = 3_000;
    lines.update(500, null);
    expect(out[1]).toBe('\rimport 500 lines  500/s\x1b[K');
  });
});

describe('formatImportReport', () => {
  const report: ImportReport = {
    lines: 1_000,
    new: 985,
    duplicate: 2,
    ignored: 1,
    activity: 0,
    routes: 0,
    rejected: 12,
    rejections: Array.from({ length: 12 }, (_, i) => ({ line: i + 3, field: 'event.app_user_id', message: 'Invalid input' })),
    rejections_omitted: 0,
    held_elsewhere: 0,
    held_elsewhere_examples: [],
  };

  it('summarizes every count on one line, then lists rejected lines with number and reason, capped', () => {
    const text = formatImportReport(report, 2_000, 10).split('\n');
    expect(text[0]).toBe('import: 1,000 lines in 2.0s (500 lines/s): 985 new, 2 duplicate, 1 ignored, 0 activity, 12 rejected');
    expect(text[1]).toBe('  line 3 (event.app_user_id): Invalid input');
    // Routes (moved subscriptions) are listed when the file had some.
    expect(formatImportReport({ ...report, routes: 3 }, 2_000, 10).split('\n')[0]).toBe(
      'import: 1,000 lines in 2.0s (500 lines/s): 985 new, 2 duplicate, 1 ignored, 0 activity, 3 routes, 12 rejected',
    );
    expect(text).toHaveLength(12);
    expect(text[11]).toBe('  ... and 2 more rejected lines (--json lists them)');
  });

  it('counts the duplicates held by another customer beside the duplicates, then warns with the first ones kept', () => {
    const examples = Array.from({ length: 10 }, (_, i) => ({ event_id: `e${i}`, customer_id: `c${i}`, occurrence: `RENEWAL:APP_STORE:t${i}`, held_by: 'ann' }));
    const text = formatImportReport({ ...report, rejected: 0, rejections: [], held_elsewhere: 1_200, held_elsewhere_examples: examples }, 2_000, 10).split('\n');
    expect(text[0]).toBe('import: 1,000 lines in 2.0s (500 lines/s): 985 new, 2 duplicate (1,200 held by another customer), 1 ignored, 0 activity, 0 rejected');
    expect(text[1]).toBe('warning: 1,200 events dropped as duplicates: another customer holds their transaction (type:store:transaction_id); the first 10:');
    expect(text[2]).toBe('  e0 (customer c0): RENEWAL:APP_STORE:t0 held by ann');
    expect(text).toHaveLength(12);
  });

  it('lists nothing when nothing was rejected', () => {
    expect(formatImportReport({ ...report, rejected: 0, rejections: [] }, 1_000, 10).split('\n')).toHaveLength(1);
  });
});
